"""The dispatcher (`menagerie-dispatcher`): turns feeds and deadlines into bot tasks.

It does three things (docs/architecture.md "How a move flows"):
1. reads every shard's turn feed (consumer group "dispatcher") and enqueues a task for
   each bot seat that must act, at the view version it must act on, and for each
   finished match the task of its win estimates (menagerie.bots.estimates), and for a
   match whose chart a spectator watches, its live estimate (menagerie.bots.live) when the
   move's notice says one is due (submit.lua decides it with the move: no round trip here);
2. scans the shards' deadlines: a human seat whose turn timer ran out gets a bot
   decision (the game service marks it as a timeout decision);
3. on the same scan, a bot seat whose deadline passed without a move (a lost task, a
   killed worker) is enqueued again — unless its task is still running (a worker marks
   the decision while it plays it, menagerie.bots.marks): then its deadline is only
   pushed back, so a slow or hung game's decisions do not pile up in its queue.
Each decision goes to its game's Celery queue (menagerie.bots.celery_app.queue_for; a
searching level's to the game's search queue, with the match's time per decision),
published on the event loop with one LPUSH on a kept client (menagerie.bots.publish),
not through Celery's blocking `send_task`.
A decision enqueued twice is harmless: the task's idempotency key names the decision.
Still, in a simultaneous phase every notice lists every seat still to act, so the
dispatcher remembers the decisions it has sent and sends each once from the feeds;
only a passed deadline sends one again (that is the recovery). After enqueueing from
a deadline, the deadline is pushed back by redispatch_seconds so the scan does not
enqueue it on every pass.

It starts through the platform's bootstrap (menagerie.shared.rpc.bootstrap) like the
gRPC services: the feed consumer and the deadline scan are supervised loops, so a Redis
or broker outage (`CLIENT KILL`, Redis restarted, the broker down) restarts them with
backoff and never ends the process; a notice whose task could not be published stays
pending and is handled again when the loop restarts. It serves the gRPC health check on
MENAGERIE_PORT (0 = a free port, named in the "dispatcher started" line) and, with
MENAGERIE_METRICS_PORT, /metrics and /healthz.

Consumers of the "dispatcher" group are named after the host and process, so every
dispatcher that ever ran leaves one behind; the feed consumer removes those idle for
MENAGERIE_STALE_CONSUMER_SECONDS with nothing pending (menagerie.shared.streams).
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
from collections import OrderedDict
from typing import cast

import grpc
import structlog
from celery import Celery
from prometheus_client import Counter
from redis.asyncio import Redis
from redis.exceptions import RedisError

from menagerie.bots.celery_app import ESTIMATE_LIVE, ESTIMATE_MATCH, PLAY_TURN, make_app, queue_for, search_queue
from menagerie.bots.marks import running_key
from menagerie.bots.publish import TaskPublisher
from menagerie.common.v1 import common_pb2
from menagerie.shared.aio import pause
from menagerie.shared.bots import searches
from menagerie.shared.redis_client import connect_redis, is_cluster
from menagerie.shared.rpc.bootstrap import Runtime, run_service
from menagerie.shared.settings import BotSettings
from menagerie.shared.store import MatchStore
from menagerie.shared.store.keys import parse_deadline_member, shard_keys
from menagerie.shared.store.match_store import LIVE_FIELD
from menagerie.shared.streams import StreamConsumer
from menagerie.shared.tracing import TRACEPARENT, consumer_span, setup_tracing

log = structlog.get_logger(__name__)

GROUP = "dispatcher"
TRACEPARENT_FIELD = TRACEPARENT.encode()  # beside the notice on the turn feed when traces are on
SENT_MEMORY = 100_000

DECISIONS = Counter(
    "menagerie_dispatcher_decisions_enqueued_total",
    "Bot decisions sent to the pool, by game and by what prompted them (turn_feed or deadline)",
    ["game", "source"],
)
REDISPATCHES = Counter(
    "menagerie_dispatcher_deadline_redispatches_total",
    "Decisions enqueued because a deadline passed: a bot turn with no move (bot) or a quiet human (timeout)",
    ["kind"],
)
RUNNING_DEFERRED = Counter(
    "menagerie_dispatcher_running_decisions_deferred_total",
    "Passed deadlines of decisions whose task was still running: pushed back, not enqueued again",
)
ESTIMATES = Counter(
    "menagerie_dispatcher_estimates_enqueued_total",
    "Finished matches sent to the pool for their win estimates",
    ["game"],
)
LIVE_ESTIMATES = Counter(
    "menagerie_dispatcher_live_estimates_enqueued_total",
    "Live estimates of watched matches sent to the pool (at most one per match every 2 s)",
    ["game"],
)
PUBLISH_FAILURES = Counter(
    "menagerie_dispatcher_publish_failures_total", "Bot tasks the Celery broker did not take (retried later)"
)


class BrokerUnavailable(ConnectionError):
    """The Celery broker did not take a task: a peer is down, not the notice at fault."""


class Dispatcher:
    """Enqueues bot decisions from the turn feeds and the deadlines.

    Tasks go to the broker `app` names: through `redis` when that is the same server
    (one client, one pool), else through a client of its own, closed by `aclose`.
    """

    def __init__(self, redis: Redis, app: Celery, settings: BotSettings) -> None:
        self.redis = redis
        self.app = app
        self.settings = settings
        self.store = MatchStore(redis, settings.shards)
        self.enqueued = 0
        self._sent: OrderedDict[tuple[str, int, int], None] = OrderedDict()
        broker_url = str(app.conf.broker_url)
        self._own_broker = broker_url != settings.redis_url or is_cluster(redis)
        broker = connect_redis(settings.model_copy(update={"redis_url": broker_url})) if self._own_broker else redis
        self.publisher = TaskPublisher(app, broker)

    async def aclose(self) -> None:
        """Closes the broker's client if it is the dispatcher's own."""
        if self._own_broker:
            await self.publisher.broker.aclose()

    async def enqueue(
        self, game: str, match_id: str, seat: int, view_version: int, level: str, source: str, budget: float = 0.0
    ) -> None:
        """Sends one decision to the pool (a searching level's to its game's search queue, with the match's
        budget per decision); BrokerUnavailable when the broker does not take it."""
        kwargs: dict[str, object] = {
            "game": game,
            "match_id": match_id,
            "seat": seat,
            "view_version": view_version,
            "level": level,
        }
        if searches(level):
            kwargs["budget_seconds"] = budget
        try:
            # Bounded by the client's socket timeouts (menagerie.shared.redis_client); a
            # failure ends the feed loop, whose supervisor retries with backoff.
            await self.publisher.send(PLAY_TURN, queue_for(game, level), kwargs)
        except (RedisError, OSError) as exc:
            PUBLISH_FAILURES.inc()
            raise BrokerUnavailable(f"the broker did not take the task for {match_id} seat {seat}: {exc}") from exc
        self.enqueued += 1
        DECISIONS.labels(game, source).inc()

    async def estimate(self, game: str, match_id: str) -> None:
        """Sends a finished match's win estimates to the pool (its game's search queue); else BrokerUnavailable."""
        try:
            await self.publisher.send(ESTIMATE_MATCH, search_queue(game), {"game": game, "match_id": match_id})
        except (RedisError, OSError) as exc:
            PUBLISH_FAILURES.inc()
            raise BrokerUnavailable(f"the broker did not take the estimates of {match_id}: {exc}") from exc
        ESTIMATES.labels(game).inc()

    async def estimate_live(self, notice: common_pb2.MatchEvent) -> None:
        """Sends a watched match's live estimate at this notice's version (the notice said one is due)."""
        kwargs = {"game": notice.game, "match_id": notice.match_id, "version": notice.version}
        try:
            await self.publisher.send(ESTIMATE_LIVE, queue_for(notice.game), kwargs)
        except (RedisError, OSError) as exc:
            PUBLISH_FAILURES.inc()
            raise BrokerUnavailable(f"the broker did not take the live estimate of {notice.match_id}: {exc}") from exc
        LIVE_ESTIMATES.labels(notice.game).inc()

    async def on_notice(self, stream: str, entry_id: str, fields: dict[bytes, bytes]) -> None:
        """A turn notice: enqueue every bot seat that must act now."""
        notice = common_pb2.MatchEvent.FromString(fields[b"pb"])
        if notice.kind == common_pb2.MATCH_EVENT_KIND_FINISHED:
            await self.estimate(notice.game, notice.match_id)
            return
        bots = {b.seat: b for b in notice.bots}
        # The move's trace goes on to the bots' tasks; a bot's own move starts a trace linked to
        # it, so that an all-bot match is a trace per move rather than one without end.
        by_bot = notice.HasField("seat") and notice.seat in bots
        with consumer_span("turn notice", fields.get(TRACEPARENT_FIELD), follows=by_bot):
            await self._enqueue_bots(notice, bots)
        if fields.get(LIVE_FIELD) == b"1":  # submit.lua: watched, and none asked for lately
            await self.estimate_live(notice)  # after the bots: a chart never delays a move

    async def _enqueue_bots(self, notice: common_pb2.MatchEvent, bots: dict[int, common_pb2.BotSeat]) -> None:
        for seat, version in zip(notice.to_act, notice.to_act_versions, strict=True):
            decision = (notice.match_id, seat, version)
            if seat in bots and decision not in self._sent:
                bot = bots[seat]
                await self.enqueue(
                    notice.game, notice.match_id, seat, version, bot.level, "turn_feed", bot.budget_seconds
                )
                # Remembered once sent: a publish that failed is sent when the notice comes again.
                self._remember(decision)

    def _remember(self, decision: tuple[str, int, int]) -> None:
        self._sent[decision] = None
        if len(self._sent) > SENT_MEMORY:
            self._sent.popitem(last=False)

    async def scan_deadlines(self) -> int:
        """Enqueues every decision whose deadline passed; returns how many."""
        now = int(time.time() * 1000)
        retry_at = now + self.settings.redispatch_seconds * 1000
        count = 0
        shards = [shard_keys(shard).deadlines for shard in range(self.settings.shards)]
        # Every shard's due decisions in one round trip (a pipeline, not a transaction: on a
        # cluster the shards' keys live in different slots); mostly all empty.
        async with self.redis.pipeline(transaction=False) as pipe:
            for deadlines in shards:
                pipe.zrangebyscore(deadlines, "-inf", now, start=0, num=200)
            dues = cast("list[list[bytes]]", await pipe.execute())
        for deadlines, due in zip(shards, dues, strict=True):
            for raw in due:
                member = raw.decode()
                deadline = parse_deadline_member(member)
                if await self.redis.exists(running_key(deadline.match_id, deadline.seat, deadline.view_version)):
                    # Its task is still playing it: enqueueing it again would only queue a
                    # duplicate behind it (or, for a hung game, pile them up).
                    await self.redis.zadd(deadlines, {member: retry_at}, xx=True)
                    RUNNING_DEFERRED.inc()
                    continue
                record, _ = await self.store.load(deadline.match_id)
                current = record.deadline_of(deadline.seat) if record else None
                if record is None or current is None or current.view_version != deadline.view_version:
                    await self.redis.zrem(deadlines, member)  # the decision was made meanwhile
                    continue
                seat = record.meta.seats[deadline.seat]
                level = seat.bot_level if seat.bot else self.settings.timeout_bot_level
                if deadline.seat in record.away:  # its player left: the bot the turn notice named
                    level = record.meta.stand_in_level
                await self.enqueue(
                    record.meta.game,
                    record.match_id,
                    deadline.seat,
                    deadline.view_version,
                    level,
                    "deadline",
                    record.meta.bot_budget_seconds,
                )
                # Pushed back only once enqueued: a failed publish leaves it due for the next scan.
                await self.redis.zadd(deadlines, {member: retry_at}, xx=True)
                REDISPATCHES.labels("bot" if seat.bot else "timeout").inc()
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
            stale_consumer_ms=self.settings.stale_consumer_seconds * 1000,
        )


async def register(server: grpc.aio.Server, runtime: Runtime) -> list[str]:
    """Runs the feed consumer and the deadline scan as supervised loops; serves no RPCs of its own."""
    settings = runtime.settings
    assert isinstance(settings, BotSettings)
    app = make_app(settings)
    runtime.on_close(app.close)
    dispatcher = Dispatcher(runtime.redis, app, settings)
    runtime.on_close(dispatcher.aclose)
    # One consumer for the life of the process: restarted runs keep its name (its pending
    # entries) and know that its groups existed.
    runtime.add_loop("turn-feeds", dispatcher.consumer().run)
    runtime.add_loop("deadlines", dispatcher.run_deadlines)
    runtime.on_close(lambda: log.info("dispatcher stopped", enqueued=dispatcher.enqueued))
    return []


def main() -> None:
    """Runs the dispatcher until SIGTERM."""
    setup_tracing("dispatcher")  # traces off unless OTEL_* ask
    run_service("dispatcher", BotSettings, register)


if __name__ == "__main__":
    main()
