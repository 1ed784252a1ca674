"""`make bench-scale ARGS=--scale-out`: the bot matches played at several counts of bot workers and game replicas.

For each shape WORKERSxREPLICAS (by default 1x1, 2x1, 1x2, 2x2) the whole platform starts
afresh (bench.bot_platform: `replicas` service processes per game, which the bots call per
match or round-robin, and `workers` Celery bot workers), on two Redis servers of its own, the
turns' and Celery's broker. It plays `matches` all-bot matches (a finished one replaced at once), lets them settle for
SETTLE_S, then measures for `seconds`:

- bot moves/s: the notices after a match's first on the turn feeds, each a bot's move applied;
- CPU ms per move of every process of the platform (/proc) and of each Redis server (INFO);
- Redis commands per move on each server (INFO), the bench's own feed reads left out;
- how busy the machine's cores were (/proc/stat: other work on a shared machine included),
  and the 1-minute load average at the start and the end.

Then what a cluster needs for 100,000 concurrent matches (bench.cluster_plan), from the
per-move costs of the last shape.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import os
import queue
import random
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass

import redis

from bench.bot_platform import (
    WARM_UP_S,
    BotPlatform,
    FeedFollower,
    PlatformShape,
    bot_platform,
    cpu_by_kind,
    create_bot_match,
    match_ids,
    own_redis_server,
    redis_counters,
    sampled_match_bytes,
)
from bench.cluster_plan import Assumptions, MoveCosts, report_lines
from bench.service import Auth, game_load
from menagerie.common.v1 import matches_pb2_grpc
from menagerie.shared.rpc.channels import open_channel
from tests.support.keys import KEYS

DEFAULT_SHAPES = "1x1,2x1,1x2,2x2"
SETTLE_S = 5.0  # after the matches are created: the first moves of a thousand new matches are a burst, not the pace
MEMORY_SAMPLE = 50  # matches in play whose bytes are read at the end
SERVERS = ("redis", "broker")  # the turns' Redis and Celery's broker, as the tables name them
Shapes = list[tuple[int, int]]  # (bot workers, replicas of each game's service)


def parse_shapes(text: str) -> Shapes:
    """'1x1,2x2' → [(1, 1), (2, 2)]: (bot workers, replicas of each game's service)."""
    shapes = []
    for part in text.split(","):
        workers, _, replicas = part.strip().lower().partition("x")
        if not (workers.isdigit() and replicas.isdigit() and int(workers) > 0 and int(replicas) > 0):
            raise ValueError(f"{part!r}: a shape is WORKERSxREPLICAS, both at least 1 (e.g. 2x1)")
        shapes.append((int(workers), int(replicas)))
    return shapes


@dataclass(frozen=True)
class Reading:
    """The counters at one instant of a phase."""

    cpu: dict[str, float]  # CPU seconds so far: each kind of process, each Redis server, and "machine"
    commands: dict[str, int]  # commands each Redis server has run so far
    bench_reads: int  # the bench's own feed reads so far (on the turns' Redis)
    load: float  # 1-minute load average


@dataclass(frozen=True)
class Phase:
    """What one shape measured."""

    workers: int
    replicas: int
    matches: int
    seconds: float
    moves: int  # bot moves applied during the phase
    cpu: dict[str, float]  # CPU seconds over the phase: each kind of process and each Redis server
    machine: float  # busy CPU seconds of all the machine's cores
    commands: dict[str, int]  # commands each Redis server ran for the platform
    cores: int
    load: tuple[float, float]  # 1-minute load average at the start and the end
    match_bytes: float  # Redis memory of one match in play (mean of a sample)
    counted: dict[str, int]  # processes of each kind whose CPU is counted

    @property
    def moves_per_second(self) -> float:
        """Bot moves applied per second."""
        return self.moves / self.seconds

    def cpu_ms_per_move(self, kind: str | None = None) -> float:
        """CPU ms per move of one kind of process (or Redis server), or of them all together."""
        used = self.cpu[kind] if kind else sum(self.cpu.values())
        return used * 1000 / self.moves if self.moves else float("nan")

    def commands_per_move(self, server: str) -> float:
        """Commands one Redis server ran per move."""
        return self.commands[server] / self.moves if self.moves else float("nan")

    @property
    def busy_percent(self) -> float:
        """How busy the machine's cores were, all of them together, in percent."""
        return 100 * self.machine / (self.seconds * self.cores)

    def costs(self) -> MoveCosts:
        """The per-move costs the cluster plan extrapolates from."""
        return MoveCosts(
            cpu_ms={kind: self.cpu_ms_per_move(kind) for kind in self.cpu},
            redis_commands=self.commands_per_move("redis"),
            broker_commands=self.commands_per_move("broker"),
            match_bytes=self.match_bytes,
        )


@dataclass(frozen=True)
class Played:
    """What the bench saw of a phase besides the counters: its bot moves, and the platform it ran on."""

    matches: int
    seconds: float
    moves: int
    match_bytes: float
    counted: dict[str, int]
    cores: int


def phase_between(before: Reading, after: Reading, shape: PlatformShape, played: Played) -> Phase:
    """The phase's figures: the counters' differences over what was played."""
    kinds = [kind for kind in after.cpu if kind != "machine"]
    commands = {server: after.commands[server] - before.commands[server] for server in SERVERS}
    commands["redis"] -= after.bench_reads - before.bench_reads
    return Phase(
        workers=shape.workers,
        replicas=shape.replicas,
        matches=played.matches,
        seconds=played.seconds,
        moves=played.moves,
        cpu={kind: after.cpu[kind] - before.cpu[kind] for kind in kinds},
        machine=after.cpu["machine"] - before.cpu["machine"],
        commands=commands,
        cores=played.cores,
        load=(before.load, after.load),
        match_bytes=played.match_bytes,
        counted=played.counted,
    )


def table_lines(phases: list[Phase]) -> list[str]:
    """The scale-out table: the pace and its cost per move at each shape, then each process's share."""
    lines = [
        f"  {'workers':>7}{'replicas':>9}{'moves/s':>9}{'CPU ms/move':>12}{'Redis cmd/move':>15}"
        f"{'broker cmd/move':>16}{'busy %':>8}{'load 1m':>13}"
    ]
    for p in phases:
        lines.append(
            f"  {p.workers:>7}{p.replicas:>9}{p.moves_per_second:9.0f}{p.cpu_ms_per_move():12.2f}"
            f"{p.commands_per_move('redis'):15.1f}{p.commands_per_move('broker'):16.1f}{p.busy_percent:8.0f}"
            f"{p.load[0]:>7.1f}→{p.load[1]:<5.1f}"
        )
    kinds = list(phases[0].cpu)
    lines.append("  CPU ms per move, each kind of process and each Redis server:")
    lines.append(f"  {'shape':>7}" + "".join(f"{kind:>11}" for kind in kinds))
    lines += [
        f"  {f'{p.workers}x{p.replicas}':>7}" + "".join(f"{p.cpu_ms_per_move(kind):11.2f}" for kind in kinds)
        for p in phases
    ]
    return lines


def read_counters(platform: BotPlatform, follower: FeedFollower, clients: dict[str, redis.Redis]) -> Reading:
    """Every counter the phase compares, now."""
    servers = {server: redis_counters(client) for server, client in clients.items()}
    cpu = cpu_by_kind(platform.processes()) | {server: c.cpu_seconds for server, c in servers.items()}
    return Reading(cpu, {s: c.commands for s, c in servers.items()}, follower.reads, os.getloadavg()[0])


def keep_playing(follower: FeedFollower, top_up: Callable[[int], None], seconds: float) -> None:
    """Replaces each bot match that finishes with a new one, for `seconds`."""
    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        try:
            follower.finished.get(timeout=0.2)
        except queue.Empty:
            continue
        top_up(1)


def measure(platform: BotPlatform, shape: PlatformShape, games: list[str], matches: int, seconds: float) -> Phase:
    """Plays `matches` bot matches on the platform; the counters over `seconds` once they settled."""
    loads = [game_load(game) for game in games]
    auth: Auth = (("authorization", f"Bearer {KEYS.signer().issue_service('bench', 3600)[0]}"),)
    clients = {"redis": redis.Redis.from_url(platform.redis_url), "broker": redis.Redis.from_url(platform.broker_url)}
    with ExitStack() as stack:
        for client in clients.values():
            stack.callback(client.close)
        stubs = {g: matches_pb2_grpc.MatchesStub(stack.enter_context(open_channel(platform.address(g)))) for g in games}
        follower = FeedFollower(platform.redis_url)
        reader = threading.Thread(target=follower.run, daemon=True)
        reader.start()
        stack.callback(reader.join, 5)
        stack.callback(follower.stop)
        ids, rotation = match_ids(), itertools.cycle(loads)

        def top_up(count: int) -> None:
            for load in itertools.islice(rotation, count):
                create_bot_match(stubs[load.game], load, shape.level, next(ids), follower, auth)

        top_up(matches)
        follower.wait_for_a_move(WARM_UP_S)
        keep_playing(follower, top_up, min(SETTLE_S, seconds))
        before, start = read_counters(platform, follower, clients), time.perf_counter()
        keep_playing(follower, top_up, seconds)
        after, end = read_counters(platform, follower, clients), time.perf_counter()
        moves = sum(1 for a in follower.between(start, end) if a.since_previous is not None)
        active = follower.active()
        sample = random.Random(matches).sample(active, min(MEMORY_SAMPLE, len(active)))
        sizes = asyncio.run(sampled_match_bytes(platform.redis_url, sample))
    played = Played(
        matches=matches,
        seconds=end - start,
        moves=moves,
        match_bytes=sum(sizes) / len(sizes) if sizes else float("nan"),
        counted={kind: len(members) for kind, members in platform.processes().items()} | {"redis servers": 2},
        cores=os.cpu_count() or 1,
    )
    return phase_between(before, after, shape, played)


def scale_out(shapes: Shapes, base: PlatformShape, games: list[str], matches: int, seconds: float) -> None:
    """Measures each shape on a platform started afresh, then prints the table and the cluster plan."""
    print(f"Menagerie scaled out on this machine: {matches:,} bot matches at each shape, {seconds:g} s each")
    phases = []
    for workers, replicas in shapes:
        shape = dataclasses.replace(base, workers=workers, replicas=replicas)
        with (
            own_redis_server() as redis_url,
            own_redis_server() as broker_url,
            bot_platform(redis_url, broker_url, games, shape) as platform,
        ):
            phase = measure(platform, shape, games, matches, seconds)
        counted = ", ".join(f"{kind} {count}" for kind, count in phase.counted.items())
        print(f"  {workers}x{replicas}: measured; processes counted: {counted}", flush=True)
        phases.append(phase)
    print(
        f"\n== Scale-out ({base.level} bots, games {', '.join(games)} in turn; {matches:,} matches;"
        f" each worker {base.concurrency or 'auto'} threads; bots call the replicas {base.routing};"
        f" the machine's {phases[0].cores} cores)"
    )
    for line in table_lines(phases):
        print(line)
    print(f"\n== A cluster for 100,000 concurrent matches, from the {phases[-1].workers}x{phases[-1].replicas} costs")
    for line in report_lines(phases[-1].costs(), Assumptions()):
        print(line)
