"""Talking to the lobby and to a game service on behalf of one terminal user."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import grpc

from menagerie.cli.games import GAMES, GameUI
from menagerie.common.v1 import matches_pb2, matches_pb2_grpc
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    """gRPC metadata carrying `token`."""
    return (("authorization", f"Bearer {token}"),)


class LobbySession:
    """A registered guest at the lobby."""

    def __init__(self, address: str, name: str) -> None:
        self.address = address
        self.channel = grpc.insecure_channel(address)
        self.stub = lobby_pb2_grpc.LobbyStub(self.channel)
        reply = self.stub.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name=name), timeout=10)
        self.player_id = reply.player_id
        self.auth = bearer(reply.token)

    def games(self) -> lobby_pb2.ListGamesResponse:
        return self.stub.ListGames(lobby_pb2.ListGamesRequest(), timeout=10)

    def queue(self, request: lobby_pb2.CreateTicketRequest) -> lobby_pb2.Ticket:
        return self.stub.CreateTicket(request, metadata=self.auth, timeout=10).ticket

    def watch_ticket(self, ticket_id: str) -> Iterator[lobby_pb2.WatchTicketResponse]:
        yield from self.stub.WatchTicket(lobby_pb2.WatchTicketRequest(ticket_id=ticket_id), metadata=self.auth)

    def cancel(self, ticket_id: str) -> None:
        self.stub.CancelTicket(lobby_pb2.CancelTicketRequest(ticket_id=ticket_id), metadata=self.auth, timeout=10)

    def endpoint(self, game: str) -> str:
        for listing in self.games().games:
            if listing.game == game:
                return str(listing.endpoint)
        raise KeyError(f"the lobby knows no game {game!r}")

    def close(self) -> None:
        self.channel.close()


class GameSession:
    """One match on its game service, as one seat (or a spectator)."""

    def __init__(self, game: str, address: str, match_id: str, token: str) -> None:
        self.ui: GameUI = GAMES[game]
        self.address = address
        self.channel = grpc.insecure_channel(address)
        self.stub = self.ui.stub(self.channel)
        self.matches = matches_pb2_grpc.MatchesStub(self.channel)
        self.match_id = match_id
        self.auth = bearer(token)

    def names(self) -> dict[int, str]:
        """Seat -> display name."""
        summary = self.matches.GetMatch(matches_pb2.GetMatchRequest(match_id=self.match_id), metadata=self.auth)
        return {s.seat: s.display_name for s in summary.match.seats}

    def view(self) -> Any:
        pb = self.ui.pb2
        return self.stub.GetView(pb.GetViewRequest(match_id=self.match_id), metadata=self.auth, timeout=10)

    def watch(self, from_version: int = 0) -> Any:
        pb = self.ui.pb2
        return self.stub.Watch(pb.WatchRequest(match_id=self.match_id, from_version=from_version), metadata=self.auth)

    def legal(self) -> Any:
        pb = self.ui.pb2
        return self.stub.ListLegalActions(pb.ListLegalActionsRequest(match_id=self.match_id), metadata=self.auth)

    def submit(self, action: Any, version: int) -> Any:
        pb = self.ui.pb2
        request = pb.SubmitActionRequest(
            match_id=self.match_id, expected_version=version, idempotency_key=uuid.uuid4().hex, action=action
        )
        return self.stub.SubmitAction(request, metadata=self.auth, timeout=10)

    def close(self) -> None:
        self.channel.close()
