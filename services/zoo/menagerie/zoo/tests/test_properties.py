"""Seeded random Fantasy Zoo matches in both modes, checking the engine contract throughout."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from menagerie.rules.contract import MatchSetup
from menagerie.zoo.engine import ZooEngine, ZooState
from menagerie.zoo.engine.data import VALUES
from menagerie.zoo.engine.model import Build, ChooseReward, ChooseSecretGoal, Finish, Keep, Pick, Place
from menagerie.zoo.v1 import zoo_pb2
from tests.support.rules_properties import EngineProperties, property_matches

ENGINE = ZooEngine()


def candidates(state: ZooState, seat: int, rng: random.Random) -> Iterator[object]:
    """A few actions of every kind with random arguments, most of them illegal."""

    def card() -> int:
        return rng.randrange(0, 110)

    yield Pick(card())
    yield Build(card(), rng.choice(("left", "right")))
    yield Place(card(), rng.randrange(-4, 5), rng.choice(("top", "bottom")), rng.choice((None, *VALUES)))
    yield Keep(card())
    yield Finish()
    yield ChooseReward(rng.randrange(0, 20), rng.randrange(0, 3))
    yield ChooseSecretGoal(rng.randrange(0, 16))
    player = state.players[seat]
    if player.picks:
        own = rng.choice(player.picks)
        yield Place(own, rng.randrange(-3, 4), rng.choice(("top", "bottom")), rng.choice(VALUES), rng.choice(VALUES))
        yield Build(own, rng.choice(("left", "right")))
    if player.hand:
        other_seat = (seat + 1) % len(state.players)
        if state.players[other_seat].hand:
            yield Pick(rng.choice(state.players[other_seat].hand))


PROPERTIES = EngineProperties(engine=ENGINE, candidates=candidates, view_message=zoo_pb2.View)


@pytest.mark.property
@pytest.mark.parametrize("mode", ["beginner", "advanced"])
def test_property_random_matches(mode: str) -> None:
    """Seats 2 to 6 in turn; every other match counts negative values as 0 (the match option)."""
    rounds: dict[int, set[int]] = {}
    for n in range(property_matches()):
        seats = 2 + n % 5
        options = {"negative_values": "count_as_zero"} if n % 2 else {}
        log = PROPERTIES.play(MatchSetup(mode, seats, options), seed=7_000 * n + seats)
        PROPERTIES.check_replay(log)
        outcome = ENGINE.outcome(log.final)
        assert outcome is not None and len(outcome.seats) == seats
        rounds.setdefault(seats, set()).add(log.final.round)
    assert rounds[6] == {4}, "6 players play 4 rounds"
    assert all(played == {5} for seats, played in rounds.items() if seats < 6)
