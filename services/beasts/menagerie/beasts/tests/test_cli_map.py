"""The Beasts map in the terminal: every street of the board drawn once, from the view alone.

The board message carries each space's neighbours; the map draws the streets as chains
of space numbers ("0─30─31─…"), so a player sees which spaces connect, then every space
with its blue circle, its token and who stands there. It fits 80 columns.
"""

from __future__ import annotations

import io
import itertools
import random
import re

from rich.console import Console

from menagerie.beasts.cli import BeastsUI, streets
from menagerie.beasts.engine import BeastsEngine
from menagerie.beasts.v1 import beasts_pb2
from menagerie.rules.contract import MatchSetup
from menagerie.shared import codec

ENGINE = BeastsEngine()
NAMES = {0: "Ann", 1: "Bob", 2: "Cat"}


def played(mode: str, seats: int, moves: int, seed: int) -> beasts_pb2.View:
    """Seat 0's view after `moves` random legal actions."""
    state, _ = ENGINE.setup(MatchSetup(mode, seats, {}), seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.outcome is not None:
            break
        seat = ENGINE.to_act(state).seats()[0]
        ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    return codec.to_message(beasts_pb2.View, ENGINE.view(state, 0))


def board_edges(view: beasts_pb2.View) -> set[frozenset[int]]:
    return {frozenset((s.id, n)) for s in view.board.spaces for n in s.neighbours}


def drawn(view: beasts_pb2.View, width: int = 80) -> str:
    console = Console(record=True, width=width, file=io.StringIO())
    console.print(BeastsUI().draw(view, NAMES))
    return console.export_text()


def test_the_walks_cover_every_street_exactly_once() -> None:
    view = played("training", 3, 0, 1)
    walks = streets(view.board.spaces)
    steps = [frozenset(pair) for walk in walks for pair in itertools.pairwise(walk)]
    assert len(steps) == len(set(steps)), "a street drawn twice"
    assert set(steps) == board_edges(view)
    assert len(walks) <= 8, "few long walks, not one line per street"


def test_the_map_shows_the_streets_blue_circles_tokens_and_standees_in_80_columns() -> None:
    view = played("training", 3, 30, 2)
    text = drawn(view)
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    start = next(i for i, line in enumerate(lines) if line.startswith("Board: the streets"))
    end = next(i for i, line in enumerate(lines) if line.strip().startswith("Spaces:"))
    # One walk per row; a walk that does not fit goes on in the next row, starting with "─".
    walks: list[str] = []
    for line in lines[start + 1 : end]:
        if line.strip().startswith("─"):
            walks[-1] += line.strip()
        else:
            walks.append(line.strip())
    chain = " ".join(walks)
    pairs = set()
    for walk in walks:
        numbers = [int(n) for n in walk.replace("◎", "").split("─")]
        pairs |= {frozenset(p) for p in itertools.pairwise(numbers)}
    assert pairs == board_edges(view)
    blue = {s.id for s in view.board.spaces if s.blue_circle}
    assert blue == {4, 13, 16, 29}
    for space in blue:
        assert re.search(rf"(?<![\d@]){space}◎", chain), f"blue circle {space} is marked on the streets"
    grid = "\n".join(lines[end:])
    for player in view.players:
        assert f"@{player.seat + 1}" in grid  # counted from 1, as people read seats
    hidden = sum(1 for t in view.tokens if t.state == beasts_pb2.TOKEN_STATE_HIDDEN)
    assert grid.count("?") >= hidden


def test_the_status_names_where_the_streets_lead_from_the_viewer() -> None:
    view = played("capture", 3, 6, 3)
    console = Console(record=True, width=80, file=io.StringIO())
    console.print(BeastsUI().status(view, NAMES))
    text = console.export_text()
    me = next(p for p in view.players if p.seat == 0)
    space = next(s for s in view.board.spaces if s.id == me.position)
    assert f"You are at {space.id} {space.name}" in text
    for neighbour in space.neighbours:
        assert re.search(rf"\b{neighbour} ", text.split("Streets lead to ", 1)[1])
    assert max(len(line) for line in text.splitlines()) <= 80
