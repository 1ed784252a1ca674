"""The mcts level's evaluation of Fantastic Beasts: fitted in mode II, greedy's score in mode I, none in mode III."""

from __future__ import annotations

import random

import pytest

from menagerie.beasts.bots import evaluate as offered
from menagerie.beasts.engine import BeastsState
from menagerie.beasts.evaluation import FEATURES, WEIGHTS, baseline, evaluate, features
from menagerie.beasts.tests.scenarios import ENGINE, give, new_match, place, rolled, stopped
from menagerie.search.mcts import evaluation_of


def test_the_mcts_level_finds_the_evaluation_beside_the_bot_levels() -> None:
    assert evaluation_of("beasts") is evaluate is offered


def test_the_weights_name_every_feature_and_only_mode_ii_is_fitted() -> None:
    numbers = features(new_match(seats=2), 0)
    assert numbers is not None and len(numbers) == len(FEATURES) == len(WEIGHTS)
    capture = new_match(mode="capture", seats=2)
    assert features(capture, 0) is None
    assert evaluate(capture, 0) == baseline(capture, 0)
    assert evaluate(new_match(mode="advanced", seats=2), 0) is None


@pytest.mark.parametrize("seed", range(4))
def test_two_seats_chances_add_up_to_one_along_a_match(seed: int) -> None:
    """The fit read every position from both seats, with complementary results, so the two chances agree."""
    state, rng = new_match(seats=2, seed=seed), random.Random(seed)
    judged = 0
    while state.outcome is None:
        chances = [evaluate(state, seat) for seat in (0, 1)]
        assert all(c is not None and 0.0 <= c <= 1.0 for c in chances)
        assert abs(sum(c for c in chances if c is not None) - 1.0) < 0.01
        judged += 1
        seat = (ENGINE.to_act(state).must or ENGINE.to_act(state).may)[0]
        ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    assert judged > 10


def captured_by(state: BeastsState, seat: int, creature: str) -> None:
    """The seat holds `creature`, taken off the board or out of the supply."""
    state.tokens = [None if token == creature else token for token in state.tokens]
    state.supply = [token for token in state.supply if token != creature]
    state.players[seat].captured.append(creature)


def test_a_seat_nearer_its_creature_is_judged_likelier_to_win() -> None:
    """The weights read the table the right way round: a creature more, tokens missing fewer, a win in reach."""
    start = new_match(seats=2)
    rolled(start, 1, position=0, roll=1)  # the rival's turn: seat 0's own prospects are next turn's
    even = evaluate(start, 0)
    assert even is not None

    captured = new_match(seats=2)
    rolled(captured, 1, position=0, roll=1)
    captured_by(captured, 0, "niffler")
    richer = new_match(seats=2)
    rolled(richer, 1, position=0, roll=1)
    give(richer, 0, red=1, yellow=2)  # the Niffler's cost
    poorer = new_match(seats=2)
    rolled(poorer, 1, position=0, roll=1)
    give(poorer, 1, red=1, yellow=2)
    for better in (captured, richer):
        value = evaluate(better, 0)
        assert value is not None and value > even
    worse = evaluate(poorer, 0)
    assert worse is not None and worse < even


def test_a_capture_the_seat_to_act_can_pay_for_counts_as_made() -> None:
    """Standing on a face-up creature it can pay for, a seat is valued as if it had taken it (greedy always does)."""
    state = new_match(seats=2)
    place(state, 5, "niffler", face_up=True)
    give(state, 0, red=1, yellow=2)
    stopped(state, 0)
    state.players[0].position = 5
    state.roll = 3
    taken = new_match(seats=2)
    captured_by(taken, 0, "niffler")
    numbers, after = features(state, 0), features(taken, 0)
    assert numbers is not None and after is not None
    captured = FEATURES.index("mine: captured")
    assert numbers[captured] == after[captured] == 1.0
