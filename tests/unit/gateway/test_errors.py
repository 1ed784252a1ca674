"""What the gateway lets through of an error or a reply (menagerie.gateway.errors; issue 29, item 4)."""

from __future__ import annotations

import grpc
from connectrpc.code import Code
from google.protobuf import any_pb2
from google.rpc import error_details_pb2

from menagerie.gateway.errors import public_error, scrub, strip_endpoints
from menagerie.lobby.v1 import lobby_pb2


def test_addresses_are_scrubbed_from_text() -> None:
    """Must: no internal address in any answer to a browser."""
    text = "failed to connect to all addresses; last error: UNKNOWN: ipv4:127.0.0.1:51353: Failed to connect"
    assert "127.0.0.1" not in scrub(text) and "51353" not in scrub(text)
    assert scrub("caller: peer:ipv4:10.0.0.7:40000 over its rate") == "caller: <internal> over its rate"
    assert scrub("zoo:50051 and [::1]:50050 and 192.168.1.2") == "<internal> and <internal> and <internal>"
    assert scrub("expected version 3, the match is at 5") == "expected version 3, the match is at 5"


def test_a_quota_refusal_keeps_its_details_without_the_callers_address() -> None:
    """Must: no internal address in any answer to a browser (quota refusals named the gateway's peer)."""
    violation = error_details_pb2.QuotaFailure.Violation(subject="peer:ipv4:10.0.0.7:40000", description="too fast")
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.QuotaFailure(violations=[violation]))
    info = any_pb2.Any()
    info.Pack(error_details_pb2.ErrorInfo(reason="RATE", metadata={"caller": "peer:ipv4:10.0.0.7:40000"}))
    error = public_error(grpc.StatusCode.RESOURCE_EXHAUSTED, "slow down, peer:ipv4:10.0.0.7:40000", [detail, info], "m")
    assert error.code is Code.RESOURCE_EXHAUSTED and "10.0.0.7" not in error.message
    quota, error_info = error_details_pb2.QuotaFailure(), error_details_pb2.ErrorInfo()
    assert error.details[0].Unpack(quota) and error.details[1].Unpack(error_info)
    assert quota.violations[0].subject == "<internal>" and quota.violations[0].description == "too fast"
    assert error_info.metadata["caller"] == "<internal>" and error_info.reason == "RATE"


def test_hidden_codes_are_a_fixed_sentence() -> None:
    """Must: UNAVAILABLE/UNKNOWN/INTERNAL answers to browsers carry a fixed sentence."""
    for code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL):
        error = public_error(code, "ipv4:127.0.0.1:51353: Failed to connect", [], "m")
        assert error.message.startswith("the service is unavailable at the moment") and "127.0.0.1" not in error.message


def test_replies_lose_the_games_endpoints() -> None:
    """Must: ListGames, MyMatch and Seating hand no browser the games' internal endpoints."""
    games = lobby_pb2.ListGamesResponse(games=[lobby_pb2.GameListing(game="zoo", endpoint="10.0.0.3:50051")])
    assert strip_endpoints(games).games[0].game == "zoo" and not games.games[0].endpoint
    seating = lobby_pb2.Seating(match_id="m", game_endpoint="10.0.0.3:50051")
    ticket = lobby_pb2.WatchTicketResponse(ticket=lobby_pb2.Ticket(ticket_id="t", seating=seating))
    assert not strip_endpoints(ticket).ticket.seating.game_endpoint and ticket.ticket.seating.match_id == "m"
    mine = lobby_pb2.ListMyMatchesResponse(matches=[lobby_pb2.MyMatch(match_id="m", game_endpoint="zoo:50051")])
    assert not strip_endpoints(mine).matches[0].game_endpoint
    resumed = lobby_pb2.ResumeSeatResponse(seating=lobby_pb2.Seating(game_endpoint="zoo:50051"), game="zoo")
    assert not strip_endpoints(resumed).seating.game_endpoint
