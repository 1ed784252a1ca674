"""`make bench`: figures measured in one run, each beside a baseline from the same run.

Usage: python -m bench [--seconds S] [--clients N]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from redis.asyncio import Redis

from bench.bots import bot_hops
from bench.lobby import seat_tickets
from bench.stats import Latencies
from menagerie.beasts.engine import BeastsEngine, BeastsState
from menagerie.beasts.v1 import beasts_pb2, beasts_pb2_grpc
from menagerie.common.v1 import common_pb2, matches_pb2, matches_pb2_grpc
from menagerie.shared import codec
from menagerie.shared.engine import MatchSetup
from menagerie.shared.store import MatchStore
from menagerie.shared.tokens import TokenSigner
from tests.conftest import TOKEN_SECRET
from tests.support.redis_server import throwaway_redis
from tests.support.services import service_process, worker_process


def engine_games_per_second(games: int) -> tuple[float, float]:
    """Full random games of mode II with 3 seats, in process: (games/s, actions/s)."""
    engine = BeastsEngine()
    rng = random.Random(1)
    actions = 0
    started = time.perf_counter()
    for seed in range(games):
        state, _ = engine.setup(MatchSetup("training", 3, {"spell_cards": "false"}), seed)
        while engine.outcome(state) is None:
            seat = engine.to_act(state).must[0]
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
    """gRPC health Check of the same process with the same number of clients."""

    async def make(_: int) -> Callable[[], Awaitable[float | None]]:
        channel = grpc.aio.insecure_channel(address)
        stub = health_pb2_grpc.HealthStub(channel)
        request = health_pb2.HealthCheckRequest()

        async def call() -> float:
            started = time.perf_counter()
            await stub.Check(request)  # type: ignore[attr-defined]
            return time.perf_counter() - started

        return call

    return await run_clients(clients, seconds, make)


@dataclass
class ReplicaMatch:
    """A match created by the bench, with an exact local replica of its state."""

    match_id: str
    auth: dict[int, tuple[tuple[str, str], ...]]
    state: BeastsState
    version: int = 1


async def new_match(
    matches: matches_pb2_grpc.MatchesAsyncStub,
    engine: BeastsEngine,
    rng: random.Random,
    index: int,
    auth: tuple[tuple[str, str], ...],
) -> ReplicaMatch:
    """Creates a seeded 3-seat mode II match and its local replica."""
    seed = rng.getrandbits(63)
    reply = await matches.CreateMatch(
        matches_pb2.CreateMatchRequest(
            config=common_pb2.MatchConfig(game="beasts", mode="training"),
            seats=[
                common_pb2.SeatInfo(seat=i, player_id=f"bench-{index}-{i}", kind=common_pb2.SEAT_KIND_HUMAN)
                for i in range(3)
            ],
            seed=seed,
        ),
        metadata=auth,
    )
    state, _ = engine.setup(MatchSetup("training", 3, {"spell_cards": "false"}), seed)
    tokens: dict[int, tuple[tuple[str, str], ...]] = {
        t.seat: (("authorization", f"Bearer {t.token}"),) for t in reply.seat_tokens
    }
    return ReplicaMatch(reply.match.match_id, tokens, state)


async def submit_load(address: str, service_token: str, clients: int, seconds: float) -> Latencies:
    """SubmitAction through the service: each client plays its own seeded match.

    The client knows the seed (it created the match as an operator), so it keeps an
    exact local replica with the same engine and picks random legal actions without
    extra calls; only SubmitAction is timed.
    """
    engine = BeastsEngine()
    auth = (("authorization", f"Bearer {service_token}"),)

    async def make(index: int) -> Callable[[], Awaitable[float | None]]:
        channel = grpc.aio.insecure_channel(address)
        matches = matches_pb2_grpc.MatchesStub(channel)
        beasts = beasts_pb2_grpc.BeastsStub(channel)
        rng = random.Random(index)
        match = await new_match(matches, engine, rng, index, auth)

        async def call() -> float | None:
            nonlocal match
            state = match.state
            if engine.outcome(state) is not None:
                match = await new_match(matches, engine, rng, index, auth)
                return None
            seat = engine.to_act(state).must[0]
            action = rng.choice(engine.legal_actions(state, seat))
            request = beasts_pb2.SubmitActionRequest(
                match_id=match.match_id,
                expected_version=match.version,
                idempotency_key=uuid.uuid4().hex,
                action=codec.tagged_to_message(beasts_pb2.Action, action),
            )
            started = time.perf_counter()
            reply = await beasts.SubmitAction(request, metadata=match.auth[seat])
            elapsed = time.perf_counter() - started
            engine.apply(state, seat, action)
            # Every Beasts event concerns every seat, so each seat's view is at the new version.
            match.version = reply.version
            return elapsed

        return call

    return await run_clients(clients, seconds, make)


async def finished_match_memory(address: str, service_token: str, redis_url: str) -> tuple[int, int]:
    """Bytes Redis keeps for one finished 3-seat mode II match, and its number of actions."""
    engine = BeastsEngine()
    channel = grpc.aio.insecure_channel(address)
    matches = matches_pb2_grpc.MatchesStub(channel)
    beasts = beasts_pb2_grpc.BeastsStub(channel)
    auth = (("authorization", f"Bearer {service_token}"),)
    reply = await matches.CreateMatch(
        matches_pb2.CreateMatchRequest(
            config=common_pb2.MatchConfig(game="beasts", mode="training"),
            seats=[common_pb2.SeatInfo(seat=i, player_id=f"m{i}", kind=common_pb2.SEAT_KIND_HUMAN) for i in range(3)],
            seed=99,
        ),
        metadata=auth,
    )
    tokens = {t.seat: (("authorization", f"Bearer {t.token}"),) for t in reply.seat_tokens}
    state, _ = engine.setup(MatchSetup("training", 3, {"spell_cards": "false"}), 99)
    rng = random.Random(99)
    version = 1
    actions = 0
    while engine.outcome(state) is None:
        seat = engine.to_act(state).must[0]
        action = rng.choice(engine.legal_actions(state, seat))
        answer = await beasts.SubmitAction(
            beasts_pb2.SubmitActionRequest(
                match_id=reply.match.match_id,
                expected_version=version,
                idempotency_key=uuid.uuid4().hex,
                action=codec.tagged_to_message(beasts_pb2.Action, action),
            ),
            metadata=tokens[seat],
        )
        engine.apply(state, seat, action)
        version = answer.version
        actions += 1
    await channel.close()
    redis = Redis.from_url(redis_url)
    size = await MatchStore(redis, 16).memory_usage(reply.match.match_id)
    await redis.aclose()
    return size, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each load phase")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients")
    parser.add_argument("--hops", type=int, default=500, help="bot moves to time")
    parser.add_argument("--tickets", type=int, default=400, help="tickets to seat")
    args = parser.parse_args()

    print("Menagerie benchmarks (one run; ratios use baselines from this same run)\n")
    games, actions = engine_games_per_second(300)
    print("Beasts engine, in process, mode II, 3 seats, random legal moves")
    print(f"  full games per second      {games:10.1f}   ({actions:,.0f} actions/s)")

    service_token = TokenSigner(TOKEN_SECRET).issue_service("bench", 3600)[0]
    with (
        throwaway_redis() as (redis_url, kind),
        service_process("menagerie.beasts.service", redis_url, TOKEN_SECRET) as service,
    ):
        print(f"\nOne Beasts service process, {args.clients} concurrent clients, {args.seconds:.0f} s each")
        print(f"  (Redis: {kind})")
        health = asyncio.run(health_baseline(service.address, args.clients, args.seconds))
        submit = asyncio.run(submit_load(service.address, service_token, args.clients, args.seconds))
        memory, match_actions = asyncio.run(finished_match_memory(service.address, service_token, redis_url))
        print(f"  {'':28}{'p50 ms':>10}{'p99 ms':>10}{'calls/s':>12}")
        print(f"  {'health Check (baseline)':28}{health.p50_ms:10.3f}{health.p99_ms:10.3f}{health.per_second:12.0f}")
        print(f"  {'SubmitAction':28}{submit.p50_ms:10.3f}{submit.p99_ms:10.3f}{submit.per_second:12.0f}")
        print(f"  SubmitAction p50 / health p50      {submit.p50_ms / health.p50_ms:6.2f}   (target ≤ 3)")
        print(f"  moves/s / health calls/s           {submit.per_second / health.per_second:6.2f}   (target ≥ 0.33)")
        print(f"\nRedis memory of one finished 3-seat mode II match ({match_actions} actions): {memory:,} bytes")

        endpoints = f"beasts={service.address}"
        with (
            worker_process(
                "menagerie.bots.dispatcher",
                redis_url,
                TOKEN_SECRET,
                "dispatcher started",
                MENAGERIE_GAME_ENDPOINTS=endpoints,
            ),
            worker_process(
                "menagerie.bots.worker", redis_url, TOKEN_SECRET, " ready.", MENAGERIE_GAME_ENDPOINTS=endpoints
            ),
        ):
            hops = bot_hops(service.address, redis_url, service_token, args.hops)
        print("\nBot hop (turn notice → bot's move applied; random bots, 1 dispatcher, 1 worker × 2 processes)")
        print(f"  p50 {hops.p50_ms:.2f} ms   p99 {hops.p99_ms:.2f} ms   over {len(hops.samples)} moves")
        print("  (target p50 ≤ 10 ms)")

        with service_process("menagerie.lobby", redis_url, TOKEN_SECRET, MENAGERIE_GAME_ENDPOINTS=endpoints) as lobby:
            created, seated = seat_tickets(lobby.address, redis_url, args.tickets)
        print(f"\nMatchmaking: {args.tickets} players queue for 2-seat tables at once, one lobby process")
        print(f"  tickets created per second  {created:8.0f}")
        print(f"  tickets seated per second   {seated:8.0f}   (first ticket created → last ticket seated)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
