"""The match store's script call: redis-py's client beside the pipelined connection the store uses."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from redis.asyncio import Redis

from menagerie.shared.store.pipelined import RedisRunner

# A move's commit in miniature: one script writing one hash field of a few hundred bytes.
SCRIPT = "redis.call('HSET', KEYS[1], 'state', ARGV[1]); return {'ok'}"
STATE = b"x" * 400
CALLS = 4_000


async def _cpu_per_call(callers: int, call: Callable[[int], Awaitable[object]]) -> tuple[float, float]:
    """(µs of this process's CPU per call, calls/s) for CALLS calls made by `callers` at once."""

    async def caller(index: int) -> None:
        for _ in range(CALLS // callers):
            await call(index)

    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(caller(i) for i in range(callers)))
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return cpu / CALLS * 1e6, CALLS / wall


async def _compare(redis_url: str) -> list[tuple[int, tuple[float, float], tuple[float, float]]]:
    client = Redis.from_url(redis_url)
    script = client.register_script(SCRIPT)
    runner = RedisRunner.of(client)
    rows = []
    try:
        for callers in (1, 8):
            await script(keys=["bench:store:0"], args=[STATE])  # warm both: connections open, script loaded
            await runner.script(script, ["bench:store:0"], [STATE])
            through_client = await _cpu_per_call(callers, lambda i: script(keys=[f"bench:store:{i}"], args=[STATE]))
            pipelined = await _cpu_per_call(callers, lambda i: runner.script(script, [f"bench:store:{i}"], [STATE]))
            rows.append((callers, through_client, pipelined))
    finally:
        runner.close()
        await client.aclose()
    return rows


def store_section(redis_url: str) -> None:
    """Prints the CPU a script call costs the caller through redis-py and through the store's pipelined connection."""
    rows = asyncio.run(_compare(redis_url))
    print("\n== The store's script call (EVALSHA, one hash field of 400 bytes), CPU of the calling process")
    print(f"  {'callers at once':<18}{'redis-py µs/call':>18}{'calls/s':>10}{'pipelined µs/call':>19}{'calls/s':>10}")
    for callers, (client_us, client_rate), (pipe_us, pipe_rate) in rows:
        print(f"  {callers:<18}{client_us:18.1f}{client_rate:10.0f}{pipe_us:19.1f}{pipe_rate:10.0f}")
        print(f"  {'':<18}pipelined / redis-py CPU per call: {pipe_us / client_us:.2f}")
