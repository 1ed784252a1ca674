"""Seeded random matches of the dice game at every difficulty, checking the engine contract."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from menagerie.pursuit.engine import PursuitEngine, PursuitState
from menagerie.pursuit.engine.data import ACTIONS, FACES
from menagerie.pursuit.engine.model import (
    Activate,
    Contribute,
    Discard,
    EndAssign,
    Pass,
    PlayDieCard,
    PlayMuffliato,
    PlayProtego,
    PlayReroll,
    Ready,
    Reroll,
    SetAction,
    StopRolling,
)
from menagerie.pursuit.v1 import pursuit_pb2
from menagerie.rules.contract import MatchSetup
from tests.support.rules_properties import EngineProperties, property_matches

ENGINE = PursuitEngine()


def candidates(state: PursuitState, seat: int, rng: random.Random) -> Iterator[object]:
    """A few actions of every kind with random arguments, most of them illegal."""

    def card() -> int:
        return rng.randrange(0, 32)

    yield Reroll(tuple(rng.sample(FACES, rng.randrange(0, 4))), rng.random() < 0.5)
    yield StopRolling()
    yield PlayReroll(card())
    yield Contribute(card())
    yield Pass()
    yield Ready(rng.choice(ACTIONS))
    yield SetAction(rng.choice(ACTIONS), rng.choice(FACES))
    yield Activate(rng.randrange(0, 5), rng.choice(ACTIONS))
    yield PlayDieCard(card())
    yield EndAssign()
    yield Discard(card())
    yield PlayMuffliato(card())
    yield PlayProtego(card(), rng.choice(FACES))
    hand = state.players[seat].hand
    if hand:  # cards the seat holds, perhaps of another kind, or the same as a card listed already
        yield PlayReroll(rng.choice(hand))
        yield Discard(rng.choice(hand))
        yield Contribute(rng.choice(hand))
        yield PlayDieCard(rng.choice(hand))
        yield PlayMuffliato(rng.choice(hand))
        yield PlayProtego(rng.choice(hand), rng.choice(FACES))


PROPERTIES = EngineProperties(engine=ENGINE, candidates=candidates, view_message=pursuit_pb2.View)


@pytest.mark.property
@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_property_random_matches(difficulty: str) -> None:
    for n in range(property_matches()):
        seats = 1 + n % 4
        log = PROPERTIES.play(MatchSetup("coop", seats, {"difficulty": difficulty}), seed=3_000 * n + seats)
        PROPERTIES.check_replay(log)
        outcome = ENGINE.outcome(log.final)
        assert outcome is not None and len(outcome.seats) == seats
        assert len({s.result for s in outcome.seats}) == 1, "the whole team shares one result"
