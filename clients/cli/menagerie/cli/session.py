"""Talking to the lobby and to a game service on behalf of one terminal user.

Every unary call has the deadline `Patience.call_seconds`; the streams reconnect by
themselves (menagerie.cli.connection), a Watch from the last version it delivered.
"""

from __future__ import annotations

import uuid
from collections.abc import Generator
from typing import Any

import grpc

from menagerie.cli.connection import Notify, Patience, StreamCall, open_channel, reconnecting
from menagerie.cli.games import GameUI, ui_for
from menagerie.cli.identity import Identity
from menagerie.common.v1 import matches_pb2, matches_pb2_grpc
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    """gRPC metadata carrying `token`."""
    return (("authorization", f"Bearer {token}"),)


def _quiet(_line: str) -> None:
    """Says nothing about reconnections (sessions used without a terminal)."""


class SessionClosed(Exception):
    """The game session was closed (its stream is not reopened)."""


class LobbySession:
    """A registered guest at the lobby."""

    def __init__(
        self,
        address: str,
        name: str,
        patience: Patience | None = None,
        notify: Notify = _quiet,
        identity: Identity | None = None,
    ) -> None:
        self.address = address
        self.patience = patience or Patience()
        self.notify = notify
        self.channel = open_channel(address)
        self.stub = lobby_pb2_grpc.LobbyStub(self.channel)
        if identity is None:
            reply = self.stub.RegisterPlayer(
                lobby_pb2.RegisterPlayerRequest(display_name=name), timeout=self.patience.call_seconds
            )
            expires = reply.expires_at.ToSeconds() if reply.HasField("expires_at") else 0
            identity = Identity(reply.player_id, reply.token, name, float(expires))
        self.identity = identity
        self.player_id = identity.player_id
        self.token = identity.token
        self.auth = bearer(identity.token)

    def rename(self, name: str) -> Identity:
        """Changes the player's display name at the lobby, keeping the player; the identity to keep from now on."""
        request = lobby_pb2.RenamePlayerRequest(display_name=name)
        reply = self.stub.RenamePlayer(request, metadata=self.auth, timeout=self.patience.call_seconds)
        expires = reply.expires_at.ToSeconds() if reply.HasField("expires_at") else 0
        self.identity = Identity(reply.player_id, reply.token, reply.display_name, float(expires))
        self.token = self.identity.token
        self.auth = bearer(self.identity.token)
        return self.identity

    def my_matches(self) -> lobby_pb2.ListMyMatchesResponse:
        """The player's matches in progress, newest first."""
        request = lobby_pb2.ListMyMatchesRequest()
        return self.stub.ListMyMatches(request, metadata=self.auth, timeout=self.patience.call_seconds)

    def resume(self, match_id: str, seat: int | None = None) -> lobby_pb2.ResumeSeatResponse:
        """A fresh seat token for the player's seat in `match_id`."""
        request = lobby_pb2.ResumeSeatRequest(match_id=match_id)
        if seat is not None:
            request.seat = seat
        return self.stub.ResumeSeat(request, metadata=self.auth, timeout=self.patience.call_seconds)

    def game_of(self, match_id: str) -> tuple[str, str]:
        """(game, endpoint) of the service that holds `match_id` (KeyError when none does)."""
        request = matches_pb2.GetMatchRequest(match_id=match_id)
        for listing in self.games().games:
            if not listing.available:  # every game can be drawn (a game without a board: the generic one)
                continue
            channel = open_channel(listing.endpoint)
            try:
                matches_pb2_grpc.MatchesStub(channel).GetMatch(
                    request, metadata=self.auth, timeout=self.patience.call_seconds
                )
            except grpc.RpcError as error:
                if error.code() in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.INVALID_ARGUMENT):
                    continue
                raise
            finally:
                channel.close()
            return str(listing.game), str(listing.endpoint)
        raise KeyError(f"no game service of the lobby holds a match {match_id!r}")

    def games(self) -> lobby_pb2.ListGamesResponse:
        """The games the lobby offers."""
        return self.stub.ListGames(lobby_pb2.ListGamesRequest(), timeout=self.patience.call_seconds)

    def leaderboard(self, game: str, limit: int) -> lobby_pb2.GetLeaderboardResponse:
        """Ratings of `game`, best first."""
        request = lobby_pb2.GetLeaderboardRequest(game=game, limit=limit)
        return self.stub.GetLeaderboard(request, timeout=self.patience.call_seconds)

    def queue(self, request: lobby_pb2.CreateTicketRequest) -> lobby_pb2.Ticket:
        """Queues the player; the new ticket."""
        return self.stub.CreateTicket(request, metadata=self.auth, timeout=self.patience.call_seconds).ticket

    def watch_ticket(self, ticket_id: str) -> Generator[lobby_pb2.WatchTicketResponse, None, None]:
        """The ticket's updates until it is seated, cancelled or expired (reconnecting when the lobby drops)."""
        request = lobby_pb2.WatchTicketRequest(ticket_id=ticket_id)

        # Reopening simply reads the ticket again: each update carries its whole state.
        def open_call(deadline: float) -> StreamCall[lobby_pb2.WatchTicketResponse]:
            return self.stub.WatchTicket(request, metadata=self.auth, timeout=deadline)

        return reconnecting(open_call, f"the lobby at {self.address}", self.patience, self.notify)

    def cancel(self, ticket_id: str) -> None:
        """Leaves the queue."""
        request = lobby_pb2.CancelTicketRequest(ticket_id=ticket_id)
        self.stub.CancelTicket(request, metadata=self.auth, timeout=self.patience.call_seconds)

    def endpoint(self, game: str) -> str:
        """Where `game`'s service listens (KeyError when the lobby does not know it)."""
        for listing in self.games().games:
            if listing.game == game:
                return str(listing.endpoint)
        raise KeyError(f"the lobby knows no game {game!r}")

    def close(self) -> None:
        """Closes the channel."""
        self.channel.close()


class GameSession:
    """One match on its game service, as one seat (or a spectator)."""

    def __init__(
        self,
        game: str,
        address: str,
        match_id: str,
        token: str,
        patience: Patience | None = None,
        notify: Notify = _quiet,
    ) -> None:
        self.ui: GameUI = ui_for(game)
        self.address = address
        self.patience = patience or Patience()
        self.notify = notify
        self.channel = open_channel(address)
        self.stub = self.ui.stub(self.channel)
        self.matches = matches_pb2_grpc.MatchesStub(self.channel)
        self.match_id = match_id
        self.auth = bearer(token)
        self.closed = False

    def names(self) -> dict[int, str]:
        """Seat -> display name."""
        request = matches_pb2.GetMatchRequest(match_id=self.match_id)
        summary = self.matches.GetMatch(request, metadata=self.auth, timeout=self.patience.call_seconds)
        return {s.seat: s.display_name for s in summary.match.seats}

    def view(self) -> Any:
        """The match as this seat (or a spectator) sees it now."""
        pb = self.ui.pb2
        request = pb.GetViewRequest(match_id=self.match_id)
        return self.stub.GetView(request, metadata=self.auth, timeout=self.patience.call_seconds)

    def watch(self, from_version: int = 0) -> Generator[Any, None, None]:
        """The match's updates after `from_version`, each version once, across reconnections."""
        pb = self.ui.pb2
        last = from_version

        def open_call(deadline: float) -> StreamCall[Any]:
            if self.closed:  # the session ended while the stream was down: nothing to reconnect for
                raise SessionClosed(self.match_id)
            request = pb.WatchRequest(match_id=self.match_id, from_version=last)
            call: StreamCall[Any] = self.stub.Watch(request, metadata=self.auth, timeout=deadline)
            return call

        delivered = False

        def notify(line: str) -> None:
            if not self.closed:  # a stream that broke because the session closed is no news
                self.notify(line)

        stream = reconnecting(open_call, f"the game service at {self.address}", self.patience, notify)
        try:
            for response in stream:
                # Reopened at the version last delivered, the server first repeats that
                # version's view (it sends the current view when nothing is newer).
                if delivered and response.version <= last:
                    continue
                last, delivered = int(response.version), True
                yield response
        finally:
            stream.close()  # cancels the open call now, not when the generator is collected

    def legal(self) -> Any:
        """This seat's legal actions now."""
        pb = self.ui.pb2
        request = pb.ListLegalActionsRequest(match_id=self.match_id)
        return self.stub.ListLegalActions(request, metadata=self.auth, timeout=self.patience.call_seconds)

    def submit(self, action: Any, version: int) -> Any:
        """Submits `action` against view version `version`."""
        pb = self.ui.pb2
        request = pb.SubmitActionRequest(
            match_id=self.match_id, expected_version=version, idempotency_key=uuid.uuid4().hex, action=action
        )
        return self.stub.SubmitAction(request, metadata=self.auth, timeout=self.patience.call_seconds)

    def leave(self) -> None:
        """Hands this seat to a bot at once, until the player returns (`take_back`)."""
        request = matches_pb2.LeaveSeatRequest(match_id=self.match_id)
        self.matches.LeaveSeat(request, metadata=self.auth, timeout=self.patience.call_seconds)

    def take_back(self) -> None:
        """Takes this seat back from the bot that played it while the player was away (nothing if it was not left)."""
        request = matches_pb2.ReturnToSeatRequest(match_id=self.match_id)
        self.matches.ReturnToSeat(request, metadata=self.auth, timeout=self.patience.call_seconds)

    def close(self) -> None:
        """Closes the channel (a stream still open ends quietly)."""
        self.closed = True
        self.channel.close()
