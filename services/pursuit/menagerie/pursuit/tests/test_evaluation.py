"""The mcts level's evaluation of Pursuit positions (menagerie.pursuit.evaluation)."""

from __future__ import annotations

import random

import msgspec

from menagerie.pursuit.engine import PursuitEngine, PursuitState
from menagerie.pursuit.evaluation import FEATURES, WEIGHTS, evaluate, features, settled
from menagerie.pursuit.tests.seeded import clone
from menagerie.rules.contract import MatchSetup
from menagerie.search.mcts import evaluation_of

ENGINE = PursuitEngine()


def match_positions(seed: int, seats: int = 3) -> list[PursuitState]:
    """Every position of a seeded random match, in order (turn starts among them)."""
    state, _ = ENGINE.setup(MatchSetup("coop", seats, {"difficulty": "normal"}), seed)
    rng = random.Random(seed)
    seen = [clone(state)]
    while ENGINE.outcome(state) is None:
        to_act = ENGINE.to_act(state)
        seat = (to_act.must or to_act.may)[0]
        ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
        seen.append(clone(state))
    return seen


def test_the_mcts_level_finds_the_evaluation_beside_the_bot_levels() -> None:
    assert evaluation_of("pursuit") is evaluate


def test_only_a_turns_start_is_judged_and_every_seat_gets_the_teams_value() -> None:
    positions = match_positions(seed=3)
    judged = [state for state in positions if features(state) is not None]
    assert judged and len(judged) < len(positions)  # turn starts, not the decisions within a turn
    for state in positions:
        value = evaluate(state, 0)
        if not settled(state):
            assert value is None
            continue
        assert value is not None and 0.0 < value < 1.0
        assert [evaluate(state, seat) for seat in range(len(state.players))] == [value] * len(state.players)
        assert state.rolls == 1 and not state.activations


def test_the_weights_name_every_feature() -> None:
    state = next(s for s in match_positions(seed=5) if settled(s))
    numbers = features(state)
    assert numbers is not None and len(numbers) == len(FEATURES) == len(WEIGHTS)


def test_a_team_nearer_the_win_is_judged_likelier_to_win() -> None:
    """The fitted weights read the table the right way round: health, beasts caught, boards built."""
    start = next(s for s in match_positions(seed=7) if settled(s))
    value = evaluate(start, 0)
    assert value is not None

    hurt = msgspec.structs.replace(start, players=[msgspec.structs.replace(p, health=3) for p in start.players])
    built = msgspec.structs.replace(
        start,
        players=[
            msgspec.structs.replace(p, ready=["protect", "capture_3"], set=["protect", "capture_3"])
            for p in start.players
        ],
    )
    caught = msgspec.structs.replace(
        start, captured=[start.beast, start.beasts[0]], beast=start.beasts[1], beasts=start.beasts[2:]
    )
    assert (evaluate(hurt, 0) or 0.0) < value < (evaluate(built, 0) or 0.0)
    assert value < (evaluate(caught, 0) or 0.0)
