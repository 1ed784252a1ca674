"""Fit a game's evaluation: a seat's chance to win, from greedy matches.

Usage: python -m bench.evaluation --game G [--mode M] [--games N] [--seed B] [--seats S] [--option NAME=VALUE ...]

The module of the game's evaluation (the `evaluate` its bot levels offer the mcts level) names
the numbers it reads from a position for a seat: `features(state, seat) -> list[float] | None`
(None where it does not judge) and their names, `FEATURES`. This plays N matches with every
seat at the game's `greedy` level (match g has seed B+g), records the features of every
position it judges and labels them with the result: in a cooperative mode once per position,
with whether the team went on to win; in a competitive one once per seat, with whether that
seat won (½ for a draw). It fits a logistic regression on the even-seeded matches by Newton's
method (a little L2 shrinkage, `--l2`) and prints the fit's log loss and accuracy on the
odd-seeded matches beside a constant guess (the training win rate) and, where the module has
one, beside its `baseline(state, seat)` (the evaluation the fit would replace); then the
weights, as the `WEIGHTS = (...)` line to paste beside `FEATURES`. Deterministic given the seeds.
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
from menagerie.search.mcts import evaluation_of

Sample = tuple[list[float], float]
Features = Callable[[Any, int], list[float] | None]
Baseline = Callable[[Any, int], float | None]


def evaluation_module(game: str) -> Any:
    """The module that defines the game's evaluation (the one its bot levels' module offers the mcts level)."""
    evaluate = evaluation_of(game)
    module = inspect.getmodule(evaluate) if evaluate is not None else None
    if module is None or not hasattr(module, "features"):
        raise SystemExit(f"{game}'s bot levels offer no evaluation with features to fit")
    return module


def play_and_label(
    engine: Any,
    greedy: Policy,
    setup: MatchSetup,
    seed: int,
    features: Features,
    cooperative: bool,
    baseline: Baseline | None = None,
) -> list[Sample]:
    """One match played by `greedy` at every seat: its judged positions, each labelled with the result.

    A cooperative position is read once (for seat 0: the team's) and labelled 1 if the team
    won; a competitive one is read for every seat and labelled 1 if that seat won, ½ in a
    draw, else 0. With `baseline`, each sample's numbers end with the baseline's value there
    (the caller strips it off before fitting).
    """
    seen: list[tuple[int, list[float]]] = []
    seats = [0] if cooperative else list(range(setup.seats))

    def observe(state: Any) -> None:
        for seat in seats:
            numbers = features(state, seat)
            if numbers is None:
                continue
            if baseline is not None:
                value = baseline(state, seat)
                numbers = [*numbers, 0.5 if value is None else value]
            seen.append((seat, numbers))

    result = play_match(engine, setup, seed, ["greedy"] * setup.seats, {"greedy": greedy}, {}, observe)
    if cooperative:
        return [(numbers, 1.0 if result.winners else 0.0) for _, numbers in seen]
    labels = [1.0 if seat in result.winners else (0.5 if not result.winners else 0.0) for seat in range(setup.seats)]
    return [(numbers, labels[seat]) for seat, numbers in seen]


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
    parser.add_argument("--seats", type=int, default=None, help="default: 3 in a cooperative mode, else 2")
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE, repeatable")
    parser.add_argument("--l2", type=float, default=1.0)
    args = parser.parse_args(argv)
    module = evaluation_module(args.game)
    names: tuple[str, ...] = module.FEATURES
    baseline: Baseline | None = getattr(module, "baseline", None)
    info = registry.engine(args.game).info
    mode = info.mode(args.mode) if args.mode else info.modes[0]
    seats = args.seats or (3 if mode.cooperative else 2)
    options = dict(option.split("=", 1) for option in args.option)
    setup = MatchSetup(mode.mode, seats, dict(info.validate(MatchSetup(mode.mode, seats, options))))
    engine, greedy = registry.engine(args.game), policy_for(args.game, "greedy")
    seeds = range(args.seed, args.seed + args.games)
    matches = [
        play_and_label(engine, greedy, setup, seed, module.features, mode.cooperative, baseline) for seed in seeds
    ]
    if not any(matches):
        raise SystemExit(f"{args.game}'s evaluation judges no position of {mode.mode}")
    width = len(names)
    train = [(n[:width], label) for index, match in enumerate(matches) if index % 2 == 0 for n, label in match]
    test = [(n, label) for index, match in enumerate(matches) if index % 2 == 1 for n, label in match]
    print(f"{args.game} {mode.mode} {setup.options}, {seats} seats: {args.games} greedy matches")
    print(f"positions judged: {len(train)} to fit (even seeds), {len(test)} to test (odd seeds)")
    weights = fit(train, args.l2)
    rate = sum(label for _, label in train) / len(train)
    base_loss, base_right = log_loss(test, lambda _: rate)
    fit_loss, fit_right = log_loss(test, lambda numbers: fitted_chance(weights, numbers[:width]))
    print(f"held out: log loss {fit_loss:.4f} (constant {rate:.3f}: {base_loss:.4f}", end="")
    if baseline is not None:
        old_loss, old_right = log_loss(test, lambda numbers: numbers[width])
        print(f"; baseline: {old_loss:.4f}", end="")
    print(f"), accuracy {fit_right:.1%} ({base_right:.1%}", end="")
    print(f"; baseline: {old_right:.1%})" if baseline is not None else ")")
    for name, weight in zip(names, weights, strict=True):
        print(f"  {name:32} {weight:+.4f}")
    print("WEIGHTS = (" + ", ".join(f"{w:.4f}" for w in weights) + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
