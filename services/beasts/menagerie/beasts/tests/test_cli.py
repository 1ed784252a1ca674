"""The terminal UI of Beasts on real positions: a seeded match in-process, messages through the codec."""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from menagerie.beasts.cli import BeastsUI
from menagerie.beasts.engine import BeastsEngine, BeastsState
from menagerie.beasts.engine.model import Accio, Move, Portkey, Revelio
from menagerie.beasts.v1 import beasts_pb2
from menagerie.cli.games import GAMES
from menagerie.rules.contract import MatchSetup
from menagerie.shared import codec
from menagerie.shared.engine import project_event

ENGINE = BeastsEngine()
NAMES = {0: "Ann", 1: "Bob", 2: "Cat"}
SETUPS = {
    "capture": MatchSetup("capture", 3),
    "training+spells": MatchSetup("training", 3, {"spell_cards": "true"}),
}
# What the seeded matches offer: in mode I capturing is automatic; with spells, every action.
ACTION_KINDS = {f.name for f in beasts_pb2.Action.DESCRIPTOR.oneofs_by_name["kind"].fields}
EXPECTED_ACTIONS = {"capture": {"roll", "move"}, "training+spells": ACTION_KINDS}


def view_message(state: BeastsState, viewer: int | None) -> beasts_pb2.View:
    """The view as GetView/Watch would send it."""
    return codec.to_message(beasts_pb2.View, ENGINE.view(state, viewer))


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_every_legal_action_and_event_of_a_match_reads_well(name: str) -> None:
    ui = GAMES["beasts"]
    assert isinstance(ui, BeastsUI)
    state, events = ENGINE.setup(SETUPS[name], 7)
    rng = random.Random(7)
    kinds: set[str] = set()
    lines = 0
    while True:
        watching = view_message(state, 0)  # Ann reads every event, as her Watch stream brings it
        for event in events:
            message = codec.fill_oneof(beasts_pb2.Event(), event.kind, project_event(event, 0))
            line = ui.describe_event(message, NAMES, 0, watching)
            lines += line is not None
            assert line is None or line.strip()
        if state.outcome is not None:
            break
        seat = ENGINE.to_act(state).seats()[0]
        view = view_message(state, seat)
        actions = ENGINE.legal_actions(state, seat)
        labels = [ui.describe_action(codec.tagged_to_message(beasts_pb2.Action, a), view, NAMES) for a in actions]
        assert all(label.strip() for label in labels)
        assert len(set(labels)) == len(labels), labels
        for action, label in zip(actions, labels, strict=True):
            kinds.add(codec.tagged_to_message(beasts_pb2.Action, action).WhichOneof("kind") or "")
            if isinstance(action, Move):
                assert label.startswith(f"Move to {action.to} ")
            if isinstance(action, (Revelio, Accio, Portkey)):
                assert f" {action.space} " in label
        events = ENGINE.apply(state, seat, rng.choice(actions))
    assert kinds == EXPECTED_ACTIONS[name]
    assert lines > 0
    console = Console(record=True, width=120, file=io.StringIO())
    console.print(ui.draw(watching, NAMES))
    text = console.export_text()
    assert "Board" in text and "Players" in text and "Creatures" in text
    assert all(player in text for player in NAMES.values())
