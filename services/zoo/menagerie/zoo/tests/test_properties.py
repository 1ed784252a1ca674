"""Seeded random Fantasy Zoo matches in both modes, checking the engine contract throughout."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from menagerie.rules.contract import MatchSetup
from menagerie.rules.rng import Rng
from menagerie.zoo.engine import ZooEngine, ZooState
from menagerie.zoo.engine.data import VALUES
from menagerie.zoo.engine.model import Build, ChooseReward, ChooseSecretGoal, Finish, Keep, Pick, Place
from menagerie.zoo.v1 import zoo_pb2
from tests.support.engine_properties import EngineProperties, property_matches

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


def permute_hidden(state: ZooState, viewer: int | None, rng: random.Random) -> ZooState:
    """The same table with every card and goal hidden from `viewer` moved around, and the RNG changed."""
    others = [p for s, p in enumerate(state.players) if s != viewer]
    top = state.draw_pile[-1:]  # lies enclosure side up: it stays
    pool = state.draw_pile[:-1]
    for player in others:
        pool += player.hand + player.picks + ([player.kept] if player.kept is not None else [])
    rng.shuffle(pool)
    for player in others:
        player.hand = [pool.pop() for _ in player.hand]
        player.picks = [pool.pop() for _ in player.picks]
        if player.kept is not None:
            player.kept = pool.pop()
    state.draw_pile = pool + top
    if state.mode == "advanced" and state.phase not in ("secret_goals", "finished"):
        dealt = {g for p in state.players for g in p.secret_goals}
        boxed = [g.id for g in ENGINE.data.secret_goals if g.id not in dealt]
        goals = [g for p in others for g in p.secret_goals] + boxed
        rng.shuffle(goals)
        for player in others:
            player.secret_goals = [goals.pop() for _ in player.secret_goals]
    state.rng = Rng(rng.getrandbits(64), rng.randrange(1000))
    return state


PROPERTIES = EngineProperties(
    engine=ENGINE,
    candidates=candidates,
    permute_hidden=permute_hidden,
    view_message=zoo_pb2.View,
    public_fields={
        "secret_goals_dealt": {"seat"},
        "open_goals_revealed": {"goals"},
        "round_started": {"round"},
        "cards_dealt": {"seat", "count"},
        "card_picked": {"seat"},
        "hands_passed": {"pick"},
        "construction_started": {"round"},
        "enclosure_built": {"seat", "card", "position"},
        "animal_placed": {"seat", "card", "position", "level", "values"},
        "card_kept": {"seat"},
        "construction_finished": {"seat", "discarded"},
        "goal_met": {"goal", "seats"},
        "reward_taken": {"seat", "goal", "gain", "values"},
        "secret_goals_revealed": {"seat", "goals", "met"},
        "secret_goal_scored": {"seat", "goal", "gain", "values"},
        "match_finished": {"outcome"},
    },
    private_fields={
        "secret_goals_dealt": {"goals"},
        "cards_dealt": {"cards"},
        "card_picked": {"card"},
        "hands_passed": {"hand"},
        "card_kept": {"card"},
    },
)


@pytest.mark.parametrize("mode", ["beginner", "advanced"])
def test_property_random_matches(mode: str) -> None:
    rounds: dict[int, set[int]] = {}
    for n in range(property_matches()):
        seats = 2 + n % 5
        log = PROPERTIES.play(MatchSetup(mode, seats), seed=7_000 * n + seats)
        PROPERTIES.check_replay(log)
        outcome = ENGINE.outcome(log.final)
        assert outcome is not None and len(outcome.seats) == seats
        rounds.setdefault(seats, set()).add(log.final.round)
    assert rounds[6] == {4}, "6 players play 4 rounds"
    assert all(played == {5} for seats, played in rounds.items() if seats < 6)
