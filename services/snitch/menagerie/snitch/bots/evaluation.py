"""The `mcts` level's evaluation: a seat's chance to win read from greedy's values of the position
(the race, the pitch, Snitch cards, Tempo Points and Goal tokens), through a logistic curve."""

from __future__ import annotations

import math

from menagerie.snitch.bots.table import Table
from menagerie.snitch.bots.values import GOAL_TOKEN, SNITCH_CARD, TEMPO
from menagerie.snitch.engine import SnitchEngine, SnitchState, pitch
from menagerie.snitch.engine.model import SnitchView
from menagerie.snitch.engine.views import evaluation_view

EVALUATION_SCALE = SNITCH_CARD
_SNITCH_ENGINE: list[SnitchEngine] = []


def evaluate(state: SnitchState, seat: int) -> float | None:
    """The seat's chance to win a position by greedy's values (None until both Teams are on the pitch)."""
    value = _position_value(state, seat)
    return None if value is None else _win_chance(value)


def evaluate_seats(state: SnitchState) -> list[float] | None:
    """Both seats' `evaluate` from one reading: every term of a position's value is one side's minus the
    other's, so seat 1's value is seat 0's negated, exactly (a test compares both ways over random matches)."""
    value = _position_value(state, 0)
    return None if value is None else [_win_chance(value), _win_chance(-value)]


def _win_chance(value: float) -> float:
    return 1.0 / (1.0 + math.exp(-value / EVALUATION_SCALE))


def _position_value(state: SnitchState, seat: int) -> float | None:
    """What a position is worth to the seat, in greedy's units (None until both Teams are on the pitch)."""
    if not all(coach.lineup for coach in state.players):
        return None  # the Teams are still being built (the view would say so, at the cost of building it)
    if not _SNITCH_ENGINE:
        _SNITCH_ENGINE.append(SnitchEngine())
    view = evaluation_view(_SNITCH_ENGINE[0], state, seat)
    table = Table(view, seat, state)
    if any(len(zones) < len(pitch.PITCH_LINEUP) for zones in table.layout.players):
        return None  # the Teams are not all on the pitch yet
    value = table.race_units(table.current_race()) + table.pitch_value(table.layout)
    mine, theirs = view.coaches[seat], view.coaches[1 - seat]
    value += SNITCH_CARD * (mine.has_snitch_card - theirs.has_snitch_card)
    value += TEMPO * (mine.tempo - theirs.tempo) + GOAL_TOKEN * (mine.goals - theirs.goals)
    return value


def searchable(view: SnitchView) -> bool:
    """False while a Team is being built: a rollout there plays the rest of the draft at random and the
    evaluation cannot judge a Team before the match, so the mcts level plays greedy's planned Team."""
    return view.draft is None and all(coach.team_confirmed for coach in view.coaches)
