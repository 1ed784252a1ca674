"""The terminal renderer of Beast Pursuit draws real positions: seeded matches in process, views through the codec.

The renderer only draws the view; the sentences (prompt, labels, events) are the
engine's and are tested in test_text.py.
"""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

from menagerie.cli.games import GAMES
from menagerie.pursuit.cli import PursuitUI
from menagerie.pursuit.engine import PursuitState
from menagerie.pursuit.engine.model import Reroll
from menagerie.pursuit.engine.text import ACTION_NAMES
from menagerie.pursuit.tests.seeded import ENGINE, NAMES, Match, decision, find, finished, window, won_match
from menagerie.pursuit.v1 import pursuit_pb2
from menagerie.rules.contract import MatchSetup
from menagerie.rules.text import name_mentions
from menagerie.shared import codec

SEAT_NAMES = dict(enumerate(NAMES))


def draw(match: Match, viewer: int | None, width: int = 120) -> str:
    """What the viewer's terminal shows, the view coming as GetView/Watch would send it."""
    console = Console(record=True, width=width, file=io.StringIO())
    view = codec.to_message(pursuit_pb2.View, ENGINE.view(match.state, viewer))
    console.print(PursuitUI().draw(view, SEAT_NAMES))
    return console.export_text()


def shows(text: str, card: int) -> bool:
    """True if card #`card` is named (and not merely a prefix of a longer id)."""
    return re.search(rf"#{card}\b", text) is not None


def test_the_pursuit_ui_is_registered() -> None:
    assert isinstance(GAMES["pursuit"], PursuitUI)
    assert GAMES["pursuit"].pb2 is pursuit_pb2


def test_the_renderer_draws_every_position_of_a_match_from_the_view_alone() -> None:
    state, _ = ENGINE.setup(MatchSetup("coop", 3, {"difficulty": "easy"}), 7)
    rng = random.Random(7)
    ui = PursuitUI()
    console = Console(record=True, width=120, file=io.StringIO())
    while state.outcome is None:
        seat = ENGINE.to_act(state).seats()[0]
        console.print(ui.draw(codec.to_message(pursuit_pb2.View, ENGINE.view(state, seat)), SEAT_NAMES))
        ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    console.print(ui.draw(codec.to_message(pursuit_pb2.View, ENGINE.view(state, None)), SEAT_NAMES))
    text = console.export_text()
    assert "Player boards" in text and "Chasing the " in text and "Dice to assign: " in text
    assert all(name in text for name in NAMES[:3])


def test_drawing_the_roll_shows_the_chase_the_boards_and_the_kept_dice() -> None:
    match = find(lambda s: s.turn == 1 and decision(s) == "roll" and s.rolls == 1)
    state = match.state
    keep = next(
        a
        for a in ENGINE.legal_actions(state, state.active)
        if isinstance(a, Reroll) and a.keep_teal and len(a.keep) >= 2
    )
    ENGINE.apply(state, state.active, keep)
    assert state.rolls == 2  # a Reroll-card window may be open over the rolling: drawn too
    text = draw(match, state.active)
    view = ENGINE.view(state, state.active)
    beast = view.track.beast

    assert f"turn {state.turn}" in text and "You are the active player" in text
    assert f"Chasing the {beast.name} (level {beast.level})" in text
    assert "escape ◂" in text and "▸ suitcase" in text and "●" in text
    assert view.track.card_text in text
    assert f"{view.track.length - view.track.position} spaces to the suitcase" in text
    assert f"escapes after {view.track.position + 1} space" in text
    assert all(b.name in text for b in view.beasts_to_come)
    assert "Captured 0 of 5 needed" in text and "escaped 0 (none may escape)" in text
    for player in view.players:
        assert NAMES[player.seat] in text and player.character.name in text
    assert f"{NAMES[state.active]} (you)" in text
    assert text.count("not Ready") == 5 * len(view.players)
    assert all(name in text for name in ACTION_NAMES.values())
    assert text.count("Activate: capture") == 2 * len(view.players), "both captures take a capture die"

    dice = next(line for line in text.splitlines() if line.startswith("Dice (roll"))
    assert f"roll {state.rolls} of {state.roll_limit}" in dice
    shown = [
        ("teal " if d.color == "teal" else "") + d.face + ("✓" if kept else "")
        for d, kept in zip(view.dice, view.kept, strict=True)
    ]
    assert dice.split(": ", 1)[1].split() == " ".join(shown).split()
    assert sum(state.kept) == len(keep.keep) + 1

    mine = state.players[state.active].hand
    assert mine and all(shows(text, c) for c in mine)
    theirs = [c for s, p in enumerate(state.players) if s != state.active for c in p.hand]
    assert theirs and not any(shows(text, c) for c in theirs)
    assert "Others hold: " in text


def test_drawing_assignment_marks_activations_and_the_dice_left() -> None:
    match = find(
        lambda s: (
            decision(s) == "assign" and any(a.seat != s.active for a in s.activations) and any(d.card for d in s.pool)
        ),
        seats=3,
        difficulty="easy",
    )
    state = match.state
    text = draw(match, state.active)
    assert text.count("⚡ activated") == len(state.activations)
    assert text.count("Ready ✓ Set ✓") == sum(len(set(p.ready) & set(p.set)) for p in state.players)
    pool = next(line for line in text.splitlines() if line.startswith("Dice to assign: "))
    for die in state.pool:
        assert ("teal " if die.color == "teal" else "") + die.face in pool
        if die.card:
            assert f"card #{die.card}" in pool


def test_drawing_the_beasts_roll_strikes_the_ignored_dice() -> None:
    match = find(lambda s: decision(s) == "protego_window" and bool(s.ignored), difficulty="easy")
    state = match.state
    beast = ENGINE.beasts[state.beast]
    text = draw(match, window(state)[0])
    assert f"The {beast.name} rolled" in text
    assert len(re.findall(r"\bignored\b", text)) == len(state.ignored)
    table = text[text.index(f"The {beast.name} rolled") :]
    for die, effect in zip(state.beast_dice, ENGINE.view(state, None).beast_die_effects, strict=True):
        assert re.search(rf"{die.color}\s+{die.face}\s+{re.escape(effect)}", table)


def test_drawing_the_dice_the_beast_will_roll_after_distract_or_muffliato() -> None:
    match = find(
        lambda s: decision(s) in ("assign", "muffliato_window") and any(a.action == "distract" for a in s.activations),
        difficulty="easy",
    )
    view = ENGINE.view(match.state, None)
    text = draw(match, None)
    assert f"The {view.track.beast.name} will roll {view.beast_black_dice} black di" in text


@pytest.mark.parametrize("viewer", [0, None])
def test_drawing_a_won_match_shows_the_shared_win(viewer: int | None) -> None:
    match = won_match()
    text = draw(match, viewer)
    outcome = match.state.outcome
    assert outcome is not None
    assert f"The team won: {outcome.reason}" in text
    assert "Captured 5 of 5 needed" in text and "in the suitcase" in text
    assert all(ENGINE.beasts[b].name in text for b in match.state.captured)
    assert ("Your insight cards" in text) == (viewer is not None)


@pytest.mark.parametrize("cause", ["stunned", "escaped"])
def test_drawing_a_lost_match_shows_the_shared_loss_and_why(cause: str) -> None:
    def lost(state: PursuitState) -> bool:
        stunned = any(p.health == 0 for p in state.players)
        return finished("loss")(state) and stunned == (cause == "stunned")

    match = find(lost, difficulty="hard")
    state = match.state
    text = draw(match, None)
    assert state.outcome is not None
    assert f"The team lost: {name_mentions(state.outcome.reason, dict(enumerate(NAMES)))}" in text
    stunned = [NAMES[s] for s, p in enumerate(state.players) if p.health == 0]
    if cause == "stunned":
        assert "0 (stunned)" in text and f"— {stunned[0]} was stunned" in text
    else:
        assert f"escaped {len(state.escaped)} (none may escape)" in text
        assert all(ENGINE.beasts[b].name in text for b in state.escaped)
    assert "Your insight cards" not in text
    assert not any(shows(text, c) for p in state.players for c in p.hand)


def test_the_drawing_fits_a_narrow_terminal() -> None:
    match = find(lambda s: decision(s) == "assign" and len(s.activations) >= 2, seats=4)
    text = draw(match, 0, width=80)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert all(name in text for name in NAMES)
