"""`make bench-scale`: the whole platform on this machine under 10, 100 and 1,000 concurrent bot matches.

Every service runs as `make run` runs it (bench.bot_platform): every game's service, the
lobby, the bot dispatcher and a Celery bot worker, one process each (--replicas service
processes per game, which the bots call per match or round-robin, --routing; --bot-workers
workers), on one Redis, Celery's broker on a server of its own. The load grows in steps; at
each step the bench tops the bot matches up to the step's count (spread over the games,
every seat a bot of --level; a match that finishes is replaced at once) and then, for
--seconds, measures (the first step once the pool has made its first move, WARM_UP_S):

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

`--scale-out [1x1,2x1,1x2,2x2]` measures instead the last step's matches at each count of
bot workers × replicas of each game's service, on a platform started afresh for each, and
extrapolates what a cluster needs for 100,000 concurrent matches (bench.scale_out).

Usage: python -m bench.scale [--steps 10,100,1000] [--seconds 20] [--level random] [--tickets 2000]
                             [--bot-workers 1] [--replicas 1] [--scale-out [WxR,...]]
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
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from typing import cast

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
    sampled_match_bytes,
)
from bench.lobby import matchmaking_sections
from bench.resilience import probe
from bench.scale_out import DEFAULT_SHAPES, parse_shapes, scale_out
from bench.service import Auth, GameLoad, game_load, plan_matches
from bench.stats import Latencies, verdict
from menagerie.common.v1 import matches_pb2_grpc
from menagerie.rules.registry import game_ids
from menagerie.shared.bots import BOT_LEVELS, searches
from menagerie.shared.rpc.channels import open_channel
from tests.support.keys import KEYS
from tests.support.redis_server import throwaway_redis
from tests.support.services import ServiceProcess

STEPS = (10, 100, 1_000)
FLAT_SPREAD = 2.0  # issue 15: SubmitAction p50/p99 across the steps within 2× of each other
# The probe's pace: light enough that the bots' moves, not the probe's, load the services.
PROBE_INTERVAL_S = 0.02
MEMORY_SAMPLE = 50  # active matches whose bytes are read at the end of a step


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


def report(steps: list[Step], shape: PlatformShape, seconds: float, probe_title: str, games: list[str]) -> None:
    """The figures of every step, and the flat-cost verdicts."""
    print(
        f"\n== Concurrent bot matches ({shape.level} bots, games {', '.join(games)} in turn;"
        f" {shape.replicas} process(es) of each game's service ({shape.routing}), one of the others,"
        f" {shape.workers} Celery worker(s),"
        f" concurrency {shape.concurrency or 'auto'} ({'prefork' if searches(shape.level) else 'threads'} pool);"
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


def play_steps(platform: BotPlatform, args: argparse.Namespace, shape: PlatformShape, games: list[str]) -> None:
    """bench-scale's steps on the running platform, then matchmaking beside the last step's matches."""
    steps = sorted(int(s) for s in args.steps.split(","))
    loads = [game_load(game) for game in games]
    service_token = KEYS.signer().issue_service("bench", 3600)[0]
    auth: Auth = (("authorization", f"Bearer {service_token}"),)
    processes = platform.processes()
    with ExitStack() as stack:
        # The bench creates its matches as the lobby would: round-robin over each game's replicas.
        stubs = {g: matches_pb2_grpc.MatchesStub(stack.enter_context(open_channel(platform.address(g)))) for g in games}
        follower = FeedFollower(platform.redis_url)
        reader = threading.Thread(target=follower.run, daemon=True)
        reader.start()
        ids = match_ids()
        rotation = itertools.cycle(loads)

        def top_up(count: int) -> None:
            # The games in turn across calls, so that replacing one finished match at a time still spreads them.
            for load in itertools.islice(rotation, count):
                create_bot_match(stubs[load.game], load, shape.level, next(ids), follower, auth)

        top_up(steps[0])
        follower.wait_for_a_move(WARM_UP_S)
        # The probe plays one replica of the first game directly: its latency is one process's.
        probe_address = platform.replicas[games[0]][0].address
        results = []
        for target in steps:
            results.append(
                run_step(
                    target,
                    args.seconds,
                    follower,
                    top_up,
                    probe_address,
                    loads[0],
                    service_token,
                    platform.redis_url,
                    processes,
                )
            )
            print(f"  step {target:,}: measured", flush=True)
        report(results, shape, args.seconds, loads[0].binding.info.title, games)
        if args.tickets:
            print(f"\nMatchmaking with the {steps[-1]:,} bot matches still running:")
            first_replicas = {game: members[0] for game, members in platform.replicas.items()}
            matchmaking_sections(
                platform.lobby, platform.redis_url, loads, first_replicas, args.tickets, flow=min(args.tickets, 2_000)
            )
        follower.stop()
        reader.join(timeout=5)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--steps", default=",".join(str(s) for s in STEPS), help="concurrent bot matches per step")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each step's measurement")
    parser.add_argument("--level", default="random", choices=BOT_LEVELS, help="the bots' level")
    parser.add_argument("--tickets", type=int, default=2_000, help="players queued at once, per game, at the end")
    parser.add_argument(
        "--worker-concurrency",
        type=int,
        default=0,
        help="each bot worker's threads or processes (0: auto)",
    )
    parser.add_argument("--bot-workers", type=int, default=1, help="Celery bot worker processes")
    parser.add_argument("--replicas", type=int, default=1, help="service processes of each game")
    parser.add_argument(
        "--routing", default="per-match", choices=("per-match", "round-robin"), help="how bots call a game's replicas"
    )
    parser.add_argument(
        "--scale-out",
        nargs="?",
        const=DEFAULT_SHAPES,
        type=parse_shapes,
        help=f"instead of the steps: the last step's matches at each WORKERSxREPLICAS (alone: {DEFAULT_SHAPES})",
    )
    parser.add_argument("--game", action="append", choices=game_ids(), help="only this game (repeatable)")
    args = parser.parse_args()
    games = args.game or list(game_ids())
    shape = PlatformShape(args.bot_workers, args.replicas, args.level, args.worker_concurrency, args.routing)
    if args.scale_out:
        matches = max(int(s) for s in args.steps.split(","))
        scale_out(args.scale_out, shape, games, matches, args.seconds)
        return
    print("Menagerie at scale: the whole platform on this machine (one run)")
    with throwaway_redis() as (redis_url, kind), own_redis_server() as broker_url:
        print(f"Redis: {kind}; Celery's broker: a server of its own ({broker_url})")
        with bot_platform(redis_url, broker_url, games, shape) as platform:
            play_steps(platform, args, shape, games)


if __name__ == "__main__":
    main()
