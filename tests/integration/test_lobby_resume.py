"""Leaving and coming back, against a real lobby, real game services and a real Redis (issue 14, items 2 and 4).

Bots default to greedy; ListMyMatches lists the caller's matches in progress; ResumeSeat
signs a fresh seat token the game service accepts, for the caller's own seat only; a
waiting ticket whose watcher left is cancelled after the grace; a seat mostly played by
the timeout bot is left unrated.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from typing import TypeVar

import grpc
import pytest
import redis

from menagerie.common.v1 import common_pb2, matches_pb2
from menagerie.lobby import keys
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from menagerie.shared.tokens import TokenSigner
from tests.support.fixtures import GameClients
from tests.support.game_client import Auth, GameClient, bearer, status_of
from tests.support.keys import KEYS
from tests.support.services import ServiceProcess, service_process

pytestmark = pytest.mark.integration

T = TypeVar("T")


def register(lobby: lobby_pb2_grpc.LobbyStub, name: str) -> tuple[str, Auth]:
    reply = lobby.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name=name))
    return reply.player_id, bearer(reply.token)


def seated(lobby: lobby_pb2_grpc.LobbyStub, ticket_id: str, auth: Auth) -> lobby_pb2.Ticket:
    """Follows WatchTicket to its end and returns the last ticket."""
    updates = list(lobby.WatchTicket(lobby_pb2.WatchTicketRequest(ticket_id=ticket_id), metadata=auth, timeout=30))
    return updates[-1].ticket


def wait_for(what: str, probe: Callable[[], T | None], timeout: float = 30.0) -> T:
    deadline = time.monotonic() + timeout
    while (value := probe()) is None:
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)
    return value


def test_bots_default_to_greedy(lobby: lobby_pb2_grpc.LobbyStub, game_client: GameClients) -> None:
    _, auth = register(lobby, "Ann")
    request = lobby_pb2.CreateTicketRequest(
        game="beasts", mode="capture", min_seats=2, max_seats=2, allow_bots=True, max_wait_seconds=1
    )
    ticket = lobby.CreateTicket(request, metadata=auth).ticket
    assert ticket.bot_level == "greedy"
    seating = seated(lobby, ticket.ticket_id, auth).seating
    summary = game_client("beasts").summary(seating.match_id, seating.seat_token)
    assert [s.bot_level for s in summary.seats if s.kind == common_pb2.SEAT_KIND_BOT] == ["greedy"]

    table = lobby.CreateTable(
        lobby_pb2.CreateTableRequest(game="beasts", mode="capture", seats=3, bot_seats=[2]), metadata=auth
    )
    assert table.ticket.bot_level == "greedy"
    lobby.CancelTicket(lobby_pb2.CancelTicketRequest(ticket_id=table.ticket.ticket_id), metadata=auth)


def test_list_my_matches_and_resume_a_seat(lobby: lobby_pb2_grpc.LobbyStub, game_client: GameClients) -> None:
    (ann_id, ann), (_, bob), (_, eve) = register(lobby, "Ann"), register(lobby, "Bob"), register(lobby, "Eve")
    request = lobby_pb2.CreateTicketRequest(game="beasts", mode="capture", min_seats=2, max_seats=2)
    tickets = [lobby.CreateTicket(request, metadata=auth).ticket for auth in (ann, bob)]
    ann_seat, bob_seat = (seated(lobby, t.ticket_id, auth).seating for t, auth in zip(tickets, (ann, bob), strict=True))
    match_id = ann_seat.match_id
    game = game_client("beasts")

    (mine,) = [m for m in lobby.ListMyMatches(lobby_pb2.ListMyMatchesRequest(), metadata=ann).matches]
    assert (mine.match_id, mine.game, mine.mode, mine.seat) == (match_id, "beasts", "capture", ann_seat.seat)
    assert mine.game_endpoint == ann_seat.game_endpoint and mine.available
    assert [s.player_id for s in mine.seats if s.seat == ann_seat.seat] == [ann_id]
    summary = game.summary(match_id, ann_seat.seat_token)
    assert list(mine.to_act) == list(summary.to_act) and mine.version == summary.version
    assert mine.my_turn == (ann_seat.seat in summary.to_act)
    assert sorted(d.seat for d in mine.clock.deadlines) == sorted(summary.to_act)
    assert not lobby.ListMyMatches(lobby_pb2.ListMyMatchesRequest(), metadata=eve).matches

    resumed = lobby.ResumeSeat(lobby_pb2.ResumeSeatRequest(match_id=match_id), metadata=ann)
    fresh = resumed.seating.seat_token
    assert (resumed.seating.match_id, resumed.seating.seat, resumed.game) == (match_id, ann_seat.seat, "beasts")
    assert fresh and fresh != ann_seat.seat_token and resumed.expires_at.seconds > time.time()
    assert game.view(match_id, fresh).view.viewer == ann_seat.seat
    tokens = {ann_seat.seat: fresh, bob_seat.seat: bob_seat.seat_token}
    to_act = summary.to_act[0]
    legal = game.legal(match_id, tokens[to_act])
    moved = game.submit(match_id, tokens[to_act], legal.actions[0], legal.view_version)
    assert moved.version == summary.version + 1
    if to_act != ann_seat.seat:  # the fresh token acts too once it is Ann's turn
        summary = game.summary(match_id, fresh)
        if ann_seat.seat in summary.to_act:
            legal = game.legal(match_id, fresh)
            assert game.submit(match_id, fresh, legal.actions[0], legal.view_version).version == summary.version + 1

    code, details = status_of(lambda: lobby.ResumeSeat(lobby_pb2.ResumeSeatRequest(match_id=match_id), metadata=eve))
    assert code == grpc.StatusCode.PERMISSION_DENIED and "no seat" in details
    other = lobby_pb2.ResumeSeatRequest(match_id=match_id, seat=bob_seat.seat)
    assert status_of(lambda: lobby.ResumeSeat(other, metadata=ann))[0] == grpc.StatusCode.PERMISSION_DENIED
    unknown = lobby_pb2.ResumeSeatRequest(match_id=uuid.uuid4().hex)
    assert status_of(lambda: lobby.ResumeSeat(unknown, metadata=ann))[0] == grpc.StatusCode.NOT_FOUND
    bad = lobby_pb2.ResumeSeatRequest(match_id="")
    assert status_of(lambda: lobby.ResumeSeat(bad, metadata=ann))[0] == grpc.StatusCode.INVALID_ARGUMENT

    while summary := game.summary(match_id, fresh):
        if not summary.to_act:
            break
        token = tokens[summary.to_act[0]]
        legal = game.legal(match_id, token)
        game.submit(match_id, token, legal.actions[0], legal.view_version)
    assert summary.status == common_pb2.MATCH_STATUS_FINISHED
    code, details = status_of(lambda: lobby.ResumeSeat(lobby_pb2.ResumeSeatRequest(match_id=match_id), metadata=ann))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "finished" in details
    assert match_id not in [
        m.match_id for m in lobby.ListMyMatches(lobby_pb2.ListMyMatchesRequest(), metadata=ann).matches
    ]
    assert status_of(lambda: lobby.ListMyMatches(lobby_pb2.ListMyMatchesRequest(), metadata=bearer(fresh)))[0] == (
        grpc.StatusCode.PERMISSION_DENIED
    )


def test_a_seat_mostly_played_by_the_timeout_bot_is_left_unrated(
    lobby: lobby_pb2_grpc.LobbyStub, game_client: GameClients, service_token: str, signer: TokenSigner
) -> None:
    """Ann plays her seat; Bob's timer runs out at every turn and a bot decides: Ann is rated, Bob is not."""
    (ann_id, _), (bob_id, _) = register(lobby, "Ann"), register(lobby, "Bob")
    game: GameClient = game_client("beasts")
    request = matches_pb2.CreateMatchRequest(
        match_id=uuid.uuid4().hex,
        config=common_pb2.MatchConfig(game="beasts", mode="capture", turn_timer_seconds=1),
        seats=[
            common_pb2.SeatInfo(seat=0, player_id=ann_id, display_name="Ann", kind=common_pb2.SEAT_KIND_HUMAN),
            common_pb2.SeatInfo(seat=1, player_id=bob_id, display_name="Bob", kind=common_pb2.SEAT_KIND_HUMAN),
        ],
        seed=0,
    )
    created = game.matches.CreateMatch(request, metadata=bearer(service_token))
    match_id = created.match.match_id
    ann_token = next(c.token for c in created.seat_tokens if c.seat == 0)
    timeout_bot, _ = signer.issue_seat(match_id, 1, "bots", "Bot", 300, bot=True)
    while summary := game.summary(match_id, service_token):
        if not summary.to_act:
            break
        if summary.to_act[0] == 0:
            legal = game.legal(match_id, ann_token)
            game.submit(match_id, ann_token, legal.actions[0], legal.view_version)
            continue
        view = game.view(match_id, timeout_bot)
        (deadline,) = view.clock.deadlines
        wait = deadline.deadline.ToMilliseconds() - view.clock.server_time.ToMilliseconds()
        time.sleep(max(0, wait) / 1000 + 0.05)
        legal = game.legal(match_id, timeout_bot)
        game.submit(match_id, timeout_bot, legal.actions[0], legal.view_version)
    decisions = {d.seat: (d.by_player, d.by_timeout) for d in summary.decisions}
    assert decisions[0][1] == 0 and decisions[1][0] == 0 and decisions[1][1] > 0

    def rated() -> lobby_pb2.LeaderboardEntry | None:
        entries = lobby.GetLeaderboard(lobby_pb2.GetLeaderboardRequest(game="beasts", limit=100)).entries
        return next((e for e in entries if e.player_id == ann_id), None)

    ann_entry = wait_for("Ann's rating", rated)
    assert ann_entry.matches == 1
    entries = lobby.GetLeaderboard(lobby_pb2.GetLeaderboardRequest(game="beasts", limit=100)).entries
    assert bob_id not in [e.player_id for e in entries]


@pytest.fixture(scope="module")
def impatient_lobby(redis_url: str, game_endpoints: str) -> Iterator[ServiceProcess]:
    """A lobby that cancels a ticket 1 s after its last watcher left."""
    with service_process(
        "menagerie.lobby",
        redis_url,
        KEYS,
        MENAGERIE_GAME_ENDPOINTS=game_endpoints,
        MENAGERIE_MATCHMAKER_INTERVAL_MS="50",
        MENAGERIE_TICKET_WATCH_GRACE_SECONDS="1",
    ) as service:
        yield service


def test_a_waiting_ticket_whose_watcher_left_is_cancelled(impatient_lobby: ServiceProcess, redis_url: str) -> None:
    with grpc.insecure_channel(impatient_lobby.address) as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        _, auth = register(lobby, "Ann")
        request = lobby_pb2.CreateTicketRequest(game="beasts", mode="capture", min_seats=6, max_seats=6)
        kept = lobby.CreateTicket(request, metadata=auth).ticket  # never watched: stays in the queue
        left = lobby.CreateTicket(request, metadata=auth).ticket
        stream = lobby.WatchTicket(lobby_pb2.WatchTicketRequest(ticket_id=left.ticket_id), metadata=auth, timeout=30)
        assert next(iter(stream)).ticket.status == lobby_pb2.TICKET_STATUS_WAITING
        stream.cancel()  # the client went away (Ctrl-C, a closed page)
        client = redis.Redis.from_url(redis_url)
        try:

            def status(ticket_id: str) -> str:
                value = client.hget(keys.ticket(ticket_id), "status")
                assert isinstance(value, bytes)
                return value.decode()

            wait_for("the left ticket to be cancelled", lambda: status(left.ticket_id) == "cancelled" or None)
            assert status(kept.ticket_id) == "waiting"
        finally:
            client.close()
        final = seated(lobby, left.ticket_id, auth)
        assert final.status == lobby_pb2.TICKET_STATUS_CANCELLED
        # A watcher that stays keeps its ticket: watched past the grace, it is still waiting.
        stream = lobby.WatchTicket(lobby_pb2.WatchTicketRequest(ticket_id=kept.ticket_id), metadata=auth, timeout=30)
        updates = iter(stream)
        started = time.monotonic()
        update = next(updates)
        while time.monotonic() - started < 3:
            update = next(updates)
        assert update.ticket.status == lobby_pb2.TICKET_STATUS_WAITING
        stream.cancel()
        lobby.CancelTicket(lobby_pb2.CancelTicketRequest(ticket_id=kept.ticket_id), metadata=auth)
