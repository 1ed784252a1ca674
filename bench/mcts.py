"""The `mcts` level's speed: simulations per second per game and mode, and a 1 s decision's wall time.

Positions are taken from a seeded random match of each mode (positions where the seat has a
choice the search plays: not a Snitch Team being built, which the level leaves to greedy's
plan). Each decision is searched for the default budget (1 s); the time from the call to the
answer is printed beside the target (the budget + 50 ms) with PASS/MISS, and the
simulations per second beside the baseline of the same run: random legal actions per second
through the same engine (what a simulation is made of, without the search around it), and
where an issue set one, beside its target (SIMS_TARGETS) with PASS/MISS.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from bench.stats import verdict
from menagerie.rules import registry
from menagerie.rules.bots import SearchBudget
from menagerie.rules.contract import MatchSetup, ModeInfo
from menagerie.rules.mcts import MctsPolicy, Searchable, searchable_of

MARGIN = 0.050  # a decision returns within its budget plus this (issue 16)
# Simulations per second a search needs to play well (issue 28, item 6; issue 32, item 4: from 41 and 1,725).
SIMS_TARGETS = {("snitch", "advanced"): 1_000, ("snitch", "basic"): 5_000}


def seats_of(mode: ModeInfo) -> int:
    """2 seats, or a team of 3 in a cooperative mode that allows it."""
    if mode.cooperative and mode.min_seats <= 3 <= mode.max_seats:
        return 3
    return min(max(2, mode.min_seats), mode.max_seats)


def positions(
    engine: Any, setup: MatchSetup, count: int, seed: int, searchable: Searchable | None = None
) -> list[tuple[Any, list[Any], int]]:
    """(view, legal, seat) at `count` positions with a choice the search plays (see `searchable`), spread over
    seeded random matches."""
    found: list[tuple[Any, list[Any], int]] = []
    rng = random.Random(seed)
    match = 0
    while len(found) < count and match < 50:
        state, _ = engine.setup(setup, seed + match)
        choices = 0
        while engine.outcome(state) is None and len(found) < count:
            to_act = engine.to_act(state)
            seat = (to_act.must or to_act.may)[0]
            legal = engine.legal_actions(state, seat)
            view = engine.view(state, seat) if len(legal) > 1 else None
            if view is not None and (searchable is None or searchable(view)):
                if choices % 5 == 2:
                    found.append((view, legal, seat))
                choices += 1
            engine.perform(state, seat, rng.choice(legal))
        match += 1
    return found


def random_actions_per_second(engine: Any, setup: MatchSetup, seconds: float) -> float:
    """The baseline: random legal actions per second through the engine, whole matches from their setup."""
    rng = random.Random(0)
    actions, started, seed = 0, time.perf_counter(), 0
    while time.perf_counter() - started < seconds:
        state, _ = engine.setup(setup, seed)
        while engine.outcome(state) is None:
            to_act = engine.to_act(state)
            seat = (to_act.must or to_act.may)[0]
            engine.perform(state, seat, rng.choice(engine.legal_actions(state, seat)))
            actions += 1
        seed += 1
    return actions / (time.perf_counter() - started)


def mcts_section(decisions: int, budget: SearchBudget | None = None) -> None:
    """Per game and mode: simulations/s beside random actions/s, and p50/p99 decision time beside the target."""
    budget = budget or SearchBudget()
    target_ms = (budget.seconds + MARGIN) * 1000
    print(f"\n== mcts: {decisions} decisions per mode at {budget.seconds:g} s each (in process, one core)")
    print(
        f"  {'game mode, seats':30}{'sims/s':>9}{'sims':>8}{'random actions/s':>18}"
        f"{'p50 ms':>9}{'p99 ms':>9}  target ≤ {target_ms:.0f} ms"
    )
    for game in registry.game_ids():
        engine = registry.engine(game)
        for mode in engine.info.modes:
            setup = MatchSetup(mode.mode, seats_of(mode))
            policy = MctsPolicy(game, budget)
            baseline = random_actions_per_second(engine, setup, 1.0)
            times: list[float] = []
            iterations, searching = 0, 0.0
            for n, (view, legal, seat) in enumerate(positions(engine, setup, decisions, 7, searchable_of(game))):
                started = time.perf_counter()
                policy.choose(view, legal, seat, random.Random(n))
                elapsed = time.perf_counter() - started
                times.append(elapsed)
                if policy.iterations:
                    iterations += policy.iterations
                    searching += elapsed
            label = f"{game} {mode.mode}, {setup.seats}"
            if not times:
                print(f"  {label:30}  no position with a choice found")
                continue
            p50 = statistics.median(times) * 1000
            p99 = (statistics.quantiles(times, n=100)[98] if len(times) > 1 else times[0]) * 1000
            if policy.fallback is not None:
                rate = "   (greedy: no determinization yet)"
                print(f"  {label:30}{rate:35}{p50:9.1f}{p99:9.1f}")
                continue
            sims = iterations / searching if searching else 0.0
            wanted = SIMS_TARGETS.get((game, mode.mode))
            sims_target = f"   sims/s target ≥ {wanted:,}  {verdict(sims >= wanted)}" if wanted else ""
            print(
                f"  {label:30}{sims:9.0f}{iterations / len(times):8.0f}{baseline:18.0f}"
                f"{p50:9.1f}{p99:9.1f}  {verdict(p99 <= target_ms)}{sims_target}"
            )
