"""The `mcts` level's evaluation: a seat's chance to win read from greedy's values of the position
(the race, the pitch, Snitch cards, Tempo Points and Goal tokens), through a logistic curve."""

from __future__ import annotations

import math

from menagerie.snitch.bots.greedy import SnitchGreedy
from menagerie.snitch.bots.table import Table, race_in
from menagerie.snitch.bots.values import GOAL_TOKEN, SEEKER, SNITCH_CARD, TEMPO
from menagerie.snitch.engine import SnitchEngine, SnitchState, pitch, race
from menagerie.snitch.engine.model import SnitchView
from menagerie.snitch.engine.views import evaluation_view

EVALUATION_SCALE = SNITCH_CARD
_SNITCH_ENGINE: list[SnitchEngine] = []
_GREEDY = SnitchGreedy()
# A search meets the same race again and again (the Pitch changes far more often): each worth of a
# kept card is worked out once (an exact walk of the Impulse's rolls, about 0.1 ms) and kept here.
_KEPT_WORTH: dict[tuple[object, ...], float] = {}
_KEPT_WORTH_LIMIT = 10_000  # a few decisions' races (up to ~700 in a 1,000-iteration search); cleared when full


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
    current = table.current_race()
    value = table.race_units(current) + table.pitch_value(table.layout)
    # A Snitch card kept in play is worth what greedy counts it when it keeps one: a share of the
    # Fast Impulse it may give (a flat card's worth read the keeping worse than greedy does).
    value += _kept_card(state, view, seat, table, current) - _kept_card(state, view, 1 - seat)
    mine, theirs = view.coaches[seat], view.coaches[1 - seat]
    value += TEMPO * (mine.tempo - theirs.tempo) + GOAL_TOKEN * (mine.goals - theirs.goals)
    return value


def _kept_card(
    state: SnitchState, view: SnitchView, seat: int, table: Table | None = None, current: race.Race | None = None
) -> float:
    """What the Snitch card `seat` keeps in play is worth to it (0 without one): greedy's hold_value.

    `table` and `current` (the race as `seat` reads it), where the caller has them, are not read
    again. Both Seekers' cards are public, so the rival's worth is read from the evaluating seat's
    view with the seats swapped (a test checks it is what the rival's own view gives)."""
    card = state.players[seat].snitch_in_play
    if card is None:
        return 0.0
    if current is None:
        current = race_in(state, seat)
    seeker = view.coaches[seat].cards[SEEKER]
    # What the worth reads: the race, the card, who attacks (a catch's meaning), the Seeker's card.
    key = (seat, card, current, view.attacking, seeker.id, tuple(seeker.actions))
    worth = _KEPT_WORTH.get(key)
    if worth is None:
        table = table or Table(view, seat, state)
        worth = _GREEDY.hold_value(table, current, card, table.race_units(current))
        if len(_KEPT_WORTH) >= _KEPT_WORTH_LIMIT:
            _KEPT_WORTH.clear()
        _KEPT_WORTH[key] = worth
    return worth


def searchable(view: SnitchView) -> bool:
    """False while a Team is being built: a rollout there plays the rest of the draft at random and the
    evaluation cannot judge a Team before the match, so the mcts level plays greedy's planned Team."""
    return view.draft is None and all(coach.team_confirmed for coach in view.coaches)
