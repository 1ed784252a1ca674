"""Greedy against random at Fantastic Beasts, in process: is the `greedy` level better?

Usage: python -m bench.arena [--games N] [--seats S] [--mode training|capture] [--spells] [--seed B]

Game g is match seed B+g; one seat is greedy and the others play at random, and the
greedy seat rotates with g so that the first-player advantage cancels out. Prints
greedy's win rate with a 95% Wilson interval beside its fair share (1/S), the random
seats' win rate per seat, draws and the mean match length. Deterministic given the seeds.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from menagerie.beasts.engine import BeastsEngine
from menagerie.bots.policies import Policy, policy_for
from menagerie.shared.engine import MatchSetup

Z95 = 1.959963984540054


@dataclass
class MatchResult:
    """One match as the arena counts it."""

    greedy_won: bool
    random_wins: int  # how many random seats won (mode I can have several winners)
    draw: bool
    turns: int
    actions: int


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
    engine: BeastsEngine, setup: MatchSetup, seed: int, greedy_seat: int, greedy: Policy, rand: Policy
) -> MatchResult:
    """One match: `greedy_seat` plays `greedy`, every other seat `rand`; each seat has its own RNG."""
    state, _ = engine.setup(setup, seed)
    rngs = [random.Random(seed * 100 + seat) for seat in range(setup.seats)]
    actions = 0
    while (outcome := engine.outcome(state)) is None:
        seat = engine.to_act(state).must[0]
        policy = greedy if seat == greedy_seat else rand
        action = policy.choose(engine.view(state, seat), engine.legal_actions(state, seat), seat, rngs[seat])
        engine.apply(state, seat, action)
        actions += 1
    winners = outcome.winners()
    return MatchResult(
        greedy_won=greedy_seat in winners,
        random_wins=sum(1 for w in winners if w != greedy_seat),
        draw=not winners,
        turns=state.turn,
        actions=actions,
    )


def run(games: int, seats: int, mode: str, spells: bool, base_seed: int = 0) -> Tally:
    """Plays `games` matches, greedy in seat `g % seats` of game g; returns the tally."""
    engine = BeastsEngine()
    options = {"spell_cards": "true" if spells else "false"} if mode == "training" else {}
    setup = MatchSetup(mode, seats, options)
    greedy, rand = policy_for("beasts", "greedy"), policy_for("beasts", "random")
    tally = Tally(seats)
    for g in range(games):
        tally.results.append(play_match(engine, setup, base_seed + g, g % seats, greedy, rand))
    return tally


def report(tally: Tally, label: str, elapsed: float) -> str:
    """The figures, one per line."""
    low, high = wilson(tally.greedy_wins, tally.games)
    rate = tally.greedy_wins / tally.games
    return "\n".join(
        [
            f"{label}: {tally.games} games in {elapsed:.1f}s",
            f"  greedy wins  {tally.greedy_wins}/{tally.games} = {rate:.1%}"
            f"  (95% Wilson {low:.1%}–{high:.1%})  fair share {1 / tally.seats:.1%}",
            f"  random seat  {tally.random_rate_per_seat:.1%} per seat",
            f"  draws        {tally.draws} ({tally.draws / tally.games:.1%})",
            f"  match length {tally.mean_turns:.1f} turns, {tally.mean_actions:.1f} actions",
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.arena", description="Greedy against random at Fantastic Beasts."
    )
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--mode", choices=["training", "capture"], default="training")
    parser.add_argument("--spells", action="store_true", help="the Spell Card Variant (training only)")
    parser.add_argument("--seed", type=int, default=0, help="the first match seed")
    args = parser.parse_args(argv)
    if args.spells and args.mode != "training":
        parser.error("--spells goes with --mode training")
    started = time.perf_counter()
    tally = run(args.games, args.seats, args.mode, args.spells, args.seed)
    label = f"beasts {args.mode}{' +spells' if args.spells else ''}, {args.seats} seats, greedy vs random"
    print(report(tally, label, time.perf_counter() - started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
