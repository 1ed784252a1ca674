"""Every game's choice screen fits a terminal of 80×24, from real positions of seeded matches.

The screen (a short status, the last events, the prompt, the menu) is what a player
sees when asked to decide; the board is drawn only on demand. For sampled decisions of
a match played by random choices, in every game and mode: no row is wider than 80
columns, the screen leaves the 24th row to the input line, the whole menu is on it,
the latest event is on it, and every legal action of the server can be reached from
the menu while nothing else can (the client submits only the server's actions).
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from rich.text import Text

from menagerie.cli.games import GAMES
from menagerie.cli.menu import Group, Menu, Pick, Toggles
from menagerie.cli.play import MENU_ROWS
from menagerie.cli.screen import HEIGHT, WIDTH, choice_screen, render, wrapped
from tests.unit.cli.positions import Position, names, positions

# (game, mode, seats, options, seed, every n-th decision drawn)
MATCHES = [
    ("beasts", "capture", 3, {}, 1, 3),
    ("beasts", "training", 4, {"spell_cards": "true"}, 2, 4),
    ("beasts", "advanced", 4, {}, 3, 6),
    ("pursuit", "coop", 3, {"difficulty": "normal"}, 4, 3),
    ("pursuit", "coop", 1, {"difficulty": "hard"}, 5, 3),
    ("zoo", "beginner", 6, {}, 6, 5),
    ("zoo", "advanced", 4, {}, 7, 4),
    ("snitch", "basic", 2, {}, 8, 7),
    ("snitch", "advanced", 2, {"funding": "15", "spectators": "on"}, 9, 7),
]


def pb2_of(game: str) -> Any:
    """The game's generated messages."""
    return importlib.import_module(f"menagerie.{game}.v1.{game}_pb2")


def reachable(menu: Menu) -> set[int]:
    """Every action index a player can submit from the menu."""
    found: set[int] = set()

    def walk(entries: Any) -> None:
        for entry in entries:
            if isinstance(entry, Pick):
                found.add(entry.index)
            elif isinstance(entry, Group):
                walk(entry.entries)
            elif isinstance(entry, Toggles):
                found.update(entry.combos.values())

    walk(menu.root)
    return found


def screen_of(game: str, position: Position, seats: int) -> tuple[list[Text], Menu]:
    """The choice screen of the position at 80×24, and its menu."""
    ui = GAMES[game]
    menu = Menu(ui.menu(position.view, position.legal, MENU_ROWS), MENU_ROWS)
    status = render(ui.status(position.view, names(seats)), WIDTH)[:4]
    lines = choice_screen(
        status, position.events[-12:], position.view.prompt.text, menu.title(), menu.lines(), menu.hint()
    )
    return lines, menu


@pytest.mark.parametrize(("game", "mode", "seats", "options", "seed", "every"), MATCHES)
def test_the_choice_screen_fits_80_by_24_and_offers_exactly_the_legal_actions(
    game: str, mode: str, seats: int, options: dict[str, str], seed: int, every: int
) -> None:
    drawn = 0
    for position in positions(game, pb2_of(game), mode, seats, options, seed, every):
        lines, menu = screen_of(game, position, seats)
        text = "\n".join(line.plain for line in lines)
        assert len(lines) <= HEIGHT - 1, text
        assert all(line.cell_len <= WIDTH for line in lines), text
        assert menu.title() in text
        for key, _, _ in menu.lines():
            assert any(line.plain.lstrip().startswith(f"{key} ") for line in lines), (key, text)
        assert reachable(menu) == set(range(len(position.legal.actions)))
        if position.events and len(menu.lines()) <= MENU_ROWS - 2:
            latest = wrapped(position.events[-1], WIDTH)
            if len(latest) <= 2:  # a long sentence may give way to the menu
                assert latest[-1].plain in text, text
        drawn += 1
    assert drawn >= 5, "the match ended too soon to sample its decisions"


@pytest.mark.parametrize(("game", "mode", "seats", "options", "seed", "every"), MATCHES)
def test_the_board_on_demand_fits_80_columns(
    game: str, mode: str, seats: int, options: dict[str, str], seed: int, every: int
) -> None:
    ui = GAMES[game]
    for number, position in enumerate(positions(game, pb2_of(game), mode, seats, options, seed, every * 3)):
        board = render(ui.draw(position.view, names(seats)), WIDTH)
        assert board and all(line.cell_len <= WIDTH for line in board), number


def test_a_long_list_is_grouped_so_the_menu_fits() -> None:
    # Team building in the Snitch's advanced mode: dozens of picks, grouped by part.
    building = next(
        p
        for p in positions("snitch", pb2_of("snitch"), "advanced", 2, {"funding": "15"}, 9)
        if len(p.legal.actions) > MENU_ROWS and p.legal.actions[0].WhichOneof("kind") == "pick_for_team"
    )
    _lines, menu = screen_of("snitch", building, 2)
    assert len(building.legal.actions) > 20
    groups = [entry for entry in menu.root if isinstance(entry, Group)]
    assert groups and all(entry.label.startswith("Pick a ") for entry in groups)
    assert len(menu.root) <= MENU_ROWS
    assert menu.answer(str(menu.root.index(groups[0]) + 1)).chosen is None  # opens the group
    assert menu.title().startswith("Pick a ")
    assert menu.answer("1").chosen == groups[0].entries[0].index  # type: ignore[union-attr]
