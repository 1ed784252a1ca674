"""`make bench`: figures measured in one run, each beside a baseline from the same run.

Usage: python -m bench [--seconds S] [--rounds R] [--clients N] [--hops H] [--tickets T]

A service's SubmitAction and its health-check baseline are measured in alternating
rounds (health, submit, health, submit, …) and pooled, so that both see the same
conditions of a shared host: a burst of CPU steal lands on both, not on one.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from bench.bots import bot_hops
from bench.lobby import seat_tickets
from bench.service import (
    GameLoad,
    engine_games_per_second,
    finished_match_memory,
    health_baseline,
    plan_matches,
    submit_load,
)
from bench.stats import Latencies
from menagerie.beasts.service import BINDING as BEASTS
from menagerie.pursuit.service import BINDING as PURSUIT
from menagerie.shared.tokens import TokenSigner
from menagerie.zoo.service import BINDING as ZOO
from tests.support.fixtures import TOKEN_SECRET
from tests.support.redis_server import throwaway_redis
from tests.support.services import service_process, worker_process

LOADS = {
    "beasts": GameLoad(BEASTS, "training", 3, {"spell_cards": "false"}),
    "zoo": GameLoad(ZOO, "advanced", 4),
    "pursuit": GameLoad(PURSUIT, "coop", 3, {"difficulty": "normal"}),
}
MODULES = {
    "beasts": "menagerie.beasts.service",
    "zoo": "menagerie.zoo.service",
    "pursuit": "menagerie.pursuit.service",
}
PLANS_PER_CLIENT = 3  # matches planned per client before the clock starts; a client replays them in turn
ENGINE_GAMES = {"beasts": 300, "zoo": 100, "pursuit": 300}  # about as many seconds each


def game_section(name: str, redis_url: str, service_token: str, args: argparse.Namespace) -> str:
    """Engine speed, SubmitAction beside the health baseline, memory of one match; returns the address."""
    load = LOADS[name]
    games, actions = engine_games_per_second(load, ENGINE_GAMES[name])
    title = f"{load.binding.info.title}, {load.mode}, {load.seats} seats"
    print(f"\n== {title}")
    print(f"Engine in process, random legal moves: {games:8.1f} full games/s   ({actions:,.0f} actions/s)")
    plans = plan_matches(load, args.clients, PLANS_PER_CLIENT)
    with service_process(MODULES[name], redis_url, TOKEN_SECRET) as service:
        health, submit = Latencies([], 0.0), Latencies([], 0.0)
        phase = args.seconds / args.rounds
        for _ in range(args.rounds):
            health += asyncio.run(health_baseline(service.address, args.clients, phase))
            submit += asyncio.run(submit_load(service.address, service_token, args.clients, phase, load, plans))
        memory, match_actions = asyncio.run(finished_match_memory(service.address, service_token, redis_url, load))
        address = service.address
    print(
        f"One service process, {args.clients} concurrent clients, {args.seconds:.0f} s each"
        f" in {args.rounds} alternating rounds"
    )
    print(f"  {'':28}{'p50 ms':>10}{'p99 ms':>10}{'calls/s':>12}")
    print(f"  {'health Check (baseline)':28}{health.p50_ms:10.3f}{health.p99_ms:10.3f}{health.per_second:12.0f}")
    print(f"  {'SubmitAction':28}{submit.p50_ms:10.3f}{submit.p99_ms:10.3f}{submit.per_second:12.0f}")
    print(f"  SubmitAction p50 / health p50      {submit.p50_ms / health.p50_ms:6.2f}   (target ≤ 3)")
    print(f"  moves/s / health calls/s           {submit.per_second / health.per_second:6.2f}   (target ≥ 0.33)")
    print(f"Redis memory of one finished match ({match_actions} actions): {memory:,} bytes")
    return address


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="length of each load phase")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds the load phases are cut into")
    parser.add_argument("--clients", type=int, default=8, help="concurrent clients")
    parser.add_argument("--hops", type=int, default=500, help="bot moves to time")
    parser.add_argument("--tickets", type=int, default=400, help="tickets to seat")
    args = parser.parse_args()

    print("Menagerie benchmarks (one run; ratios use baselines from this same run)")
    service_token = TokenSigner(TOKEN_SECRET).issue_service("bench", 3600)[0]
    with throwaway_redis() as (redis_url, kind):
        print(f"Redis: {kind}")
        for name in LOADS:
            game_section(name, redis_url, service_token, args)

        with service_process(MODULES["beasts"], redis_url, TOKEN_SECRET) as beasts:
            endpoints = f"beasts={beasts.address}"
            dispatcher = worker_process(
                "menagerie.bots.dispatcher",
                redis_url,
                TOKEN_SECRET,
                "dispatcher started",
                MENAGERIE_GAME_ENDPOINTS=endpoints,
            )
            worker = worker_process(
                "menagerie.bots.worker", redis_url, TOKEN_SECRET, " ready.", MENAGERIE_GAME_ENDPOINTS=endpoints
            )
            with dispatcher, worker:
                hops = bot_hops(beasts.address, redis_url, service_token, args.hops)
            print("\n== Bot hop (turn notice → bot's move applied; Beasts, random bots, 1 dispatcher, 1 worker × 2)")
            print(f"  p50 {hops.p50_ms:.2f} ms   p99 {hops.p99_ms:.2f} ms   over {len(hops.samples)} moves")
            print("  (target p50 ≤ 10 ms)")

            with service_process(
                "menagerie.lobby", redis_url, TOKEN_SECRET, MENAGERIE_GAME_ENDPOINTS=endpoints
            ) as lobby:
                created, seated = seat_tickets(lobby.address, redis_url, args.tickets)
            print(f"\n== Matchmaking: {args.tickets} players queue for 2-seat Beasts tables at once, one lobby process")
            print(f"  tickets created per second  {created:8.0f}")
            print(f"  tickets seated per second   {seated:8.0f}   (first ticket created → last ticket seated)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
