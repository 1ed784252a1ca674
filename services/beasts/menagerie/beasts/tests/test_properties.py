"""Seeded random matches of every Beasts mode, checking the engine contract throughout."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from menagerie.beasts.engine import BeastsEngine, BeastsState
from menagerie.beasts.engine.data import COLOURS
from menagerie.beasts.engine.model import (
    Accio,
    Capture,
    EndTurn,
    Expelliarmus,
    FelixFelicis,
    Move,
    Portkey,
    Revelio,
    Roll,
    WingardiumLeviosa,
)
from menagerie.beasts.v1 import beasts_pb2
from menagerie.rules.contract import MatchSetup
from menagerie.rules.rng import Rng
from tests.support.engine_properties import EngineProperties, property_matches

ENGINE = BeastsEngine()


def candidates(state: BeastsState, seat: int, rng: random.Random) -> Iterator[object]:
    """A few actions of every kind with random arguments, most of them illegal."""

    def space() -> int:
        return rng.randrange(-1, len(state.tokens) + 2)

    yield Roll()
    yield Capture()
    yield EndTurn()
    yield FelixFelicis()
    yield WingardiumLeviosa()
    yield Move(space())
    yield Move(space())
    yield Revelio(space())
    yield Accio(space())
    yield Portkey(space())
    yield Expelliarmus(rng.randrange(0, 7), rng.choice(COLOURS))


def permute_hidden(state: BeastsState, viewer: int | None, rng: random.Random) -> BeastsState:
    """The same position with face-down tokens, the supply, unseen spells and the RNG changed."""
    hidden = [s for s, t in enumerate(state.tokens) if t is not None and not state.face_up[s]]
    pool = [state.tokens[s] for s in hidden] + state.supply
    rng.shuffle(pool)
    for s in hidden:
        state.tokens[s] = pool.pop()
    state.supply = [t for t in pool if t is not None]
    others = [i for i in range(len(state.players)) if i != viewer]
    spells = state.spell_deck + [c for i in others for c in state.players[i].spells]
    rng.shuffle(spells)
    for i in others:
        count = len(state.players[i].spells)
        state.players[i].spells = [spells.pop() for _ in range(count)]
    state.spell_deck = spells
    state.rng = Rng(rng.getrandbits(64), rng.randrange(1000))
    return state


PROPERTIES = EngineProperties(
    engine=ENGINE,
    candidates=candidates,
    permute_hidden=permute_hidden,
    view_message=beasts_pb2.View,
    public_fields={
        "match_started": {"first_seat", "supply_size"},
        "turn_started": {"seat", "turn"},
        "spell_drawn": {"seat", "reshuffled"},
        "die_rolled": {"seat", "value"},
        "moved": {"seat", "origin", "destination"},
        "token_revealed": {"space", "state", "creature", "colour"},
        "creature_captured": {"seat", "creature", "space", "paid"},
        "resource_collected": {"seat", "colour", "space", "set_aside"},
        "token_placed": {"space"},
        "space_left_empty": {"space"},
        "supply_shuffled": {"returned", "size"},
        "spell_cast": {"seat", "spell", "space", "target_seat", "colour"},
        "turn_ended": {"seat"},
        "match_finished": {"outcome"},
    },
    private_fields={"spell_drawn": {"spell"}},
)

MODES = {
    "capture": {},
    "training": {"spell_cards": "false"},
    "training+spells": {"spell_cards": "true"},
}


@pytest.mark.parametrize("mode", list(MODES))
def test_property_random_matches(mode: str) -> None:
    game_mode = mode.split("+")[0]
    finished_by_cap = 0
    for n in range(property_matches()):
        seats = 2 + n % 5
        log = PROPERTIES.play(MatchSetup(game_mode, seats, MODES[mode]), seed=1_000 * n + seats)
        PROPERTIES.check_replay(log)
        outcome = ENGINE.outcome(log.final)
        assert outcome is not None and len(outcome.seats) == seats
        finished_by_cap += "turn cap" in outcome.reason
    # Random play still finishes almost every match by the rules, not by the cap.
    assert finished_by_cap <= property_matches() // 20
