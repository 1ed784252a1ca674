"""Fit a cooperative game's evaluation: the team's chance to win, from greedy team matches.

Usage: python -m bench.evaluation --game pursuit [--games N] [--seed B] [--seats S] [--option NAME=VALUE ...]

The module of the game's evaluation (the `evaluate` its bot levels offer the mcts level) names
the numbers it reads from a position: `features(state) -> list[float] | None` (None where it
does not judge) and their names, `FEATURES`. This plays N matches with every seat at the game's `greedy` level (match g
has seed B+g), records the features of every position it judges, labels each with whether the
team went on to win, and fits a logistic regression on the even-seeded matches by Newton's
method (a little L2 shrinkage, `--l2`). It prints the fit's log loss and accuracy on the
odd-seeded matches beside a constant guess (the training win rate), then the weights, as the
`WEIGHTS = (...)` line to paste beside `FEATURES`. Deterministic given the seeds.
"""

from __future__ import annotations

import argparse
import inspect
import math
import sys
from collections.abc import Callable, Sequence
from typing import Any

from menagerie.arena.local import play_match
from menagerie.rules import registry
from menagerie.rules.bots import Policy, policy_for
from menagerie.rules.contract import MatchSetup
from menagerie.rules.fitted import fitted_chance
from menagerie.rules.mcts import evaluation_of

Sample = tuple[list[float], float]
Features = Callable[[Any], list[float] | None]


def evaluation_module(game: str) -> Any:
    """The module that defines the game's evaluation (the one its bot levels' module offers the mcts level)."""
    evaluate = evaluation_of(game)
    module = inspect.getmodule(evaluate) if evaluate is not None else None
    if module is None or not hasattr(module, "features"):
        raise SystemExit(f"{game}'s bot levels offer no evaluation with features to fit")
    return module


def play_and_label(engine: Any, greedy: Policy, setup: MatchSetup, seed: int, features: Features) -> list[Sample]:
    """One match of a team all played by `greedy`: its judged positions, each labelled 1 if the team won, else 0."""
    seen: list[list[float]] = []

    def observe(state: Any) -> None:
        numbers = features(state)
        if numbers is not None:
            seen.append(numbers)

    result = play_match(engine, setup, seed, ["greedy"] * setup.seats, {"greedy": greedy}, {}, observe)
    won = 1.0 if result.winners else 0.0
    return [(numbers, won) for numbers in seen]


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix · x = vector (Gaussian elimination with partial pivoting)."""
    n = len(vector)
    rows = [[*row, value] for row, value in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, n):
            factor = rows[r][col] / rows[col][col]
            for c in range(col, n + 1):
                rows[r][c] -= factor * rows[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (rows[r][n] - sum(rows[r][c] * x[c] for c in range(r + 1, n))) / rows[r][r]
    return x


def fit(samples: Sequence[Sample], l2: float, rounds: int = 25) -> list[float]:
    """Logistic regression weights by Newton's method (the bias, feature 0, is not shrunk)."""
    k = len(samples[0][0])
    weights = [0.0] * k
    for _ in range(rounds):
        gradient = [l2 * w if i else 0.0 for i, w in enumerate(weights)]
        hessian = [[(l2 if i == j and i else 0.0) for j in range(k)] for i in range(k)]
        for numbers, label in samples:
            p = fitted_chance(weights, numbers)
            error, curve = p - label, p * (1 - p)
            for i in range(k):
                xi = numbers[i]
                if xi == 0.0:
                    continue
                gradient[i] += error * xi
                row, scaled = hessian[i], curve * xi
                for j in range(k):
                    row[j] += scaled * numbers[j]
        step = _solve(hessian, gradient)
        weights = [w - s for w, s in zip(weights, step, strict=True)]
        if max(abs(s) for s in step) < 1e-8:
            break
    return weights


def log_loss(samples: Sequence[Sample], predict: Callable[[list[float]], float]) -> tuple[float, float]:
    """Mean log loss and accuracy (a prediction ≥ ½ meaning a win) of `predict` on `samples`."""
    loss, right = 0.0, 0
    for numbers, label in samples:
        p = min(1 - 1e-12, max(1e-12, predict(numbers)))
        loss -= label * math.log(p) + (1 - label) * math.log(1 - p)
        right += (p >= 0.5) == (label == 1.0)
    return loss / len(samples), right / len(samples)


def main(argv: Sequence[str] | None = None) -> int:
    """Plays, fits and prints the weights."""
    parser = argparse.ArgumentParser(prog="python -m bench.evaluation", description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--mode", default=None)
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE, repeatable")
    parser.add_argument("--l2", type=float, default=1.0)
    args = parser.parse_args(argv)
    module = evaluation_module(args.game)
    names: tuple[str, ...] = module.FEATURES
    info = registry.engine(args.game).info
    mode = info.mode(args.mode) if args.mode else info.modes[0]
    options = dict(option.split("=", 1) for option in args.option)
    setup = MatchSetup(mode.mode, args.seats, dict(info.validate(MatchSetup(mode.mode, args.seats, options))))
    engine, greedy = registry.engine(args.game), policy_for(args.game, "greedy")
    seeds = range(args.seed, args.seed + args.games)
    matches = [play_and_label(engine, greedy, setup, seed, module.features) for seed in seeds]
    train = [s for index, match in enumerate(matches) if index % 2 == 0 for s in match]
    test = [s for index, match in enumerate(matches) if index % 2 == 1 for s in match]
    wins = sum(1 for match in matches if match and match[0][1] == 1.0)
    print(f"{args.game} {mode.mode} {setup.options}, {args.seats} seats: {args.games} greedy team matches, won {wins}")
    print(f"positions judged: {len(train)} to fit (even seeds), {len(test)} to test (odd seeds)")
    weights = fit(train, args.l2)
    rate = sum(label for _, label in train) / len(train)
    base_loss, base_right = log_loss(test, lambda _: rate)
    fit_loss, fit_right = log_loss(test, lambda numbers: fitted_chance(weights, numbers))
    print(f"held out: log loss {fit_loss:.4f} (constant {rate:.3f}: {base_loss:.4f})", end=", ")
    print(f"accuracy {fit_right:.1%} ({base_right:.1%})")
    for name, weight in zip(names, weights, strict=True):
        print(f"  {name:32} {weight:+.4f}")
    print("WEIGHTS = (" + ", ".join(f"{w:.4f}" for w in weights) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
