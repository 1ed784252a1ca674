"""Greedy against random, in process: is a game's `greedy` level better?

Usage: python -m bench.arena [--game GAME|all] [--games N] [--seats S] [--mode M] [--spells]
       [--difficulty easy|normal|hard|all] [--seed B]

GAME is any installed game (menagerie.rules.registry) that has a row in GAMES below,
which says how the arena reads its matches; `all` plays every installed game with its
row's defaults (cooperative games at every difficulty), as `make arena` does.

Fantastic Beasts (the default) plays mode training|capture, --spells adding the Spell
Card Variant; Fantasy Zoo plays mode beginner|advanced (advanced by default).

Pursuit is cooperative, so it plays teams instead (`run_teams`): for each difficulty
(normal by default, `all` for the three) N matches where every seat is random and the
same N matches (same seeds) where every seat is greedy, 3 seats unless told; it prints
each team's win rate with a 95% Wilson interval, the mean number of beasts captured and
the mean match length in turns.

Game g is match seed B+g; one seat is greedy and the others play at random, and the
greedy seat rotates with g so that the first-player advantage cancels out. Prints
greedy's win rate with a 95% Wilson interval beside its fair share (1/S), the random
seats' win rate per seat, draws and the mean match length; for Fantasy Zoo also how many
of greedy's wins were shared and the mean final scores of greedy and of a random seat.
A shared win counts as a win. Deterministic given the seeds.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from menagerie.rules import registry
from menagerie.rules.bots import Policy, policy_for
from menagerie.rules.contract import MatchSetup, Outcome

Z95 = 1.959963984540054
DIFFICULTIES = ("easy", "normal", "hard")
TEAM_LEVELS = ("random", "greedy")


@dataclass(frozen=True)
class Game:
    """What the arena needs to know about one game, beyond what its engine says."""

    name: str
    modes: tuple[str, ...]  # the modes the arena plays, the first by default
    length: Callable[[Any], int]  # a finished match's length, in `unit`
    unit: str
    scored: bool  # whether final scores mean something worth reporting
    seats: int = 2  # the default number of seats
    cooperative: bool = False  # teams of one level play it, not greedy against random
    score: str = "score"  # what a final score counts

    def engine(self) -> Any:
        """A new engine of the game, from the registry."""
        return registry.engine(self.name)


# The arena's one per-game table, by game id: how to read a match (its length, whether
# scores mean something) is a choice per game. `make arena` plays each row's defaults.
GAMES: dict[str, Game] = {
    "beasts": Game("beasts", ("training", "capture"), lambda s: int(s.turn), "turns", False),
    "zoo": Game("zoo", ("advanced", "beginner"), lambda s: int(s.round), "rounds", True, seats=4),
    "pursuit": Game(
        "pursuit",
        ("coop",),
        lambda s: int(s.turn),
        "turns",
        True,
        seats=3,
        cooperative=True,
        score="beasts captured",
    ),
}


def arena_game(game: str) -> Game:
    """The arena's row for `game`; KeyError saying what to add when an installed game has none."""
    if game not in GAMES:
        raise KeyError(
            f"bench/arena.py has no row for game {game!r} in GAMES (how long its matches are, whether it is"
            f" scored or cooperative); rows: {', '.join(sorted(GAMES))}"
        )
    return GAMES[game]


@dataclass
class MatchResult:
    """One match as the arena counts it."""

    greedy_won: bool
    random_wins: int  # how many random seats won (several can share a win)
    draw: bool
    turns: int  # the match length in its game's unit (turns, rounds)
    actions: int
    shared: bool = False  # greedy won together with another seat
    greedy_score: float = 0.0
    random_score: float = 0.0  # the mean over the random seats


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
    def random_rate_per_seat(self) -> float:
        """How often one random seat wins, on average."""
        return sum(r.random_wins for r in self.results) / (self.games * (self.seats - 1))

    @property
    def mean_turns(self) -> float:
        return sum(r.turns for r in self.results) / self.games

    @property
    def mean_actions(self) -> float:
        return sum(r.actions for r in self.results) / self.games

    @property
    def mean_greedy_score(self) -> float:
        return sum(r.greedy_score for r in self.results) / self.games

    @property
    def mean_random_score(self) -> float:
        return sum(r.random_score for r in self.results) / self.games


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def play_match(
    engine: Any,
    setup: MatchSetup,
    seed: int,
    greedy_seat: int,
    greedy: Policy,
    rand: Policy,
    length: Callable[[Any], int] = lambda s: int(s.turn),
) -> MatchResult:
    """One match: `greedy_seat` plays `greedy`, every other seat `rand`; each seat has its own RNG.

    Whoever must act first acts (simultaneous phases are played seat by seat); a seat's
    view is built only for a policy that reads it.
    """
    state, _ = engine.setup(setup, seed)
    rngs = [random.Random(seed * 100 + seat) for seat in range(setup.seats)]
    actions = 0
    while (outcome := engine.outcome(state)) is None:
        seat = engine.to_act(state).must[0]
        policy = greedy if seat == greedy_seat else rand
        view = engine.view(state, seat) if policy.needs_view else None
        action = policy.choose(view, engine.legal_actions(state, seat), seat, rngs[seat])
        engine.apply(state, seat, action)
        actions += 1
    return _result(outcome, greedy_seat, length(state), actions)


def _result(outcome: Outcome, greedy_seat: int, length: int, actions: int) -> MatchResult:
    winners = outcome.winners()
    scores = {s.seat: s.score for s in outcome.seats}
    others = [score for seat, score in scores.items() if seat != greedy_seat]
    return MatchResult(
        greedy_won=greedy_seat in winners,
        random_wins=sum(1 for w in winners if w != greedy_seat),
        draw=not winners,
        turns=length,
        actions=actions,
        shared=greedy_seat in winners and len(winners) > 1,
        greedy_score=scores[greedy_seat],
        random_score=sum(others) / len(others) if others else 0.0,
    )


def run(games: int, seats: int, mode: str, spells: bool = False, base_seed: int = 0, game: str = "beasts") -> Tally:
    """Plays `games` matches, greedy in seat `g % seats` of game g; returns the tally."""
    spec = arena_game(game)
    engine = spec.engine()
    options = {"spell_cards": "true" if spells else "false"} if game == "beasts" and mode == "training" else {}
    setup = MatchSetup(mode, seats, options)
    greedy, rand = policy_for(game, "greedy"), policy_for(game, "random")
    tally = Tally(seats)
    for g in range(games):
        tally.results.append(play_match(engine, setup, base_seed + g, g % seats, greedy, rand, spec.length))
    return tally


def report(tally: Tally, label: str, elapsed: float, unit: str = "turns", scored: bool = False) -> str:
    """The figures, one per line."""
    low, high = wilson(tally.greedy_wins, tally.games)
    rate = tally.greedy_wins / tally.games
    wins = f"  greedy wins  {tally.greedy_wins}/{tally.games} = {rate:.1%}"
    wins += f"  (95% Wilson {low:.1%}–{high:.1%})  fair share {1 / tally.seats:.1%}"
    lines = [f"{label}: {tally.games} games in {elapsed:.1f}s", wins]
    if scored:
        lines.append(f"  shared wins  {tally.shared_wins} of greedy's {tally.greedy_wins}")
    lines += [
        f"  random seat  {tally.random_rate_per_seat:.1%} per seat",
        f"  draws        {tally.draws} ({tally.draws / tally.games:.1%})",
    ]
    if scored:
        lines.append(f"  mean score   greedy {tally.mean_greedy_score:.1f}, random {tally.mean_random_score:.1f}")
    lines.append(f"  match length {tally.mean_turns:.1f} {unit}, {tally.mean_actions:.1f} actions")
    return "\n".join(lines)


# ------------------------------------------------------------------ cooperative games


@dataclass
class TeamResult:
    """One cooperative match as the arena counts it."""

    won: bool
    score: float  # the team's score (Pursuit: beasts captured)
    turns: int
    actions: int


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
    def mean_turns(self) -> float:
        return sum(r.turns for r in self.results) / self.games


def play_team_match(
    engine: Any,
    setup: MatchSetup,
    seed: int,
    policy: Policy,
    length: Callable[[Any], int] = lambda s: int(s.turn),
) -> TeamResult:
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
    return TeamResult(won, max(s.score for s in outcome.seats), length(state), actions)


def run_teams(
    games: int, seats: int, options: dict[str, str], base_seed: int = 0, game: str = "pursuit"
) -> dict[str, TeamTally]:
    """Plays `games` matches per team level (random, greedy), the same seeds for both."""
    spec = arena_game(game)
    engine = spec.engine()
    setup = MatchSetup(spec.modes[0], seats, options)
    tallies = {}
    for level in TEAM_LEVELS:
        policy = policy_for(game, level)
        tally = TeamTally(level)
        for g in range(games):
            tally.results.append(play_team_match(engine, setup, base_seed + g, policy, spec.length))
        tallies[level] = tally
    return tallies


def report_teams(
    tallies: dict[str, TeamTally], label: str, elapsed: float, unit: str = "turns", score: str = "score"
) -> str:
    """One line per team: wins with a 95% Wilson interval, mean score and match length."""
    lines = [f"{label}: {next(iter(tallies.values())).games} games per team in {elapsed:.1f}s"]
    for tally in tallies.values():
        low, high = wilson(tally.wins, tally.games)
        lines.append(
            f"  {tally.level:<6} team  wins {tally.wins}/{tally.games} = {tally.wins / tally.games:.1%}"
            f"  (95% Wilson {low:.1%}–{high:.1%})  {score} {tally.mean_score:.2f}"
            f"  length {tally.mean_turns:.1f} {unit}"
        )
    return "\n".join(lines)


def main_teams(spec: Game, games: int, seats: int, difficulty: str, base_seed: int) -> None:
    """Prints the team figures for each difficulty asked for."""
    for level in DIFFICULTIES if difficulty == "all" else (difficulty,):
        started = time.perf_counter()
        tallies = run_teams(games, seats, {"difficulty": level}, base_seed, spec.name)
        label = f"{spec.name} {level}, {seats} seats, random team vs greedy team"
        print(report_teams(tallies, label, time.perf_counter() - started, spec.unit, spec.score), flush=True)


def main_game(spec: Game, games: int, seats: int, mode: str, spells: bool, base_seed: int) -> None:
    """Prints greedy against random for one competitive game."""
    started = time.perf_counter()
    tally = run(games, seats, mode, spells, base_seed, spec.name)
    label = f"{spec.name} {mode}{' +spells' if spells else ''}, {seats} seats, greedy vs random"
    print(report(tally, label, time.perf_counter() - started, spec.unit, spec.scored), flush=True)


def main_all(games: int, base_seed: int) -> None:
    """Every installed game with its row's defaults; cooperative ones at every difficulty."""
    specs = [arena_game(game) for game in registry.game_ids()]  # a game without a row fails before any plays
    for spec in specs:
        if spec.cooperative:
            main_teams(spec, games, spec.seats, "all", base_seed)
        else:
            main_game(spec, games, spec.seats, spec.modes[0], False, base_seed)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.arena",
        description="Greedy bots against random ones; for a cooperative game, greedy teams against random teams.",
    )
    parser.add_argument("--game", choices=[*registry.game_ids(), "all"], default="beasts")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, help="the game's row in GAMES says (beasts 2, zoo 4, pursuit 3)")
    modes = sorted({m for g in GAMES.values() if not g.cooperative for m in g.modes})
    parser.add_argument(
        "--mode", choices=modes, help="beasts: training (default) or capture; zoo: advanced or beginner"
    )
    parser.add_argument("--spells", action="store_true", help="the Spell Card Variant (beasts training only)")
    parser.add_argument(
        "--difficulty", choices=[*DIFFICULTIES, "all"], help="pursuit only: normal (default), or all three"
    )
    parser.add_argument("--seed", type=int, default=0, help="the first match seed")
    args = parser.parse_args(argv)
    try:
        if args.game == "all":
            if args.seats or args.mode or args.spells or args.difficulty:
                parser.error("--game all plays each game's defaults: no --seats, --mode, --spells or --difficulty")
            main_all(args.games, args.seed)
            return 0
        spec = arena_game(args.game)
    except KeyError as exc:
        parser.error(str(exc.args[0]))
    seats = args.seats or spec.seats
    if spec.cooperative:
        if args.mode or args.spells:
            parser.error(f"--mode and --spells are not options of {args.game}")
        main_teams(spec, args.games, seats, args.difficulty or "normal", args.seed)
        return 0
    if args.difficulty:
        parser.error("--difficulty goes with --game pursuit")
    mode = args.mode or spec.modes[0]
    if mode not in spec.modes:
        parser.error(f"--mode {mode} is not a mode of {args.game}: {', '.join(spec.modes)}")
    if args.spells and (args.game != "beasts" or mode != "training"):
        parser.error("--spells goes with --game beasts --mode training")
    main_game(spec, args.games, seats, mode, args.spells, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
