"""One seat numbering for people: a seat's name where it is known, else "Seat N" or "Bot N (level)" from 1.

Scanned: every golden playthrough's text (tests/golden, where every seat has a name, so
no seat number is left), the engines' refusals (without names their numbers run 1..N;
with names there are none), and the terminal renderers' status, board and results for
a match of every game and mode played to its end, with and without names. The web's
seat labels are checked against the event text in tests/e2e/web/test_play.py, its results
and event log of every game and mode against GetMatch's names in tests/e2e/web/test_play_every_mode.py.
"""

from __future__ import annotations

import importlib
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from rich.console import RenderableType

from menagerie.cli.games import GAMES
from menagerie.cli.screen import WIDTH, render
from menagerie.rules import registry
from menagerie.rules.contract import MatchSetup
from menagerie.rules.text import Narrator
from menagerie.shared import codec
from tests.support.golden import GOLDEN_DIR, NAMES

# A seat a person reads about by number: "Seat 2", "seat 2's", "Bot 2 (greedy)".
SEAT_NUMBER = re.compile(r"\b(?:seat|bot) (\d+)\b", re.IGNORECASE)
SEATS_OF_GOLDEN = re.compile(r", (\d+) seats? \(")
SAMPLED = 25  # every n-th decision of a match is scanned, and its end


def numbers(text: str) -> list[int]:
    """The seat numbers a text shows."""
    return [int(n) for n in SEAT_NUMBER.findall(text)]


def matches() -> Iterator[tuple[str, str, int]]:
    """(game, mode, seats) for every installed game and mode, at its fewest seats (and 3), as the goldens."""
    for game in registry.game_ids():
        for mode in registry.engine(game).info.modes:
            yield game, mode.mode, max(mode.min_seats, min(3, mode.max_seats))


def test_the_goldens_name_every_seat() -> None:
    goldens = sorted(GOLDEN_DIR.glob("*.txt"))
    assert goldens
    for path in goldens:
        header, *lines = path.read_text().splitlines()
        assert SEATS_OF_GOLDEN.search(header), header
        shown = [(line, numbers(line)) for line in lines]
        assert [s for s in shown if s[1]] == [], path.name


def played(game: str, mode: str, seats: int, seed: int = 3) -> Iterator[tuple[Any, Any]]:
    """Every SAMPLED-th state of a match played by random choices (the engine, the state), then its end."""
    engine = registry.engine(game)
    state, _ = engine.setup(MatchSetup(mode, seats), seed)
    rng = random.Random(seed)
    for step in range(3_000):
        if engine.outcome(state) is not None:
            break
        if step % SAMPLED == 0:
            yield engine, state
        seat = rng.choice(engine.to_act(state).seats())
        engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    assert engine.outcome(state) is not None, "the match did not end"
    yield engine, state


@pytest.mark.parametrize(("game", "mode", "seats"), list(matches()))
def test_refusals_number_seats_from_one_and_name_them_for_a_reader(game: str, mode: str, seats: int) -> None:
    refused = 0
    for engine, state in played(game, mode, seats):
        acting = engine.to_act(state).seats()
        if not acting:
            continue
        action = engine.legal_actions(state, acting[0])[0]
        for idle in set(range(seats)) - set(acting):
            refusal = engine.refusal(state, idle, action)
            assert refusal is not None
            assert all(1 <= n <= seats for n in numbers(refusal.detail)), refusal
            named = Narrator(idle, NAMES[:seats]).named(refusal.detail)
            assert numbers(named) == [], named
            refused += 1
    assert refused or seats == 1


def drawn(ui: Any, view: Any, names: dict[int, str]) -> str:
    """The terminal's status and board of a view, as plain text."""
    parts: list[RenderableType] = [ui.status(view, names), ui.draw(view, names)]
    return "\n".join(line.plain for part in parts for line in render(part, WIDTH))


@pytest.mark.parametrize(("game", "mode", "seats"), list(matches()))
def test_the_terminal_numbers_seats_from_one_and_names_them(game: str, mode: str, seats: int) -> None:
    ui = GAMES[game]
    pb2 = importlib.import_module(f"menagerie.{game}.v1.{game}_pb2")
    known = dict(enumerate(NAMES[:seats]))
    for engine, state in played(game, mode, seats):
        for viewer in (None, 0):
            view = engine.view(state, viewer)
            unnamed = codec.to_message(pb2.View, view)
            unnamed.prompt.text = engine.describe_prompt(view, Narrator(viewer))
            text = drawn(ui, unnamed, {})
            assert all(1 <= n <= seats for n in numbers(text)), text
            named = codec.to_message(pb2.View, view)
            named.prompt.text = engine.describe_prompt(view, Narrator(viewer, NAMES[:seats]))
            text = drawn(ui, named, known)
            assert numbers(text) == [], text
