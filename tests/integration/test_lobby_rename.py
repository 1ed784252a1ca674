"""RenamePlayer against a real lobby, real game services and a real Redis (issue 30, item 10).

A new name keeps the player: the same id, its matches in progress still listed and resumable
with the new token, the next ticket seated under the new name; a bad name or a seat token is refused.
"""

from __future__ import annotations

import grpc
import pytest

from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tests.support.fixtures import GameClients
from tests.support.game_client import bearer, status_of

pytestmark = pytest.mark.integration


def seated(lobby: lobby_pb2_grpc.LobbyStub, request: lobby_pb2.CreateTicketRequest, token: str) -> lobby_pb2.Seating:
    """Queues with bots allowed and follows the ticket until it is seated."""
    ticket = lobby.CreateTicket(request, metadata=bearer(token)).ticket
    watch = lobby_pb2.WatchTicketRequest(ticket_id=ticket.ticket_id)
    return list(lobby.WatchTicket(watch, metadata=bearer(token), timeout=30))[-1].ticket.seating


def test_a_renamed_player_keeps_its_matches(lobby: lobby_pb2_grpc.LobbyStub, game_client: GameClients) -> None:
    first = lobby.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name="Ann"))
    request = lobby_pb2.CreateTicketRequest(
        game="zoo", mode="beginner", min_seats=2, max_seats=2, allow_bots=True, max_wait_seconds=1
    )
    before = seated(lobby, request, first.token)

    renamed = lobby.RenamePlayer(lobby_pb2.RenamePlayerRequest(display_name="  Annie "), metadata=bearer(first.token))
    assert (renamed.player_id, renamed.display_name) == (first.player_id, "Annie")
    assert renamed.token != first.token and renamed.expires_at.seconds > 0

    mine = lobby.ListMyMatches(lobby_pb2.ListMyMatchesRequest(), metadata=bearer(renamed.token)).matches
    assert before.match_id in [m.match_id for m in mine]
    resumed = lobby.ResumeSeat(lobby_pb2.ResumeSeatRequest(match_id=before.match_id), metadata=bearer(renamed.token))
    assert resumed.seating.seat == before.seat

    after = seated(lobby, request, renamed.token)
    summary = game_client("zoo").summary(after.match_id, after.seat_token)
    assert [s.display_name for s in summary.seats if s.seat == after.seat] == ["Annie"]


def test_a_bad_name_or_no_player_token_is_refused(lobby: lobby_pb2_grpc.LobbyStub) -> None:
    player = lobby.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name="Bob"))
    auth = bearer(player.token)
    for name in ("", "x" * 33, "tab\there"):
        request = lobby_pb2.RenamePlayerRequest(display_name=name)
        code, _ = status_of(lambda: lobby.RenamePlayer(request, metadata=auth))  # noqa: B023 - called at once
        assert code == grpc.StatusCode.INVALID_ARGUMENT, name
    code, _ = status_of(lambda: lobby.RenamePlayer(lobby_pb2.RenamePlayerRequest(display_name="Eve")))
    assert code == grpc.StatusCode.UNAUTHENTICATED
