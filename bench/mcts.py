"""The `mcts` level's speed and the engines' own: today's code beside the code as it was, in one run.

Positions are taken from a seeded random match of each mode (positions where the seat has a
choice the search plays: not a Snitch Team being built, which the level leaves to greedy's
plan). Each side runs in a child process of the same kind (bench.earlier.Probe: today's code,
and the engines and search of BASELINE_COMMIT), asked one job at a time in turn. Each decision
is searched for the default budget (1 s); the p99 of its time from the call to the answer is
printed beside the target (the budget + 10%, issue 33) with PASS/MISS. Where an issue set a
target for the search's iterations per second (SIMS_TARGETS), the code as it was searches the
same positions, and both are printed with their ratio and the target's verdict.

Then random playouts, the engine alone: legal actions and whole matches per second, today's
and the earlier commit's in alternating rounds (the best round of each side counts, the usual
way to read through a busy machine), with the verdict of "no lower than then" (issue 28, item 6).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
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
def earlier_code() -> Iterator[earlier.Probe | None]:
    """The earlier commit's code in its child process, or None (and why, printed) where it cannot run."""
    stack = ExitStack()
    try:
        then: earlier.Probe | None = stack.enter_context(earlier.Probe(earlier.BASELINE_COMMIT))
        print(f'  "then": the same measures on {earlier.BASELINE_COMMIT} (main when issue 28 was filed), this run')
    except (earlier.Unavailable, OSError) as why:
        print(f"  (no baseline from {earlier.BASELINE_COMMIT}: {why})")
        then = None
    with stack:
        yield then


def ratio(now: float, then: float | None) -> str:
    """now / then, or a dash without a figure for then."""
    return f"{now / then:7.2f}" if then else f"{'—':>7}"


def mcts_section(decisions: int, budget: SearchBudget | None = None) -> None:
    """Per game and mode: the search's iterations/s beside then's and its target, decision times, playout speed."""
    budget = budget or SearchBudget()
    target_ms = budget.seconds * (1 + SLACK) * 1000
    measured = modes(decisions)
    print(f"\n== mcts: {decisions} decisions per mode at {budget.seconds:g} s each (one core; each side in a child)")
    with earlier.Probe() as now, earlier_code() as then:
        print(
            f"  {'game mode, seats':30}{'sims/s':>9}{'then':>9}{'ratio':>7}{'sims':>8}"
            f"{'p50 ms':>9}{'p99 ms':>9}  target ≤ {target_ms:.0f} ms"
        )
        for mode in measured:
            search_row(mode, budget, target_ms, now, then)
        print(
            f"\n== random playouts, the engine alone ({PLAYOUT_ROUNDS} rounds of {PLAYOUT_SECONDS:g} s per side"
            " and mode, the best of each; target: no lower than then)"
        )
        print(
            f"  {'game mode, seats':30}{'actions/s':>11}{'then':>10}{'ratio':>7}{'games/s':>10}{'then':>9}{'ratio':>7}"
        )
        for mode in measured:
            playout_row(mode, now, then)


@dataclass
class Searched:
    """A side's search over a mode's positions: iterations and seconds of search, decision times, positions reached."""

    iterations: int = 0
    searching: float = 0.0
    times: list[float] = field(default_factory=list)
    reached: int = 0
    greedy_instead: bool = False

    def add(self, answer: dict[str, Any]) -> None:
        """Adds one position's answer from bench.probe."""
        self.iterations += answer["iterations"]
        self.searching += answer["searching"]
        self.times += answer["times"]
        self.reached += answer["positions"]
        self.greedy_instead = answer["greedy_instead"]

    @property
    def per_second(self) -> float | None:
        """Iterations per second of search (None where nothing was searched)."""
        return self.iterations / self.searching if self.searching else None


def search_row(
    mode: Mode, budget: SearchBudget, target_ms: float, now: earlier.Probe, then: earlier.Probe | None
) -> None:
    """One mode's search: iterations/s (beside then's and the target, where set) and decision times."""
    if not mode.found:
        print(f"  {mode.label:30}  no position with a choice found")
        return
    today, before = Searched(), Searched()
    for n, position in enumerate(mode.found):
        job = mode.job(seed=SEED, places=[position.where], search_seconds=budget.seconds, rng_seed=n)
        today.add(now.ask(job))
        if then is not None and mode.targeted:
            before.add(then.ask(job))
    times = today.times
    p50 = statistics.median(times) * 1000
    p99 = (statistics.quantiles(times, n=100)[98] if len(times) > 1 else times[0]) * 1000
    if today.greedy_instead:
        print(f"  {mode.label:30}{'   (greedy: no determinization yet)':33}{p50:9.1f}{p99:9.1f}")
        return
    sims, earlier_sims = today.per_second or 0.0, before.per_second
    wanted = SIMS_TARGETS.get((mode.game, mode.setup.mode))
    notes = f"   sims/s target ≥ {wanted:,}  {verdict(sims >= wanted)}" if wanted else ""
    if earlier_sims is not None and before.reached != len(mode.found):
        notes += f"  (then reached {before.reached} of the {len(mode.found)} positions)"
    earlier_text = f"{earlier_sims:9.0f}" if earlier_sims is not None else f"{'—':>9}"
    print(
        f"  {mode.label:30}{sims:9.0f}{earlier_text}{ratio(sims, earlier_sims)}{today.iterations / len(times):8.0f}"
        f"{p50:9.1f}{p99:9.1f}  {verdict(p99 <= target_ms)}{notes}"
    )


def playout_row(mode: Mode, now: earlier.Probe, then: earlier.Probe | None) -> None:
    """One mode's random playouts, today's and then's in alternating rounds, the best round of each side."""
    job = mode.job(playout_seconds=PLAYOUT_SECONDS)
    today: list[dict[str, Any]] = []
    before: list[dict[str, Any]] = []
    for _ in range(PLAYOUT_ROUNDS):
        today.append(now.ask(job))
        if then is not None:
            before.append(then.ask(job))
    actions_now = max(t["actions_per_second"] for t in today)
    games_now = max(t["games_per_second"] for t in today)
    actions = max((b["actions_per_second"] for b in before), default=None)
    games = max((b["games_per_second"] for b in before), default=None)
    line = (
        f"  {mode.label:30}{actions_now:11.0f}{actions or 0:10.0f}{ratio(actions_now, actions)}"
        f"{games_now:10.1f}{games or 0:9.1f}{ratio(games_now, games)}"
    )
    if games:
        line += f"  {verdict(games_now / games >= 1 - PLAYOUT_NOISE)}"
    print(line)
