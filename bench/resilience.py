"""What crowds and floods do to everyone else: SubmitAction latency with and without them.

* Watchers: one game process holds thousands of parked Watch streams over hundreds of
  matches; the same SubmitAction load on other matches runs in alternating rounds
  without and with the crowd (target: p99 with ≤ 2× p99 without).
* Flood: one seat hammers SubmitAction from another process, as fast as four threads
  go; a probe plays other matches at a steady pace (a move every PROBE_INTERVAL_S, like
  people and bots do), without and with the flood (target: p99 with ≤ 2× p99 without).
  The flooding seat is held to its quota (menagerie.shared.rpc.quotas).
"""

from __future__ import annotations

import asyncio
import itertools
import sys
import time
from collections.abc import Sequence

import grpc

from bench.service import Auth, GameLoad, Plan, new_match, play_move, submit_load
from bench.stats import Latencies
from menagerie.common.v1 import matches_pb2_grpc
from menagerie.shared.tokens import TokenSigner

PROBE_INTERVAL_S = 0.005


async def hold_watchers(
    address: str, load: GameLoad, match_ids: Sequence[str], signer: TokenSigner, count: int
) -> tuple[grpc.aio.Channel, list[grpc.aio.UnaryStreamCall]]:  # type: ignore[type-arg]
    """Opens `count` Watch streams over `match_ids` (a spectator each) and reads their first message."""
    channel = grpc.aio.insecure_channel(address)
    stub = load.binding.stub(channel)
    pb2 = load.binding.pb2
    streams = []
    for i in range(count):
        token, _ = signer.issue_player(f"watcher-{i}", "Watcher", 3600)
        request = pb2.WatchRequest(match_id=match_ids[i % len(match_ids)])
        streams.append(stub.Watch(request, metadata=(("authorization", f"Bearer {token}"),)))
    for start in range(0, count, 200):  # the first messages in batches, not all 2,000 at once
        await asyncio.gather(*(s.read() for s in streams[start : start + 200]))
    return channel, streams  # the caller keeps the channel: a collected channel cancels its calls


async def create_idle_matches(
    address: str, load: GameLoad, plans: list[Plan], service_auth: Auth, count: int
) -> list[str]:
    """`count` matches nobody plays (the watched ones)."""
    matches = matches_pb2_grpc.MatchesStub(grpc.aio.insecure_channel(address))
    created = []
    for i in range(count):
        created.append((await new_match(matches, load, plans[i % len(plans)], service_auth)).match_id)
    return created


async def watchers_rounds(
    address: str,
    service_token: str,
    signer: TokenSigner,
    load: GameLoad,
    plans: list[list[Plan]],
    watchers: int,
    watched_matches: int,
    clients: int,
    seconds: float,
    rounds: int,
) -> tuple[Latencies, Latencies]:
    """SubmitAction (quiet, crowded) over alternating rounds; the crowd is opened and closed each round."""
    service_auth: Auth = (("authorization", f"Bearer {service_token}"),)
    match_ids = await create_idle_matches(address, load, plans[0], service_auth, watched_matches)
    quiet, crowded = Latencies([], 0.0), Latencies([], 0.0)
    phase = seconds / rounds
    for _ in range(rounds):
        quiet += await submit_load(address, service_token, clients, phase, load, plans)
        channel, streams = await hold_watchers(address, load, match_ids, signer, watchers)
        crowded += await submit_load(address, service_token, clients, phase, load, plans)
        for stream in streams:
            stream.cancel()
        await channel.close()
        await asyncio.sleep(0.5)  # the server sees the cancellations before the next quiet round
    return quiet, crowded


async def probe(address: str, service_token: str, load: GameLoad, plans: list[Plan], seconds: float) -> Latencies:
    """One client playing planned matches at a steady pace; the latency of each move."""
    service_auth: Auth = (("authorization", f"Bearer {service_token}"),)
    channel = grpc.aio.insecure_channel(address)
    matches, stub = matches_pb2_grpc.MatchesStub(channel), load.binding.stub(channel)
    mine = itertools.cycle(plans)
    match = await new_match(matches, load, next(mine), service_auth)
    samples: list[float] = []
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        if match.played == len(match.plan.moves):
            match = await new_match(matches, load, next(mine), service_auth)
            continue
        samples.append(await play_move(stub, load, match))
        await asyncio.sleep(PROBE_INTERVAL_S)
    await channel.close()
    return Latencies(samples, time.perf_counter() - started)


async def flood_rounds(
    address: str, service_token: str, load: GameLoad, plans: list[Plan], seconds: float, rounds: int
) -> tuple[Latencies, Latencies, str]:
    """The probe without and with a flooding seat (another process), alternating; and what the flooder saw."""
    service_auth: Auth = (("authorization", f"Bearer {service_token}"),)
    matches = matches_pb2_grpc.MatchesStub(grpc.aio.insecure_channel(address))
    flooded = await new_match(matches, load, plans[0], service_auth)
    seat = flooded.plan.moves[0].seat
    token = flooded.auth[seat][0][1].removeprefix("Bearer ")
    calm, stormy = Latencies([], 0.0), Latencies([], 0.0)
    phase = seconds / rounds
    report = ""
    for _ in range(rounds):
        calm += await probe(address, service_token, load, plans, phase)
        flooder = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.flood",
            address,
            load.binding.info.game,
            flooded.match_id,
            token,
            str(phase + 1.0),
            stdout=asyncio.subprocess.PIPE,
        )
        await asyncio.sleep(0.5)  # the flood is running before the probe starts
        stormy += await probe(address, service_token, load, plans, phase)
        output, _ = await asyncio.wait_for(flooder.communicate(), timeout=60)
        report = output.decode().strip()
    return calm, stormy, report
