"""Reading Redis streams with consumer groups (docs/architecture.md "Streams and consumer groups").

A consumer first takes back its own pending entries (delivered before a crash, never
acknowledged), then reads new ones; it acknowledges an entry only after its handler
succeeds. A periodic XAUTOCLAIM takes over entries another consumer left idle, and an
entry delivered too often goes to a dead-letter stream instead of looping forever.

A handler that fails because something it needs is unreachable (Redis, the Celery
broker: any of `TRANSIENT`) did not fail on the entry: the error ends `run`, so the
caller's supervisor restarts it with backoff, and the entry, still pending, is handled
again first thing (`drain_own_pending`) instead of counting towards the dead letters.
`run` may be called again after it failed: it re-creates missing groups (Redis restarted
empty) from the start of their streams, since everything in them is then new.

Consumers are named per process, so a group collects one per replica that ever ran. `run`
also removes, now and then, the group's other consumers that have been idle (no read, no
claim) for `stale_consumer_ms` and hold no pending entries; one that still holds entries
stays until XAUTOCLAIM has moved them to a live consumer. The check and the removal are
one script, so an entry delivered in between cannot be dropped from the pending list.

On a Redis Cluster one XREADGROUP may only name streams of one slot, so the streams are
read in groups of one slot each (`slot_groups`), each group by a loop of its own within
`run`; on one server every stream is in the one group, read by one blocking call.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, cast

import structlog
from redis.asyncio import Redis
from redis.crc import key_slot
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from menagerie.shared.redis_client import is_cluster

Handler = Callable[[str, str, dict[bytes, bytes]], Awaitable[None]]
Entries = list[tuple[bytes, dict[bytes, bytes]]]
StreamReply = list[tuple[bytes, Entries]]

log = structlog.get_logger(__name__)

# Errors that say a peer is unreachable, not that an entry is bad (builtin ConnectionError
# and TimeoutError cover sockets, and a handler may raise them for its own peers).
TRANSIENT: tuple[type[BaseException], ...] = (RedisConnectionError, RedisTimeoutError, ConnectionError, TimeoutError)


# Removes the group's consumers (other than ARGV[2]) idle at least ARGV[3] ms with nothing
# pending; returns their names. XINFO CONSUMERS' `idle` counts from the last attempted
# read or claim (Redis 7.2+; before, from the last one that got entries: a live consumer on
# a quiet stream may then be removed too, which is harmless, as it holds nothing and its
# next XREADGROUP creates it again).
_REMOVE_STALE_CONSUMERS = """
local removed = {}
for _, row in ipairs(redis.call('XINFO', 'CONSUMERS', KEYS[1], ARGV[1])) do
  local info = {}
  for i = 1, #row, 2 do info[row[i]] = row[i + 1] end
  if info['name'] ~= ARGV[2] and info['pending'] == 0 and info['idle'] >= tonumber(ARGV[3]) then
    redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], info['name'])
    table.insert(removed, info['name'])
  end
end
return removed
"""


class StreamConsumer:
    """One consumer of a group reading several streams."""

    def __init__(
        self,
        redis: Redis,
        streams: Sequence[str],
        group: str,
        consumer: str,
        handler: Handler,
        *,
        dead_letter: str,
        max_deliveries: int = 5,
        claim_idle_ms: int = 30_000,
        block_ms: int = 1_000,
        batch: int = 100,
        stale_consumer_ms: int = 3_600_000,
    ) -> None:
        self.redis = redis
        self.streams = list(streams)
        self.group = group
        self.consumer = consumer
        self.handler = handler
        self.dead_letter = dead_letter
        self.max_deliveries = max_deliveries
        self.claim_idle_ms = claim_idle_ms
        self.block_ms = block_ms
        self.batch = batch
        self.stale_consumer_ms = stale_consumer_ms
        self._groups_seen = False

    async def ensure_groups(self, start_id: str = "$") -> None:
        """Creates the group on every stream (and the stream itself); an existing group is kept."""
        for stream in self.streams:
            try:
                await self.redis.xgroup_create(stream, self.group, id=start_id, mkstream=True)
            except ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise

    def slot_groups(self) -> list[list[str]]:
        """The streams one XREADGROUP may name together: all of them on one server, one slot's on a cluster."""
        if not is_cluster(self.redis):
            return [self.streams]
        groups: dict[int, list[str]] = {}
        for stream in self.streams:
            groups.setdefault(key_slot(stream.encode()), []).append(stream)
        return list(groups.values())

    async def run(self, stop: asyncio.Event) -> None:
        """Consumes until `stop` is set: own pending entries first, then new ones, reclaiming idle ones.

        Until the groups have been seen once, missing ones are created at the end of their
        streams (history is not replayed); after that, at the start: a group that vanished
        while this consumer ran means Redis lost its data, and every entry of the stream was
        written since. Each slot group is read by a loop of its own; the first to fail ends
        the others and the run.
        """
        await self.ensure_groups("0" if self._groups_seen else "$")
        self._groups_seen = True
        await self.drain_own_pending()
        groups = self.slot_groups()
        if len(groups) == 1:  # one server: upkeep between the reads of the one blocking call
            await self._read_loop(stop, groups[0], upkeep=True)
            return
        async with asyncio.TaskGroup() as tasks:
            for streams in groups[1:]:
                tasks.create_task(self._read_loop(stop, streams, upkeep=False))
            await self._read_loop(stop, groups[0], upkeep=True)

    async def _read_loop(self, stop: asyncio.Event, streams: list[str], *, upkeep: bool) -> None:
        """Reads `streams` until `stop`; with `upkeep`, reclaims idle entries and removes stale consumers too."""
        next_claim = next_cleanup = time.monotonic()
        while not stop.is_set():
            if upkeep and time.monotonic() >= next_claim:
                await self.reclaim_idle()
                next_claim = time.monotonic() + self.claim_idle_ms / 2000
            if upkeep and time.monotonic() >= next_cleanup:
                await self.remove_stale_consumers()
                # A consumer is removed within a quarter of the threshold of becoming stale.
                next_cleanup = time.monotonic() + self.stale_consumer_ms / 4000
            await self._read(streams)

    async def _read(self, streams: list[str]) -> int:
        replies = await self.redis.xreadgroup(
            self.group, self.consumer, dict.fromkeys(streams, ">"), count=self.batch, block=self.block_ms
        )
        count = 0
        for stream, entries in cast("StreamReply", replies or []):
            for entry_id, fields in entries:
                await self._handle(stream.decode(), entry_id.decode(), fields)
                count += 1
        return count

    async def drain_own_pending(self) -> int:
        """Handles entries delivered to this consumer earlier but never acknowledged."""
        count = 0
        for stream in self.streams:
            while True:
                replies = await self.redis.xreadgroup(self.group, self.consumer, {stream: "0"}, count=self.batch)
                entries = [(i, f) for _, batch in cast("StreamReply", replies or []) for i, f in batch if f]
                if not entries:
                    break
                for entry_id, fields in entries:
                    await self._handle(stream, entry_id.decode(), fields)
                    count += 1
                if len(entries) < self.batch:
                    break
        return count

    async def reclaim_idle(self) -> int:
        """Takes over entries idle longer than claim_idle_ms (XAUTOCLAIM, following its cursor)."""
        count = 0
        for stream in self.streams:
            cursor = "0-0"
            while True:
                reply = cast(
                    "tuple[bytes, Entries, list[bytes]]",
                    await self.redis.xautoclaim(
                        stream, self.group, self.consumer, self.claim_idle_ms, start_id=cursor, count=self.batch
                    ),
                )
                cursor = reply[0].decode()
                claimed = [(i, f) for i, f in reply[1] if f]
                if claimed:
                    deliveries = await self._deliveries(stream, [i for i, _ in claimed])
                    for entry_id, fields in claimed:
                        eid = entry_id.decode()
                        if deliveries.get(eid, 1) > self.max_deliveries:
                            await self._dead_letter(stream, eid, fields, deliveries[eid])
                        else:
                            await self._handle(stream, eid, fields)
                        count += 1
                if cursor == "0-0":
                    break
        return count

    async def remove_stale_consumers(self) -> list[str]:
        """Removes the group's other consumers idle for stale_consumer_ms with nothing pending; returns their names."""
        removed: list[str] = []
        for stream in self.streams:
            names = await cast(
                "Awaitable[list[bytes]]",
                self.redis.eval(_REMOVE_STALE_CONSUMERS, 1, stream, self.group, self.consumer, self.stale_consumer_ms),
            )
            removed += [name.decode() for name in names]
        if removed:
            log.info("removed stale stream consumers", group=self.group, consumers=sorted(set(removed)))
        return removed

    async def _deliveries(self, stream: str, ids: list[bytes]) -> dict[str, int]:
        pending = await self.redis.xpending_range(stream, self.group, min=ids[0], max=ids[-1], count=len(ids) * 4)
        return {p["message_id"].decode(): int(p["times_delivered"]) for p in cast("list[dict[str, Any]]", pending)}

    async def _dead_letter(self, stream: str, entry_id: str, fields: dict[bytes, bytes], deliveries: int) -> None:
        record: dict[Any, Any] = {
            **fields,
            b"origin_stream": stream.encode(),
            b"origin_id": entry_id.encode(),
            b"deliveries": deliveries,
        }
        await self.redis.xadd(self.dead_letter, record, maxlen=10_000, approximate=True)
        await self.redis.xack(stream, self.group, entry_id)
        log.warning("dead-lettered stream entry", stream=stream, entry=entry_id, deliveries=deliveries)

    async def _handle(self, stream: str, entry_id: str, fields: dict[bytes, bytes]) -> None:
        try:
            await self.handler(stream, entry_id, fields)
        except TRANSIENT:
            raise  # not the entry's fault: the run ends and the entry is handled again on restart
        except Exception:
            # Left pending on purpose: reclaim_idle retries it, then dead-letters it.
            log.exception("stream handler failed", stream=stream, entry=entry_id)
            return
        await self.redis.xack(stream, self.group, entry_id)
