"""The dispatcher and the bot worker survive Redis outages and say so: real processes, Redis servers of their own.

The first tests share a Redis server they can kill (and restart on the same port), a
Beasts service, the dispatcher and a Celery bot worker, all against that server. A bot
move needs the dispatcher to turn a turn notice into a Celery task, so bot moves after
an outage prove it kept dispatching, not merely that its process is alive. The last
ones give a worker, or the dispatcher's feed consumer, a Redis server of their own:
a worker's health and exit status across an outage, and a Celery broker that is down
while the turn feeds are up.
"""

from __future__ import annotations

import asyncio
import base64
import json
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from typing import cast

import grpc
import pytest
import redis
import structlog
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from menagerie.bots.celery_app import PLAY_TURN, make_app, queue_for
from menagerie.bots.dispatcher import GROUP, Dispatcher
from menagerie.common.v1 import common_pb2, matches_pb2
from menagerie.shared.embedded_redis import _binary as embedded_binary
from menagerie.shared.lifetime import spawn, stop_group
from menagerie.shared.redis_client import connect_redis
from menagerie.shared.rpc.health import wait_until_serving
from menagerie.shared.settings import BotSettings
from menagerie.shared.store.keys import shard_keys
from menagerie.shared.supervision import Backoff, supervise
from tests.support.game_client import GameClient, bearer
from tests.support.keys import KEYS
from tests.support.probes import http_get, samples, wait_for
from tests.support.redis_server import free_port, free_ports, wait_for_redis
from tests.support.services import ServiceProcess, bot_worker_process, dispatcher_process, game_process

pytestmark = [pytest.mark.integration, pytest.mark.faults]

CALL_TIMEOUT = 5.0
SERVING, NOT_SERVING = health_pb2.HealthCheckResponse.SERVING, health_pb2.HealthCheckResponse.NOT_SERVING


class RestartableRedis:
    """A Redis server on a fixed loopback port that a test may stop and start again (empty)."""

    def __init__(self) -> None:
        self.binary = shutil.which("redis-server") or embedded_binary()
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.workdir = tempfile.mkdtemp(prefix="menagerie-outage-redis-")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Starts the server (no persistence: a restart loses everything) and waits until it answers."""
        args = ["--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.process = spawn(
            [self.binary, *args, "--dir", self.workdir], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        wait_for_redis(self.url)

    def stop(self) -> None:
        """Kills the server (SIGKILL: an outage, not a maintenance)."""
        if self.process is not None:
            stop_group(self.process, signal.SIGKILL, 10)
        self.process = None

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url, socket_timeout=CALL_TIMEOUT, socket_connect_timeout=CALL_TIMEOUT)


@dataclass
class Stack:
    """The processes under test and how to reach them."""

    redis: RestartableRedis
    beasts: ServiceProcess
    dispatcher: ServiceProcess
    worker: ServiceProcess
    dispatcher_health: str  # host:port of the dispatcher's gRPC health service
    dispatcher_metrics: str  # http://host:port of its /metrics and /healthz
    worker_metrics: str
    start_worker: Callable[[], ServiceProcess]

    def alive(self) -> None:
        """Fails, with its log, if a process has exited."""
        for process in (self.beasts, self.dispatcher, self.worker):
            assert process.process.poll() is None, f"{process.module} exited:\n{process.output()[-3000:]}"

    def supervise_worker(self) -> None:
        """What a supervisor does: a worker that exited (it must say it failed) is started again."""
        if self.worker.process.poll() is not None:
            assert self.worker.process.returncode != 0, "the worker stopped unasked, yet exited 0"
            self.worker = self.start_worker()


@pytest.fixture(scope="module")
def stack() -> Iterator[Stack]:
    server = RestartableRedis()
    server.start()
    health_port, metrics_port, worker_metrics_port = free_ports(3)
    try:
        with (
            ExitStack() as processes,
            game_process("beasts", server.url, KEYS, MENAGERIE_BOT_TURN_DEADLINE_SECONDS="2") as beasts,
        ):
            endpoints = f"beasts={beasts.address}"

            def start_worker() -> ServiceProcess:
                worker = bot_worker_process(
                    server.url,
                    KEYS,
                    MENAGERIE_GAME_ENDPOINTS=endpoints,
                    MENAGERIE_METRICS_PORT=str(worker_metrics_port),
                )
                return processes.enter_context(worker)

            dispatcher = processes.enter_context(
                dispatcher_process(
                    server.url,
                    KEYS,
                    MENAGERIE_GAME_ENDPOINTS=endpoints,
                    MENAGERIE_PORT=str(health_port),
                    MENAGERIE_METRICS_PORT=str(metrics_port),
                    MENAGERIE_REDISPATCH_SECONDS="2",
                    MENAGERIE_DEADLINE_SCAN_MS="100",
                )
            )
            yield Stack(
                server,
                beasts,
                dispatcher,
                start_worker(),
                f"127.0.0.1:{health_port}",
                f"http://127.0.0.1:{metrics_port}",
                f"http://127.0.0.1:{worker_metrics_port}",
                start_worker,
            )
    finally:
        server.stop()
        shutil.rmtree(server.workdir, ignore_errors=True)


def health_status(address: str) -> int | None:
    """The gRPC health status at `address`, or None when it does not answer."""
    with grpc.insecure_channel(address) as channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(  # type: ignore[attr-defined]
                health_pb2.HealthCheckRequest(), timeout=CALL_TIMEOUT
            )
        except grpc.RpcError:
            return None
    return int(reply.status)


class Bots:
    """Creates all-bot Beasts matches on the stack's game service and counts their moves."""

    def __init__(self, address: str) -> None:
        self.client = GameClient("beasts", address)
        self.token = KEYS.signer().issue_service("outage-tests", 600)[0]

    def close(self) -> None:
        self.client.close()

    def create(self) -> str:
        """A 3-seat training match of random bots; returns its id."""
        seats = [
            common_pb2.SeatInfo(seat=i, display_name=f"Bot {i}", kind=common_pb2.SEAT_KIND_BOT, bot_level="random")
            for i in range(3)
        ]
        request = matches_pb2.CreateMatchRequest(
            config=common_pb2.MatchConfig(game="beasts", mode="training"), seats=seats
        )
        reply = self.client.matches.CreateMatch(request, metadata=bearer(self.token), timeout=CALL_TIMEOUT)
        return str(reply.match.match_id)

    def wait_for_moves(
        self,
        match_id: str,
        after: int,
        moves: int,
        what: str,
        tick: Callable[[], None] = lambda: None,
        timeout: float = 20,
    ) -> int:
        """Waits (`timeout` s at most) until the match is `moves` past version `after`, or finished past it.

        Returns the version seen; `tick` runs on every poll (a supervisor's round).
        """
        seen = [after]

        def moved() -> bool:
            tick()
            request = matches_pb2.GetMatchRequest(match_id=match_id)
            try:
                match = self.client.matches.GetMatch(request, metadata=bearer(self.token), timeout=CALL_TIMEOUT).match
            except grpc.RpcError:
                return False
            seen[0] = int(match.version)
            finished = match.status == common_pb2.MATCH_STATUS_FINISHED
            return bool(match.version >= after + moves or (finished and match.version > after))

        wait_for(moved, timeout, what)
        return seen[0]


@pytest.fixture
def bots(stack: Stack) -> Iterator[Bots]:
    # Each test starts from a healthy stack, whatever the previous test did to Redis.
    wait_until_serving(stack.beasts.address, stack.beasts.process, timeout=20)
    wait_for(lambda: health_status(stack.dispatcher_health) == SERVING, 20, "the dispatcher SERVING")
    client = Bots(stack.beasts.address)
    yield client
    client.close()


def test_the_dispatcher_keeps_dispatching_after_client_kill(stack: Stack, bots: Bots) -> None:
    match_id = bots.create()
    version = bots.wait_for_moves(match_id, 1, 3, "the bots' first moves")

    admin = stack.redis.client()
    killed = admin.client_kill_filter(_type="normal")  # every connection but this one: dispatcher, worker, game
    admin.close()
    assert isinstance(killed, int) and killed >= 3

    # A Celery worker can stop on a broker outage (see menagerie.bots.worker) and has a
    # supervisor for that; the dispatcher must not need one.
    bots.wait_for_moves(match_id, version, 3, "bot moves after CLIENT KILL TYPE normal", stack.supervise_worker)
    stack.alive()
    assert health_status(stack.dispatcher_health) == SERVING


def test_the_dispatcher_rides_out_a_redis_restart_and_its_health_follows(stack: Stack, bots: Bots) -> None:
    restarts_before = sum(samples(stack.dispatcher_metrics, "menagerie_loop_restarts_total").values())

    stack.redis.stop()
    wait_for(lambda: health_status(stack.dispatcher_health) == NOT_SERVING, 15, "NOT_SERVING while Redis is down")
    assert http_get(f"{stack.dispatcher_metrics}/healthz") == (503, "NOT_SERVING\n")
    assert stack.dispatcher.process.poll() is None

    stack.redis.start()  # same port, empty: the streams and the dispatcher's consumer group are gone
    wait_for(lambda: health_status(stack.dispatcher_health) == SERVING, 15, "SERVING once Redis is back")
    assert http_get(f"{stack.dispatcher_metrics}/healthz") == (200, "SERVING\n")
    stack.supervise_worker()
    stack.alive()

    wait_until_serving(stack.beasts.address, stack.beasts.process, timeout=15)
    match_id = bots.create()
    bots.wait_for_moves(match_id, 1, 3, "bot moves after the Redis restart", stack.supervise_worker)
    stack.alive()

    restarts = samples(stack.dispatcher_metrics, "menagerie_loop_restarts_total")
    assert sum(restarts.values()) > restarts_before, "the loops that failed while Redis was down were restarted"
    assert {dict(labels)["loop"] for labels in restarts} <= {"turn-feeds", "deadlines"}
    admin = stack.redis.client()
    groups = admin.xinfo_groups(shard_keys(0).turns)
    admin.close()
    assert [g["name"] for g in groups] == [b"dispatcher"], "the consumer group was made again"


def test_the_dispatcher_and_the_worker_expose_metrics(stack: Stack, bots: Bots) -> None:
    match_id = bots.create()
    bots.wait_for_moves(match_id, 1, 3, "some bot moves")

    decisions = samples(stack.dispatcher_metrics, "menagerie_dispatcher_decisions_enqueued_total")
    assert decisions.get((("game", "beasts"), ("source", "turn_feed")), 0) >= 3
    status, text = http_get(f"{stack.dispatcher_metrics}/metrics")
    families = {family.name for family in text_string_to_metric_families(text)}
    assert status == 200
    assert {
        "menagerie_dispatcher_decisions_enqueued",
        "menagerie_dispatcher_deadline_redispatches",
        "menagerie_dispatcher_publish_failures",
        "menagerie_loop_restarts",
        "menagerie_serving",
    } <= families
    assert samples(stack.dispatcher_metrics, "menagerie_serving") == {(("process", "dispatcher"),): 1.0}
    assert http_get(f"{stack.dispatcher_metrics}/healthz") == (200, "SERVING\n")

    # The pool's processes count the turns; the worker's main process serves their sum.
    turns = samples(stack.worker_metrics, "menagerie_bot_turns_total")
    assert turns.get((("game", "beasts"), ("result", "played")), 0) >= 3
    assert http_get(f"{stack.worker_metrics}/healthz") == (200, "SERVING\n")


# How long Redis stays down in successive rounds: Celery's worker survives a short outage
# and may stop during a long one (see menagerie.bots.worker), so the rounds try both.
OUTAGES_SECONDS = (3.0, 0.5, 6.0)


def kill_redis_under_playing_bots(stack: Stack, bots: Bots, rounds: int) -> list[str]:
    """Kills Redis (SIGKILL) while the worker plays bot turns, `rounds` times; returns what the worker did each time.

    Each time, once Redis is back (empty, on the same port), the worker must either play
    again or have exited non-zero (Stack.supervise_worker checks, then starts another, as
    `make run` or Kubernetes would): never exit 0, never hang.
    """
    outcomes = []
    for round_ in range(rounds):
        wait_until_serving(stack.beasts.address, stack.beasts.process, timeout=20)
        playing = [bots.create() for _ in range(3)]
        for match_id in playing:
            bots.wait_for_moves(match_id, 1, 2, "bots playing before the kill", stack.supervise_worker)
        worker = stack.worker
        stack.redis.stop()
        time.sleep(OUTAGES_SECONDS[round_ % len(OUTAGES_SECONDS)])  # the outage itself
        stack.redis.start()
        wait_until_serving(stack.beasts.address, stack.beasts.process, timeout=20)
        match_id = bots.create()
        what = f"round {round_ + 1}: bot moves once Redis is back"
        bots.wait_for_moves(match_id, 1, 3, what, stack.supervise_worker, timeout=60)
        stack.supervise_worker()
        if stack.worker is worker:
            outcomes.append("kept working")
        else:
            outcomes.append(f"exited {worker.process.returncode}, restarted")
    print(f"\nthe worker after each Redis kill: {outcomes}")
    return outcomes


def test_a_worker_playing_when_redis_is_killed_works_again_or_exits_non_zero(stack: Stack, bots: Bots) -> None:
    assert len(kill_redis_under_playing_bots(stack, bots, rounds=1)) == 1


@pytest.mark.chaos
def test_a_worker_playing_through_repeated_redis_kills_works_again_or_exits_non_zero_each_time(
    stack: Stack, bots: Bots
) -> None:
    assert len(kill_redis_under_playing_bots(stack, bots, rounds=6)) == 6


@pytest.fixture
def lone_redis() -> Iterator[RestartableRedis]:
    server = RestartableRedis()
    server.start()
    yield server
    server.stop()
    shutil.rmtree(server.workdir, ignore_errors=True)


def send_turn(redis_url: str, game: str = "beasts") -> None:
    """Publishes one bot turn as the dispatcher does (a real Celery client)."""
    settings = BotSettings.model_validate({"REDIS_URL": redis_url, "verify_keys_file": str(KEYS.verify_file)})
    app = make_app(settings)
    kwargs = {"game": game, "match_id": "no-such-match", "seat": 0, "view_version": 1, "level": "random"}
    app.send_task(PLAY_TURN, kwargs=kwargs, queue=queue_for(game))
    app.close()


def test_an_idle_worker_reports_its_broker_down_and_back_and_works_again(lone_redis: RestartableRedis) -> None:
    metrics = f"http://127.0.0.1:{(port := free_port())}"
    with bot_worker_process(
        lone_redis.url,
        KEYS,
        MENAGERIE_GAME_ENDPOINTS="beasts=127.0.0.1:1",  # nothing listens: every turn fails fast
        MENAGERIE_METRICS_PORT=str(port),
    ) as worker:
        wait_for(lambda: http_get(f"{metrics}/healthz") == (200, "SERVING\n"), 10, "SERVING")
        lone_redis.stop()
        wait_for(lambda: http_get(f"{metrics}/healthz") == (503, "NOT_SERVING\n"), 10, "NOT_SERVING")
        lone_redis.start()
        wait_for(lambda: http_get(f"{metrics}/healthz") == (200, "SERVING\n"), 10, "SERVING again")
        send_turn(lone_redis.url)

        def failed_turns() -> float:
            return samples(metrics, "menagerie_bot_turns_total").get((("game", "beasts"), ("result", "error")), 0)

        wait_for(lambda: failed_turns() >= 1, 20, "the worker to take a turn after the outage")
        assert worker.process.poll() is None, worker.output()[-3000:]


def test_a_worker_whose_broker_drops_during_a_turn_rides_out_the_outage(lone_redis: RestartableRedis) -> None:
    # Celery 5.7/kombu 5.7 stopped the worker ("Unrecoverable error") when its broker
    # connection dropped while a turn was unacknowledged and the broker was still down:
    # an AttributeError restoring kombu's "unacked" hash. The pool runs without that hash
    # (menagerie.bots.celery_app: ack emulation off), so the worker reconnects and plays on.
    # A game endpoint that accepts connections and never answers keeps a turn running for
    # the bots' whole call deadline, so the broker goes away mid-turn.
    def turns_received(worker: ServiceProcess) -> int:
        return len(re.findall(r"play_turn\[[^]]+\] received", worker.output()))

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        endpoint = f"beasts=127.0.0.1:{silent.getsockname()[1]}"
        with bot_worker_process(lone_redis.url, KEYS, MENAGERIE_GAME_ENDPOINTS=endpoint) as worker:
            send_turn(lone_redis.url)
            wait_for(lambda: turns_received(worker) == 1, 10, "the turn")
            lone_redis.stop()
            wait_for(lambda: "Cannot connect to redis" in worker.output(), 25, "the worker to miss its broker")
            lone_redis.start()
            send_turn(lone_redis.url)
            wait_for(lambda: turns_received(worker) == 2, 25, "a turn after the outage")
            output = worker.output()
            assert worker.process.poll() is None, output[-3000:]
    assert "Unrecoverable error" not in output, output[-3000:]


async def async_wait_for(check: Callable[[], Awaitable[object]], what: str) -> None:
    try:
        async with asyncio.timeout(15):
            while True:
                if await check():
                    return
                await asyncio.sleep(0.05)  # polling a peer: nothing to wait on in this process
    except TimeoutError:
        raise AssertionError(f"timed out after 15 s waiting for {what}") from None


async def test_a_turn_notice_waits_for_the_broker_and_its_task_is_sent_once_it_is_back(
    lone_redis: RestartableRedis,
) -> None:
    # The turn feeds in one Redis, the Celery broker in another, which is down at first.
    broker = RestartableRedis()
    feeds = BotSettings.model_validate(
        {"REDIS_URL": lone_redis.url, "verify_keys_file": str(KEYS.verify_file), "shards": 1}
    )
    app = make_app(feeds.model_copy(update={"redis_url": broker.url}))
    redis_client = connect_redis(feeds)
    dispatcher = Dispatcher(redis_client, app, feeds)
    consumer = dispatcher.consumer()
    stream = shard_keys(0).turns

    def publish_failures() -> float:
        return REGISTRY.get_sample_value("menagerie_dispatcher_publish_failures_total") or 0.0

    async def pending() -> int:
        reply = await redis_client.xpending(stream, GROUP)
        return int(reply["pending"])

    def restarts() -> float:
        labels = {"process": "dispatcher", "loop": "turn-feeds"}
        return REGISTRY.get_sample_value("menagerie_loop_restarts_total", labels) or 0.0

    failures_before, restarts_before = publish_failures(), restarts()
    stop = asyncio.Event()
    log = structlog.get_logger("test")
    loop = asyncio.create_task(
        supervise("dispatcher", "turn-feeds", consumer.run, stop, log, Backoff(initial=0.05, maximum=0.5))
    )
    queue = broker.client()
    try:
        await async_wait_for(lambda: redis_client.exists(stream), "the consumer group")
        notice = common_pb2.MatchEvent(
            match_id="m-broker",
            game="beasts",
            kind=common_pb2.MATCH_EVENT_KIND_TURN,
            to_act=[1],
            to_act_versions=[7],
            bots=[common_pb2.BotSeat(seat=1, level="greedy")],
        )
        await redis_client.xadd(stream, {"pb": notice.SerializeToString()})

        async def refused_twice() -> bool:  # refused, then refused again once the loop restarted
            return publish_failures() >= failures_before + 2

        await async_wait_for(refused_twice, "the broker to refuse the task twice")
        assert await pending() == 1, "the notice stays pending while its task is not sent"
        # A broker outage is not the notice's fault: the loop restarts (no failed entry) and nothing is dead-lettered.
        assert restarts() > restarts_before and await redis_client.xlen(consumer.dead_letter) == 0
        assert dispatcher.enqueued == 0

        broker.start()

        beasts_queue = queue_for("beasts")

        async def queued() -> bool:
            return bool(await asyncio.to_thread(queue.llen, beasts_queue))

        await async_wait_for(queued, "the task on the broker's queue")
        message = json.loads(cast("bytes", queue.lindex(beasts_queue, 0)))
        _args, kwargs, _embed = json.loads(base64.b64decode(message["body"]))
        assert kwargs == {"game": "beasts", "match_id": "m-broker", "seat": 1, "view_version": 7, "level": "greedy"}

        async def acknowledged() -> bool:
            return await pending() == 0

        await async_wait_for(acknowledged, "the notice acknowledged")
        assert queue.llen(beasts_queue) == 1 and dispatcher.enqueued == 1, "sent once"
    finally:
        stop.set()
        await asyncio.wait_for(loop, 10)
        queue.close()
        await dispatcher.aclose()  # its own client of the broker
        await redis_client.aclose()
        app.close()
        broker.stop()
        shutil.rmtree(broker.workdir, ignore_errors=True)
