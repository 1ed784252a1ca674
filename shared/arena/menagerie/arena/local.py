"""Bots against bots in process: the pairings, the matches and what they count.

A competitive mode: every pair of two distinct levels listed (in the order listed: the
first named plays the `first` side), N matches each; match g has seed S+g and the
`first` level in seat g mod K (the other seats at the `second` level), so over the
matches each side sits in every seat alike and the first-player advantage cancels. A
cooperative mode: each level listed as a whole team, the same N seeds for every team.

Whoever must act first acts (a simultaneous phase is played seat by seat; in a reaction
window nobody must, and the first seat that may act does); a seat's view is built only
for a policy that reads it; each seat has its own random generator (seeded from the
match seed and the seat), and each level one policy per process (its caches built once,
as the bot pool keeps them; a policy's choice depends on nothing an earlier match left).
With a search budget bounded by iterations alone the run replays exactly for a seed,
whatever the number of processes that play it. Decision times are what `choose` took, per
level. menagerie.arena.pool plays a plan's matches on every core, menagerie.arena.records
writes and reads them as JSON Lines.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from menagerie.rules import registry
from menagerie.rules.bots import SEARCH_LEVELS, Policy, SearchBudget, levels, policy_for
from menagerie.rules.contract import MatchSetup, ModeInfo, Outcome
from menagerie.rules.errors import InvalidArgument


@dataclass(frozen=True)
class MatchResult:
    """One match as the arena counts it: who sat where, who won, how long it took."""

    seed: int
    levels: tuple[str, ...]  # seat by seat
    winners: frozenset[int]
    actions: int
    # The engine's own outcome (scores, how it ended), in process; None through the services.
    outcome: Outcome | None = None


@dataclass
class Pairing:
    """The matches of one row of the table: `first` against `second`, or `first` as a team (`second` None)."""

    first: str
    second: str | None
    results: list[MatchResult] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.results)

    def _won(self, result: MatchResult, level: str) -> bool:
        return any(result.levels[seat] == level for seat in result.winners)

    @property
    def first_wins(self) -> int:
        """Matches a `first` seat won and no `second` seat did (a team: matches it won)."""
        if self.second is None:
            return sum(bool(r.winners) for r in self.results)
        second = self.second
        return sum(self._won(r, self.first) and not self._won(r, second) for r in self.results)

    @property
    def second_wins(self) -> int:
        """Matches a `second` seat won and no `first` seat did (0 for a team)."""
        if self.second is None:
            return 0
        second = self.second
        return sum(self._won(r, second) and not self._won(r, self.first) for r in self.results)

    @property
    def shared(self) -> int:
        """Matches won by a `first` seat and a `second` seat together (0 for a team)."""
        if self.second is None:
            return 0
        second = self.second
        return sum(self._won(r, self.first) and self._won(r, second) for r in self.results)

    @property
    def draws(self) -> int:
        """Matches nobody won (0 for a team: a team that did not win lost)."""
        if self.second is None:
            return 0
        return sum(not r.winners for r in self.results)

    @property
    def losses(self) -> int:
        """A team's lost matches (0 in a competitive pairing, where the other side's wins say it)."""
        return self.games - self.first_wins if self.second is None else 0

    @property
    def mean_actions(self) -> float:
        return sum(r.actions for r in self.results) / self.games if self.results else 0.0


@dataclass
class ArenaRun:
    """Every pairing of one run and the decision times of each level (seconds, in the order made)."""

    game: str
    mode: str
    seats: int
    options: dict[str, str]
    cooperative: bool
    pairings: list[Pairing] = field(default_factory=list)
    decision_seconds: dict[str, list[float]] = field(default_factory=dict)


@dataclass(frozen=True)
class Match:
    """One match of a run, by what makes it that match: its pairing, its seats' levels and its seed.

    `index` is its place in the run (menagerie.arena.pool plays them in any order, on any process).
    """

    index: int
    first: str
    second: str | None
    levels: tuple[str, ...]  # seat by seat
    seed: int


@dataclass(frozen=True)
class Plan:
    """What to play: a game, a mode, its seats and options, the levels, the matches and the search budget."""

    game: str
    mode: ModeInfo
    seats: int
    options: dict[str, str]
    levels: tuple[str, ...]
    games: int
    seed: int
    budget: SearchBudget

    def pairings(self) -> list[tuple[str, str | None]]:
        """(first, second) per row: each pair of levels in a competitive mode, each level alone in a co-op one."""
        if self.mode.cooperative:
            return [(level, None) for level in self.levels]
        return list(itertools.combinations(self.levels, 2))

    def lineup(self, pairing: tuple[str, str | None], index: int) -> tuple[str, ...]:
        """Seat by seat, the levels of the pairing's match `index` (the `first` seat rotates)."""
        first, second = pairing
        if second is None:
            return (first,) * self.seats
        return tuple(first if seat == index % self.seats else second for seat in range(self.seats))

    def matches(self) -> list[Match]:
        """Every match of the run: match g of each pairing before match g+1 of any.

        So a match keeps its index when --games grows (a run extended in place), and a run
        stopped early has played each pairing about as often.
        """
        pairings = self.pairings()
        return [
            Match(g * len(pairings) + p, first, second, self.lineup((first, second), g), self.seed + g)
            for g in range(self.games)
            for p, (first, second) in enumerate(pairings)
        ]


def default_seats(mode: ModeInfo) -> int:
    """2 within the mode's seat range; 3 for a cooperative mode that allows it (a team, not a pair)."""
    if mode.cooperative and mode.min_seats <= 3 <= mode.max_seats:
        return 3
    return min(max(2, mode.min_seats), mode.max_seats)


def make_plan(
    game: str,
    mode: str | None,
    bots: Sequence[str],
    games: int,
    seed: int,
    seats: int | None = None,
    options: Mapping[str, str] | None = None,
    budget: SearchBudget | None = None,
) -> Plan:
    """The plan of a run, every argument checked; InvalidArgument naming what is wrong."""
    if game not in registry.game_ids():
        raise InvalidArgument(f"no game {game!r}; installed games: {', '.join(registry.game_ids())}")
    info = registry.engine(game).info
    chosen = info.mode(mode) if mode else info.modes[0]
    known = levels(game)
    named = tuple(dict.fromkeys(level.strip() for level in bots if level.strip()))
    if unknown := [level for level in named if split_level(level, SearchBudget())[0] not in known]:
        raise InvalidArgument(f"{game} has no bot level {', '.join(unknown)}; its levels: {', '.join(known)}")
    if not named or (len(named) < 2 and not chosen.cooperative):
        raise InvalidArgument(f"{game} {chosen.mode} is competitive: name at least two distinct levels in --bots")
    if games < 1:
        raise InvalidArgument("--games must be at least 1")
    count = seats or default_seats(chosen)
    if count < 2 and not chosen.cooperative:
        raise InvalidArgument(f"{game} {chosen.mode}: levels play each other at 2 seats or more")
    checked = info.validate(MatchSetup(chosen.mode, count, dict(options or {})))
    return Plan(game, chosen, count, dict(checked), named, games, seed, budget or SearchBudget())


# A budget this long never stops a search first: a run bounded by iterations alone (--iterations without --budget).
UNBOUNDED_SECONDS = 24 * 3600.0
# A search level at a budget of its own: `mcts@0.5` thinks 0.5 s a decision, whatever the run's --budget.
AT = "@"


def split_level(spec: str, budget: SearchBudget) -> tuple[str, SearchBudget | None]:
    """(the level, its budget) of a level as a run names it; None for a level that does not search.

    `mcts@0.5` is `mcts` at 0.5 s a decision (the run's iteration bound kept); `mcts` the run's budget.
    InvalidArgument for a budget on a level that does not search, or one that is not a positive number.
    """
    level, at, seconds = spec.partition(AT)
    if not at:
        return level, budget if level in SEARCH_LEVELS else None
    if level not in SEARCH_LEVELS:
        raise InvalidArgument(f"{spec!r}: only a searching level ({', '.join(sorted(SEARCH_LEVELS))}) takes @SECONDS")
    try:
        value = float(seconds)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise InvalidArgument(f"{spec!r}: the budget after @ is a number of seconds more than 0")
    return level, SearchBudget(seconds=value, iterations=budget.iterations)


def searching(levels: Sequence[str]) -> bool:
    """Whether any of a run's levels searches (and so its budget is part of what the run is)."""
    return any(spec.partition(AT)[0] in SEARCH_LEVELS for spec in levels)


def make_policy(game: str, spec: str, budget: SearchBudget) -> Policy:
    """A policy of the level `spec` names (see split_level); a search level thinks for its budget."""
    level, own = split_level(spec, budget)
    return policy_for(game, level, own) if own is not None else policy_for(game, level)


def play_match(
    engine: Any,
    setup: MatchSetup,
    seed: int,
    lineup: Sequence[str],
    policies: Mapping[str, Policy],
    times: dict[str, list[float]],
    observe: Callable[[Any], None] | None = None,
    on_events: Callable[[Sequence[Any]], None] | None = None,
) -> MatchResult:
    """One match, seat s played by `policies[lineup[s]]`; each decision's time appended to `times[level]`.

    `observe`, if given, is shown the state after setup and after every action (it must not change it);
    `on_events`, if given, the events of the setup and of every action (e.g. the Teams built).
    """
    state, events = engine.setup(setup, seed)
    if on_events is not None:
        on_events(events)
    rngs = [random.Random(seed * 100 + seat) for seat in range(setup.seats)]
    actions = 0
    if observe is not None:
        observe(state)
    while (outcome := engine.outcome(state)) is None:
        to_act = engine.to_act(state)
        seat = (to_act.must or to_act.may)[0]
        level = lineup[seat]
        policy = policies[level]
        view = engine.view(state, seat) if policy.needs_view else None
        legal = engine.legal_actions(state, seat)
        started = time.perf_counter()
        action = policy.choose(view, legal, seat, rngs[seat])
        times.setdefault(level, []).append(time.perf_counter() - started)
        events = engine.apply(state, seat, action)
        if on_events is not None:
            on_events(events)
        actions += 1
        if observe is not None:
            observe(state)
    return MatchResult(seed, tuple(lineup), frozenset(outcome.winners()), actions, outcome)
