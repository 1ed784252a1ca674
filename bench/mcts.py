"""The `mcts` level's speed and the engines' own: today's code beside the code as it was, in one run.

Positions are taken from a seeded random match of each mode (positions where the seat has a
choice the search plays: not a Snitch Team being built, which the level leaves to greedy's
plan). Each decision is searched for the default budget (1 s); the time from the call to the
answer's p99 is printed beside the target (the budget + 10%, issue 33) with PASS/MISS. Where an issue set a
target for the search's iterations per second (SIMS_TARGETS), the same positions are searched
by the code as it was (bench.earlier: the engines and search of its BASELINE_COMMIT, in a child
process) and both are printed with their ratio and the target's verdict.

Then random playouts, the engine alone: legal actions and whole matches per second, today's
beside the earlier commit's, with the verdict of "no lower than then" (issue 28, item 6).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from bench import earlier, probe
from bench.stats import verdict
from menagerie.rules import registry
from menagerie.rules.bots import SearchBudget
from menagerie.rules.contract import MatchSetup

SLACK = 0.10  # a decision's p99 stays within its budget plus this share (issue 33; issue 16 had + 50 ms)
# Simulations per second a search needs to play well (issue 28, item 6; issue 32, item 4: from 41 and 1,725).
SIMS_TARGETS = {("snitch", "advanced"): 1_000, ("snitch", "basic"): 5_000}
PLAYOUT_SECONDS = 2.0  # of random playouts per mode, on each side
# A ratio of playout speeds under 1 by less than this is the machine's noise, not a slower engine.
PLAYOUT_NOISE = 0.05


@dataclass
class Mode:
    """A game mode as the section measures it: its setup, and the search's positions in it."""

    game: str
    setup: MatchSetup
    found: list[probe.Position]

    @property
    def label(self) -> str:
        """ "game mode, seats"."""
        return f"{self.game} {self.setup.mode}, {self.setup.seats}"

    def job(self) -> dict[str, Any]:
        """What bench.probe is asked of the earlier code for this mode: playouts, and the search where targeted."""
        job: dict[str, Any] = {
            "game": self.game,
            "mode": self.setup.mode,
            "seats": self.setup.seats,
            "playout_seconds": PLAYOUT_SECONDS,
        }
        if (self.game, self.setup.mode) in SIMS_TARGETS:
            job.update(seed=SEED, places=[p.where for p in self.found], search_seconds=SearchBudget().seconds)
        return job


SEED = 7  # of the random matches the positions are taken from


def modes(decisions: int) -> list[Mode]:
    """Every game mode of the registry with up to `decisions` positions for the search."""
    found = []
    for game in registry.game_ids():
        engine = registry.engine(game)
        for info in engine.info.modes:
            setup = MatchSetup(info.mode, probe.seats_of(info))
            wanted = probe.every_fifth_searchable(game)
            found.append(Mode(game, setup, probe.positions(engine, setup, SEED, wanted, decisions)))
    return found


def then_figures(measured: list[Mode]) -> tuple[list[dict[str, Any]], str]:
    """The earlier commit's figures per mode (empty where unavailable) and a line saying what they are."""
    try:
        results = earlier.measure([mode.job() for mode in measured])
    except (earlier.Unavailable, OSError) as why:
        return [{} for _ in measured], f"  (no baseline from {earlier.BASELINE_COMMIT}: {why})"
    return results, f'  "then": the same measures on {earlier.BASELINE_COMMIT} (main when issue 28 was filed), this run'


def ratio(now: float, then: float | None) -> str:
    """now / then, or a dash without a figure for then."""
    return f"{now / then:7.2f}" if then else f"{'—':>7}"


def mcts_section(decisions: int, budget: SearchBudget | None = None) -> None:
    """Per game and mode: the search's iterations/s beside then's and its target, decision times, playout speed."""
    budget = budget or SearchBudget()
    target_ms = budget.seconds * (1 + SLACK) * 1000
    measured = modes(decisions)
    print(f"\n== mcts: {decisions} decisions per mode at {budget.seconds:g} s each (in process, one core)")
    then, about = then_figures(measured)
    print(about)
    print(
        f"  {'game mode, seats':30}{'sims/s':>9}{'then':>9}{'ratio':>7}{'sims':>8}"
        f"{'p50 ms':>9}{'p99 ms':>9}  target ≤ {target_ms:.0f} ms"
    )
    for mode, earlier_figures in zip(measured, then, strict=True):
        search_row(mode, budget, target_ms, earlier_figures)
    print(
        f"\n== random playouts, the engine alone ({PLAYOUT_SECONDS:g} s per mode on each side;"
        " target: no lower than then)"
    )
    print(f"  {'game mode, seats':30}{'actions/s':>11}{'then':>10}{'ratio':>7}{'games/s':>10}{'then':>9}{'ratio':>7}")
    for mode, earlier_figures in zip(measured, then, strict=True):
        playout_row(mode, earlier_figures)


def search_row(mode: Mode, budget: SearchBudget, target_ms: float, then: dict[str, Any]) -> None:
    """One mode's search: iterations/s (beside then's and the target, where set) and decision times."""
    if not mode.found:
        print(f"  {mode.label:30}  no position with a choice found")
        return
    search = probe.search_speed(mode.game, mode.found, budget.seconds)
    times = search.times
    p50 = statistics.median(times) * 1000
    p99 = (statistics.quantiles(times, n=100)[98] if len(times) > 1 else times[0]) * 1000
    if search.greedy_instead:
        print(f"  {mode.label:30}{'   (greedy: no determinization yet)':33}{p50:9.1f}{p99:9.1f}")
        return
    sims = search.per_second
    earlier_sims = then.get("sims_per_second")
    wanted = SIMS_TARGETS.get((mode.game, mode.setup.mode))
    notes = f"   sims/s target ≥ {wanted:,}  {verdict(sims >= wanted)}" if wanted else ""
    if earlier_sims is not None and then.get("positions") != len(mode.found):
        notes += f"  (then reached {then.get('positions')} of the {len(mode.found)} positions)"
    earlier_text = f"{earlier_sims:9.0f}" if earlier_sims is not None else f"{'—':>9}"
    print(
        f"  {mode.label:30}{sims:9.0f}{earlier_text}{ratio(sims, earlier_sims)}{search.iterations / len(times):8.0f}"
        f"{p50:9.1f}{p99:9.1f}  {verdict(p99 <= target_ms)}{notes}"
    )


def playout_row(mode: Mode, then: dict[str, Any]) -> None:
    """One mode's random playouts, today's beside then's, with the verdict where then was measured."""
    now = probe.random_playouts(registry.engine(mode.game), mode.setup, PLAYOUT_SECONDS)
    actions, games = then.get("actions_per_second"), then.get("games_per_second")
    line = (
        f"  {mode.label:30}{now.actions_per_second:11.0f}{actions or 0:10.0f}{ratio(now.actions_per_second, actions)}"
        f"{now.games_per_second:10.1f}{games or 0:9.1f}{ratio(now.games_per_second, games)}"
    )
    if games:
        line += f"  {verdict(now.games_per_second / games >= 1 - PLAYOUT_NOISE)}"
    print(line)
