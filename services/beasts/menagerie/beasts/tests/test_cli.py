"""The terminal renderer of Beasts draws real positions: a seeded match in-process, views through the codec."""

from __future__ import annotations

import io
import random

from rich.console import Console

from menagerie.beasts.cli import BeastsUI
from menagerie.beasts.engine import BeastsEngine
from menagerie.beasts.v1 import beasts_pb2
from menagerie.cli.games import GAMES
from menagerie.rules.contract import MatchSetup
from menagerie.shared import codec

ENGINE = BeastsEngine()
NAMES = {0: "Ann", 1: "Bob", 2: "Cat"}


def test_the_renderer_draws_every_position_of_a_match_from_the_view_alone() -> None:
    ui = GAMES["beasts"]
    assert isinstance(ui, BeastsUI)
    state, _ = ENGINE.setup(MatchSetup("training", 3, {"spell_cards": "true"}), 7)
    rng = random.Random(7)
    console = Console(record=True, width=120, file=io.StringIO())
    while state.outcome is None:
        seat = ENGINE.to_act(state).seats()[0]
        view = codec.to_message(beasts_pb2.View, ENGINE.view(state, seat))
        console.print(ui.draw(view, NAMES))
        ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    console.print(ui.draw(codec.to_message(beasts_pb2.View, ENGINE.view(state, 0)), NAMES))
    text = console.export_text()
    assert "Board" in text and "Players" in text and "Creatures" in text
    assert all(player in text for player in NAMES.values())
    spell_names = {spell.name for spell in ENGINE.data.spells}
    assert any(name in text for name in spell_names), "a seat's own spells are drawn by name"
