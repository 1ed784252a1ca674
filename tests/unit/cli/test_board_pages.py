"""The seat's terminal keeps to one screen of 80×24: no board as the match starts, the board page by page.

Boards run to 35–110 rows (a Zoo of six players, a Snitch team being built); the choice screen
alone fills 23. So as the match starts the seat's terminal prints no board, and `b` shows the
board `HEIGHT - 2` rows at a time with a footer (`b` again: the next page; Enter: the choice).
Here from real positions of seeded matches, through the terminal loop itself (menagerie.cli.play.Table)
fed the messages the service sends, with a session object that answers from the position (no server).
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console

from menagerie.cli.games import GAMES, GameUI
from menagerie.cli.play import Table
from menagerie.cli.screen import HEIGHT, WIDTH, pages, render
from tests.unit.cli.positions import Position, names, positions
from tests.unit.cli.test_choice_screens import MATCHES, pb2_of


class PositionSession:
    """What the terminal loop asks of its game session, answered from one position."""

    def __init__(self, game: str, position: Position, seats: int) -> None:
        self.ui: GameUI = GAMES[game]
        self.address = "in-process"
        self.position = position
        self.seats = seats
        self.submitted: list[int] = []

    def names(self) -> dict[int, str]:
        return names(self.seats)

    def view(self) -> Any:
        return self.ui.pb2.GetViewResponse(version=1, view_version=1, view=self.position.view)

    def legal(self) -> Any:
        return self.position.legal

    def update(self) -> Any:
        return self.ui.pb2.WatchResponse(version=1, view_version=1, view=self.position.view)


def largest_board(game: str, mode: str, seats: int, options: dict[str, str], seed: int, every: int) -> Position:
    """The sampled position whose board takes the most rows."""
    ui = GAMES[game]
    sampled = positions(game, pb2_of(game), mode, seats, options, seed, every * 2)
    return max(sampled, key=lambda p: len(render(ui.draw(p.view, names(seats)), WIDTH)))


def output_rows(out: io.StringIO, start: int) -> list[str]:
    """The rows printed since `start` (the input line, which has no newline yet, counts as a row)."""
    return out.getvalue()[start:].split("\n")


@pytest.mark.parametrize(("game", "mode", "seats", "options", "seed", "every"), MATCHES)
def test_the_board_is_shown_in_pages_that_fit_80_by_24_and_together_make_the_whole_board(
    game: str, mode: str, seats: int, options: dict[str, str], seed: int, every: int
) -> None:
    position = largest_board(game, mode, seats, options, seed, every)
    session = PositionSession(game, position, seats)
    out = io.StringIO()
    console = Console(file=out, width=WIDTH, height=HEIGHT, color_system=None, legacy_windows=False)
    table = Table(console, session, position.seat, auto_pass=False)  # type: ignore[arg-type]

    assert not table.on_update(session.update())
    first = output_rows(out, 0)
    assert len(first) <= HEIGHT, "\n".join(first)  # the choice screen and its input line, no board
    assert table.menu is not None

    board = render(session.ui.draw(position.view, names(seats)), WIDTH)
    expected = pages(board, HEIGHT)
    assert len(board) > HEIGHT - 2 or len(expected) == 1
    shown: list[str] = []
    for number in range(1, len(expected) + 1):
        start = len(out.getvalue())
        table.on_line("b\n")
        rows = output_rows(out, start)
        assert len(rows) <= HEIGHT, "\n".join(rows)
        assert all(len(row) <= WIDTH for row in rows)
        assert rows[-2].startswith(f"The board, page {number}/{len(expected)} ("), rows[-2]
        assert rows[-1].startswith("Choose [")
        shown += rows[:-2]
    assert [row.rstrip() for row in shown] == [line.plain for line in board]

    start = len(out.getvalue())
    table.on_line("b\n")  # past the last page: the first again
    assert output_rows(out, start)[-2].startswith(f"The board, page 1/{len(expected)} ")
    start = len(out.getvalue())
    table.on_line("\n")  # Enter: the choice again
    back = output_rows(out, start)
    assert len(back) <= HEIGHT and back[-1].startswith("Choose [")
    assert table.board_page is None and table.menu is not None


def test_pages_cut_a_board_into_rows_that_leave_room_for_the_footer_and_the_input_line() -> None:
    lines = render("\n".join(f"row {i}" for i in range(50)), WIDTH)
    cut = pages(lines, 24)
    assert [len(page) for page in cut] == [22, 22, 6]
    assert [line.plain for page in cut for line in page] == [f"row {i}" for i in range(50)]
    assert pages([], 24) == [[]]
