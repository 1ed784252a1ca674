"""Consumer groups on real Redis streams: ack, crash recovery, reclaim, dead letters.

A consumer reads as it does in production, through `run` (`run_until` stops it once what
the test waits for has happened); reclaiming, draining and removing stale consumers are
called directly where a test needs them at a given moment.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import cast

import pytest
from redis.asyncio import Redis

from menagerie.shared.streams import StreamConsumer
from tests.support.redis_server import StreamEntries

pytestmark = pytest.mark.integration


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[Redis]:
    redis = Redis.from_url(redis_url)
    yield redis
    await redis.aclose()


def names() -> tuple[list[str], str]:
    tag = uuid.uuid4().hex[:8]
    return [f"test:{{{tag}}}:a", f"test:{{{tag}}}:b"], f"test:{{{tag}}}:dead"


async def run_until(consumer: StreamConsumer, done: Callable[[], Awaitable[bool]], what: str) -> None:
    """Runs the consumer (`run`, its production loop) until `done()` holds, then stops it."""
    stop = asyncio.Event()
    task = asyncio.create_task(consumer.run(stop))
    try:
        async with asyncio.timeout(10):
            while not await done():
                if task.done():
                    await task  # the loop ended: raise its error
                    raise AssertionError(f"the consumer stopped before {what}")
                await asyncio.sleep(0.01)  # Redis is the peer: nothing to wait on in this process
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None
    finally:
        stop.set()
        await asyncio.wait_for(task, 5)


def counted(items: list[bytes] | list[str], n: int) -> Callable[[], Awaitable[bool]]:
    """A `done` for run_until: `items` has reached `n` entries."""

    async def done() -> bool:
        return len(items) >= n

    return done


async def test_entries_are_handled_once_and_acknowledged(client: Redis) -> None:
    streams, dead = names()
    seen: list[bytes] = []

    async def handler(stream: str, entry_id: str, fields: dict[bytes, bytes]) -> None:
        seen.append(fields[b"n"])

    consumer = StreamConsumer(client, streams, "g", "c1", handler, dead_letter=dead, block_ms=50)
    await consumer.ensure_groups()
    for n in range(5):
        await client.xadd(streams[n % 2], {"n": n})
    await run_until(consumer, counted(seen, 5), "five entries")
    assert sorted(seen) == [b"0", b"1", b"2", b"3", b"4"]
    for stream in streams:
        assert (await client.xpending(stream, "g"))["pending"] == 0
    await client.xadd(streams[0], {"n": 5})  # a run again reads only what is new
    await run_until(consumer, counted(seen, 6), "the sixth entry")
    assert sorted(seen) == [b"0", b"1", b"2", b"3", b"4", b"5"]


async def test_a_failed_entry_stays_pending_and_is_retried_by_a_restarted_consumer(client: Redis) -> None:
    streams, dead = names()
    attempts: list[str] = []

    async def flaky(stream: str, entry_id: str, fields: dict[bytes, bytes]) -> None:
        attempts.append(entry_id)
        if len(attempts) == 1:
            raise RuntimeError("handler crashed")

    consumer = StreamConsumer(client, streams, "g", "c1", flaky, dead_letter=dead, block_ms=50)
    await consumer.ensure_groups()
    await client.xadd(streams[0], {"n": 1})
    await run_until(consumer, counted(attempts, 1), "the first attempt")
    assert len(attempts) == 1, "a failed entry is not retried at once"
    assert (await client.xpending(streams[0], "g"))["pending"] == 1
    restarted = StreamConsumer(client, streams, "g", "c1", flaky, dead_letter=dead, block_ms=50)
    assert await restarted.drain_own_pending() == 1
    assert (await client.xpending(streams[0], "g"))["pending"] == 0
    assert attempts[0] == attempts[1]


async def test_idle_entries_of_a_dead_consumer_are_reclaimed_then_dead_lettered(client: Redis) -> None:
    streams, dead = names()

    crashed: list[bytes] = []

    async def crash(stream: str, entry_id: str, fields: dict[bytes, bytes]) -> None:
        crashed.append(fields[b"n"])
        raise RuntimeError("always fails")

    handled: list[bytes] = []

    async def works(stream: str, entry_id: str, fields: dict[bytes, bytes]) -> None:
        handled.append(fields[b"n"])

    first = StreamConsumer(client, streams, "g", "gone", crash, dead_letter=dead, block_ms=50)
    await first.ensure_groups()
    await client.xadd(streams[1], {"n": "x"})
    await run_until(first, counted(crashed, 1), "the delivery to 'gone'")  # never acknowledged
    survivor = StreamConsumer(client, streams, "g", "alive", works, dead_letter=dead, claim_idle_ms=20, block_ms=50)
    await asyncio.sleep(0.05)
    assert await survivor.reclaim_idle() == 1
    assert handled == [b"x"]
    assert (await client.xpending(streams[1], "g"))["pending"] == 0

    await client.xadd(streams[0], {"n": "poison"})
    poisoned = StreamConsumer(
        client, streams, "g", "p", crash, dead_letter=dead, claim_idle_ms=10, block_ms=50, max_deliveries=3
    )
    await run_until(poisoned, counted(crashed, 2), "the poison's first delivery")
    for _ in range(4):
        await asyncio.sleep(0.02)
        await poisoned.reclaim_idle()
    letters = cast("StreamEntries", await client.xrange(dead))
    assert len(letters) == 1
    assert letters[0][1][b"n"] == b"poison"
    assert letters[0][1][b"origin_stream"] == streams[0].encode()
    assert (await client.xpending(streams[0], "g"))["pending"] == 0


async def test_run_stops_when_asked(client: Redis) -> None:
    streams, dead = names()
    got = asyncio.Event()

    async def handler(stream: str, entry_id: str, fields: dict[bytes, bytes]) -> None:
        got.set()

    stop = asyncio.Event()
    consumer = StreamConsumer(client, streams, "g", "c", handler, dead_letter=dead, block_ms=20)
    task = asyncio.create_task(consumer.run(stop))
    await asyncio.sleep(0.05)
    await client.xadd(streams[0], {"n": 1})
    await asyncio.wait_for(got.wait(), 5)
    stop.set()
    await asyncio.wait_for(task, 5)
    assert (await client.xpending(streams[0], "g"))["pending"] == 0, "handled and acknowledged"


async def test_stale_consumers_are_removed_once_they_hold_nothing(client: Redis) -> None:
    streams, dead = names()

    handled: list[bytes] = []
    crashed: list[bytes] = []

    async def handler(stream: str, entry_id: str, fields: dict[bytes, bytes]) -> None:
        handled.append(fields[b"n"])

    async def crash(stream: str, entry_id: str, fields: dict[bytes, bytes]) -> None:
        crashed.append(fields[b"n"])
        raise RuntimeError("dies holding its entry")

    async def consumers(stream: str) -> dict[str, int]:
        rows = cast("list[dict[str, object]]", await client.xinfo_consumers(stream, "g"))
        return {cast("bytes", row["name"]).decode(): cast("int", row["pending"]) for row in rows}

    # "done" read and acknowledged everything; "holding" died with an entry pending.
    done = StreamConsumer(client, streams, "g", "done", handler, dead_letter=dead, block_ms=10)
    await done.ensure_groups()
    await client.xadd(streams[0], {"n": 1})
    await run_until(done, counted(handled, 1), "the entry 'done' handles")
    holding = StreamConsumer(client, streams, "g", "holding", crash, dead_letter=dead, block_ms=10)
    await client.xadd(streams[0], {"n": 2})
    await run_until(holding, counted(crashed, 1), "the entry 'holding' dies with")
    assert await consumers(streams[0]) == {"done": 0, "holding": 1}

    patient = StreamConsumer(client, streams, "g", "live", handler, dead_letter=dead, stale_consumer_ms=60_000)
    assert await patient.remove_stale_consumers() == [], "nobody has been idle for a minute"
    live = StreamConsumer(
        client, streams, "g", "live", handler, dead_letter=dead, block_ms=10, claim_idle_ms=20, stale_consumer_ms=20
    )
    await asyncio.sleep(0.05)  # let the dead consumers' idle time pass the (tiny) threshold
    # Each ran, so each read both streams (its own pending entries first, stream by stream) and is
    # known on both: "done" goes from both, "holding" only from the stream where it holds nothing.
    assert sorted(await live.remove_stale_consumers()) == ["done", "done", "holding"]
    assert await consumers(streams[0]) == {"holding": 1}, "a consumer with pending entries keeps them"
    assert await consumers(streams[1]) == {}

    assert await live.reclaim_idle() == 1  # XAUTOCLAIM moves the entry to the live consumer
    assert await live.remove_stale_consumers() == ["holding"]
    assert await consumers(streams[0]) == {"live": 0}, "the live consumer (which claimed) stays"


async def test_run_removes_stale_consumers_as_it_goes(client: Redis) -> None:
    streams, dead = names()

    async def handler(stream: str, entry_id: str, fields: dict[bytes, bytes]) -> None:
        pass

    async def names_left() -> list[set[bytes]]:
        """The consumers of the group on each stream."""
        return [{cast("bytes", row["name"]) for row in await client.xinfo_consumers(s, "g")} for s in streams]

    async def gone_registered() -> bool:
        return all(b"gone" in names for names in await names_left())

    async def gone_removed() -> bool:
        return not any(b"gone" in names for names in await names_left())

    gone = StreamConsumer(client, streams, "g", "gone", handler, dead_letter=dead, block_ms=10)
    await gone.ensure_groups()
    # Its first reads register "gone" on both streams; then it never reads again.
    await run_until(gone, gone_registered, "'gone' to read both streams")
    live = StreamConsumer(client, streams, "g", "live", handler, dead_letter=dead, block_ms=10, stale_consumer_ms=50)
    await run_until(live, gone_removed, "'gone' to be removed")
    assert await names_left() == [{b"live"}, {b"live"}]
