"""`make bench-scale`: the whole platform on this machine under 10, 100 and 1,000 concurrent bot matches.

Every service runs as `make run` runs it, one process each: every game's service, the
lobby, the bot dispatcher and a Celery bot worker, on one Redis. The load grows in steps;
at each step the bench tops the bot matches up to the step's count (spread over the
games, every seat a bot of --level; a match that finishes is replaced at once) and then,
for --seconds, measures (the first step once the pool has made its first move, WARM_UP_S):

- bot moves applied per second (the shards' turn feeds, read with XREAD: no load on the
  services), which is also the Celery bot turns per second, every move being a bot's;
- the bot turn: one match's notice to its next (the dispatcher, the Celery queue, the
  bot's calls, the commit), p50 and p99;
- SubmitAction p50 and p99 of a probe that plays a human match of the first game beside
  the bots, a move every PROBE_INTERVAL_S (the flat-cost target: within 2× across the steps);
- Redis: used memory, and the bytes of a sample of the active matches (MEMORY USAGE);
- the CPU seconds each kind of process used over the step.

Then matchmaking (bench.lobby) on the loaded platform: players queued at once, seated by
one lobby process, with the p99 ticket → seated time.

Usage: python -m bench.scale [--steps 10,100,1000] [--seconds 20] [--level random] [--tickets 2000]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import queue
import random
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import grpc
import redis
from redis.asyncio import Redis as AsyncRedis
from redis.typing import KeyT, StreamIdT

from bench.bots import SHARDS, match_request
from bench.lobby import matchmaking_sections
from bench.resilience import probe
from bench.service import UNLIMITED, Auth, GameLoad, game_load, plan_matches, start_games
from bench.stats import Latencies, cpu_seconds, verdict
from menagerie.common.v1 import common_pb2, matches_pb2_grpc
from menagerie.rules.registry import game_ids
from menagerie.shared.bots import BOT_LEVELS, searches
from menagerie.shared.store import MatchStore
from menagerie.shared.store.keys import shard_keys
from tests.support.keys import KEYS
from tests.support.redis_server import throwaway_redis
from tests.support.services import ServiceProcess, bot_worker_process, dispatcher_process, service_process

STEPS = (10, 100, 1_000)
FLAT_SPREAD = 2.0  # issue 15: SubmitAction p50/p99 across the steps within 2× of each other
# The probe's pace: light enough that the bots' moves, not the probe's, load the services.
PROBE_INTERVAL_S = 0.02
MEMORY_SAMPLE = 50  # active matches whose bytes are read at the end of a step
CALL_TIMEOUT_S = 10.0
FEED_BLOCK_MS = 1_000
# The first step waits (up to this long) for the pool's first bot move: a cold worker's start
# (imports, channels) is not the cost of a step, and on a loaded machine it outlasted one.
WARM_UP_S = 60.0

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

    def active(self) -> list[str]:
        """The bot matches not finished yet."""
        with self._lock:
            return list(self.bot_matches)


@dataclass
class Step:
    """What one load step measured."""

    matches: int
    moves_per_second: float
    turns: list[float]  # seconds between two notices of one bot match
    probe: Latencies
    used_memory: int
    match_bytes: list[int]  # a sample of the active matches
    cpu: dict[str, float]  # seconds per kind of process over the step
    finished: int  # bot matches that finished during the step

    @property
    def turn_p50_ms(self) -> float:
        return statistics.median(self.turns) * 1000 if self.turns else float("nan")

    @property
    def turn_p99_ms(self) -> float:
        return statistics.quantiles(self.turns, n=100)[98] * 1000 if len(self.turns) > 1 else float("nan")


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


async def sampled_match_bytes(redis_url: str, match_ids: list[str]) -> list[int]:
    """MEMORY USAGE of each match's keys."""
    client = AsyncRedis.from_url(redis_url)
    store = MatchStore(client, SHARDS)
    try:
        return [await store.memory_usage(match_id) for match_id in match_ids]
    finally:
        await client.aclose()


def run_step(
    target: int,
    seconds: float,
    follower: FeedFollower,
    top_up: Callable[[int], None],
    probe_address: str,
    probe_load: GameLoad,
    service_token: str,
    redis_url: str,
    processes: dict[str, list[ServiceProcess]],
) -> Step:
    """Tops the bot matches up to `target`, then measures for `seconds` while replacing those that finish."""
    top_up(max(0, target - len(follower.active())))
    client = redis.Redis.from_url(redis_url)
    probe_plans = plan_matches(probe_load, 1, 3)[0]
    probe_result: list[Latencies] = []
    prober = threading.Thread(
        target=lambda: probe_result.append(
            asyncio.run(probe(probe_address, service_token, probe_load, probe_plans, seconds, PROBE_INTERVAL_S))
        )
    )
    cpu_before = cpu_by_kind(processes)
    start = time.perf_counter()
    prober.start()
    finished = 0
    while time.perf_counter() - start < seconds:
        try:
            follower.finished.get(timeout=0.2)
        except queue.Empty:
            continue
        finished += 1
        top_up(1)
    end = time.perf_counter()
    cpu_after = cpu_by_kind(processes)
    prober.join()
    arrivals = follower.between(start, end)
    active = follower.active()
    used = int(cast("dict[str, int]", client.info("memory"))["used_memory"])
    client.close()
    sample = random.Random(target).sample(active, min(MEMORY_SAMPLE, len(active)))
    return Step(
        matches=target,
        moves_per_second=len(arrivals) / (end - start),
        turns=[a.since_previous for a in arrivals if a.since_previous is not None],
        probe=probe_result[0],
        used_memory=used,
        match_bytes=asyncio.run(sampled_match_bytes(redis_url, sample)),
        cpu={kind: cpu_after[kind] - cpu_before[kind] for kind in cpu_before},
        finished=finished,
    )


def report(steps: list[Step], level: str, seconds: float, probe_title: str, games: list[str], concurrency: int) -> None:
    """The figures of every step, and the flat-cost verdicts."""
    print(
        f"\n== Concurrent bot matches ({level} bots, games {', '.join(games)} in turn; one process of each service,"
        f" one Celery worker, concurrency {concurrency} ({'prefork' if searches(level) else 'threads'} pool);"
        f" {seconds:.0f} s a step)"
    )
    print(
        f"  {'active':>7}{'moves/s':>10}{'turn p50':>10}{'turn p99':>10}{'probe p50':>11}{'probe p99':>11}"
        f"{'finished':>10}{'Redis MB':>10}{'KB/match':>10}"
    )
    for s in steps:
        per_match = statistics.mean(s.match_bytes) / 1024 if s.match_bytes else float("nan")
        print(
            f"  {s.matches:>7,}{s.moves_per_second:10.0f}{s.turn_p50_ms:10.1f}{s.turn_p99_ms:10.1f}"
            f"{s.probe.p50_ms:11.2f}{s.probe.p99_ms:11.2f}{s.finished:10}{s.used_memory / 2**20:10.1f}{per_match:10.1f}"
        )
    print("  (moves/s: bot moves applied = Celery bot turns/s; turn: one match's notice to its next, ms;")
    print(
        f"   probe: SubmitAction ms of a human {probe_title} match played beside them,"
        f" a move every {PROBE_INTERVAL_S * 1000:g} ms)"
    )
    print(f"  CPU seconds per second of the step, by process, and the whole machine ({os.cpu_count()} cores):")
    kinds = list(steps[0].cpu)
    print("  " + f"{'active':>7}" + "".join(f"{kind:>12}" for kind in kinds))
    for s in steps:
        print("  " + f"{s.matches:>7,}" + "".join(f"{s.cpu[kind] / seconds:12.2f}" for kind in kinds))
    print("  CPU ms per bot move (all of the step's CPU of each kind of process, over its bot moves):")
    print("  " + f"{'active':>7}" + "".join(f"{kind:>12}" for kind in kinds))
    for s in steps:
        moves = s.moves_per_second * seconds
        # A step too short or too loaded to see a bot move has no per-move cost to print.
        per_move = [f"{s.cpu[kind] * 1000 / moves:12.2f}" if moves else f"{'no moves':>12}" for kind in kinds]
        print("  " + f"{s.matches:>7,}" + "".join(per_move))
    for name, values in (("p50", [s.probe.p50_ms for s in steps]), ("p99", [s.probe.p99_ms for s in steps])):
        spread = max(values) / min(values)
        print(
            f"  probe SubmitAction {name} highest / lowest step {spread:6.2f}   (target ≤ {FLAT_SPREAD:g})"
            f"  {verdict(spread <= FLAT_SPREAD)}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", default=",".join(str(s) for s in STEPS), help="concurrent bot matches per step")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each step's measurement")
    parser.add_argument("--level", default="random", choices=BOT_LEVELS, help="the bots' level")
    parser.add_argument("--tickets", type=int, default=2_000, help="players queued at once, per game, at the end")
    parser.add_argument("--worker-concurrency", type=int, default=2, help="the bot worker's pool threads or processes")
    parser.add_argument("--game", action="append", choices=game_ids(), help="only this game (repeatable)")
    args = parser.parse_args()
    steps = sorted(int(s) for s in args.steps.split(","))
    games = args.game or list(game_ids())
    loads = [game_load(game) for game in games]
    service_token = KEYS.signer().issue_service("bench", 3600)[0]
    auth: Auth = (("authorization", f"Bearer {service_token}"),)

    print("Menagerie at scale: the whole platform on this machine (one run)")
    with throwaway_redis() as (redis_url, kind), ExitStack() as stack:
        print(f"Redis: {kind}")
        services, endpoints = start_games(stack, redis_url, games)
        dispatcher = stack.enter_context(dispatcher_process(redis_url, KEYS, MENAGERIE_GAME_ENDPOINTS=endpoints))
        worker = stack.enter_context(
            bot_worker_process(
                redis_url,
                KEYS,
                MENAGERIE_GAME_ENDPOINTS=endpoints,
                MENAGERIE_WORKER_CONCURRENCY=str(args.worker_concurrency),
                # As `make run`'s plain worker (its threads pool) unless the bots search.
                MENAGERIE_WORKER_QUEUES="all" if searches(args.level) else "plain",
            )
        )
        lobby = stack.enter_context(
            service_process("menagerie.lobby", redis_url, KEYS, (), MENAGERIE_GAME_ENDPOINTS=endpoints, **UNLIMITED)
        )
        processes = {"games": list(services.values()), "dispatcher": [dispatcher], "worker": [worker], "lobby": [lobby]}
        channels = {g: stack.enter_context(grpc.insecure_channel(s.address)) for g, s in services.items()}
        stubs = {g: matches_pb2_grpc.MatchesStub(channel) for g, channel in channels.items()}
        follower = FeedFollower(redis_url)
        reader = threading.Thread(target=follower.run, daemon=True)
        reader.start()
        ids = match_ids()
        rotation = itertools.cycle(loads)

        def top_up(count: int) -> None:
            # The games in turn across calls, so that replacing one finished match at a time still spreads them.
            for load in itertools.islice(rotation, count):
                create_bot_match(stubs[load.game], load, args.level, next(ids), follower, auth)

        top_up(steps[0])
        warm_until = time.perf_counter() + WARM_UP_S
        while not follower.moved():
            if time.perf_counter() > warm_until:
                raise SystemExit(f"the bot pool made no move in {WARM_UP_S:g} s")
            time.sleep(0.1)
        results = []
        for target in steps:
            results.append(
                run_step(
                    target,
                    args.seconds,
                    follower,
                    top_up,
                    services[games[0]].address,
                    loads[0],
                    service_token,
                    redis_url,
                    processes,
                )
            )
            print(f"  step {target:,}: measured", flush=True)
        report(results, args.level, args.seconds, loads[0].binding.info.title, games, args.worker_concurrency)
        if args.tickets:
            print(f"\nMatchmaking with the {steps[-1]:,} bot matches still running:")
            matchmaking_sections(lobby, redis_url, loads, services, args.tickets, flow=min(args.tickets, 2_000))
        follower.stop()
        reader.join(timeout=5)


if __name__ == "__main__":
    main()
