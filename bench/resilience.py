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
from typing import Any

import grpc

from bench.service import Auth, GameLoad, Plan, new_match, play_move, submit_load
from bench.stats import Latencies, Rounds
from menagerie.common.v1 import matches_pb2_grpc
from menagerie.shared.lifetime import child_env, die_with_parent
from menagerie.shared.tokens import TokenSigner
from tests.support.crowd import first_messages, new_matches, spectator_streams

PROBE_INTERVAL_S = 0.005


async def hold_watchers(
    address: str, load: GameLoad, match_ids: Sequence[str], signer: TokenSigner, count: int
) -> tuple[grpc.aio.Channel, list[Any]]:
    """Opens `count` Watch streams over `match_ids` (a spectator each) and reads their first message."""
    channel = grpc.aio.insecure_channel(address)
    streams = spectator_streams(channel, load.binding.info.game, match_ids, signer, count, name="watcher", timeout=None)
    await first_messages(streams)
    return channel, streams  # the caller keeps the channel: a collected channel cancels its calls


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
) -> tuple[Rounds, Rounds]:
    """SubmitAction (quiet, crowded) over alternating rounds; the crowd is opened and closed each round."""
    match_ids = new_matches(load.binding.info.game, address, service_token, watched_matches)
    quiet, crowded = Rounds(), Rounds()
    phase = seconds / rounds
    for _ in range(rounds):
        quiet.add(await submit_load(address, service_token, clients, phase, load, plans))
        channel, streams = await hold_watchers(address, load, match_ids, signer, watchers)
        crowded.add(await submit_load(address, service_token, clients, phase, load, plans))
        for stream in streams:
            stream.cancel()
        await channel.close()
        await asyncio.sleep(0.5)  # the server sees the cancellations before the next quiet round
    return quiet, crowded


async def probe(
    address: str,
    service_token: str,
    load: GameLoad,
    plans: list[Plan],
    seconds: float,
    interval: float = PROBE_INTERVAL_S,
) -> Latencies:
    """One client playing planned matches at a steady pace (a move, then `interval` s); the latency of each move."""
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
        await asyncio.sleep(interval)
    await channel.close()
    return Latencies(samples, time.perf_counter() - started)


async def flood_rounds(
    address: str, service_token: str, load: GameLoad, plans: list[Plan], seconds: float, rounds: int
) -> tuple[Rounds, Rounds, str]:
    """The probe without and with a flooding seat (another process), alternating; and what the flooder saw."""
    service_auth: Auth = (("authorization", f"Bearer {service_token}"),)
    matches = matches_pb2_grpc.MatchesStub(grpc.aio.insecure_channel(address))
    flooded = await new_match(matches, load, plans[0], service_auth)
    seat = flooded.plan.moves[0].seat
    token = flooded.auth[seat][0][1].removeprefix("Bearer ")
    calm, stormy = Rounds(), Rounds()
    phase = seconds / rounds
    report = ""
    for _ in range(rounds):
        calm.add(await probe(address, service_token, load, plans, phase))
        argv = [sys.executable, "-m", "bench.flood", address, load.binding.info.game, flooded.match_id, token]
        # Tied to this process (SIGKILL when it dies), as every process the bench starts.
        flooder = await asyncio.create_subprocess_exec(
            *die_with_parent([*argv, str(phase + 1.0)]), stdout=asyncio.subprocess.PIPE, env=child_env()
        )
        await asyncio.sleep(0.5)  # the flood is running before the probe starts
        stormy.add(await probe(address, service_token, load, plans, phase))
        output, _ = await asyncio.wait_for(flooder.communicate(), timeout=60)
        report = output.decode().strip()
    return calm, stormy, report
