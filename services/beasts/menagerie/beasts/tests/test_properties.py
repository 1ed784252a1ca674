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
    ChooseCharacter,
    Collect,
    EndTurn,
    Expelliarmus,
    FelixFelicis,
    Fight,
    Move,
    Portkey,
    Revelio,
    Roll,
    Step,
    WingardiumLeviosa,
)
from menagerie.beasts.v1 import beasts_pb2
from menagerie.rules.contract import MatchSetup
from tests.support.rules_properties import EngineProperties, property_matches

ENGINE = BeastsEngine()
CHARACTERS = [c.id for c in ENGINE.salem.characters]


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
    # Mode III's actions (refused in modes I and II).
    yield ChooseCharacter(rng.choice([*CHARACTERS, "grindelwald", ""]))
    yield Step(space())
    yield Fight()
    yield Collect()


PROPERTIES = EngineProperties(engine=ENGINE, candidates=candidates, view_message=beasts_pb2.View)

MODES = {
    "capture": {},
    "training": {"spell_cards": "false"},
    "training+spells": {"spell_cards": "true"},
}


@pytest.mark.property
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
