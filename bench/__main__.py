"""`make bench`: figures measured in one run, each beside a baseline from the same run.

Usage: python -m bench [--seconds S] [--rounds R] [--clients N] [--hops H] [--tickets T] [--game G ...] [--full]

Every installed game is benched (menagerie.rules.registry), each with the mode and table
bench/service.py's LOADS picks for it, or a default.

A service's SubmitAction and its health-check baseline are measured in alternating
rounds (health, its floors, submit, health, …) and pooled, so that both see the same
conditions of a shared host: a burst of CPU steal lands on both, not on one. Beside each
ratio, its lowest and highest round: the precision the pooled figure keeps.

Each section prints its wall time, and the run its total beside the 10 minutes `make bench`
may take (issue 32). What repeats a figure the issues ask for once runs with --full only:
matchmaking seats one game's tables by default (the target is one lobby's rate), every
game's with --full.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable, Coroutine
from contextlib import ExitStack, closing
from typing import Any

import redis

from bench.bots import bot_hops, report_hops
from bench.estimates import estimates_section
from bench.lobby import matchmaking_sections
from bench.mcts import mcts_section
from bench.resilience import flood_rounds, watchers_rounds
from bench.service import (
    UNLIMITED,
    GameLoad,
    Plan,
    engine_games_per_second,
    finished_match_memory,
    floor_load,
    floor_processes,
    game_load,
    health_baseline,
    many_matches_load,
    open_matches,
    plan_matches,
    start_games,
    submit_load,
)
from bench.stats import Figure, Latencies, Rounds, cpu_seconds, p50, p99, rate, ratio_spread, took, verdict
from bench.store import store_section
from menagerie.rules.registry import game_ids
from menagerie.shared.bots import BOT_LEVELS, searches
from tests.support.keys import KEYS
from tests.support.redis_server import throwaway_redis
from tests.support.services import ServiceProcess, bot_worker_process, dispatcher_process, game_process, service_process

PLANS_PER_CLIENT = 3  # matches planned per client before the clock starts; a client replays them in turn
# Issue 15's targets, each printed beside the figure of the run with PASS or MISS.
P50_RATIO = 1.5  # SubmitAction p50 at most this many health-check p50s
THROUGHPUT_RATIO = 0.6  # and at least this share of the health checks' calls/s
# Issue 32's: where the floor (bench.floor) stops them, SubmitAction within 10% of the floor.
FLOOR_P50 = 1.10  # SubmitAction p50 at most this many floor p50s
FLOOR_RATE = 1 / 1.10  # and at least this share of the floor's calls/s
TOTAL_MINUTES = 10  # the whole default run (issue 32, item 5)
MATCH_BYTES = 40 * 1024  # Redis memory of one finished match
ACTIVE_MATCH_STEPS = (10, 100, 1_000)


def game_section(load: GameLoad, redis_url: str, service_token: str, args: argparse.Namespace) -> None:
    """Engine speed, SubmitAction beside the health baseline and its floor, memory of one match."""
    games, actions = engine_games_per_second(load, load.engine_games)
    title = f"{load.binding.info.title}, {load.mode}, {load.seats} seats"
    print(f"\n== {title}")
    print(f"Engine in process, random legal moves: {games:8.1f} full games/s   ({actions:,.0f} actions/s)")
    plans = plan_matches(load, args.clients, PLANS_PER_CLIENT)
    with game_process(load.game, redis_url, KEYS, **UNLIMITED) as service:
        with floor_processes(service.address, service_token, redis_url, load) as (floor, writing):
            servers = {"health": service, "floor": floor, "writing": writing, "submit": service}
            measured = alternated_rounds(servers, redis_url, service_token, load, plans, args)
        memory = asyncio.run(finished_match_memory(service.address, service_token, redis_url, load))
    print(
        f"One service process, {args.clients} concurrent clients, {args.seconds:g} s each"
        f" in {args.rounds} alternating rounds; the server's and Redis's CPU per call"
    )
    print(f"  {'':44}{'p50 ms':>10}{'p99 ms':>10}{'calls/s':>10}{'server µs':>11}{'Redis µs':>10}")
    for name, rounds in (
        ("health Check (baseline)", measured["health"]),
        ("SubmitAction's floor (no engine, no Redis)", measured["floor"]),
        ("the floor and one Redis write", measured["writing"]),
        ("SubmitAction", measured["submit"]),
    ):
        run = rounds.pooled
        print(
            f"  {name:44}{run.p50_ms:10.3f}{run.p99_ms:10.3f}{run.per_second:10.0f}"
            f"{rounds.cpu_per_call_us('server'):11.0f}{rounds.cpu_per_call_us('redis'):10.0f}"
        )
    print_ratios(measured)
    print(f"Redis memory of one match ({memory.actions} actions), its keys (MEMORY USAGE):")
    print(f"  active, half-way through        {memory.active:9,} bytes")
    print(
        f"  finished                        {memory.finished:9,} bytes   (target ≤ {MATCH_BYTES:,})"
        f"  {verdict(memory.finished <= MATCH_BYTES)}"
    )


class CpuMeter:
    """Runs a load phase and reads the CPU time its server process and Redis used meanwhile."""

    def __init__(self, redis_url: str) -> None:
        self.redis = redis.Redis.from_url(redis_url)

    def close(self) -> None:
        """Closes its Redis connection."""
        self.redis.close()

    def _redis_cpu(self) -> float:
        info = self.redis.info("cpu")
        return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])

    def run(self, load: Coroutine[Any, Any, Latencies], pid: int) -> tuple[Latencies, dict[str, float]]:
        """The phase's latencies, and the CPU seconds of the server `pid` and of Redis during it."""
        server, store = cpu_seconds(pid), self._redis_cpu()
        run = asyncio.run(load)
        return run, {"server": cpu_seconds(pid) - server, "redis": self._redis_cpu() - store}


def alternated_rounds(
    servers: dict[str, ServiceProcess],
    redis_url: str,
    service_token: str,
    load: GameLoad,
    plans: list[list[Plan]],
    args: argparse.Namespace,
) -> dict[str, Rounds]:
    """Health, the floors and SubmitAction in alternating rounds, each with the CPU its server and Redis used."""
    running = asyncio.run(open_matches(servers["submit"].address, service_token, load, plans))
    phase = args.seconds / args.rounds
    loads: dict[str, Callable[[], Coroutine[Any, Any, Latencies]]] = {
        "health": lambda: health_baseline(servers["health"].address, args.clients, phase),
        "floor": lambda: floor_load(servers["floor"].address, args.clients, phase, load, running),
        "writing": lambda: floor_load(servers["writing"].address, args.clients, phase, load, running),
        "submit": lambda: submit_load(servers["submit"].address, service_token, args.clients, phase, load, plans),
    }
    measured = {name: Rounds() for name in loads}
    with closing(CpuMeter(redis_url)) as meter:
        for _ in range(args.rounds):
            for name, make in loads.items():
                measured[name].add(*meter.run(make(), servers[name].process.pid))
    return measured


def print_ratios(measured: dict[str, Rounds]) -> None:
    """SubmitAction beside health (issue 15's targets) and beside its floor (issue 32's), with their rounds' spread."""
    health, floor, writing, submit = (measured[name] for name in ("health", "floor", "writing", "submit"))
    rows: list[tuple[str, Rounds, Rounds, Figure, tuple[str, float] | None]] = [
        ("SubmitAction p50 / health p50", submit, health, p50, ("≤", P50_RATIO)),
        ("moves/s / health calls/s", submit, health, rate, ("≥", THROUGHPUT_RATIO)),
        ("floor p50 / health p50", floor, health, p50, None),
        ("floor calls/s / health calls/s", floor, health, rate, None),
        ("SubmitAction p50 / floor p50", submit, floor, p50, ("≤", FLOOR_P50)),
        ("moves/s / floor calls/s", submit, floor, rate, ("≥", FLOOR_RATE)),
        ("SubmitAction p50 / floor+write p50", submit, writing, p50, None),
        ("moves/s / floor+write calls/s", submit, writing, rate, None),
    ]
    for name, over, under, figure, target in rows:
        value = figure(over.pooled) / figure(under.pooled)
        judged = ""
        if target is not None:
            sign, bound = target
            judged = f"(target {sign} {bound:.2f}) {verdict(value <= bound if sign == '≤' else value >= bound)}"
        print(f"  {name:36}{value:6.2f}   {judged:22}  {ratio_spread(over, under, figure)}")


def flat_cost_section(load: GameLoad, redis_url: str, service_token: str, args: argparse.Namespace) -> None:
    """SubmitAction latency at 10, 100 and 1,000 active matches of one process: within 2× of each other."""
    plans = [plan for client in plan_matches(load, args.clients, PLANS_PER_CLIENT) for plan in client]
    steps: dict[int, Latencies] = {}
    with game_process(load.game, redis_url, KEYS, **UNLIMITED) as service:
        # Untimed warm-up: a fresh process's first calls (its scripts loaded, its caches empty) are no step's cost.
        asyncio.run(many_matches_load(service.address, service_token, args.clients, 1.0, load, plans, 10))
        for matches in ACTIVE_MATCH_STEPS:
            steps[matches] = asyncio.run(
                many_matches_load(service.address, service_token, args.clients, args.seconds, load, plans, matches)
            )
    print(
        f"\n== Flat cost: SubmitAction with many active matches ({load.binding.info.title}, one process,"
        f" {args.clients} clients moving in every match in turn, {args.seconds:.0f} s a step)"
    )
    print(f"  {'active matches':28}{'p50 ms':>10}{'p99 ms':>10}{'moves/s':>12}")
    for matches, latencies in steps.items():
        print(f"  {matches:<28,}{latencies.p50_ms:10.3f}{latencies.p99_ms:10.3f}{latencies.per_second:12.0f}")
    for name, values in (("p50", [s.p50_ms for s in steps.values()]), ("p99", [s.p99_ms for s in steps.values()])):
        spread = max(values) / min(values)
        print(f"  {name} highest / lowest step          {spread:6.2f}   (target ≤ 2)  {verdict(spread <= 2)}")


def resilience_sections(
    loads: dict[str, GameLoad], redis_url: str, service_token: str, args: argparse.Namespace
) -> None:
    """A crowd of watchers and a flooding seat (the first game), each beside the same load without them."""
    load = next(iter(loads.values()))
    plans = plan_matches(load, args.clients, PLANS_PER_CLIENT)
    with took("the watchers"):
        watchers_section(load, plans, redis_url, service_token, args)
    with took("the flood"):
        flood_section(load, plans, redis_url, service_token, args)


def watchers_section(
    load: GameLoad, plans: list[list[Plan]], redis_url: str, service_token: str, args: argparse.Namespace
) -> None:
    """SubmitAction with and without thousands of parked Watch streams on the same process."""
    streams = {"MENAGERIE_MAX_STREAMS": str(args.watchers + 100), "MENAGERIE_MAX_CONCURRENT_RPCS": "20000"}
    with game_process(load.game, redis_url, KEYS, **UNLIMITED, **streams) as service:
        quiet, crowded = asyncio.run(
            watchers_rounds(
                service.address,
                service_token,
                KEYS.signer(),
                load,
                plans,
                args.watchers,
                args.watched,
                args.clients,
                args.seconds,
                args.crowd_rounds,
            )
        )
    print(
        f"\n== {args.watchers:,} Watch streams parked over {args.watched} matches of one"
        f" {load.binding.info.title} process; SubmitAction on other matches, {args.clients} clients,"
        f" {args.seconds:g} s each in {args.crowd_rounds} alternating rounds"
    )
    print(f"  {'':28}{'p50 ms':>10}{'p99 ms':>10}{'calls/s':>12}")
    for name, rounds in (("without the crowd", quiet), ("with the crowd", crowded)):
        run = rounds.pooled
        print(f"  {name:28}{run.p50_ms:10.3f}{run.p99_ms:10.3f}{run.per_second:12.0f}")
    ratio = crowded.pooled.p99_ms / quiet.pooled.p99_ms
    print(f"  p99 with / without               {ratio:6.2f}   (target ≤ 2)  {ratio_spread(crowded, quiet, p99)}")


def flood_section(
    load: GameLoad, plans: list[list[Plan]], redis_url: str, service_token: str, args: argparse.Namespace
) -> None:
    """A probe's SubmitAction with and without one seat flooding the same process (default quotas)."""
    with game_process(load.game, redis_url, KEYS) as service:  # the default quotas
        calm, stormy, flooder = asyncio.run(
            flood_rounds(service.address, service_token, load, plans[0], args.seconds, args.rounds)
        )
    print(
        "\n== One seat floods SubmitAction (4 threads, another process); a probe plays other matches,"
        f" a move every 5 ms, default quotas, {args.seconds:g} s each in {args.rounds} alternating rounds"
    )
    print(f"  {'':28}{'p50 ms':>10}{'p99 ms':>10}{'moves':>12}")
    for name, rounds in (("without the flood", calm), ("with the flood", stormy)):
        run = rounds.pooled
        print(f"  {name:28}{run.p50_ms:10.3f}{run.p99_ms:10.3f}{len(run.samples):12}")
    ratio = stormy.pooled.p99_ms / calm.pooled.p99_ms
    print(f"  p99 with / without               {ratio:6.2f}   (target ≤ 2)  {ratio_spread(stormy, calm, p99)}")
    print(f"  the flooder (last round): {flooder}")


def platform_sections(loads: dict[str, GameLoad], redis_url: str, service_token: str, args: argparse.Namespace) -> None:
    """The bot hop and matchmaking, for every game, with every game's service running."""
    with ExitStack() as stack:
        services, endpoints = start_games(stack, redis_url, loads)
        dispatcher = dispatcher_process(redis_url, KEYS, MENAGERIE_GAME_ENDPOINTS=endpoints)
        # The worker that plays random and greedy bots in `make run` and the deploys: the plain queues' (threads pool).
        worker = bot_worker_process(
            redis_url, KEYS, MENAGERIE_GAME_ENDPOINTS=endpoints, MENAGERIE_WORKER_QUEUES="plain"
        )
        with dispatcher, worker:
            for game, load in loads.items():
                with took(f"{game}'s bot hops"):
                    hops = [
                        bot_hops(services[game].address, redis_url, service_token, args.hops, load, level)
                        # A searching level thinks for a second a move by design: its time is mcts_section's.
                        for level in BOT_LEVELS
                        if not searches(level)
                    ]
                    report_hops(load.binding.info.title, load.seats, hops)

        lobby_process = service_process(
            "menagerie.lobby", redis_url, KEYS, (), MENAGERIE_GAME_ENDPOINTS=endpoints, **UNLIMITED
        )
        with took("matchmaking"), lobby_process as lobby:
            # One lobby's rate is the target (issue 15), not a game's: the others' tables are seated with --full.
            seated = list(loads.values()) if args.full else list(loads.values())[:1]
            matchmaking_sections(lobby, redis_url, seated, services, args.tickets)


def games_sections(loads: dict[str, GameLoad], redis_url: str, service_token: str, args: argparse.Namespace) -> None:
    """The store's script call, each game's own section, then the flat cost of the first."""
    with took("the store's script call"):
        store_section(redis_url)
    for load in loads.values():
        with took(f"{load.game}'s section"):
            game_section(load, redis_url, service_token, args)
    with took("the flat cost"):
        flat_cost_section(next(iter(loads.values())), redis_url, service_token, args)


Sections = Callable[[dict[str, GameLoad], str, str, argparse.Namespace], None]
# The groups of sections that need services, in the order they run (`--only` names one).
GROUPS: dict[str, Sections] = {
    "games": games_sections,
    "resilience": resilience_sections,
    "platform": platform_sections,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each load phase")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds the load phases are cut into")
    parser.add_argument(
        "--crowd-rounds", type=int, default=3, help="alternating rounds of the watchers (the crowd reopens each)"
    )
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients")
    parser.add_argument("--hops", type=int, default=500, help="bot moves to time, per game and bot level")
    parser.add_argument("--tickets", type=int, default=10_000, help="players queued at once, per game")
    parser.add_argument("--watchers", type=int, default=2_000, help="Watch streams parked on one process")
    parser.add_argument("--watched", type=int, default=500, help="matches the watchers are spread over")
    parser.add_argument("--mcts-decisions", type=int, default=5, help="mcts decisions to time, per game and mode")
    parser.add_argument("--estimate-matches", type=int, default=1, help="seeded matches per mode to time estimates on")
    parser.add_argument(
        "--only", choices=("games", "resilience", "platform", "mcts", "estimates"), help="run one group of sections"
    )
    parser.add_argument("--game", action="append", choices=game_ids(), help="only this game (repeatable)")
    parser.add_argument("--full", action="store_true", help="also the sections that repeat a figure per game")
    args = parser.parse_args()

    started = time.perf_counter()
    print("Menagerie benchmarks (one run; ratios use baselines from this same run)")
    service_token = KEYS.signer().issue_service("bench", 3600)[0]
    loads = {game: game_load(game) for game in args.game or game_ids()}
    # Each group on a Redis of its own: the thousands of human matches the first groups leave
    # behind would time out during the next and their timeout bots queue ahead of its hops.
    for group, sections in GROUPS.items():
        if args.only in (None, group):
            with took(f"the {group} group"), throwaway_redis() as (redis_url, kind):
                print(f"\n[{group}: Redis {kind}]")
                sections(loads, redis_url, service_token, args)
    if args.only in (None, "mcts"):
        with took("mcts"):
            mcts_section(args.mcts_decisions)
    if args.only in (None, "estimates"):
        with took("the win estimates"):
            estimates_section(args.estimate_matches)
    total = time.perf_counter() - started
    minutes, seconds = divmod(round(total), 60)
    whole = args.only is None and args.game is None and not args.full
    judged = verdict(total <= TOTAL_MINUTES * 60) if whole else "(not the whole default run: no verdict)"
    print(f"\nmake bench took {minutes} min {seconds:02d} s   (target ≤ {TOTAL_MINUTES} min)  {judged}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
