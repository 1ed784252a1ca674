"""Queueing at the lobby the way a client does: register, create a ticket, follow it."""

from __future__ import annotations

from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tests.support.game_client import bearer


def queue_until_seated(
    lobby: lobby_pb2_grpc.LobbyStub, request: lobby_pb2.CreateTicketRequest, display_name: str
) -> tuple[lobby_pb2.RegisterPlayerResponse, lobby_pb2.Ticket]:
    """Registers a guest, queues `request` for it and follows the ticket to its last update."""
    player = lobby.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name=display_name))
    auth = bearer(player.token)
    ticket = lobby.CreateTicket(request, metadata=auth).ticket
    updates = list(lobby.WatchTicket(lobby_pb2.WatchTicketRequest(ticket_id=ticket.ticket_id), metadata=auth))
    return player, updates[-1].ticket
