"""`menagerie play` and `menagerie watch`: the terminal game loop.

The game's Watch stream drives the loop: every event is printed as it happens, and
when a view shows it is this seat's turn, the board and the numbered legal actions are
drawn and the player chooses. Moves made meanwhile by others wait in the stream.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import closing
from typing import Any

import grpc
from rich.console import Console
from rich.table import Table

from menagerie.cli.errors import explain
from menagerie.cli.session import GameSession, LobbySession
from menagerie.lobby.v1 import lobby_pb2

QUIT = "q"


class Quit(Exception):
    """The player asked to leave."""


def wait_for_seat(console: Console, lobby: LobbySession, request: lobby_pb2.CreateTicketRequest) -> lobby_pb2.Seating:
    """Queues, shows the wait, and returns where the player sits."""
    ticket = lobby.queue(request)
    console.print(f"Queued for {request.game} ({request.mode}), ticket {ticket.ticket_id}.")
    with closing(lobby.watch_ticket(ticket.ticket_id)) as updates:
        for update in updates:
            status = update.ticket.status
            if status == lobby_pb2.TICKET_STATUS_SEATED:
                seating = update.ticket.seating
                bots = f" ({seating.bots} bots)" if seating.bots else ""
                console.print(f"Seated at seat {seating.seat} of {seating.seats}{bots} in match {seating.match_id}.")
                return seating
            if status in (lobby_pb2.TICKET_STATUS_CANCELLED, lobby_pb2.TICKET_STATUS_EXPIRED):
                raise RuntimeError(f"the ticket was {lobby_pb2.TicketStatus.Name(status).split('_')[-1].lower()}")
            console.print(f"Waiting for players… {update.waited_seconds} s")
    raise RuntimeError("the lobby stopped answering about the ticket")


def choose(console: Console, labels: list[str], codes: list[str], ask: Callable[[str], str]) -> int:
    """The index the player picks by number or by code (asks again until the answer is valid)."""
    table = Table(title="Your move", show_header=False, box=None)
    for number, (label, code) in enumerate(zip(labels, codes, strict=True), 1):
        table.add_row(f"{number:>3}", f"[dim]{code}[/dim]", label)
    console.print(table)
    by_code = {code.lower(): index for index, code in enumerate(codes)}
    while True:
        answer = ask(f"Choose 1–{len(labels)} or a code ({QUIT} to quit): ").strip().lower()
        if answer == QUIT:
            raise Quit()
        if answer.isdigit() and 1 <= int(answer) <= len(labels):
            return int(answer) - 1
        if answer in by_code:
            return by_code[answer]
        console.print(f"Type a number from 1 to {len(labels)}, a code, or {QUIT}.")


def seats_to_act(view: Any) -> set[int]:
    """The seats the view's prompt waits for."""
    return {*view.prompt.must, *view.prompt.may}


def take_turn(
    console: Console,
    game: GameSession,
    view: Any,
    names: dict[int, str],
    ask: Callable[[str], str],
    auto_pass: bool = False,
) -> int:
    """Draws the position and submits the player's choice (again after a refusal).

    With `auto_pass`, a decision with a single possible action is taken without asking
    (the player chose this; the server never takes it for them, since whether a seat has
    a choice may depend on its hidden cards). Returns the match version the move made
    (0 when there was nothing to do).
    """
    console.print(game.ui.draw(view, names))
    if view.prompt.text:
        console.print(f"[bold]{view.prompt.text}[/bold]")
    while True:
        legal = game.legal()
        if not legal.actions:
            return 0
        labels, codes = [label.text for label in legal.labels], [label.code for label in legal.labels]
        if auto_pass and len(legal.actions) == 1:
            console.print(f"[dim](auto) {labels[0]}[/dim]")
            action = legal.actions[0]
        else:
            action = legal.actions[choose(console, labels, codes, ask)]
        try:
            return int(game.submit(action, legal.view_version).version)
        except grpc.RpcError as error:
            console.print(f"[red]{explain(error, game.address)}[/red]")
            if error.code() not in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION):
                raise


def follow(
    console: Console, game: GameSession, seat: int | None, ask: Callable[[str], str], auto_pass: bool = False
) -> None:
    """Prints the match as it happens; plays `seat`'s turns (None: only watch)."""
    names = game.names()
    current = game.view().view  # names of spaces and creatures for the events before the first view
    stream = game.watch()
    shown_board = False
    # The stream may still be catching up with our own last move (others moved meanwhile):
    # a view older than that move is history to print, not a position to decide on.
    moved_at = 0
    try:
        for response in stream:
            if response.HasField("view"):
                current = response.view
            for event in response.events:
                if event.header.text:
                    console.print(event.header.text)
            if not response.HasField("view"):
                continue
            if len(current.outcome.seats) > 0:
                console.print(game.ui.draw(current, names))
                return
            if seat is not None and seat in seats_to_act(current) and response.version >= moved_at:
                moved_at = take_turn(console, game, current, names, ask, auto_pass)
            elif seat is None and not shown_board:
                console.print(game.ui.draw(current, names))
                shown_board = True
    finally:
        stream.close()  # cancels the stream's open call
