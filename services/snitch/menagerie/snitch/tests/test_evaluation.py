"""The mcts level's evaluation of Catch the Golden Snitch: greedy's parts of a position, fitted weights."""

from __future__ import annotations

import random

import msgspec
import pytest

from menagerie.rules.contract import MatchSetup
from menagerie.rules.mcts import evaluation_of
from menagerie.snitch.bots import FEATURES, WEIGHTS, baseline, evaluate, features
from menagerie.snitch.engine.model import SnitchState
from menagerie.snitch.engine.rules import SnitchEngine

ENGINE = SnitchEngine()


def positions(setup: MatchSetup, seed: int) -> list[SnitchState]:
    """Every position of a seeded random match, copied."""
    state, _ = ENGINE.setup(setup, seed)
    rng, seen = random.Random(seed), []
    while ENGINE.outcome(state) is None:
        seen.append(msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=SnitchState))
        seat = ENGINE.to_act(state).must[0]
        ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    return seen


def test_the_mcts_level_finds_the_evaluation_and_the_weights_name_every_feature() -> None:
    assert evaluation_of("snitch") is evaluate
    numbers = features(positions(MatchSetup("basic", 2, {}), seed=1)[0], 0)
    assert numbers is not None and len(numbers) == len(FEATURES) == len(WEIGHTS)


@pytest.mark.parametrize("seed", range(3))
def test_two_seats_chances_add_up_to_one_along_a_match(seed: int) -> None:
    """Both seats were read with complementary results, so the fit is antisymmetric."""
    judged = 0
    for state in positions(MatchSetup("basic", 2, {}), seed):
        chances = [evaluate(state, seat) for seat in (0, 1)]
        if features(state, 0) is None:
            assert chances == [baseline(state, 0), baseline(state, 1)]
            continue
        assert all(c is not None and 0.0 < c < 1.0 for c in chances)
        assert abs(sum(c for c in chances if c is not None) - 1.0) < 0.01
        judged += 1
    assert judged > 20


def test_no_estimate_while_the_teams_are_built() -> None:
    setup = MatchSetup("advanced", 2, {"funding": "5", "spectators": "on"})
    state = positions(setup, seed=2)[0]
    assert features(state, 0) is None and evaluate(state, 0) is None


def test_goal_tokens_and_tempo_count_for_their_coach() -> None:
    start = next(s for s in positions(MatchSetup("basic", 2, {}), seed=4) if features(s, 0) is not None)
    even = evaluate(start, 0)
    ahead = msgspec.structs.replace(
        start, players=[msgspec.structs.replace(start.players[0], goals=2, tempo=3), start.players[1]]
    )
    behind = msgspec.structs.replace(
        start, players=[start.players[0], msgspec.structs.replace(start.players[1], goals=2, tempo=3)]
    )
    better, worse = evaluate(ahead, 0), evaluate(behind, 0)
    assert even is not None and better is not None and worse is not None
    assert worse < even < better
