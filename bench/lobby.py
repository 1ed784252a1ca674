"""Matchmaking throughput: tickets seated per second by one lobby process.

Thousands of players queue at once through the real lobby gRPC server (CreateTicket from
many concurrent clients); the lobby's matchmaker seats them at tables it creates on the
real game service. When each ticket was created and seated is read back from the lobby's
own records (the ticket's spec and seating), so the figures cover the whole path:
CreateTicket, planning, claiming, CreateMatch and seating.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

import grpc
import msgspec
import redis
from grpc_health.v1 import health_pb2, health_pb2_grpc

from bench.service import GameLoad
from bench.stats import cpu_seconds
from menagerie.lobby import keys
from menagerie.lobby.records import Seating, TicketSpec
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tests.support.services import ServiceProcess

CLIENTS = 32  # concurrent CreateTicket (and RegisterPlayer) calls in flight
WAIT_SECONDS = 300.0  # a bound on waiting for the queue to drain

_spec = msgspec.msgpack.Decoder(TicketSpec)
_seating = msgspec.msgpack.Decoder(Seating)


@dataclass(frozen=True)
class Matchmaking:
    """What one queue-and-seat run measured."""

    tickets: int
    created_per_second: float
    seated_per_second: float
    # ticket created → ticket seated, per ticket, from the lobby's own timestamps (ms)
    waits_ms: list[int]
    # CPU time each watched process used over the measured span (seconds)
    cpu_seconds: list[float]
    # and while the tickets were created (hold=True only)
    creating_cpu_seconds: list[float]

    @property
    def p50_ms(self) -> float:
        return statistics.median(self.waits_ms)

    @property
    def p99_ms(self) -> float:
        return statistics.quantiles(self.waits_ms, n=100)[98]


def table_seats(load: GameLoad) -> int:
    """The smallest table of two or more that the load's mode allows."""
    mode = load.binding.info.mode(load.mode)
    return min(max(2, mode.min_seats), mode.max_seats)


async def _fan_out(calls: int, clients: int, call: Callable[[int], Awaitable[str]]) -> list[str]:
    """Runs call(i) for i in range(calls), `clients` at a time; the replies in order."""
    replies = [""] * calls
    next_index = iter(range(calls))

    async def worker() -> None:
        for i in next_index:
            replies[i] = await call(i)

    await asyncio.gather(*(worker() for _ in range(clients)))
    return replies


def register_players(lobby_address: str, players: int, clients: int = CLIENTS) -> list[str]:
    """Registers `players` guests; their tokens (reused by every game's run: a player holds one ticket at a time)."""

    async def run() -> list[str]:
        async with grpc.aio.insecure_channel(lobby_address) as channel:
            stub = lobby_pb2_grpc.LobbyStub(channel)

            async def one(i: int) -> str:
                reply = await stub.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name=f"b{i}"), timeout=30)
                return reply.token

            return await _fan_out(players, clients, one)

    return asyncio.run(run())


def lobby_health_per_second(lobby_address: str, seconds: float, clients: int = CLIENTS) -> float:
    """The baseline: gRPC health Checks the lobby process answers per second, from as many clients."""

    async def run() -> float:
        async with grpc.aio.insecure_channel(lobby_address) as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            request = health_pb2.HealthCheckRequest()
            stop_at = time.perf_counter() + seconds
            calls = 0

            async def loop() -> None:
                nonlocal calls
                while time.perf_counter() < stop_at:
                    await stub.Check(request, timeout=10)  # type: ignore[attr-defined]
                    calls += 1

            started = time.perf_counter()
            await asyncio.gather(*(loop() for _ in range(clients)))
            return calls / (time.perf_counter() - started)

    return asyncio.run(run())


def seat_tickets(
    lobby_address: str,
    redis_url: str,
    tokens: list[str],
    load: GameLoad,
    hold: bool,
    pids: Sequence[int] = (),
    clients: int = CLIENTS,
) -> Matchmaking:
    """Queues one ticket per token for the smallest tables of the load's mode, until all are seated.

    hold=False: the matchmaker works while the tickets arrive; seated per second counts from
    the first ticket created to the last one seated, and each wait from its creation.
    hold=True: every ticket is queued before the matchmaker may look: the bench holds the
    queue's lock as another lobby replica would, then lets go; seated per second and each
    wait count from that moment (the lobby's matchmaking rate on a standing queue).
    Either way seating includes creating every match on the game service. The CPU time
    each of `pids` used from the first ticket created (hold=False) or the queue opened
    (hold=True) to the last seated is returned too.
    """
    seats = table_seats(load)
    tokens = tokens[: len(tokens) - len(tokens) % seats]  # whole tables only: a left-over would wait
    request = lobby_pb2.CreateTicketRequest(
        game=load.game, mode=load.mode, options=load.options, min_seats=seats, max_seats=seats
    )
    client = redis.Redis.from_url(redis_url)
    creating_cpu: list[float] = []

    async def create(first: int, count: int) -> list[str]:
        async with grpc.aio.insecure_channel(lobby_address) as channel:
            stub = lobby_pb2_grpc.LobbyStub(channel)

            async def one(i: int) -> str:
                auth = (("authorization", f"Bearer {tokens[first + i]}"),)
                reply = await stub.CreateTicket(request, metadata=auth, timeout=30)
                return reply.ticket.ticket_id

            return await _fan_out(count, clients, one)

    try:
        started = time.perf_counter()
        cpu = [cpu_seconds(pid) for pid in pids]
        ids = asyncio.run(create(0, 1))  # alone, it cannot fill a table: its queue's tag, to hold
        tag = keys.tag_of(ids[0])
        while hold and not client.set(keys.lock(tag), "bench", nx=True, px=600_000):
            time.sleep(0.01)  # a pass holds it now; it ends soon
        ids += asyncio.run(create(1, len(tokens) - 1))
        creating = time.perf_counter() - started
        opened_ms = int(time.time() * 1000)
        if hold:
            opened = [cpu_seconds(pid) for pid in pids]
            creating_cpu = [after - before for after, before in zip(opened, cpu, strict=True)]
            cpu = opened
            client.delete(keys.lock(tag))
        deadline = time.monotonic() + WAIT_SECONDS
        # Two counters tell when the queue has drained (nothing waiting, nothing claimed):
        # polling them costs Redis nothing next to reading every ticket.
        while client.zcard(keys.waiting(tag)) or client.zcard(keys.claims(tag)):
            if time.monotonic() > deadline:
                raise TimeoutError(f"tickets still queued after {WAIT_SECONDS:.0f} s")
            time.sleep(0.05)
        cpu = [cpu_seconds(pid) - before for pid, before in zip(pids, cpu, strict=True)]
        with client.pipeline(transaction=False) as pipe:
            for ticket_id in ids:
                pipe.hmget(keys.ticket(ticket_id), ["status", "spec", "seating"])
            rows = cast("list[list[bytes | None]]", pipe.execute())
    finally:
        client.close()
    since, seated_ms = [], []
    for ticket_id, (status, spec, seating) in zip(ids, rows, strict=True):
        if status != b"seated" or spec is None or seating is None:
            raise RuntimeError(f"ticket {ticket_id} ended {status!r}, not seated")
        created = _spec.decode(spec).created_ms
        since.append(max(created, opened_ms) if hold else created)
        seated_ms.append(_seating.decode(seating).seated_ms)
    span_s = max(1, max(seated_ms) - min(since)) / 1000
    return Matchmaking(
        tickets=len(ids),
        created_per_second=len(ids) / creating,
        seated_per_second=len(ids) / span_s,
        waits_ms=[s - c for s, c in zip(seated_ms, since, strict=True)],
        cpu_seconds=cpu,
        creating_cpu_seconds=creating_cpu,
    )


SEATED_TARGET = 2_000  # tickets seated per second by one lobby process (issue 15)
FLOW_TICKETS = 2_000  # tickets of the arriving-flow run (its latency, not a target)


def matchmaking_sections(
    lobby: ServiceProcess,
    redis_url: str,
    loads: list[GameLoad],
    services: Mapping[str, ServiceProcess],
    players: int,
    flow: int = FLOW_TICKETS,
) -> None:
    """For each game: `players` seated from a standing queue (the target), and `flow` seated as they arrive.

    The CPU the lobby and the game service used while seating the standing queue is printed
    per 1,000 tickets: on a shared host it tells what one process would seat on a core of its own.
    """
    lobby_address = lobby.address
    tokens = register_players(lobby_address, max(players, flow))
    health = lobby_health_per_second(lobby_address, 3.0)
    for load in loads:
        pids = (lobby.process.pid, services[load.game].process.pid)
        standing = seat_tickets(lobby_address, redis_url, tokens[:players], load, hold=True, pids=pids)
        arriving = seat_tickets(lobby_address, redis_url, tokens[:flow], load, hold=False)
        met = "PASS" if standing.seated_per_second >= SEATED_TARGET else "MISS"
        print(
            f"\n== Matchmaking: {table_seats(load)}-seat {load.binding.info.title} tables ({load.mode}),"
            f" one lobby process, {CLIENTS} clients calling it"
        )
        print(f"  lobby health Check calls/s (baseline)      {health:8.0f}")
        print(
            f"  CreateTicket calls/s                       {standing.created_per_second:8.0f}"
            f"   (lobby CPU per 1,000: {standing.creating_cpu_seconds[0] * 1e6 / standing.tickets:,.0f} ms)"
        )
        print(
            f"  {standing.tickets:,} queued at once: seated/s         {standing.seated_per_second:8.0f}"
            f"   (target ≥ {SEATED_TARGET:,})  {met}"
        )
        _latency("queue opened → seated", standing)
        lobby_cpu, game_cpu = (1000 * c / standing.tickets for c in standing.cpu_seconds)
        # cpu_seconds counts clock ticks (SC_CLK_TCK: 10 ms here): a small queue can seat within one.
        own_core = f"{1000 / lobby_cpu:,.0f} tickets/s" if lobby_cpu > 0 else "below the CPU clock's resolution"
        print(
            f"    CPU per 1,000 seated: lobby {lobby_cpu * 1000:,.0f} ms, {load.game} service {game_cpu * 1000:,.0f} ms"
            f"   (the lobby on a core of its own: {own_core})"
        )
        print(
            f"  {arriving.tickets:,} arriving as fast as CreateTicket allows: seated/s"
            f" {arriving.seated_per_second:8.0f}   (first created → last seated)"
        )
        _latency("ticket created → seated", arriving)


def _latency(name: str, run: Matchmaking) -> None:
    print(f"    {name:41}p50 {run.p50_ms:,.0f} ms   p99 {run.p99_ms:,.0f} ms")
