"""The platform `make bench-scale` plays bot matches on, and what the bench reads of it.

Every service runs as `make run` starts it: each game's service (`replicas` processes per
game, called round-robin through one `a|b` address, docs/scaling.md "Replicas"), the lobby,
the bot dispatcher and `workers` Celery bot workers of the plain queues (or of every queue
when the bots search). The turns' Redis and Celery's broker are two servers, so that each
one's CPU and commands are read apart (INFO). The bench follows the shards' turn feeds
(XREAD, no load on the services) to count the bot matches' moves and replace those that end.
"""

from __future__ import annotations

import itertools
import os
import queue
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import redis
from redis.asyncio import Redis as AsyncRedis
from redis.typing import KeyT, StreamIdT

from bench.bots import SHARDS, match_request
from bench.service import UNLIMITED, Auth, GameLoad
from bench.stats import cpu_seconds
from menagerie.common.v1 import common_pb2, matches_pb2_grpc
from menagerie.shared.bots import searches
from menagerie.shared.embedded_redis import EmbeddedRedis
from menagerie.shared.rpc.channels import REPLICA_SEPARATOR
from menagerie.shared.store import MatchStore
from menagerie.shared.store.keys import shard_keys
from tests.support.keys import KEYS
from tests.support.redis_server import redis_binary_server
from tests.support.services import ServiceProcess, bot_worker_process, dispatcher_process, game_process, service_process

CALL_TIMEOUT_S = 10.0
# The first measurement waits (up to this long) for the pool's first bot move: a cold worker's start
# (imports, channels) is not the cost of a step, and on a loaded machine it outlasted one.
WARM_UP_S = 60.0
FEED_BLOCK_MS = 1_000

Notice = common_pb2.MatchEvent
FeedReply = list[tuple[bytes, list[tuple[bytes, dict[bytes, bytes]]]]]


@dataclass
class Arrival:
    """One notice of a bot match: when it arrived, and the time since the match's previous notice."""

    at: float
    since_previous: float | None


@dataclass
class FeedFollower:
    """Follows every shard's turn feed in a thread: the bot matches' notices, and which finished."""

    redis_url: str
    bot_matches: set[str] = field(default_factory=set)
    arrivals: list[Arrival] = field(default_factory=list)
    finished: queue.Queue[str] = field(default_factory=queue.Queue)
    stopping: threading.Event = field(default_factory=threading.Event)
    reads: int = 0  # XREADs issued: the bench's own commands, left out of the platform's
    _last: dict[str, float] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def watch(self, match_id: str) -> None:
        """Counts the notices of `match_id` from now on."""
        with self._lock:
            self.bot_matches.add(match_id)

    def stop(self) -> None:
        """Ends run() within FEED_BLOCK_MS."""
        self.stopping.set()

    def run(self) -> None:
        """Reads the feeds until stop(); each read is bounded (FEED_BLOCK_MS) so that stop() is seen."""
        client = redis.Redis.from_url(self.redis_url)
        feeds: dict[KeyT, StreamIdT] = {}  # redis-py's own types: its xread takes no narrower dict
        for shard in range(SHARDS):
            feed = shard_keys(shard).turns
            last = cast("list[tuple[bytes, object]]", client.xrevrange(feed, count=1))
            feeds[feed] = last[0][0] if last else b"0-0"
        while not self.stopping.is_set():
            try:
                self.reads += 1
                reply = cast("FeedReply", client.xread(feeds, block=FEED_BLOCK_MS))
            except redis.ConnectionError:
                time.sleep(0.1)  # a reconnect, then the same cursors: nothing is skipped
                continue
            arrived = time.perf_counter()
            for feed_name, entries in reply or ():
                for entry_id, fields in entries:
                    feeds[feed_name.decode()] = entry_id
                    self._note(Notice.FromString(fields[b"pb"]), arrived)
        client.close()

    def _note(self, notice: Notice, arrived: float) -> None:
        with self._lock:
            if notice.match_id not in self.bot_matches:
                return
            previous = self._last.get(notice.match_id)
            self._last[notice.match_id] = arrived
            self.arrivals.append(Arrival(arrived, None if previous is None else arrived - previous))
            if notice.kind == common_pb2.MATCH_EVENT_KIND_FINISHED:
                self.bot_matches.discard(notice.match_id)
                del self._last[notice.match_id]
                self.finished.put(notice.match_id)

    def between(self, start: float, end: float) -> list[Arrival]:
        """The notices that arrived in [start, end)."""
        with self._lock:
            return [a for a in self.arrivals if start <= a.at < end]

    def moved(self) -> bool:
        """Whether any bot match has had a move (a notice after its first)."""
        with self._lock:
            return any(a.since_previous is not None for a in self.arrivals)

    def wait_for_a_move(self, timeout: float) -> None:
        """Blocks until a bot match has moved: a cold worker's start (imports, channels) is no step's cost."""
        give_up = time.perf_counter() + timeout
        while not self.moved():
            if time.perf_counter() > give_up:
                raise SystemExit(f"the bot pool made no move in {timeout:g} s")
            time.sleep(0.1)

    def active(self) -> list[str]:
        """The bot matches not finished yet."""
        with self._lock:
            return list(self.bot_matches)


async def sampled_match_bytes(redis_url: str, match_ids: list[str]) -> list[int]:
    """MEMORY USAGE of each match's keys."""
    client = AsyncRedis.from_url(redis_url)
    store = MatchStore(client, SHARDS)
    try:
        return [await store.memory_usage(match_id) for match_id in match_ids]
    finally:
        await client.aclose()


@dataclass(frozen=True)
class RedisCounters:
    """What one Redis server has spent so far, by its own count (INFO)."""

    cpu_seconds: float  # user and system, its main process
    commands: int  # commands processed


def redis_counters(client: redis.Redis) -> RedisCounters:
    """The server's CPU seconds and commands processed so far."""
    info = cast("dict[str, float]", client.info("all"))
    return RedisCounters(
        cpu_seconds=float(info["used_cpu_user"]) + float(info["used_cpu_sys"]),
        commands=int(info["total_commands_processed"]),
    )


@contextmanager
def own_redis_server() -> Iterator[str]:
    """A Redis server of this run alone (the local redis-server, else the embedded Valkey): its URL."""
    if binary := shutil.which("redis-server"):
        with redis_binary_server(binary) as url:
            yield url
        return
    server = EmbeddedRedis()
    try:
        yield server.start()
    finally:
        server.stop()


def busy_cpu_seconds() -> float:
    """CPU time all cores of the machine have spent busy so far (/proc/stat: all but idle and iowait)."""
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    return (sum(values) - values[3] - values[4]) / os.sysconf("SC_CLK_TCK")


def cpu_by_kind(processes: dict[str, list[ServiceProcess]]) -> dict[str, float]:
    """CPU seconds so far of each kind of process, and of the whole machine ("machine")."""
    used = {kind: sum(cpu_seconds(p.process.pid) for p in members) for kind, members in processes.items()}
    return {**used, "machine": busy_cpu_seconds()}


def match_ids() -> Iterator[str]:
    """Fresh match ids of this run."""
    run = f"scale-{time.time_ns():x}"
    for number in itertools.count():
        yield f"{run}-{number}"


def create_bot_match(
    stub: matches_pb2_grpc.MatchesStub, load: GameLoad, level: str, match_id: str, follower: FeedFollower, auth: Auth
) -> None:
    """Creates an all-bot match of `load`; the follower counts it from its creation."""
    follower.watch(match_id)
    request = match_request(load, match_id, common_pb2.SEAT_KIND_BOT, level)
    stub.CreateMatch(request, metadata=auth, timeout=CALL_TIMEOUT_S)


def replicas_address(replicas: list[ServiceProcess]) -> str:
    """One service's replicas as one address (`a|b`), which callers spread their calls over round-robin."""
    return REPLICA_SEPARATOR.join(replica.address for replica in replicas)


def game_endpoints(replicas: dict[str, list[ServiceProcess]]) -> str:
    """MENAGERIE_GAME_ENDPOINTS naming every game's replicas."""
    return ",".join(f"{game}={replicas_address(members)}" for game, members in replicas.items())


@dataclass(frozen=True)
class BotPlatform:
    """The running platform: each game's replicas, the other processes by kind, and the two Redis servers."""

    redis_url: str  # the matches, their turn feeds, the lobby's keys
    broker_url: str  # Celery's broker alone
    replicas: dict[str, list[ServiceProcess]]  # each game's service processes
    dispatcher: ServiceProcess
    workers: list[ServiceProcess]
    lobby: ServiceProcess

    def address(self, game: str) -> str:
        """The game's service as its callers name it: one address, or its replicas' `a|b` list."""
        return replicas_address(self.replicas[game])

    def processes(self) -> dict[str, list[ServiceProcess]]:
        """Every process of the platform by kind (the Redis servers aside: they count their own CPU)."""
        games = [replica for members in self.replicas.values() for replica in members]
        return {"games": games, "dispatcher": [self.dispatcher], "worker": self.workers, "lobby": [self.lobby]}


@dataclass(frozen=True)
class PlatformShape:
    """How many of the scaled processes run: bot workers, and service processes per game."""

    workers: int = 1
    replicas: int = 1
    level: str = "random"
    concurrency: int = 0  # each worker's pool threads (or processes, when the bots search); 0: auto, as make run's
    routing: str = "per-match"  # how the workers spread their calls over a game's replicas (MENAGERIE_GAME_ROUTING)


@contextmanager
def bot_platform(redis_url: str, broker_url: str, games: list[str], shape: PlatformShape) -> Iterator[BotPlatform]:
    """Starts every process of the platform in `shape` on the two servers; stops them all when the block ends."""
    with ExitStack() as stack:
        replicas = {
            game: [stack.enter_context(game_process(game, redis_url, KEYS, **UNLIMITED)) for _ in range(shape.replicas)]
            for game in games
        }
        shared = {"MENAGERIE_GAME_ENDPOINTS": game_endpoints(replicas), "MENAGERIE_BROKER_URL": broker_url}
        dispatcher = stack.enter_context(dispatcher_process(redis_url, KEYS, **shared))
        worker_env = {
            **shared,
            "MENAGERIE_WORKER_CONCURRENCY": str(shape.concurrency),
            "MENAGERIE_GAME_ROUTING": shape.routing,
            # As `make run`'s plain worker (its threads pool) unless the bots search.
            "MENAGERIE_WORKER_QUEUES": "all" if searches(shape.level) else "plain",
        }
        workers = [stack.enter_context(bot_worker_process(redis_url, KEYS, **worker_env)) for _ in range(shape.workers)]
        lobby_env = {"MENAGERIE_GAME_ENDPOINTS": game_endpoints(replicas), **UNLIMITED}
        lobby = stack.enter_context(service_process("menagerie.lobby", redis_url, KEYS, (), **lobby_env))
        yield BotPlatform(redis_url, broker_url, replicas, dispatcher, workers, lobby)
