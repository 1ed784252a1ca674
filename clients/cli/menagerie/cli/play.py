"""`menagerie play` and `menagerie watch`: the terminal game loop.

The game's Watch stream and the player's typed lines both feed one queue, so the loop
never sits in a prompt while the match moves on: every event is printed as it comes,
and when a view shows it is this seat's turn, the choice screen (a short status, the
last events, the prompt, the menu: at most 23 rows of 80 columns) is drawn. When the
match moves while a menu is open (the turn timer ran out and a bot decided, another
seat's move changed the position), the menu is replaced by the new position's, never
left standing. A seat's terminal never shows more than one screen at once: the board is
not drawn as the match starts, and `b` draws it a page of 22 rows at a time (`b` again:
the next page; Enter: the choice again). A spectator, who has no input line, gets the
whole board as it changes.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass
from typing import Any

import grpc
from rich.console import Console, RenderableType
from rich.text import Text

from menagerie.cli.connection import interrupted
from menagerie.cli.errors import explain
from menagerie.cli.menu import BOARD, QUIT, Menu, Quit, default_menu
from menagerie.cli.screen import HEIGHT, WIDTH, choice_screen, pages, render
from menagerie.cli.session import GameSession, LobbySession
from menagerie.lobby.v1 import lobby_pb2
from menagerie.rules.text import seat_name

__all__ = ["Quit", "follow", "wait_for_seat"]

# Rows of menu entries on one page: with a title, a footer and a label that takes two rows
# now and then, the menu leaves room for the status, the events and the prompt.
MENU_ROWS = 10
# A warning is printed once when this many seconds are left on the player's turn timer.
WARN_SECONDS = 10.0
# How long the loop waits for a message before looking at the turn timer again.
TICK_SECONDS = 1.0
# Events kept for the choice screen.
RECENT_EVENTS = 12
# A spectator's board is drawn again when the seats to act change and at least this many
# events were printed since it was last drawn (a reaction window would otherwise redraw it
# for every pass).
EVENTS_PER_BOARD = 3


def wait_for_seat(console: Console, lobby: LobbySession, request: lobby_pb2.CreateTicketRequest) -> lobby_pb2.Seating:
    """Queues, shows the wait, and returns where the player sits (cancels the ticket if the player leaves)."""
    ticket = lobby.queue(request)
    # Ids are printed whole on one row (soft_wrap): a wrapped id cannot be copied.
    mode = request.mode or "any mode"
    console.print(f"Queued for {request.game} ({mode}), ticket {ticket.ticket_id}.", soft_wrap=True)
    seated = False
    try:
        with closing(lobby.watch_ticket(ticket.ticket_id)) as updates:
            for update in updates:
                status = update.ticket.status
                if status == lobby_pb2.TICKET_STATUS_SEATED:
                    seating = update.ticket.seating
                    bots = f" ({seating.bots} bots)" if seating.bots else ""
                    console.print(
                        f"Seated at {seat_name(seating.seat)} of {seating.seats}{bots} in match {seating.match_id}.",
                        soft_wrap=True,
                    )
                    seated = True
                    return seating
                if status in (lobby_pb2.TICKET_STATUS_CANCELLED, lobby_pb2.TICKET_STATUS_EXPIRED):
                    seated = True  # nothing left to cancel
                    word = lobby_pb2.TicketStatus.Name(status).split("_")[-1].lower()
                    raise RuntimeError(f"the ticket was {word}")
                console.print(f"Waiting for players… {update.waited_seconds} s")
        raise RuntimeError("the lobby stopped answering about the ticket")
    except (KeyboardInterrupt, EOFError):
        if not seated:
            leave_queue(console, lobby, ticket.ticket_id)
        raise
    except RuntimeError:
        if not interrupted():
            raise
        if not seated:  # Ctrl-C, which Python turned into RuntimeError inside a lock (see interrupted)
            leave_queue(console, lobby, ticket.ticket_id)
        raise KeyboardInterrupt from None


def leave_queue(console: Console, lobby: LobbySession, ticket_id: str) -> None:
    """Cancels the ticket of a player who left while queued (within the call deadline; says if it failed)."""
    try:
        lobby.cancel(ticket_id)
        console.print(f"\nLeft the queue (ticket {ticket_id} cancelled).", soft_wrap=True)
    except grpc.RpcError as error:
        console.print(f"\nCould not cancel ticket {ticket_id}: {explain(error, lobby.address)}", soft_wrap=True)


@dataclass
class Clock:
    """The seat's turn timer: seconds left when the message came, and when it came (monotonic)."""

    left: float
    received: float

    def remaining(self) -> float:
        """Seconds left now."""
        return self.left - (time.monotonic() - self.received)


def clock_of(response: Any, seat: int | None) -> Clock | None:
    """The turn timer of `seat` in a GetView/Watch response (None: no timer, or the server sends none)."""
    if seat is None or "clock" not in response.DESCRIPTOR.fields_by_name or not response.HasField("clock"):
        return None
    clock = response.clock
    for deadline in clock.deadlines:
        if deadline.seat == seat:
            left = deadline.deadline.ToMilliseconds() - clock.server_time.ToMilliseconds()
            return Clock(left / 1000, time.monotonic())
    return None


def timeout_note(response: Any, names: dict[int, str]) -> str:
    """What to print when a bot decided for a timed-out seat in this response ("" otherwise)."""
    if "timeout" in response.DESCRIPTOR.fields_by_name and response.HasField("timeout") and response.timeout.text:
        return str(response.timeout.text)
    for event in response.events:
        header = event.header
        if header.timeout_decision and header.HasField("seat"):
            name = seat_name(header.seat, names.get(header.seat, ""))
            return f"{name}'s turn timer ran out; a bot decided for them."
    return ""


def seats_to_act(view: Any) -> set[int]:
    """The seats the view's prompt waits for."""
    return {*view.prompt.must, *view.prompt.may}


def status_lines(game: GameSession, view: Any, names: dict[int, str], width: int = WIDTH) -> list[Text]:
    """The game's short status for the choice screen (its first rows when a game has no status of its own)."""
    status = getattr(game.ui, "status", None)
    drawn: RenderableType = status(view, names) if status else game.ui.draw(view, names)
    return render(drawn, width)[:4]


def build_menu(game: GameSession, view: Any, legal: Any) -> Menu:
    """ListLegalActions as the game arranges it for the terminal (plain, grouped or toggles)."""
    arrange = getattr(game.ui, "menu", None)
    entries = arrange(view, legal, MENU_ROWS) if arrange else default_menu(legal, MENU_ROWS)
    return Menu(entries, MENU_ROWS, [label.code for label in legal.labels])


def _pump(source: Iterator[Any], inbox: queue.Queue[tuple[str, Any]], kind: str) -> None:
    """Puts each item of `source` in the inbox, then ("end"|"error", …)."""
    try:
        for item in source:
            inbox.put((kind, item))
        inbox.put((f"{kind}-end", None))
    except BaseException as error:  # handed to the main thread, which raises it
        inbox.put((f"{kind}-error", error))


def stdin_lines() -> Iterator[str]:
    """The lines the player types (ends at end of input)."""
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        yield line


def start_thread(source: Iterator[Any], inbox: queue.Queue[tuple[str, Any]], kind: str) -> None:
    """Feeds `source` into the inbox from a daemon thread (it must not hold the process up at exit)."""
    threading.Thread(target=_pump, args=(source, inbox, kind), daemon=True, name=f"menagerie-{kind}").start()


class Table:
    """One seat's (or a spectator's) terminal: the state of the loop between messages."""

    def __init__(
        self,
        console: Console,
        game: GameSession,
        seat: int | None,
        auto_pass: bool,
        width: int = WIDTH,
        height: int = HEIGHT,
    ) -> None:
        self.console = console
        self.game = game
        self.seat = seat
        self.auto_pass = auto_pass
        self.width = width
        self.height = height
        self.names = game.names()
        first = game.view()
        self.view = first.view  # names of spaces and creatures for the events before the first view
        self.clock = clock_of(first, seat)
        self.events: deque[str] = deque(maxlen=RECENT_EVENTS)
        self.menu: Menu | None = None
        self.legal: Any = None
        self.moved_at = 0  # the version our last move made: older views are history, not a position
        self.warned = False
        self.board_key: tuple[int, ...] | None = None
        self.events_since_board = 0
        self.board_page: int | None = None  # the board's page last shown, while the player reads it

    # ------------------------------------------------------------- drawing

    def print_board(self) -> None:
        """The whole board (a spectator's, and everyone's at the end)."""
        self.console.print(self.game.ui.draw(self.view, self.names))
        self.events_since_board = 0

    def show_board_page(self) -> None:
        """The board's next page (the first after anything else), its footer and the input line."""
        board = pages(render(self.game.ui.draw(self.view, self.names), self.width), self.height)
        page = 0 if self.board_page is None else (self.board_page + 1) % len(board)
        for line in board[page]:
            self.console.print(line, soft_wrap=True)
        more = f"{BOARD}: the next page, " if len(board) > 1 else ""
        back = "Enter: back to your choice" if self.menu is not None else f"{QUIT}: leave"
        self.console.print(Text(f"The board, page {page + 1}/{len(board)} ({more}{back})", style="dim"))
        self.board_page = page
        if self.menu is not None:
            self.prompt()

    def screen(self, note: str = "") -> list[Text]:
        """The choice screen's lines."""
        assert self.menu is not None
        return choice_screen(
            status_lines(self.game, self.view, self.names, self.width),
            list(self.events),
            self.view.prompt.text,
            self.menu.title(),
            self.menu.lines(),
            note,
            self.width,
            self.height,
        )

    def show_choice(self, note: str = "") -> None:
        """Draws the choice screen and the input line."""
        self.board_page = None
        for line in self.screen(note):
            self.console.print(line, soft_wrap=True)
        self.prompt()

    def prompt(self) -> None:
        """The input line: what may be typed and the time left."""
        assert self.menu is not None
        left = ""
        if self.clock is not None:
            left = f" ({max(0, round(self.clock.remaining()))} s left)"
        self.console.print(f"Choose [{self.menu.hint()}]{left}: ", end="")
        self.console.file.flush()

    # ------------------------------------------------------------- messages

    def on_update(self, response: Any) -> bool:
        """One Watch response; True when the match is over."""
        if response.HasField("view"):
            self.view = response.view
            self.clock = clock_of(response, self.seat)
            self.warned = False
        printed = False
        for event in response.events:
            if event.header.text:
                if not printed and self.menu is not None:
                    self.console.print()  # off the input line
                printed = True
                self.console.print(event.header.text)
                self.events.append(event.header.text)
                self.events_since_board += 1
        note = timeout_note(response, self.names)
        if note:
            self.console.print(f"[yellow]{note}[/yellow]")
            self.events.append(note)
        if not response.HasField("view"):
            return False
        if len(self.view.outcome.seats) > 0:
            self.menu = None
            self.print_board()
            return True
        if self.seat is None:
            self._spectate()
            return False
        if self.board_key is None:  # no board as the match starts (the choice screen is one screen): `b` draws it
            self.board_key = ()
            if self.seat not in seats_to_act(self.view):
                self.console.print(Text(f"Others decide first ({BOARD}: the board, {QUIT}: leave).", style="dim"))
        if self.seat in seats_to_act(self.view) and response.version >= self.moved_at:
            self._refresh_choice(changed=bool(note))
        elif self.menu is not None:
            self.menu = None
            self.console.print("[yellow]The match moved on; that choice is gone.[/yellow]")
        return False

    def _spectate(self) -> None:
        key = tuple(sorted(seats_to_act(self.view)))
        if self.board_key is None or (key != self.board_key and self.events_since_board >= EVENTS_PER_BOARD):
            self.print_board()
            self.board_key = key

    def _refresh_choice(self, changed: bool) -> None:
        """Asks the server for this seat's choice now; a new menu when it is a new decision."""
        legal = self.game.legal()
        if not legal.actions:
            self.menu = None
            return
        if self.menu is not None and self.legal is not None and legal.view_version == self.legal.view_version:
            self.prompt()  # the same decision: the events above were others'
            return
        fresh = self.menu is not None or changed
        self.legal = legal
        self.menu = build_menu(self.game, self.view, legal)
        if self.auto_pass and len(legal.actions) == 1:
            self.console.print(f"[dim](auto) {legal.labels[0].text}[/dim]")
            self.submit(0)
            return
        self.show_choice("The position changed: choose from the new one." if fresh else "")

    def on_line(self, line: str) -> None:
        """One line the player typed."""
        if self.menu is None:
            answer = line.strip().lower()
            if answer == QUIT:
                raise Quit()
            if answer == BOARD:
                self.show_board_page()
            elif answer:
                self.console.print("[dim]Not your decision now (b: the board, q: leave).[/dim]")
            return
        if self.board_page is not None and not line.strip():
            self.show_choice()  # Enter after reading the board: back to the choice
            return
        result = self.menu.answer(line)
        if result.board:
            self.show_board_page()
        elif result.chosen is not None:
            self.submit(result.chosen)
        else:
            self.show_choice(result.message)

    def submit(self, index: int) -> None:
        """Submits the legal action at `index`; on a refusal, waits for the new position from the stream."""
        legal, self.menu = self.legal, None
        try:
            self.moved_at = int(self.game.submit(legal.actions[index], legal.view_version).version)
        except grpc.RpcError as error:
            self.console.print(f"[red]{explain(error, self.game.address)}[/red]")
            if error.code() not in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION):
                raise
            # The stream brings the new position; the seat's choice is asked for again then.
            self._refresh_choice(changed=True)

    def on_tick(self) -> None:
        """Once a second: the turn-timer warning."""
        if self.menu is None or self.clock is None or self.warned or self.clock.left <= WARN_SECONDS:
            return  # a timer shorter than the warning is on the input line already
        if self.clock.remaining() <= WARN_SECONDS:
            self.warned = True
            self.console.print(
                f"\n[yellow]{max(0, round(self.clock.remaining()))} s left before a bot decides for you.[/yellow]"
            )
            self.prompt()


def follow(
    console: Console,
    game: GameSession,
    seat: int | None,
    lines: Callable[[], Iterator[str]] | None = stdin_lines,
    auto_pass: bool = False,
) -> None:
    """Prints the match as it happens; plays `seat`'s turns (None: only watch) from the lines typed."""
    table = Table(console, game, seat, auto_pass, console.width, console.height)
    inbox: queue.Queue[tuple[str, Any]] = queue.Queue()
    start_thread(game.watch(), inbox, "update")
    if lines is not None:
        start_thread(lines(), inbox, "line")
    while True:
        try:
            kind, payload = inbox.get(timeout=TICK_SECONDS)
        except queue.Empty:
            table.on_tick()
            continue
        if kind == "update":
            if table.on_update(payload):
                return
        elif kind == "line":
            table.on_line(payload)
        elif kind == "update-end":
            return
        elif kind == "line-end":
            if seat is not None:
                raise EOFError
        elif kind.endswith("-error"):
            raise payload
