"""The dispatcher (`menagerie-dispatcher`): turns feeds and deadlines into bot tasks.

It does three things (DESIGN.md "Bots"):
1. reads every shard's turn feed (consumer group "dispatcher") and enqueues a task for
   each bot seat that must act, at the view version it must act on;
2. scans the shards' deadlines: a human seat whose turn timer ran out gets a bot
   decision (the game service marks it as a timeout decision);
3. on the same scan, a bot seat whose deadline passed without a move (a lost task, a
   killed worker) is enqueued again.
A decision enqueued twice is harmless: the task's idempotency key names the decision.
Still, in a simultaneous phase every notice lists every seat still to act, so the
dispatcher remembers the decisions it has sent and sends each once from the feeds;
only a passed deadline sends one again (that is the recovery). After enqueueing from
a deadline, the deadline is pushed back by redispatch_seconds so the scan does not
enqueue it on every pass.
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
from collections import OrderedDict
from typing import cast

import structlog
from celery import Celery
from redis.asyncio import Redis

from menagerie.bots.celery_app import PLAY_TURN, QUEUE, make_app
from menagerie.common.v1 import common_pb2
from menagerie.shared.aio import pause
from menagerie.shared.logs import configure_logging
from menagerie.shared.redis_client import connect_redis
from menagerie.shared.rpc.bootstrap import load_settings
from menagerie.shared.settings import BotSettings
from menagerie.shared.store import MatchStore
from menagerie.shared.store.keys import parse_deadline_member, shard_keys
from menagerie.shared.streams import StreamConsumer

log = structlog.get_logger(__name__)

GROUP = "dispatcher"
SENT_MEMORY = 100_000


class Dispatcher:
    """Enqueues bot decisions from the turn feeds and the deadlines."""

    def __init__(self, redis: Redis, app: Celery, settings: BotSettings) -> None:
        self.redis = redis
        self.app = app
        self.settings = settings
        self.store = MatchStore(redis, settings.shards)
        self.enqueued = 0
        self._sent: OrderedDict[tuple[str, int, int], None] = OrderedDict()

    def enqueue(self, game: str, match_id: str, seat: int, view_version: int, level: str) -> None:
        """Sends one decision to the pool."""
        self.app.send_task(
            PLAY_TURN,
            kwargs={"game": game, "match_id": match_id, "seat": seat, "view_version": view_version, "level": level},
            queue=QUEUE,
        )
        self.enqueued += 1

    async def on_notice(self, stream: str, entry_id: str, fields: dict[bytes, bytes]) -> None:
        """A turn notice: enqueue every bot seat that must act now."""
        notice = common_pb2.MatchEvent.FromString(fields[b"pb"])
        if notice.kind == common_pb2.MATCH_EVENT_KIND_FINISHED:
            return
        levels = {b.seat: b.level for b in notice.bots}
        for seat, version in zip(notice.to_act, notice.to_act_versions, strict=True):
            decision = (notice.match_id, seat, version)
            if seat in levels and decision not in self._sent:
                self._remember(decision)
                self.enqueue(notice.game, notice.match_id, seat, version, levels[seat])

    def _remember(self, decision: tuple[str, int, int]) -> None:
        self._sent[decision] = None
        if len(self._sent) > SENT_MEMORY:
            self._sent.popitem(last=False)

    async def scan_deadlines(self) -> int:
        """Enqueues every decision whose deadline passed; returns how many."""
        now = int(time.time() * 1000)
        retry_at = now + self.settings.redispatch_seconds * 1000
        count = 0
        for shard in range(self.settings.shards):
            deadlines = shard_keys(shard).deadlines
            due = cast("list[bytes]", await self.redis.zrangebyscore(deadlines, "-inf", now, start=0, num=200))
            for raw in due:
                member = raw.decode()
                deadline = parse_deadline_member(member)
                record, _ = await self.store.load(deadline.match_id)
                current = record.deadline_of(deadline.seat) if record else None
                if record is None or current is None or current.view_version != deadline.view_version:
                    await self.redis.zrem(deadlines, member)  # the decision was made meanwhile
                    continue
                seat = record.meta.seats[deadline.seat]
                level = seat.bot_level if seat.bot else self.settings.timeout_bot_level
                self.enqueue(record.meta.game, record.match_id, deadline.seat, deadline.view_version, level)
                await self.redis.zadd(deadlines, {member: retry_at}, xx=True)
                log.info("deadline passed", match=record.match_id, seat=deadline.seat, bot=seat.bot)
                count += 1
        return count

    async def run_deadlines(self, stop: asyncio.Event) -> None:
        """Scans deadlines until stop."""
        while not stop.is_set():
            await self.scan_deadlines()
            await pause(stop, self.settings.deadline_scan_ms / 1000)

    def consumer(self) -> StreamConsumer:
        """The turn-feed consumer of this dispatcher."""
        return StreamConsumer(
            self.redis,
            [shard_keys(s).turns for s in range(self.settings.shards)],
            GROUP,
            f"dispatcher-{socket.gethostname()}-{os.getpid()}",
            self.on_notice,
            dead_letter="mg:dispatcher:dead",
            block_ms=500,
        )

    async def run(self, stop: asyncio.Event) -> None:
        """Feeds and deadlines, side by side, until stop."""
        await asyncio.gather(self.consumer().run(stop), self.run_deadlines(stop))


async def _serve(settings: BotSettings) -> None:
    import signal

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    redis = connect_redis(settings)
    dispatcher = Dispatcher(redis, make_app(settings), settings)
    log.info("dispatcher started", shards=settings.shards)
    await dispatcher.run(stop)
    await redis.aclose()
    log.info("dispatcher stopped", enqueued=dispatcher.enqueued)


def main() -> None:
    """Runs the dispatcher until SIGTERM."""
    settings = load_settings(BotSettings)
    configure_logging("dispatcher", settings.log_format, settings.log_level)
    asyncio.run(_serve(settings))


if __name__ == "__main__":
    main()
