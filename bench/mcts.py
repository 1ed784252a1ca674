"""The `mcts` level's speed and the engines' own: today's code beside the code as it was, in one run.

Positions are taken from a seeded random match of each mode (positions where the seat has a
choice the search plays: not a Snitch Team being built, which the level leaves to greedy's
plan). Each decision is searched for the default budget (1 s); the time from the call to the
answer's p99 is printed beside the target (the budget + 10%, issue 33) with PASS/MISS. Where an issue set a
target for the search's iterations per second (SIMS_TARGETS), the same positions are searched
by the code as it was (bench.earlier: the engines and search of its BASELINE_COMMIT, in a child
process), position by position in turn with today's, and both are printed with their ratio and
the target's verdict.

Then random playouts, the engine alone: legal actions and whole matches per second, today's
and the earlier commit's in alternating rounds (the best round of each side counts, the usual
way to read through a busy machine), with the verdict of "no lower than then" (issue 28, item 6).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator
from contextlib import contextmanager
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
PLAYOUT_SECONDS = 1.0  # of random playouts per round
PLAYOUT_ROUNDS = 3  # rounds per side and mode, alternating with the other side's
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

    def job(self, **more: Any) -> dict[str, Any]:
        """A bench.probe job for this mode (playouts or a search, by `more`)."""
        return {"game": self.game, "mode": self.setup.mode, "seats": self.setup.seats, **more}

    @property
    def targeted(self) -> bool:
        """Whether an issue set a target for the search's speed here (then the earlier code is searched too)."""
        return (self.game, self.setup.mode) in SIMS_TARGETS


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


@contextmanager
def earlier_code() -> Iterator[earlier.Earlier | None]:
    """The earlier commit's code in its child process, or None (and why, printed) where it cannot run."""
    try:
        with earlier.Earlier() as then:
            print(f'  "then": the same measures on {then.commit} (main when issue 28 was filed), this run')
            yield then
    except (earlier.Unavailable, OSError) as why:
        print(f"  (no baseline from {earlier.BASELINE_COMMIT}: {why})")
        yield None


def ratio(now: float, then: float | None) -> str:
    """now / then, or a dash without a figure for then."""
    return f"{now / then:7.2f}" if then else f"{'—':>7}"


def mcts_section(decisions: int, budget: SearchBudget | None = None) -> None:
    """Per game and mode: the search's iterations/s beside then's and its target, decision times, playout speed."""
    budget = budget or SearchBudget()
    target_ms = budget.seconds * (1 + SLACK) * 1000
    measured = modes(decisions)
    print(f"\n== mcts: {decisions} decisions per mode at {budget.seconds:g} s each (in process, one core)")
    with earlier_code() as then:
        print(
            f"  {'game mode, seats':30}{'sims/s':>9}{'then':>9}{'ratio':>7}{'sims':>8}"
            f"{'p50 ms':>9}{'p99 ms':>9}  target ≤ {target_ms:.0f} ms"
        )
        for mode in measured:
            search_row(mode, budget, target_ms, then)
        print(
            f"\n== random playouts, the engine alone ({PLAYOUT_ROUNDS} rounds of {PLAYOUT_SECONDS:g} s per side"
            " and mode, the best of each; target: no lower than then)"
        )
        print(
            f"  {'game mode, seats':30}{'actions/s':>11}{'then':>10}{'ratio':>7}{'games/s':>10}{'then':>9}{'ratio':>7}"
        )
        for mode in measured:
            playout_row(mode, then)


def search_row(mode: Mode, budget: SearchBudget, target_ms: float, then: earlier.Earlier | None) -> None:
    """One mode's search: iterations/s (beside then's and the target, where set) and decision times."""
    if not mode.found:
        print(f"  {mode.label:30}  no position with a choice found")
        return
    search = probe.Search(0, 0.0, [], False)
    earlier_iterations, earlier_searching, reached = 0, 0.0, 0
    for n, position in enumerate(mode.found):
        one = probe.search_speed(mode.game, [position], budget.seconds, seed=n)
        search.iterations += one.iterations
        search.searching += one.searching
        search.times += one.times
        search.greedy_instead = one.greedy_instead
        if then is not None and mode.targeted:
            job = mode.job(seed=SEED, places=[position.where], search_seconds=budget.seconds, rng_seed=n)
            answer = then.ask(job)
            earlier_iterations += answer["iterations"]
            earlier_searching += answer["searching"]
            reached += answer["positions"]
    times = search.times
    p50 = statistics.median(times) * 1000
    p99 = (statistics.quantiles(times, n=100)[98] if len(times) > 1 else times[0]) * 1000
    if search.greedy_instead:
        print(f"  {mode.label:30}{'   (greedy: no determinization yet)':33}{p50:9.1f}{p99:9.1f}")
        return
    sims = search.per_second
    earlier_sims = earlier_iterations / earlier_searching if earlier_searching else None
    wanted = SIMS_TARGETS.get((mode.game, mode.setup.mode))
    notes = f"   sims/s target ≥ {wanted:,}  {verdict(sims >= wanted)}" if wanted else ""
    if earlier_sims is not None and reached != len(mode.found):
        notes += f"  (then reached {reached} of the {len(mode.found)} positions)"
    earlier_text = f"{earlier_sims:9.0f}" if earlier_sims is not None else f"{'—':>9}"
    print(
        f"  {mode.label:30}{sims:9.0f}{earlier_text}{ratio(sims, earlier_sims)}{search.iterations / len(times):8.0f}"
        f"{p50:9.1f}{p99:9.1f}  {verdict(p99 <= target_ms)}{notes}"
    )


def playout_row(mode: Mode, then: earlier.Earlier | None) -> None:
    """One mode's random playouts, today's and then's in alternating rounds, the best round of each side."""
    engine = registry.engine(mode.game)
    now: list[probe.Playouts] = []
    before: list[dict[str, Any]] = []
    for _ in range(PLAYOUT_ROUNDS):
        now.append(probe.random_playouts(engine, mode.setup, PLAYOUT_SECONDS))
        if then is not None:
            before.append(then.ask(mode.job(playout_seconds=PLAYOUT_SECONDS)))
    actions_now = max(p.actions_per_second for p in now)
    games_now = max(p.games_per_second for p in now)
    actions = max((b["actions_per_second"] for b in before), default=None)
    games = max((b["games_per_second"] for b in before), default=None)
    line = (
        f"  {mode.label:30}{actions_now:11.0f}{actions or 0:10.0f}{ratio(actions_now, actions)}"
        f"{games_now:10.1f}{games or 0:9.1f}{ratio(games_now, games)}"
    )
    if games:
        line += f"  {verdict(games_now / games >= 1 - PLAYOUT_NOISE)}"
    print(line)
