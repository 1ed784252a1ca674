"""Ctrl-C while queued leaves the queue, even when Python turned the interrupt into a RuntimeError.

Python raises KeyboardInterrupt wherever the main thread is; landing inside a lock's release
(threading), it surfaces as "RuntimeError: cannot release un-acquired lock" instead (seen in a
full run: the CLI said "Could not play: cannot release un-acquired lock." and left its ticket
queued). Once Ctrl-C was pressed, such an error is the player leaving.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from rich.console import Console

from menagerie.cli import connection
from menagerie.cli.play import wait_for_seat
from menagerie.lobby.v1 import lobby_pb2


class QueuedLobby:
    """A lobby session whose ticket waits, then breaks as an interrupt landing in a lock breaks it."""

    address = "127.0.0.1:1"

    def __init__(self) -> None:
        self.cancelled: list[str] = []

    def queue(self, request: lobby_pb2.CreateTicketRequest) -> lobby_pb2.Ticket:
        return lobby_pb2.Ticket(ticket_id="t-1", status=lobby_pb2.TICKET_STATUS_WAITING)

    def watch_ticket(self, ticket_id: str) -> Iterator[lobby_pb2.WatchTicketResponse]:
        yield lobby_pb2.WatchTicketResponse(ticket=lobby_pb2.Ticket(ticket_id=ticket_id), waited_seconds=1)
        raise RuntimeError("cannot release un-acquired lock")

    def cancel(self, ticket_id: str) -> None:
        self.cancelled.append(ticket_id)


@pytest.fixture
def pressed() -> Iterator[None]:
    """Ctrl-C pressed (the process's interrupt state), cleared after the test."""
    connection._interrupted.set()
    yield
    connection._interrupted.clear()


def test_an_interrupt_turned_runtime_error_still_leaves_the_queue(pressed: None) -> None:
    lobby = QueuedLobby()
    out = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        wait_for_seat(Console(file=out), lobby, lobby_pb2.CreateTicketRequest(game="beasts"))  # type: ignore[arg-type]
    assert lobby.cancelled == ["t-1"]
    assert "Left the queue (ticket t-1 cancelled)." in out.getvalue()


def test_without_an_interrupt_a_runtime_error_is_a_failure() -> None:
    lobby = QueuedLobby()
    with pytest.raises(RuntimeError, match="un-acquired"):
        wait_for_seat(Console(file=io.StringIO()), lobby, lobby_pb2.CreateTicketRequest(game="beasts"))  # type: ignore[arg-type]
    assert lobby.cancelled == []
