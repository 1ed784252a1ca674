"""The lobby's quotas against a real Redis and real lobby and game processes.

Guests expire unless they play; a player holds a bounded number of open tickets and
tables (RESOURCE_EXHAUSTED past the cap, exact under concurrent calls); a private table
nobody completes in time closes and its tickets expire.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import grpc
import pytest
import redis

from menagerie.lobby import keys
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tests.support.game_client import Auth, bearer, status_of
from tests.support.keys import KEYS
from tests.support.services import ServiceProcess, service_process

pytestmark = pytest.mark.integration


TICKETS = 3
TABLES = 2
GUEST_TTL = 3600
# Past a typical matchmaker pass but short enough to wait for in a test.
SHORT_TABLE_LIFETIME = 2


@pytest.fixture(scope="module")
def capped_lobby(redis_url: str, game_endpoints: str) -> Iterator[ServiceProcess]:
    """A lobby of its own with small caps (its tables live the default 30 minutes)."""
    with service_process(
        "menagerie.lobby",
        redis_url,
        KEYS,
        MENAGERIE_GAME_ENDPOINTS=game_endpoints,
        MENAGERIE_MATCHMAKER_INTERVAL_MS="50",
        MENAGERIE_MAX_OPEN_TICKETS=str(TICKETS),
        MENAGERIE_MAX_OPEN_TABLES=str(TABLES),
        MENAGERIE_GUEST_PLAYER_TTL_SECONDS=str(GUEST_TTL),
    ) as service:
        yield service


@pytest.fixture(scope="module")
def lobby(capped_lobby: ServiceProcess) -> Iterator[lobby_pb2_grpc.LobbyStub]:
    with grpc.insecure_channel(capped_lobby.address) as channel:
        yield lobby_pb2_grpc.LobbyStub(channel)


@pytest.fixture
def store(redis_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


def register(lobby: lobby_pb2_grpc.LobbyStub, name: str = "Ann") -> tuple[str, Auth]:
    reply = lobby.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name=name))
    return reply.player_id, bearer(reply.token)


def waiting_ticket(**fields: object) -> lobby_pb2.CreateTicketRequest:
    """A ticket that waits: six seats, no bots (one player's tickets never share a table)."""
    return lobby_pb2.CreateTicketRequest(game="beasts", mode="capture", min_seats=6, max_seats=6, **fields)  # type: ignore[arg-type]


def table_request(seats: int = 3) -> lobby_pb2.CreateTableRequest:
    return lobby_pb2.CreateTableRequest(game="beasts", mode="capture", seats=seats)


def final(lobby: lobby_pb2_grpc.LobbyStub, ticket_id: str, auth: Auth, timeout: float = 30) -> lobby_pb2.Ticket:
    """Follows WatchTicket to its end and returns the last ticket."""
    last = None
    for update in lobby.WatchTicket(lobby_pb2.WatchTicketRequest(ticket_id=ticket_id), metadata=auth, timeout=timeout):
        last = update.ticket
    assert last is not None
    return last


def cancel(lobby: lobby_pb2_grpc.LobbyStub, ticket_id: str, auth: Auth) -> lobby_pb2.Ticket:
    return lobby.CancelTicket(lobby_pb2.CancelTicketRequest(ticket_id=ticket_id), metadata=auth).ticket


# ------------------------------------------------------------------ guests


def test_a_guest_expires_unless_it_plays(lobby: lobby_pb2_grpc.LobbyStub, store: redis.Redis) -> None:
    player_id, auth = register(lobby)
    assert 0 < store.ttl(keys.player(player_id)) <= GUEST_TTL, "a guest who never plays is forgotten"
    ticket = lobby.CreateTicket(
        lobby_pb2.CreateTicketRequest(
            game="beasts", mode="capture", min_seats=2, max_seats=2, allow_bots=True, max_wait_seconds=1
        ),
        metadata=auth,
    ).ticket
    assert final(lobby, ticket.ticket_id, auth).status == lobby_pb2.TICKET_STATUS_SEATED
    assert store.ttl(keys.player(player_id)) == -1, "a player seated in a match is kept"
    assert store.hget(keys.player(player_id), "name") == b"Ann"


def test_an_expired_guest_is_told_to_register_again(lobby: lobby_pb2_grpc.LobbyStub, store: redis.Redis) -> None:
    _, host = register(lobby, "Host")
    table = lobby.CreateTable(table_request(), metadata=host)
    player_id, auth = register(lobby)
    # The guest's record expires (as it would after guest_player_ttl_seconds); its token is still valid.
    store.pexpire(keys.player(player_id), 1)
    while store.exists(keys.player(player_id)):
        time.sleep(0.01)
    join = lobby_pb2.JoinTableRequest(table_id=table.table_id, join_code=table.join_code)
    for call in (
        lambda: lobby.CreateTicket(waiting_ticket(), metadata=auth),
        lambda: lobby.CreateTable(table_request(), metadata=auth),
        lambda: lobby.JoinTable(join, metadata=auth),
    ):
        code, details = status_of(call)
        assert code == grpc.StatusCode.UNAUTHENTICATED and "register again" in details
    cancel(lobby, table.ticket.ticket_id, host)


# ------------------------------------------------------------------ tickets


def test_open_tickets_are_capped_and_cancelling_frees_one(lobby: lobby_pb2_grpc.LobbyStub) -> None:
    _, auth = register(lobby)
    tickets = [lobby.CreateTicket(waiting_ticket(), metadata=auth).ticket for _ in range(TICKETS)]
    code, details = status_of(lambda: lobby.CreateTicket(waiting_ticket(), metadata=auth))
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert f"{TICKETS} open tickets" in details and "CancelTicket" in details
    # Another player is not affected.
    _, other = register(lobby, "Bob")
    cancel(lobby, lobby.CreateTicket(waiting_ticket(), metadata=other).ticket.ticket_id, other)
    cancel(lobby, tickets.pop().ticket_id, auth)
    tickets.append(lobby.CreateTicket(waiting_ticket(), metadata=auth).ticket)
    assert status_of(lambda: lobby.CreateTicket(waiting_ticket(), metadata=auth))[0] == (
        grpc.StatusCode.RESOURCE_EXHAUSTED
    )
    for ticket in tickets:
        cancel(lobby, ticket.ticket_id, auth)


async def test_concurrent_tickets_at_the_cap_pass_exactly_the_cap(capped_lobby: ServiceProcess) -> None:
    async with grpc.aio.insecure_channel(capped_lobby.address) as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        player = await lobby.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name="Ann"))
        auth = bearer(player.token)
        replies = await asyncio.gather(
            *(lobby.CreateTicket(waiting_ticket(), metadata=auth) for _ in range(4 * TICKETS)),
            return_exceptions=True,
        )
        created = [r.ticket for r in replies if isinstance(r, lobby_pb2.CreateTicketResponse)]
        refused = [r.code() for r in replies if isinstance(r, grpc.aio.AioRpcError)]
        assert len(created) == TICKETS
        assert refused == [grpc.StatusCode.RESOURCE_EXHAUSTED] * (3 * TICKETS)
        for ticket in created:
            await lobby.CancelTicket(lobby_pb2.CancelTicketRequest(ticket_id=ticket.ticket_id), metadata=auth)


def test_a_seated_ticket_frees_its_slot(lobby: lobby_pb2_grpc.LobbyStub) -> None:
    _, auth = register(lobby)
    bots = lobby_pb2.CreateTicketRequest(
        game="beasts", mode="capture", min_seats=2, max_seats=2, allow_bots=True, max_wait_seconds=1
    )
    tickets = [lobby.CreateTicket(bots, metadata=auth).ticket for _ in range(TICKETS)]
    for ticket in tickets:
        assert final(lobby, ticket.ticket_id, auth).status == lobby_pb2.TICKET_STATUS_SEATED
    waiting = [lobby.CreateTicket(waiting_ticket(), metadata=auth).ticket for _ in range(TICKETS)]
    assert status_of(lambda: lobby.CreateTicket(waiting_ticket(), metadata=auth))[0] == (
        grpc.StatusCode.RESOURCE_EXHAUSTED
    )
    for ticket in waiting:
        cancel(lobby, ticket.ticket_id, auth)


# ------------------------------------------------------------------ tables


def test_open_tables_are_capped_and_closing_one_frees_it(lobby: lobby_pb2_grpc.LobbyStub) -> None:
    _, auth = register(lobby, "Host")
    tables = [lobby.CreateTable(table_request(), metadata=auth) for _ in range(TABLES)]
    code, details = status_of(lambda: lobby.CreateTable(table_request(), metadata=auth))
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert f"{TABLES} open tables" in details and "CancelTicket" in details
    # Leaving a table nobody else waits at closes it, which frees the slot.
    cancel(lobby, tables.pop().ticket.ticket_id, auth)
    tables.append(lobby.CreateTable(table_request(), metadata=auth))
    # A table's ticket counts among the player's tickets: TABLES tables + 1 ticket reach TICKETS.
    ticket = lobby.CreateTicket(waiting_ticket(), metadata=auth).ticket
    code, details = status_of(lambda: lobby.CreateTicket(waiting_ticket(), metadata=auth))
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED and f"{TICKETS} open tickets" in details
    # Joining a table takes a ticket too.
    _, guest = register(lobby, "Guest")
    guest_tables = [lobby.CreateTable(table_request(), metadata=guest) for _ in range(TABLES)]
    guest_ticket = lobby.CreateTicket(waiting_ticket(), metadata=guest).ticket
    join = lobby_pb2.JoinTableRequest(table_id=tables[0].table_id, join_code=tables[0].join_code)
    code, details = status_of(lambda: lobby.JoinTable(join, metadata=guest))
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED and f"{TICKETS} open tickets" in details
    wrong = lobby_pb2.JoinTableRequest(table_id=tables[0].table_id, join_code="AAAAAA")
    assert status_of(lambda: lobby.JoinTable(wrong, metadata=guest)) == (
        grpc.StatusCode.PERMISSION_DENIED,
        "the join code is wrong",
    )
    cancel(lobby, guest_ticket.ticket_id, guest)
    joined = lobby.JoinTable(join, metadata=guest).ticket
    for ticket_id, who in [
        (ticket.ticket_id, auth),
        (joined.ticket_id, guest),
        *((t.ticket.ticket_id, auth) for t in tables),
        *((t.ticket.ticket_id, guest) for t in guest_tables),
    ]:
        cancel(lobby, ticket_id, who)


async def test_concurrent_tables_at_the_cap_pass_exactly_the_cap(capped_lobby: ServiceProcess) -> None:
    async with grpc.aio.insecure_channel(capped_lobby.address) as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        player = await lobby.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name="Host"))
        auth = bearer(player.token)
        replies = await asyncio.gather(
            *(lobby.CreateTable(table_request(), metadata=auth) for _ in range(4 * TABLES)),
            return_exceptions=True,
        )
        created = [r for r in replies if isinstance(r, lobby_pb2.CreateTableResponse)]
        refused = [r.code() for r in replies if isinstance(r, grpc.aio.AioRpcError)]
        assert len(created) == TABLES
        assert refused == [grpc.StatusCode.RESOURCE_EXHAUSTED] * (3 * TABLES)
        for table in created:
            await lobby.CancelTicket(lobby_pb2.CancelTicketRequest(ticket_id=table.ticket.ticket_id), metadata=auth)


def test_an_expired_table_ends_its_tickets_and_frees_its_slot(redis_url: str, game_endpoints: str) -> None:
    with (
        service_process(
            "menagerie.lobby",
            redis_url,
            KEYS,
            MENAGERIE_GAME_ENDPOINTS=game_endpoints,
            MENAGERIE_MATCHMAKER_INTERVAL_MS="50",
            MENAGERIE_MAX_OPEN_TICKETS="1",
            MENAGERIE_MAX_OPEN_TABLES="1",
            MENAGERIE_TABLE_LIFETIME_SECONDS=str(SHORT_TABLE_LIFETIME),
        ) as service,
        grpc.insecure_channel(service.address) as channel,
    ):
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        _, host = register(lobby, "Host")
        _, guest = register(lobby, "Guest")
        table = lobby.CreateTable(table_request(seats=3), metadata=host)
        join = lobby_pb2.JoinTableRequest(table_id=table.table_id, join_code=table.join_code)
        joined = lobby.JoinTable(join, metadata=guest).ticket
        # One of three player seats stays free: nobody completes the table.
        assert final(lobby, table.ticket.ticket_id, host).status == lobby_pb2.TICKET_STATUS_EXPIRED
        assert final(lobby, joined.ticket_id, guest).status == lobby_pb2.TICKET_STATUS_EXPIRED
        code, details = status_of(lambda: lobby.JoinTable(join, metadata=register(lobby, "Late")[1]))
        assert code == grpc.StatusCode.FAILED_PRECONDITION and "expired" in details
        # Both players' slots (caps of one) are free again.
        again = lobby.CreateTable(table_request(), metadata=host)
        ticket = lobby.CreateTicket(waiting_ticket(), metadata=guest).ticket
        cancel(lobby, again.ticket.ticket_id, host)
        cancel(lobby, ticket.ticket_id, guest)
