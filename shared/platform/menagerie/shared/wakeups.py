"""One blocking read per process wakes every stream waiter of it (Watch, WatchTicket).

A watcher that blocked on Redis itself (XREAD BLOCK per stream) would hold a connection
for as long as it waits, so a crowd of watchers would take every connection the
request path needs. Instead, each watcher follows its stream here and waits on an
asyncio event; one supervised loop issues a single XREAD BLOCK over every followed
stream, on a connection of its own, and sets the events of the streams that moved.

The event is a hint, never the data: a woken watcher reads what changed through the
request path, so a wake-up that comes twice or late costs a read, nothing more. The
pattern that loses nothing is: clear the event, read, then wait:

    with wakeups.follow(key, after=last_id) as follower:
        while True:
            follower.clear()
            ...read the stream from last_id and send what is new...
            await follower.wait(timeout)

Anything that would make the loop miss an entry wakes every follower instead: its
(re)start after a Redis error (everyone reads again), a follower leaving early does no
harm. A stream followed for the first time is added to the blocked read at once: the
reader is released with CLIENT UNBLOCK (a bounded block covers the tiny window in which
the release can arrive before the read blocks).

Redis Cluster: one XREAD names keys of any slot only on a single server; partitioning
the followed keys by slot (one reader per node) is the step to take with Cluster.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any, cast

import structlog
from redis.asyncio import Redis
from redis.exceptions import RedisError

log = structlog.get_logger(__name__)

# Entries are only a signal here: reading a few at a time moves the position along.
_BATCH = 32
StreamReply = list[tuple[bytes, list[tuple[bytes, object]]]]


class Follower:
    """One watcher's interest in one stream: an event the reader sets when it moves."""

    def __init__(self, wakeups: StreamWakeups, key: str) -> None:
        self.key = key
        self._wakeups = wakeups
        self._event = asyncio.Event()

    def clear(self) -> None:
        """Forgets past wake-ups: call before reading, so nothing after the read is missed."""
        self._event.clear()

    def wake(self) -> None:
        """Marks the stream as moved (the reader calls this)."""
        self._event.set()

    async def wait(self, seconds: float) -> bool:
        """Waits until the stream moves (True) or `seconds` pass (False)."""
        try:
            await asyncio.wait_for(self._event.wait(), seconds)
        except TimeoutError:
            return False
        return True


class StreamWakeups:
    """Follows streams for many watchers with one blocking XREAD on a dedicated connection."""

    def __init__(self, reader: Redis, commands: Redis, block_ms: int = 1_000) -> None:
        self._reader = reader  # one connection, used by run() alone
        self._commands = commands  # the request path's client, for CLIENT UNBLOCK
        self.block_ms = block_ms
        self._positions: dict[str, str] = {}
        self._followers: dict[str, set[Follower]] = {}
        self._changed = asyncio.Event()
        self._reader_id: int | None = None
        self._blocked = False

    @property
    def followed(self) -> int:
        """How many streams are followed now."""
        return len(self._followers)

    @contextlib.contextmanager
    def follow(self, key: str, after: str) -> Iterator[Follower]:
        """Follows stream `key` from entry id `after` for as long as the block runs."""
        follower = Follower(self, key)
        followers = self._followers.setdefault(key, set())
        followers.add(follower)
        if len(followers) == 1:
            self._positions[key] = after
            self._changed.set()
            self._release_reader()
        try:
            yield follower
        finally:
            followers.discard(follower)
            if not followers:
                del self._followers[key]
                self._positions.pop(key, None)

    def _release_reader(self) -> None:
        """Ends the reader's current block so that its next one names the new stream."""
        if self._blocked and self._reader_id is not None:
            task = asyncio.get_running_loop().create_task(self._unblock(self._reader_id))
            task.add_done_callback(lambda t: t.exception())

    async def _unblock(self, client_id: int) -> None:
        with contextlib.suppress(RedisError):  # the reader's bounded block picks the stream up anyway
            await self._commands.client_unblock(client_id)

    def _wake_all(self) -> None:
        for followers in self._followers.values():
            for follower in followers:
                follower.wake()

    async def run(self, stop: asyncio.Event) -> None:
        """The reader: blocks on every followed stream and wakes their followers, until `stop`."""
        self._reader_id = int(await self._reader.client_id())
        # Whatever moved while no reader ran is found by a fresh read of every follower.
        self._wake_all()
        while not stop.is_set():
            if not self._positions:
                self._changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), self.block_ms / 1000)
                continue
            self._changed.clear()
            self._blocked = True
            try:
                streams: dict[Any, Any] = dict(self._positions)
                replies = await self._reader.xread(streams, count=_BATCH, block=self.block_ms)
            finally:
                self._blocked = False
            for raw_key, entries in cast("StreamReply", replies or []):
                key = raw_key.decode()
                if key in self._positions and entries:
                    self._positions[key] = entries[-1][0].decode()
                for follower in self._followers.get(key, ()):
                    follower.wake()

    async def close(self) -> None:
        """Closes the reader's connection."""
        await self._reader.aclose()
