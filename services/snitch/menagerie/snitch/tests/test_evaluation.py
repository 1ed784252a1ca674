"""The mcts level's evaluation reads a sampled state the way greedy reads the view.

`evaluate` builds its Table from `evaluation_view` and the state itself (fast: no Pitch,
no words); greedy builds it from the full view. Over seeded random positions both read the
same layout, Stunned tokens, race and scores, so the evaluation is greedy's reading.
"""

from __future__ import annotations

import copy
import math
import random

import pytest

from menagerie.rules.contract import MatchSetup
from menagerie.snitch.bots import SnitchGreedy, Table, evaluate, evaluate_seats
from menagerie.snitch.bots.evaluation import EVALUATION_SCALE
from menagerie.snitch.engine import SnitchState
from menagerie.snitch.engine.rules import SnitchEngine
from menagerie.snitch.engine.views import evaluation_view

ENGINE = SnitchEngine()


def test_the_evaluations_reading_of_a_state_is_greedys_reading_of_the_view() -> None:
    """Layout, Stunned tokens, the race's and the pitch's worth agree at every judged position."""
    rng = random.Random(5)
    judged = 0
    for seed in range(4):
        state, _ = ENGINE.setup(MatchSetup("basic", 2), seed)
        while ENGINE.outcome(state) is None and judged < 400:
            seat = ENGINE.to_act(state).seats()[0]
            full = Table(ENGINE.view(state, seat), seat)
            fast = Table(evaluation_view(ENGINE, state, seat), seat, state)
            assert fast.layout == full.layout
            assert fast.stunned == full.stunned
            assert fast.race_units(fast.current_race()) == full.race_units(full.current_race())
            assert fast.pitch_value(fast.layout) == full.pitch_value(full.layout)
            judged += 1
            ENGINE.perform(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    assert judged >= 400


def test_evaluate_waits_for_the_teams_and_then_gives_a_chance() -> None:
    """None while the Teams are built (mode advanced); a chance in (0, 1) once they are on the pitch."""
    state, _ = ENGINE.setup(MatchSetup("advanced", 2), 1)
    assert evaluate(state, 0) is None
    state, _ = ENGINE.setup(MatchSetup("basic", 2), 1)
    value = evaluate(state, 0)
    assert value is not None and 0.0 < value < 1.0


def test_both_seats_evaluations_from_one_reading_are_each_seats_own() -> None:
    """evaluate_seats (seat 0's value, negated for seat 1) gives exactly what evaluate gives each seat."""
    judged = 0
    for setup in (MatchSetup("basic", 2), MatchSetup("advanced", 2, {"funding": "15", "spectators": "on"})):
        for seed in range(3):
            rng = random.Random(seed)
            state, _ = ENGINE.setup(setup, seed)
            while ENGINE.outcome(state) is None:
                both = [evaluate(state, 0), evaluate(state, 1)]
                assert evaluate_seats(state) == (None if both[0] is None else both)
                judged += both[0] is not None
                seat = rng.choice(ENGINE.to_act(state).seats())
                ENGINE.perform(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    assert judged >= 1000, judged


def test_a_snitch_card_kept_in_play_is_worth_greedys_hold_value_to_its_holder() -> None:
    """Taking a kept card off a position lowers its holder's value by what greedy holds it worth, read
    from the holder's full view; the rival's value rises by the same (both seats read it alike)."""
    greedy = SnitchGreedy()
    rng = random.Random(11)
    judged = 0
    for seed in range(6):
        state, _ = ENGINE.setup(MatchSetup("basic", 2), seed)
        while ENGINE.outcome(state) is None:
            held = [(seat, card) for seat in (0, 1) if (card := state.players[seat].snitch_in_play) is not None]
            if held and evaluate(state, 0) is not None:
                seat, card = held[0]
                table = Table(ENGINE.view(state, seat), seat)
                current = table.current_race()
                worth = greedy.hold_value(table, current, card, table.race_units(current))
                without = copy.deepcopy(state)
                without.players[seat].snitch_in_play = None
                for judge, sign in ((seat, 1.0), (1 - seat, -1.0)):
                    drop = _value(state, judge) - _value(without, judge)
                    assert drop == pytest.approx(sign * worth, abs=1e-6)
                judged += worth > 0
            actor = rng.choice(ENGINE.to_act(state).seats())
            ENGINE.perform(state, actor, rng.choice(ENGINE.legal_actions(state, actor)))
    assert judged >= 20, judged


def _value(state: SnitchState, seat: int) -> float:
    """The position's value in greedy's units, read back from evaluate's chance."""
    chance = evaluate(state, seat)
    assert chance is not None
    return EVALUATION_SCALE * math.log(chance / (1.0 - chance))
