"""Many watchers on one game process: parked Watch streams must not starve other calls.

Each Watch waits for the next move of its match. Waiting must not hold a connection of
the pool the request path uses, or a crowd of spectators turns every other call of the
process into an error (measured before the fix: at 110 streams, INTERNAL everywhere and
health NOT_SERVING). Caps past which a stream is refused with RESOURCE_EXHAUSTED keep a
single caller from holding them all.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from menagerie.shared.games.binding import binding
from menagerie.shared.tokens import TokenSigner
from tests.support.crowd import first_messages, new_matches, spectator_streams
from tests.support.game_client import GameClient, bearer
from tests.support.keys import KEYS
from tests.support.services import ServiceProcess, game_process, service_process

pytestmark = [pytest.mark.integration, pytest.mark.faults]

GAME = "beasts"
# Past redis-py's default pool of 100 connections, where the old design broke.
WATCHERS = 150


@pytest.fixture
def lone_game(redis_url: str) -> Iterator[ServiceProcess]:
    """A game process of its own: these tests load it on purpose."""
    with game_process(GAME, redis_url, KEYS, MENAGERIE_MAX_STREAMS_PER_CALLER="3") as process:
        yield process


async def test_a_crowd_of_watchers_leaves_the_other_calls_working(
    lone_game: ServiceProcess, signer: TokenSigner, service_token: str
) -> None:
    """150 parked Watch streams; meanwhile moves, views and health on another match all answer OK."""
    watched = new_matches(GAME, lone_game.address, service_token, 50)
    client = GameClient(GAME, lone_game.address)
    try:
        played = client.create(service_token, seats=2, seed=7)
    finally:
        client.close()
    pb2 = binding(GAME).pb2
    async with grpc.aio.insecure_channel(lone_game.address) as channel:
        stub = binding(GAME).stub(channel)
        streams = spectator_streams(channel, GAME, watched, signer, WATCHERS)
        # Every stream has its first message (so each is parked waiting for a move).
        await first_messages(streams, seconds=60)

        health = health_pb2_grpc.HealthStub(channel)
        rng = random.Random(1)
        moves = 0
        for _ in range(20):
            status = await health.Check(health_pb2.HealthCheckRequest(), timeout=10)  # type: ignore[attr-defined]
            assert status.status == health_pb2.HealthCheckResponse.SERVING
            for token in played.tokens.values():
                legal = await stub.ListLegalActions(
                    pb2.ListLegalActionsRequest(match_id=played.match_id), metadata=bearer(token), timeout=10
                )
                if legal.actions:
                    await stub.SubmitAction(
                        pb2.SubmitActionRequest(
                            match_id=played.match_id,
                            expected_version=legal.view_version,
                            idempotency_key=f"crowd-{moves}",
                            action=rng.choice(list(legal.actions)),
                        ),
                        metadata=bearer(token),
                        timeout=10,
                    )
                    moves += 1
                    break
        assert moves == 20
        for stream in streams:
            stream.cancel()


async def test_a_caller_past_its_stream_cap_is_refused_and_others_are_not(
    lone_game: ServiceProcess, signer: TokenSigner, service_token: str
) -> None:
    """With at most 3 streams per caller, the 4th is RESOURCE_EXHAUSTED; another caller still watches."""
    client = GameClient(GAME, lone_game.address)
    try:
        match = client.create(service_token, seats=2)
    finally:
        client.close()
    pb2 = binding(GAME).pb2
    greedy, _ = signer.issue_player("greedy", "Greedy", 600)
    other, _ = signer.issue_player("other", "Other", 600)
    request = pb2.WatchRequest(match_id=match.match_id)
    async with grpc.aio.insecure_channel(lone_game.address) as channel:
        stub = binding(GAME).stub(channel)
        held = [stub.Watch(request, metadata=bearer(greedy), timeout=60) for _ in range(3)]
        await asyncio.wait_for(asyncio.gather(*(s.read() for s in held)), timeout=30)
        refused = stub.Watch(request, metadata=bearer(greedy), timeout=30)
        with pytest.raises(grpc.aio.AioRpcError) as error:
            await refused.read()
        assert error.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert "3" in (error.value.details() or "")
        allowed = stub.Watch(request, metadata=bearer(other), timeout=30)
        first = await asyncio.wait_for(allowed.read(), timeout=30)
        assert first.version >= 1
        # A stream that ends gives its place back.
        held[0].cancel()
        await asyncio.sleep(0.2)
        again = stub.Watch(request, metadata=bearer(greedy), timeout=30)
        assert (await asyncio.wait_for(again.read(), timeout=30)).version >= 1
        for stream in [*held[1:], allowed, again]:
            stream.cancel()


@pytest.fixture
def lone_lobby(redis_url: str, game_endpoints: str) -> Iterator[ServiceProcess]:
    """A lobby process of its own, loaded on purpose."""
    with service_process("menagerie.lobby", redis_url, KEYS, MENAGERIE_GAME_ENDPOINTS=game_endpoints) as lobby:
        yield lobby


async def test_a_crowd_of_ticket_watchers_leaves_the_lobby_working(lone_lobby: ServiceProcess) -> None:
    """150 parked WatchTicket streams (one private table each); the lobby still registers, queues and cancels."""
    async with grpc.aio.insecure_channel(lone_lobby.address) as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        streams = []
        for i in range(WATCHERS):
            player = await lobby.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name=f"Host {i}"), timeout=10)
            table = await lobby.CreateTable(
                lobby_pb2.CreateTableRequest(game=GAME, mode="capture", seats=2),
                metadata=bearer(player.token),
                timeout=10,
            )
            request = lobby_pb2.WatchTicketRequest(ticket_id=table.ticket.ticket_id)
            streams.append(lobby.WatchTicket(request, metadata=bearer(player.token), timeout=120))
        await asyncio.wait_for(asyncio.gather(*(s.read() for s in streams)), timeout=60)

        health = health_pb2_grpc.HealthStub(channel)
        for i in range(10):
            status = await health.Check(health_pb2.HealthCheckRequest(), timeout=10)  # type: ignore[attr-defined]
            assert status.status == health_pb2.HealthCheckResponse.SERVING
            player = await lobby.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name=f"Late {i}"), timeout=10)
            auth = bearer(player.token)
            ticket = await lobby.CreateTicket(
                lobby_pb2.CreateTicketRequest(game=GAME, mode="capture", min_seats=6, max_seats=6),
                metadata=auth,
                timeout=10,
            )
            await lobby.CancelTicket(
                lobby_pb2.CancelTicketRequest(ticket_id=ticket.ticket.ticket_id), metadata=auth, timeout=10
            )
        for stream in streams:
            stream.cancel()


@pytest.mark.chaos
async def test_a_storm_of_two_thousand_watchers_arriving_at_once_is_served_whole(
    redis_url: str, signer: TokenSigner, service_token: str
) -> None:
    """2,000 Watch calls in one burst (a reconnect storm): every one gets its first message, none is cancelled.

    gRPC core cancels calls that wait to be taken past its pending-request limits (1,000 by
    default); the bootstrap raises them to the process's concurrent-call limit.
    """
    with game_process(GAME, redis_url, KEYS) as service:
        matches = new_matches(GAME, service.address, service_token, 100)
        async with grpc.aio.insecure_channel(service.address) as channel:
            # All 2,000 calls are made before any is read: they arrive at once.
            streams = spectator_streams(channel, GAME, matches, signer, 2_000, name="storm")
            firsts = await asyncio.wait_for(asyncio.gather(*(s.read() for s in streams)), timeout=120)
            assert all(first.version >= 1 for first in firsts)
            for stream in streams:
                stream.cancel()
