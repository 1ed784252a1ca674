"""Greedy against random, in process: is a game's `greedy` level better?

Usage: python -m bench.arena [--game GAME|all] [--games N] [--mode MODE] [--seats S|S1,S2,...]
       [--option NAME=VALUE|NAME=V1,V2|NAME=all ...] [--funding-sweep V1,V2,...]
       [--opponent LEVEL] [--seed B]

The arena names no game: it plays any installed game (menagerie.rules.registry) from
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
seats' win rate per seat, draws and the mean match length in actions; when
the game scores its seats, also how many of greedy's wins were shared and the mean
final scores of greedy and of a random seat. A shared win counts as a win.

A mode whose match starts by building Teams (a `team_changed` event per pick, e.g.
Catch the Golden Snitch's "advanced"): after the line-ups, a balance report over every
Team built in the run (bench/arena_teams.py): win rates by House and by Funding per level,
the Galleons spent, and the cards the greedy Teams bought most and least.

A cooperative mode (`ModeInfo.cooperative`) plays teams instead (`run_teams`): N matches
where every seat is random and the same N matches (same seeds) where every seat is
greedy; prints each team's win rate with a 95% Wilson interval, its mean score (the
best seat's) and the mean match length in actions, then how its matches ended (the count
of each outcome reason: a win, a loss by the rules, a turn or round cap). Deterministic
given the seeds.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bench.arena_teams import Balance, TeamRecord, TeamWatcher, balance_report
from menagerie.arena.local import default_seats
from menagerie.arena.stats import wilson as wilson  # the one Wilson interval, kept importable from here
from menagerie.rules import registry
from menagerie.rules.bots import Policy, levels, policy_for
from menagerie.rules.contract import MatchSetup, ModeInfo, Outcome
from menagerie.rules.errors import InvalidArgument

TEAM_LEVELS = ("random", "greedy")
ENDINGS_SHOWN = 4  # outcome reasons listed per team in a co-op report (the rest summed)
ALL = "all"  # --option NAME=all: each of the option's values


@dataclass
class MatchResult:
    """One match as the arena counts it."""

    greedy_won: bool
    random_wins: int  # how many random seats won (several can share a win)
    draw: bool
    actions: int  # the match length
    shared: bool = False  # greedy won together with another seat
    greedy_score: float = 0.0
    random_score: float = 0.0  # the mean over the random seats
    scored: bool = False  # some seat scored (its game keeps scores)
    teams: list[TeamRecord] = field(default_factory=list)  # the Teams built (a Build Your Team mode)


@dataclass
class Tally:
    """The results of many matches."""

    seats: int
    results: list[MatchResult] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def greedy_wins(self) -> int:
        return sum(r.greedy_won for r in self.results)

    @property
    def shared_wins(self) -> int:
        return sum(r.greedy_won and r.shared for r in self.results)

    @property
    def draws(self) -> int:
        return sum(r.draw for r in self.results)

    @property
    def scored(self) -> bool:
        """Whether the game scores its seats (any seat of any match scored)."""
        return any(r.scored for r in self.results)

    @property
    def random_rate_per_seat(self) -> float:
        """How often one random seat wins, on average."""
        return sum(r.random_wins for r in self.results) / (self.games * (self.seats - 1))

    @property
    def mean_actions(self) -> float:
        return sum(r.actions for r in self.results) / self.games

    @property
    def mean_greedy_score(self) -> float:
        return sum(r.greedy_score for r in self.results) / self.games

    @property
    def mean_random_score(self) -> float:
        return sum(r.random_score for r in self.results) / self.games


def play_match(
    engine: Any,
    setup: MatchSetup,
    seed: int,
    greedy_seat: int,
    greedy: Policy,
    rand: Policy,
    opponent: str = "random",
) -> MatchResult:
    """One match: `greedy_seat` plays `greedy`, every other seat `rand` (a bot of level `opponent`);
    each seat has its own RNG.

    Whoever must act first acts (simultaneous phases are played seat by seat); a seat's
    view is built only for a policy that reads it. The Teams built, if any, are kept.
    """
    state, events = engine.setup(setup, seed)
    watcher = TeamWatcher()
    watcher.see(events)
    rngs = [random.Random(seed * 100 + seat) for seat in range(setup.seats)]
    actions = 0
    while (outcome := engine.outcome(state)) is None:
        seat = engine.to_act(state).must[0]
        policy = greedy if seat == greedy_seat else rand
        view = engine.view(state, seat) if policy.needs_view else None
        action = policy.choose(view, engine.legal_actions(state, seat), seat, rngs[seat])
        watcher.see(engine.apply(state, seat, action))
        actions += 1
    result = _result(outcome, greedy_seat, actions)
    levels = {s: "greedy" if s == greedy_seat else opponent for s in range(setup.seats)}
    result.teams = watcher.records(levels, outcome.winners(), setup.options.get("funding", ""))
    return result


def _result(outcome: Outcome, greedy_seat: int, actions: int) -> MatchResult:
    winners = outcome.winners()
    scores = {s.seat: s.score for s in outcome.seats}
    others = [score for seat, score in scores.items() if seat != greedy_seat]
    return MatchResult(
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
    greedy, rand = policy_for(game, "greedy"), policy_for(game, opponent)
    tally = Tally(seats)
    for g in range(games):
        tally.results.append(play_match(engine, setup, base_seed + g, g % seats, greedy, rand, opponent))
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
    """One cooperative match as the arena counts it."""

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
        return len(self.results)

    @property
    def wins(self) -> int:
        return sum(r.won for r in self.results)

    @property
    def mean_score(self) -> float:
        return sum(r.score for r in self.results) / self.games

    @property
    def mean_actions(self) -> float:
        return sum(r.actions for r in self.results) / self.games

    def endings(self) -> list[tuple[str, int]]:
        """How the matches ended: each outcome reason with its count, the most frequent first."""
        counts = Counter(r.reason for r in self.results)
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def play_team_match(engine: Any, setup: MatchSetup, seed: int, policy: Policy) -> TeamResult:
    """One match where every seat plays `policy` (each seat with its own RNG).

    The first seat that must act acts; in a reaction window (nobody must), the first seat
    that may act does, until it plays or passes.
    """
    state, _ = engine.setup(setup, seed)
    rngs = [random.Random(seed * 100 + seat) for seat in range(setup.seats)]
    actions = 0
    while (outcome := engine.outcome(state)) is None:
        to_act = engine.to_act(state)
        seat = (to_act.must or to_act.may)[0]
        view = engine.view(state, seat) if policy.needs_view else None
        action = policy.choose(view, engine.legal_actions(state, seat), seat, rngs[seat])
        engine.apply(state, seat, action)
        actions += 1
    won = bool(outcome.winners())
    return TeamResult(won, max(s.score for s in outcome.seats), actions, outcome.reason)


def run_teams(
    game: str, games: int, seats: int, mode: str, options: Mapping[str, str] | None = None, base_seed: int = 0
) -> dict[str, TeamTally]:
    """Plays `games` matches of `game` in `mode` per team level (random, greedy), the same seeds for both."""
    engine = registry.engine(game)
    setup = MatchSetup(mode, seats, dict(options or {}))
    tallies = {}
    for level in TEAM_LEVELS:
        policy = policy_for(game, level)
        tally = TeamTally(level)
        for g in range(games):
            tally.results.append(play_team_match(engine, setup, base_seed + g, policy))
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
class Plan:
    """One line-up of the arena: a game, a mode, its seats and options."""

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
    options); each option not chosen takes
    each of its values in turn, the other options not chosen at their defaults.
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


def plans(
    game: str, mode: str | None = None, seats: int | None = None, chosen: Mapping[str, str] | None = None
) -> list[Plan]:
    """What the arena plays of `game`: `mode`, or every mode that has every option `chosen`.

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
            found.append(Plan(game, info_mode, count, options))
    return found


def play(plan: Plan, games: int, base_seed: int, opponent: str = "random") -> tuple[str, list[TeamRecord]]:
    """Plays a plan's matches; returns its report and the Teams built (a Build Your Team mode)."""
    started = time.perf_counter()
    if plan.mode.cooperative:
        tallies = run_teams(plan.game, games, plan.seats, plan.mode.mode, plan.options, base_seed)
        label = f"{plan.label}, random team vs greedy team"
        return report_teams(tallies, label, time.perf_counter() - started), []
    tally = run(plan.game, games, plan.seats, plan.mode.mode, plan.options, base_seed, opponent)
    label = f"{plan.label}, greedy vs {opponent}"
    teams = [team for result in tally.results for team in result.teams]
    return report(tally, label, time.perf_counter() - started, opponent), teams


def balance(game: str, teams: list[TeamRecord]) -> str:
    """The balance report over the Teams built in `game` (empty when none were, or it has no catalogue)."""
    catalogue = getattr(registry.engine(game), "catalogue", None)
    if not teams or catalogue is None:
        return ""
    return f"{game}: " + balance_report(Balance(catalogue, teams))


def parse_options(items: Sequence[str]) -> dict[str, str]:
    """['difficulty=all', 'funding=0,5'] -> {'difficulty': 'all', 'funding': '0,5'}."""
    options = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise InvalidArgument(f"--option {item!r} is not NAME=VALUE (or NAME=all)")
        options[name.strip()] = value.strip()
    return options


def parse_seats(text: str | None) -> list[int | None]:
    """'2,4,6' -> [2, 4, 6]; None (the default seats) -> [None]."""
    if text is None:
        return [None]
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise InvalidArgument(f"--seats {text!r} is not a seat count or a list like 2,4,6") from None
    return list(dict.fromkeys(counts))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.arena",
        description="Greedy bots against random ones; in a cooperative mode, greedy teams against random teams.",
    )
    parser.add_argument("--game", choices=[*registry.game_ids(), ALL], default=ALL)
    parser.add_argument("--games", type=int, default=200, help="matches per line-up (per team in a co-op mode)")
    parser.add_argument("--mode", help="one of the game's modes (default: every mode)")
    parser.add_argument(
        "--seats",
        metavar="S|S1,S2,...",
        help="seats, or each count listed in turn (default 2, or 3 in a cooperative mode, within the mode's range)",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="fix an option of the mode, or NAME=all for each of its values (repeatable; default: each value"
        " of each option in turn, the others at their defaults)",
    )
    parser.add_argument(
        "--funding-sweep",
        metavar="V1,V2,...",
        help="each Funding value in turn (the same as --option funding=V1,V2,...)",
    )
    parser.add_argument(
        "--opponent",
        default="random",
        metavar="LEVEL",
        help="the bot level of the seats greedy plays against (default random; greedy: greedy against greedy)",
    )
    parser.add_argument("--seed", type=int, default=0, help="the first match seed")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.funding_sweep:
        args.option.append(f"funding={args.funding_sweep}")
    if args.game == ALL and (args.mode or args.seats or args.option or args.opponent != "random"):
        parser.error("--game all plays each game's defaults: no --mode, --seats, --option, --funding-sweep, --opponent")
    todo: list[Plan] = []
    try:
        chosen = parse_options(args.option)
        counts = parse_seats(args.seats)
        for game in registry.game_ids() if args.game == ALL else [args.game]:
            if args.game == ALL and "greedy" not in levels(game):
                print(f"{game}: no `greedy` bot level, not played", flush=True)
                continue
            if args.opponent not in levels(game):
                known = ", ".join(levels(game))
                raise InvalidArgument(f"{game} has no bot level {args.opponent!r}; its levels: {known}")
            for count in counts:  # every line-up checked before any plays
                todo += plans(game, args.mode, count, chosen)
    except InvalidArgument as exc:
        parser.error(str(exc))
    teams: dict[str, list[TeamRecord]] = {}
    for plan in todo:
        text, built = play(plan, args.games, args.seed, args.opponent)
        teams.setdefault(plan.game, []).extend(built)
        print(text, flush=True)
    for game, built in teams.items():
        if summary := balance(game, built):
            print(summary, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
