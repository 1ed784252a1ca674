"""StreamWakeups on a Redis Cluster: one blocking reader per slot that has followers.

One XREAD may name streams of one slot only, and CLIENT UNBLOCK must reach the node whose
connection is blocked. So each slot that has followers gets a StreamWakeups of its own,
reading on a dedicated connection to the node that serves the slot (found from the
cluster client's slot map when its reader starts) and releasing it through a client of
that node. The streams watchers follow are few slots: every match's events share the
tag of its shard (store/keys.py), every ticket's updates the tag of its queue or table
(lobby/keys.py). A slot's reader ends once nobody follows a stream of it.

If a slot moves to another node (resharding, a failover), its reader's XREAD gets MOVED:
the error ends `run`, the bootstrap restarts it with backoff, and the readers start again
on the nodes the refreshed slot map names; every follower is woken to read again.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import cast

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot

from menagerie.shared.redis_client import RedisSettings, connect_blocking_redis, connect_node, is_cluster
from menagerie.shared.wakeups import Follower, StreamWakeups


class _SlotWakeups(StreamWakeups):
    """The reader of one slot: its connections are bound when its node is known."""

    def bind(self, reader: Redis, commands: Redis) -> None:
        """Reads on `reader` (one connection) and releases it through `commands` (the same node)."""
        self._reader = reader
        self._commands = commands


class ClusterStreamWakeups(StreamWakeups):
    """Follows streams on a cluster: a StreamWakeups per slot followed, each on its slot's node."""

    def __init__(self, cluster: Redis, settings: RedisSettings, block_ms: int = 1_000) -> None:
        super().__init__(cluster, cluster, block_ms)
        self._cluster = cast("RedisCluster", cluster)
        self._settings = settings
        self._slots: dict[int, _SlotWakeups] = {}
        self._slot_added = asyncio.Event()

    @property
    def followed(self) -> int:
        """How many streams are followed now."""
        return sum(slot.followed for slot in self._slots.values())

    @contextlib.contextmanager
    def follow(self, key: str, after: str) -> Iterator[Follower]:
        """Follows stream `key` from entry id `after` (in its slot's reader)."""
        slot = key_slot(key.encode())
        wakeups = self._slots.get(slot)
        if wakeups is None:
            wakeups = self._slots[slot] = _SlotWakeups(self._cluster, self._cluster, self.block_ms)  # type: ignore[arg-type]
            self._slot_added.set()
        with wakeups.follow(key, after) as follower:
            yield follower

    async def run(self, stop: asyncio.Event) -> None:
        """Runs a reader per followed slot until `stop`; the first reader to fail ends them all."""
        await self._cluster.initialize()
        running: dict[int, asyncio.Task[None]] = {}
        try:
            while not stop.is_set():
                for slot, wakeups in list(self._slots.items()):
                    task = running.get(slot)
                    if task is not None and task.done():
                        task.result()  # a reader that failed ends the run (restarted with backoff)
                        del running[slot]
                    if wakeups.followed == 0:
                        if slot in running:
                            running.pop(slot).cancel()
                        del self._slots[slot]
                    elif slot not in running:
                        running[slot] = asyncio.create_task(self._run_slot(slot, wakeups, stop))
                self._slot_added.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._slot_added.wait(), self.block_ms / 1000)
        finally:
            for task in running.values():
                task.cancel()
            await asyncio.gather(*running.values(), return_exceptions=True)

    async def _run_slot(self, slot: int, wakeups: _SlotWakeups, stop: asyncio.Event) -> None:
        node = self._cluster.nodes_manager.get_node_from_slot(slot)
        reader = connect_node(node.host, int(node.port), self._settings, single=True)
        commands = connect_node(node.host, int(node.port), self._settings, single=False)
        wakeups.bind(reader, commands)
        try:
            await wakeups.run(stop)
        finally:
            await reader.aclose()
            await commands.aclose()

    async def close(self) -> None:
        """Nothing of its own to close: each slot's reader closes its connections when it ends."""


def stream_wakeups(settings: RedisSettings, commands: Redis) -> StreamWakeups:
    """The process's stream reader for watchers: per slot on a cluster, one connection on one server."""
    if is_cluster(commands):
        return ClusterStreamWakeups(commands, settings)
    return StreamWakeups(connect_blocking_redis(settings), commands)
