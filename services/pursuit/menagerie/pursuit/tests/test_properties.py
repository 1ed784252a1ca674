"""Seeded random matches of the dice game at every difficulty, checking the engine contract."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from menagerie.pursuit.engine import PursuitEngine, PursuitState
from menagerie.pursuit.engine.data import ACTIONS
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
from menagerie.pursuit.engine.rules import canonical_action
from menagerie.pursuit.v1 import pursuit_pb2
from menagerie.rules.contract import MatchSetup
from menagerie.rules.rng import Rng
from tests.support.engine_properties import EngineProperties, property_matches

ENGINE = PursuitEngine()
FACES = ("protect", "capture", "distract", "insight", "wild", "reaction")


def candidates(state: PursuitState, seat: int, rng: random.Random) -> Iterator[object]:
    """A few actions of every kind with random arguments, most of them illegal."""

    def card() -> int:
        return rng.randrange(0, 32)

    yield Reroll(tuple(rng.sample(FACES, rng.randrange(0, 4))), rng.random() < 0.5)  # type: ignore[arg-type]
    yield StopRolling()
    yield PlayReroll(card())
    yield Contribute(card())
    yield Pass()
    yield Ready(rng.choice(ACTIONS))
    yield SetAction(rng.choice(ACTIONS), rng.choice(FACES))  # type: ignore[arg-type]
    yield Activate(rng.randrange(0, 5), rng.choice(ACTIONS))
    yield PlayDieCard(card())
    yield EndAssign()
    yield Discard(card())
    yield PlayMuffliato(card())
    yield PlayProtego(card(), rng.choice(FACES))  # type: ignore[arg-type]
    hand = state.players[seat].hand
    if hand:
        yield PlayReroll(rng.choice(hand))
        yield Discard(rng.choice(hand))


def permute_hidden(state: PursuitState, viewer: int | None, rng: random.Random) -> PursuitState:
    """The same table with the deck and the cards hidden from `viewer` moved around, and the RNG changed."""
    others = [p for s, p in enumerate(state.players) if s != viewer]
    pool = state.deck + [c for p in others for c in p.hand]
    rng.shuffle(pool)
    for player in others:
        player.hand = [pool.pop() for _ in player.hand]
    state.deck = pool
    state.rng = Rng(rng.getrandbits(64), rng.randrange(1000))
    return state


PROPERTIES = EngineProperties(
    engine=ENGINE,
    candidates=candidates,
    permute_hidden=permute_hidden,
    view_message=pursuit_pb2.View,
    canonical=canonical_action,
    public_fields={
        "match_started": {"first_seat", "beasts"},
        "turn_started": {"seat", "turn"},
        "dice_rolled": {"seat", "roll", "dice", "kept"},
        "rolling_stopped": {"seat", "dice"},
        "passed": {"seat"},
        "card_played": {"seat", "card"},
        "assigning": {"seat"},
        "action_readied": {"seat", "action", "dice"},
        "action_set": {"seat", "action", "face"},
        "action_activated": {"seat", "target", "action", "face"},
        "assign_ended": {"seat"},
        "shield_gained": {"seat", "shields"},
        "shield_lost": {"seat", "shields"},
        "card_drawn": {"seat"},
        "card_discarded": {"seat", "card"},
        "deck_reshuffled": {"size"},
        "deck_empty": {"seat"},
        "beast_about_to_roll": {"beast"},
        "beast_rolled": {"beast", "dice", "distracted"},
        "beast_reacted": {"beast", "when"},
        "beast_moved": {"beast", "position", "steps"},
        "beast_captured": {"beast"},
        "beast_escaped": {"beast"},
        "beast_appeared": {"beast", "position"},
        "player_hurt": {"seat", "health", "shields"},
        "match_finished": {"outcome"},
    },
    private_fields={"card_drawn": {"card"}},
)


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_property_random_matches(difficulty: str) -> None:
    for n in range(property_matches()):
        seats = 1 + n % 4
        log = PROPERTIES.play(MatchSetup("coop", seats, {"difficulty": difficulty}), seed=3_000 * n + seats)
        PROPERTIES.check_replay(log)
        outcome = ENGINE.outcome(log.final)
        assert outcome is not None and len(outcome.seats) == seats
        assert len({s.result for s in outcome.seats}) == 1, "the whole team shares one result"
