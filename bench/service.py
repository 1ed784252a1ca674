"""Load on one game service process: SubmitAction beside the health-check baseline."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from redis.asyncio import Redis

from bench.stats import Latencies
from menagerie.common.v1 import common_pb2, matches_pb2, matches_pb2_grpc
from menagerie.shared import codec
from menagerie.shared.engine import MatchSetup, next_view_versions
from menagerie.shared.games.binding import GameBinding
from menagerie.shared.store import MatchStore

Auth = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class GameLoad:
    """Which matches the load plays."""

    binding: GameBinding
    mode: str
    seats: int
    options: dict[str, str] = field(default_factory=dict)

    @property
    def setup(self) -> MatchSetup:
        return MatchSetup(self.mode, self.seats, self.options)


@dataclass
class ReplicaMatch:
    """A match created by the bench with its seed, and an exact local replica of it.

    The bench created the match as an operator, so it knows the seed: it replays every
    move with the same engine and knows the legal actions and each seat's view version
    without asking the service. Only SubmitAction is timed.
    """

    match_id: str
    auth: dict[int, Auth]
    state: Any
    versions: list[int]


def engine_games_per_second(load: GameLoad, games: int) -> tuple[float, float]:
    """Full games of random legal moves in process: (games/s, actions/s)."""
    engine = load.binding.engine
    rng = random.Random(1)
    actions = 0
    started = time.perf_counter()
    for seed in range(games):
        state, _ = engine.setup(load.setup, seed)
        while engine.outcome(state) is None:
            seat = rng.choice(engine.to_act(state).seats())
            engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            actions += 1
    elapsed = time.perf_counter() - started
    return games / elapsed, actions / elapsed


async def run_clients(
    clients: int, seconds: float, make_client: Callable[[int], Awaitable[Callable[[], Awaitable[float | None]]]]
) -> Latencies:
    """Runs `clients` concurrent loops of timed calls for `seconds`."""
    samples: list[float] = []
    stop_at = time.perf_counter() + seconds

    async def loop(index: int) -> None:
        call = await make_client(index)
        while time.perf_counter() < stop_at:
            elapsed = await call()
            if elapsed is not None:
                samples.append(elapsed)

    started = time.perf_counter()
    await asyncio.gather(*(loop(i) for i in range(clients)))
    return Latencies(samples, time.perf_counter() - started)


async def health_baseline(address: str, clients: int, seconds: float) -> Latencies:
    """gRPC health Check of the service process with the same number of clients."""

    async def make(_: int) -> Callable[[], Awaitable[float | None]]:
        stub = health_pb2_grpc.HealthStub(grpc.aio.insecure_channel(address))
        request = health_pb2.HealthCheckRequest()

        async def call() -> float:
            started = time.perf_counter()
            await stub.Check(request)  # type: ignore[attr-defined]
            return time.perf_counter() - started

        return call

    return await run_clients(clients, seconds, make)


async def new_match(
    matches: matches_pb2_grpc.MatchesAsyncStub, load: GameLoad, rng: random.Random, service_auth: Auth
) -> ReplicaMatch:
    """Creates a seeded match of `load` and its local replica."""
    seed = rng.getrandbits(63)
    reply = await matches.CreateMatch(
        matches_pb2.CreateMatchRequest(
            config=common_pb2.MatchConfig(game=load.binding.info.game, mode=load.mode, options=load.options),
            seats=[
                common_pb2.SeatInfo(seat=i, player_id=f"bench-{i}", kind=common_pb2.SEAT_KIND_HUMAN)
                for i in range(load.seats)
            ],
            seed=seed,
        ),
        metadata=service_auth,
    )
    state, _ = load.binding.engine.setup(load.setup, seed)
    auth: dict[int, Auth] = {t.seat: (("authorization", f"Bearer {t.token}"),) for t in reply.seat_tokens}
    return ReplicaMatch(reply.match.match_id, auth, state, [1] * load.seats)


async def play_move(stub: Any, load: GameLoad, match: ReplicaMatch, rng: random.Random) -> float:
    """One random legal move by a seat to act; returns the SubmitAction latency."""
    engine = load.binding.engine
    pb = load.binding.pb2
    before = engine.to_act(match.state).seats()
    seat = rng.choice(before)
    action = rng.choice(engine.legal_actions(match.state, seat))
    request = pb.SubmitActionRequest(
        match_id=match.match_id,
        expected_version=match.versions[seat],
        idempotency_key=uuid.uuid4().hex,
        action=codec.tagged_to_message(pb.Action, action),
    )
    started = time.perf_counter()
    reply = await stub.SubmitAction(request, metadata=match.auth[seat])
    elapsed = time.perf_counter() - started
    events = engine.apply(match.state, seat, action)
    after = engine.to_act(match.state).seats()
    match.versions = next_view_versions(match.versions, reply.version, seat, events, before, after)
    return elapsed


def _stubs(address: str, load: GameLoad) -> tuple[matches_pb2_grpc.MatchesAsyncStub, Any]:
    channel = grpc.aio.insecure_channel(address)
    game_stub = getattr(load.binding.pb2_grpc, f"{load.binding.service}Stub")(channel)
    return matches_pb2_grpc.MatchesStub(channel), game_stub


async def submit_load(address: str, service_token: str, clients: int, seconds: float, load: GameLoad) -> Latencies:
    """SubmitAction through the service: each client plays its own seeded matches."""
    service_auth: Auth = (("authorization", f"Bearer {service_token}"),)

    async def make(index: int) -> Callable[[], Awaitable[float | None]]:
        matches, stub = _stubs(address, load)
        rng = random.Random(index)
        match = await new_match(matches, load, rng, service_auth)

        async def call() -> float | None:
            nonlocal match
            if load.binding.engine.outcome(match.state) is not None:
                match = await new_match(matches, load, rng, service_auth)
                return None
            return await play_move(stub, load, match, rng)

        return call

    return await run_clients(clients, seconds, make)


async def finished_match_memory(address: str, service_token: str, redis_url: str, load: GameLoad) -> tuple[int, int]:
    """Bytes Redis keeps for one finished match of `load`, and its number of actions."""
    matches, stub = _stubs(address, load)
    rng = random.Random(99)
    match = await new_match(matches, load, rng, (("authorization", f"Bearer {service_token}"),))
    actions = 0
    while load.binding.engine.outcome(match.state) is None:
        await play_move(stub, load, match, rng)
        actions += 1
    redis = Redis.from_url(redis_url)
    size = await MatchStore(redis, 16).memory_usage(match.match_id)
    await redis.aclose()
    return size, actions
