"""`menagerie arena sweep`: greedy against random (or another level) over every installed game, mode and option.

The sweep names no game: it plays any installed game (menagerie.rules.registry) from
what its engine says (`engine.info`). By default (`--game all`, as `make arena` does) it
plays every installed game, each of its modes, and in each mode each value of each
option in turn (the other options at their defaults). `--option NAME=VALUE` fixes an
option, `--option NAME=V1,V2` plays each value listed and `--option NAME=all` each of its
values (repeatable; only the modes that have every option named are played);
`--funding-sweep 0,5,10` is `--option funding=0,5,10`. Seats: 2, or 3 in a cooperative
mode, within the mode's seat range, unless `--seats` says (`--seats 2,4,6`: each count in
turn, e.g. Fantastic Beasts' co-op mode at 2, 4 and 6 seats).

A competitive mode: game g is match seed B+g; one seat is greedy and the others play at
random (or at `--opponent`'s level: `--opponent greedy` plays greedy against greedy), and
the greedy seat rotates with g so that the first-player advantage cancels out. Prints
greedy's win rate with a 95% Wilson interval beside its fair share (1/S), the other
seats' win rate per seat, draws and the mean match length in actions; when the game
scores its seats, also how many of greedy's wins were shared and the mean final scores
of greedy and of a random seat. A shared win counts as a win.

A mode whose match starts by building Teams (a `team_changed` event per pick, e.g.
Catch the Golden Snitch's "advanced"): after the line-ups, a balance report over every
Team built in the run (menagerie.arena.teams): win rates by House and by Funding per
level, the Galleons spent, and the cards the greedy Teams bought most and least.

A cooperative mode (`ModeInfo.cooperative`) plays teams instead (`run_teams`): N matches
where every seat is random and the same N matches (same seeds) where every seat is
greedy; prints each team's win rate with a 95% Wilson interval, its mean score (the
best seat's) and the mean match length in actions, then how its matches ended (the count
of each outcome reason: a win, a loss by the rules, a turn or round cap).

Every match is played by menagerie.arena.local's `play_match`, as the pairing table of
`menagerie arena` plays them (each seat its own seeded RNG): deterministic given the seeds.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from menagerie.arena.local import default_seats, make_policy, play_match
from menagerie.arena.stats import wilson
from menagerie.arena.teams import Balance, TeamRecord, TeamWatcher, balance_report
from menagerie.rules import registry
from menagerie.rules.bots import Policy, SearchBudget, levels
from menagerie.rules.contract import MatchSetup, ModeInfo, Outcome
from menagerie.rules.errors import InvalidArgument

TEAM_LEVELS = ("random", "greedy")
ENDINGS_SHOWN = 4  # outcome reasons listed per team in a co-op report (the rest summed)
ALL = "all"  # --option NAME=all: each of the option's values


@dataclass
class GreedyResult:
    """One competitive match as the sweep counts it, from the greedy seat's side."""

    greedy_won: bool
    random_wins: int  # how many other seats won (several can share a win)
    draw: bool
    actions: int  # the match length
    shared: bool = False  # greedy won together with another seat
    greedy_score: float = 0.0
    random_score: float = 0.0  # the mean over the other seats
    scored: bool = False  # some seat scored (its game keeps scores)
    teams: list[TeamRecord] = field(default_factory=list)  # the Teams built (a Build Your Team mode)


@dataclass
class Tally:
    """The results of many competitive matches."""

    seats: int
    results: list[GreedyResult] = field(default_factory=list)

    @property
    def games(self) -> int:
        """Matches played."""
        return len(self.results)

    @property
    def greedy_wins(self) -> int:
        """Matches the greedy seat won, alone or shared."""
        return sum(r.greedy_won for r in self.results)

    @property
    def shared_wins(self) -> int:
        """Greedy's wins shared with another seat."""
        return sum(r.greedy_won and r.shared for r in self.results)

    @property
    def draws(self) -> int:
        """Matches nobody won."""
        return sum(r.draw for r in self.results)

    @property
    def scored(self) -> bool:
        """Whether the game scores its seats (any seat of any match scored)."""
        return any(r.scored for r in self.results)

    @property
    def random_rate_per_seat(self) -> float:
        """How often one of the other seats wins, on average."""
        return sum(r.random_wins for r in self.results) / (self.games * (self.seats - 1))

    @property
    def mean_actions(self) -> float:
        """The mean match length in actions."""
        return sum(r.actions for r in self.results) / self.games

    @property
    def mean_greedy_score(self) -> float:
        """The greedy seat's mean final score."""
        return sum(r.greedy_score for r in self.results) / self.games

    @property
    def mean_random_score(self) -> float:
        """The other seats' mean final score."""
        return sum(r.random_score for r in self.results) / self.games


def greedy_match(
    engine: Any,
    setup: MatchSetup,
    seed: int,
    greedy_seat: int,
    greedy: Policy,
    rand: Policy,
    opponent: str = "random",
) -> GreedyResult:
    """One match: `greedy_seat` plays `greedy`, every other seat `rand` (a bot of level `opponent`).

    Played by menagerie.arena.local's play_match; the Teams built, if any, are kept.
    """
    lineup = tuple("greedy" if seat == greedy_seat else opponent for seat in range(setup.seats))
    # With --opponent greedy both names are "greedy": one policy plays every seat (a greedy bot is
    # stateless between decisions, so sharing it changes no choice).
    policies = {opponent: rand, "greedy": greedy}
    watcher = TeamWatcher()
    match = play_match(engine, setup, seed, lineup, policies, {}, on_events=watcher.see)
    outcome = _finished(match.outcome)
    result = _result(outcome, greedy_seat, match.actions)
    result.teams = watcher.records(dict(enumerate(lineup)), outcome.winners(), setup.options.get("funding", ""))
    return result


def _finished(outcome: Outcome | None) -> Outcome:
    # play_match in process always returns the engine's outcome; only the stack's results lack one.
    if outcome is None:
        raise RuntimeError("a match played in process ended without the engine's outcome")
    return outcome


def _result(outcome: Outcome, greedy_seat: int, actions: int) -> GreedyResult:
    winners = outcome.winners()
    scores = {s.seat: s.score for s in outcome.seats}
    others = [score for seat, score in scores.items() if seat != greedy_seat]
    return GreedyResult(
        greedy_won=greedy_seat in winners,
        random_wins=sum(1 for w in winners if w != greedy_seat),
        draw=not winners,
        actions=actions,
        shared=greedy_seat in winners and len(winners) > 1,
        greedy_score=scores[greedy_seat],
        random_score=sum(others) / len(others) if others else 0.0,
        scored=any(scores.values()),
    )


def run(
    game: str,
    games: int,
    seats: int,
    mode: str,
    options: Mapping[str, str] | None = None,
    base_seed: int = 0,
    opponent: str = "random",
) -> Tally:
    """Plays `games` matches of `game` in `mode` (options as given, the others at their defaults),
    greedy in seat `g % seats` of game g, `opponent`'s level in the others; returns the tally."""
    engine = registry.engine(game)
    setup = MatchSetup(mode, seats, dict(options or {}))
    budget = SearchBudget()
    greedy, rand = make_policy(game, "greedy", budget), make_policy(game, opponent, budget)
    tally = Tally(seats)
    for g in range(games):
        tally.results.append(greedy_match(engine, setup, base_seed + g, g % seats, greedy, rand, opponent))
    return tally


def report(tally: Tally, label: str, elapsed: float, opponent: str = "random") -> str:
    """The figures, one per line (`opponent`: the level of the other seats)."""
    other = "other greedy" if opponent == "greedy" else opponent
    low, high = wilson(tally.greedy_wins, tally.games)
    rate = tally.greedy_wins / tally.games
    wins = f"  greedy wins  {tally.greedy_wins}/{tally.games} = {rate:.1%}"
    wins += f"  (95% Wilson {low:.1%}–{high:.1%})  fair share {1 / tally.seats:.1%}"
    lines = [f"{label}: {tally.games} games in {elapsed:.1f}s", wins]
    if tally.scored:
        lines.append(f"  shared wins  {tally.shared_wins} of greedy's {tally.greedy_wins}")
    lines += [
        f"  {other} seat  {tally.random_rate_per_seat:.1%} per seat",
        f"  draws        {tally.draws} ({tally.draws / tally.games:.1%})",
    ]
    if tally.scored:
        lines.append(f"  mean score   greedy {tally.mean_greedy_score:.1f}, {other} {tally.mean_random_score:.1f}")
    lines.append(f"  match length {tally.mean_actions:.1f} actions")
    return "\n".join(lines)


# ------------------------------------------------------------------ cooperative modes


@dataclass
class TeamResult:
    """One cooperative match as the sweep counts it."""

    won: bool
    score: float  # the team's score: its best seat's
    actions: int  # the match length
    reason: str = ""  # the outcome's reason: how the match ended


@dataclass
class TeamTally:
    """The results of many matches of one team."""

    level: str
    results: list[TeamResult] = field(default_factory=list)

    @property
    def games(self) -> int:
        """Matches played."""
        return len(self.results)

    @property
    def wins(self) -> int:
        """Matches the team won."""
        return sum(r.won for r in self.results)

    @property
    def mean_score(self) -> float:
        """The team's mean score (its best seat's)."""
        return sum(r.score for r in self.results) / self.games

    @property
    def mean_actions(self) -> float:
        """The mean match length in actions."""
        return sum(r.actions for r in self.results) / self.games

    def endings(self) -> list[tuple[str, int]]:
        """How the matches ended: each outcome reason with its count, the most frequent first."""
        counts = Counter(r.reason for r in self.results)
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def team_match(engine: Any, setup: MatchSetup, seed: int, level: str, policy: Policy) -> TeamResult:
    """One match where every seat plays `policy`, of `level` (menagerie.arena.local's play_match)."""
    match = play_match(engine, setup, seed, (level,) * setup.seats, {level: policy}, {})
    outcome = _finished(match.outcome)
    won = bool(outcome.winners())
    return TeamResult(won, max(s.score for s in outcome.seats), match.actions, outcome.reason)


def run_teams(
    game: str, games: int, seats: int, mode: str, options: Mapping[str, str] | None = None, base_seed: int = 0
) -> dict[str, TeamTally]:
    """Plays `games` matches of `game` in `mode` per team level (random, greedy), the same seeds for both."""
    engine = registry.engine(game)
    setup = MatchSetup(mode, seats, dict(options or {}))
    tallies = {}
    for level in TEAM_LEVELS:
        policy = make_policy(game, level, SearchBudget())
        tally = TeamTally(level)
        for g in range(games):
            tally.results.append(team_match(engine, setup, base_seed + g, level, policy))
        tallies[level] = tally
    return tallies


def report_teams(tallies: dict[str, TeamTally], label: str, elapsed: float) -> str:
    """Per team: wins with a 95% Wilson interval, mean score and match length; then how its matches ended."""
    lines = [f"{label}: {next(iter(tallies.values())).games} games per team in {elapsed:.1f}s"]
    for tally in tallies.values():
        low, high = wilson(tally.wins, tally.games)
        lines.append(
            f"  {tally.level:<6} team  wins {tally.wins}/{tally.games} = {tally.wins / tally.games:.1%}"
            f"  (95% Wilson {low:.1%}–{high:.1%})  score {tally.mean_score:.2f}"
            f"  length {tally.mean_actions:.1f} actions"
        )
        # Which ending (a win, the rules' loss, a turn cap) — a cap that ends matches shows up here.
        endings = tally.endings()
        shown = [f"{count}× {reason}" for reason, count in endings[:ENDINGS_SHOWN]]
        if len(endings) > ENDINGS_SHOWN:
            rest = sum(count for _, count in endings[ENDINGS_SHOWN:])
            shown.append(f"{rest} by {len(endings) - ENDINGS_SHOWN} other reasons")
        lines.append(f"    ended by: {'; '.join(shown)}")
    return "\n".join(lines)


# ------------------------------------------------------------------ what to play


@dataclass(frozen=True)
class Lineup:
    """One line-up of the sweep: a game, a mode, its seats and options."""

    game: str
    mode: ModeInfo
    seats: int
    options: dict[str, str]

    @property
    def label(self) -> str:
        """`pursuit coop difficulty=easy, 3 seats`."""
        options = [f"{name}={value}" for name, value in self.options.items()]
        return f"{' '.join([self.game, self.mode.mode, *options])}, {self.seats} seats"


def option_settings(mode: ModeInfo, chosen: Mapping[str, str]) -> list[dict[str, str]]:
    """The option settings to play `mode` with, each option named in the mode's order.

    An option `chosen` fixes keeps its value, one chosen `all` takes each of its values and
    one chosen as `V1,V2` each value listed (in every combination with the other such
    options); each option not chosen takes each of its values in turn, the other options
    not chosen at their defaults.
    """
    fixed = [
        [(o.name, value) for value in (o.allowed_values if chosen[o.name] == ALL else chosen[o.name].split(","))]
        for o in mode.options
        if o.name in chosen
    ]
    free = [o for o in mode.options if o.name not in chosen]
    defaults = {o.name: o.default_value for o in free}
    varied = [{**defaults, o.name: value} for o in free for value in o.allowed_values] or [defaults]
    unique = {tuple(sorted(v.items())): v for v in varied}  # each setting once, in order of first appearance
    settings = [{**variant, **dict(combo)} for combo in itertools.product(*fixed) for variant in unique.values()]
    return [{o.name: setting[o.name] for o in mode.options} for setting in settings]


def lineups(
    game: str, mode: str | None = None, seats: int | None = None, chosen: Mapping[str, str] | None = None
) -> list[Lineup]:
    """What the sweep plays of `game`: `mode`, or every mode that has every option `chosen`.

    InvalidArgument when a mode, a seat count or an option is not one the game offers.
    """
    info, chosen = registry.engine(game).info, chosen or {}
    if "greedy" not in levels(game):
        raise InvalidArgument(f"{game} has no `greedy` bot level to measure; its levels: {', '.join(levels(game))}")
    modes = [info.mode(mode)] if mode else [m for m in info.modes if set(chosen) <= {o.name for o in m.options}]
    for info_mode in modes:
        if missing := sorted(set(chosen) - {o.name for o in info_mode.options}):
            known = ", ".join(o.name for o in info_mode.options) or "none"
            raise InvalidArgument(f"{game} {info_mode.mode} has no option {', '.join(missing)}; options: {known}")
    if not modes:
        raise InvalidArgument(f"no mode of {game} has the options {', '.join(sorted(chosen))}")
    found = []
    for info_mode in modes:
        count = seats or default_seats(info_mode)
        if count < 2 and not info_mode.cooperative:
            raise InvalidArgument(f"{game} {info_mode.mode}: greedy against random takes at least 2 seats")
        for options in option_settings(info_mode, chosen):
            info.validate(MatchSetup(info_mode.mode, count, options))
            found.append(Lineup(game, info_mode, count, options))
    return found


def play(lineup: Lineup, games: int, base_seed: int, opponent: str = "random") -> tuple[str, list[TeamRecord]]:
    """Plays a line-up's matches; returns its report and the Teams built (a Build Your Team mode)."""
    started = time.perf_counter()
    if lineup.mode.cooperative:
        tallies = run_teams(lineup.game, games, lineup.seats, lineup.mode.mode, lineup.options, base_seed)
        label = f"{lineup.label}, random team vs greedy team"
        return report_teams(tallies, label, time.perf_counter() - started), []
    tally = run(lineup.game, games, lineup.seats, lineup.mode.mode, lineup.options, base_seed, opponent)
    label = f"{lineup.label}, greedy vs {opponent}"
    teams = [team for result in tally.results for team in result.teams]
    return report(tally, label, time.perf_counter() - started, opponent), teams


def balance(game: str, teams: list[TeamRecord]) -> str:
    """The balance report over the Teams built in `game` (empty when none were, or it has no catalogue)."""
    catalogue = getattr(registry.engine(game), "catalogue", None)
    if not teams or catalogue is None:
        return ""
    return f"{game}: " + balance_report(Balance(catalogue, teams))


def parse_seats(text: str | None) -> list[int | None]:
    """'2,4,6' -> [2, 4, 6]; None (the default seats) -> [None]."""
    if text is None:
        return [None]
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise InvalidArgument(f"--seats {text!r} is not a seat count or a list like 2,4,6") from None
    return list(dict.fromkeys(counts))
