"""The terminal renderer of Beasts draws real positions: a seeded match in-process, views through the codec.

Mode III (co-op) has a screen of its own: the board with Salemers, creatures, the cards on
the location bar and the standees; the bar; each seat's character, actions and resources;
the team's creatures against its goal; the Salem track; the supply and the decks. It fits
80 columns (the space names are shortened to what the width leaves).
"""

from __future__ import annotations

import io
import random
import re

import msgspec
from rich.console import Console

from menagerie.beasts.bots import BeastsGreedy
from menagerie.beasts.cli import BeastsUI
from menagerie.beasts.engine import BeastsEngine, BeastsState, BeastsView
from menagerie.beasts.engine.salem_data import load_salem
from menagerie.beasts.v1 import beasts_pb2
from menagerie.cli.games import GAMES
from menagerie.rules.contract import MatchSetup
from menagerie.shared import codec

ENGINE = BeastsEngine()
NAMES = {0: "Ann", 1: "Bob", 2: "Cat"}
UI = BeastsUI()


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


# ------------------------------------------------------------------ mode III (co-op)

ADVANCED_NAMES = {0: "Ann", 1: "Bob", 2: "Cat", 3: "Dan"}
WIDTHS = (80, 160)


def draw(state: BeastsState, viewer: int | None, width: int, engine: BeastsEngine = ENGINE) -> str:
    """What the viewer's terminal shows, the view as GetView/Watch would bring it."""
    console = Console(record=True, width=width, file=io.StringIO())
    console.print(UI.draw(codec.to_message(beasts_pb2.View, engine.view(state, viewer)), ADVANCED_NAMES))
    return console.export_text()


def board_marks(text: str, view: BeastsView) -> dict[int, str]:
    """Per space, the marks drawn after its number and full name (a wide console)."""
    marks = {}
    for space in view.board.spaces:
        found = re.search(rf"(?<![\d@]){space.id} {re.escape(space.name)} +(\S*)", text)
        assert found, f"space {space.id} {space.name} is not on the board"
        marks[space.id] = found.group(1)
    return marks


def check_advanced(state: BeastsState, viewer: int | None) -> None:
    """Every part of the mode III screen says what the view says, and 80 columns suffice."""
    view = ENGINE.view(state, viewer)
    for width in WIDTHS:
        text = draw(state, viewer, width)
        assert max(len(line) for line in text.splitlines()) <= width
        for part in ("Board", "Location bar", "Players", "Creatures: the team has", "Salem track", "Supply"):
            assert part in text
        assert f"the team has {view.team_captured} of {view.creatures_to_win}" in text
        assert f"{view.track}/{view.loss_at} tokens" in text
    text = draw(state, viewer, 160)
    marks = board_marks(text, view)
    on_bar = {card for card in view.bar if card}
    creatures = {t.space for t in view.tokens if t.state == "creature"}
    for space, mark in marks.items():
        assert ("S" in mark) == (space in view.salemers)
        assert ("■" in mark) == (space in on_bar)
        assert ("✦" in mark) == (space in creatures)
        assert all((f"@{p.seat + 1}" in mark) == (p.position == space) for p in view.players)
    track = next(line for line in text.splitlines() if line.startswith("Salem track"))
    assert track.count("■") == view.track and len(track.split()[2]) == view.loss_at
    for player in view.players:
        if player.character:
            assert player.character.capitalize() in text
    for card in view.bar:
        if card:
            assert f"{card} {view.board.spaces[card].name}"[:12] in text


def test_the_renderer_draws_a_seeded_mode_iii_match_from_the_view_alone() -> None:
    """Four seats, random choices (Salemers stay on the board, the track fills); every 5th
    position drawn for two seats and a spectator, at 80 and 160 columns."""
    state, _ = ENGINE.setup(MatchSetup("advanced", 4, {}), 3)
    rng = random.Random(3)
    drawn = 0
    while ENGINE.outcome(state) is None:
        if drawn % 5 == 0:
            for viewer in (0, 3, None):
                check_advanced(state, viewer)
        drawn += 1
        seat = ENGINE.to_act(state).must[0]
        ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    check_advanced(state, 0)
    assert state.track == ENGINE.view(state, 0).loss_at  # a loss: the track drawn full


def test_the_mode_iii_screen_shows_actions_left_captures_and_orange_boxes() -> None:
    """A greedy team of two plays to its win: the captured creatures, who captured them,
    the actions left of the seat to play, and only the orange boxes before the loss (the track given a
    box past the 2-player loss for this test: the shipped boxes all lie before it)."""
    salem = load_salem()
    boxes = msgspec.structs.replace(salem.track.orange, standard=(3, 6, 8))
    engine = BeastsEngine(
        salem=msgspec.structs.replace(salem, track=msgspec.structs.replace(salem.track, orange=boxes))
    )
    state, _ = engine.setup(MatchSetup("advanced", 2, {}), 5)
    greedy = BeastsGreedy(engine)
    rng = random.Random(5)
    seen_actions = False
    while engine.outcome(state) is None:
        seat = engine.to_act(state).must[0]
        view = engine.view(state, seat)
        if view.actions_left and not seen_actions:
            text = draw(state, seat, 80, engine)
            total = view.players[seat].actions
            assert f"{view.actions_left} of {total}" in text and f"({view.actions_left} action" in text
            seen_actions = True
        engine.apply(state, seat, greedy.choose(view, engine.legal_actions(state, seat), seat, rng))
    view = engine.view(state, None)
    assert view.team_captured == view.creatures_to_win == 2
    text = draw(state, None, 80, engine)
    assert text.count("captured by") == 2 and "the team has 2 of 2" in text
    assert view.loss_at == 7 and "orange boxes 3 6\n" in text  # box 8 lies past the loss at 7
    assert seen_actions
