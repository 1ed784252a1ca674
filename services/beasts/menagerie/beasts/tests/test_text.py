"""The engine's words for Beasts: every label, event and prompt of seeded matches reads well."""

from __future__ import annotations

import random

import pytest

from menagerie.beasts.engine import BeastsEngine
from menagerie.beasts.engine.model import Accio, Move, Portkey, Revelio, SpellDrawn
from menagerie.rules.contract import MatchSetup
from menagerie.rules.events import project
from menagerie.rules.text import Narrator

ENGINE = BeastsEngine()
NAMES = ["Ann", "Bob", "Cat"]
SETUPS = {
    "capture": MatchSetup("capture", 3),
    "training+spells": MatchSetup("training", 3, {"spell_cards": "true"}),
}
ACTION_KINDS = {
    "roll",
    "move",
    "capture",
    "end_turn",
    "felix_felicis",
    "wingardium_leviosa",
    "revelio",
    "accio",
    "expelliarmus",
    "portkey",
}
# What the seeded matches offer: in mode I capturing is automatic; with spells, every action.
EXPECTED_ACTIONS = {"capture": {"roll", "move"}, "training+spells": ACTION_KINDS}


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_every_legal_action_event_and_prompt_of_a_match_reads_well(name: str) -> None:
    state, events = ENGINE.setup(SETUPS[name], 7)
    rng = random.Random(7)
    ann = Narrator(0, NAMES)
    kinds: set[str] = set()
    lines = 0
    while True:
        for event in events:  # Ann reads every event, as her Watch stream brings it
            line = ENGINE.describe_event(project(event, 0), ann)
            lines += line is not None
            assert line is None or (line.strip() and "Seat" not in line)
        if state.outcome is not None:
            break
        seat = ENGINE.to_act(state).seats()[0]
        view = ENGINE.view(state, seat)
        reader = Narrator(seat, NAMES)
        assert ENGINE.describe_prompt(view, reader).startswith(("You ",)), "the seat to play reads about itself"
        assert ENGINE.describe_prompt(ENGINE.view(state, None), Narrator(None, NAMES)).startswith(NAMES[seat])
        actions = ENGINE.legal_actions(state, seat)
        labels = [ENGINE.describe_action(view, a, reader) for a in actions]
        assert len({label.text for label in labels}) == len(labels), labels
        assert len({label.code for label in labels}) == len(labels), labels
        for action, label in zip(actions, labels, strict=True):
            kinds.add(str(type(action).__struct_config__.tag))
            if isinstance(action, Move):
                assert label.text.startswith(f"Move to {action.to} ") and label.code == f"m{action.to}"
            if isinstance(action, (Revelio, Accio, Portkey)):
                assert f" {action.space} " in label.text
        events = ENGINE.apply(state, seat, rng.choice(actions))
    assert kinds == EXPECTED_ACTIONS[name]
    assert lines > 0


def test_a_drawn_spell_is_named_only_to_its_holder() -> None:
    event = SpellDrawn(seat=1, spell="accio")
    assert ENGINE.describe_event(project(event, 1), Narrator(1, NAMES)) == "You drew Accio."
    assert ENGINE.describe_event(project(event, 0), Narrator(0, NAMES)) == "Bob drew a spell."
    assert ENGINE.describe_event(project(event, None), Narrator(None, NAMES)) == "Bob drew a spell."
