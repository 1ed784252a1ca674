"""The evaluation fitter (bench/evaluation.py): the regression, and the labelled positions it fits."""

from __future__ import annotations

import random

import pytest

from bench.evaluation import evaluation_module, fit, log_loss, main, play_and_label
from menagerie.rules import registry
from menagerie.rules.bots import policy_for
from menagerie.rules.contract import MatchSetup
from menagerie.rules.fitted import fitted_chance


def test_the_regression_recovers_the_weights_that_made_the_labels() -> None:
    rng = random.Random(4)
    truth = [-0.5, 2.0, -1.5]
    samples = []
    for _ in range(6000):
        numbers = [1.0, rng.uniform(-1, 1), rng.uniform(0, 2)]
        chance = fitted_chance(truth, numbers)
        samples.append((numbers, 1.0 if rng.random() < chance else 0.0))
    weights = fit(samples, l2=0.0)
    assert all(abs(w - t) < 0.2 for w, t in zip(weights, truth, strict=True)), weights
    fitted, _ = log_loss(samples, lambda n: fitted_chance(weights, n))
    rate = sum(label for _, label in samples) / len(samples)
    constant, _ = log_loss(samples, lambda _: rate)
    assert fitted < constant


def test_each_judged_position_of_a_match_carries_the_teams_result() -> None:
    module = evaluation_module("pursuit")
    engine, greedy = registry.engine("pursuit"), policy_for("pursuit", "greedy")
    results = {
        seed: play_and_label(
            engine, greedy, MatchSetup("coop", 3, {"difficulty": "normal"}), seed, module.features, cooperative=True
        )
        for seed in range(4)
    }
    for samples in results.values():
        assert samples  # every match has turns
        assert len({label for _, label in samples}) == 1  # one result per match
        assert all(len(numbers) == len(module.FEATURES) for numbers, _ in samples)


def test_a_competitive_position_is_read_for_every_seat_and_labelled_with_that_seats_result() -> None:
    module = evaluation_module("beasts")
    engine, greedy = registry.engine("beasts"), policy_for("beasts", "greedy")
    setup = MatchSetup("training", 2, dict(engine.info.validate(MatchSetup("training", 2, {}))))
    for seed in range(3):
        samples = play_and_label(
            engine, greedy, setup, seed, module.features, cooperative=False, baseline=module.baseline
        )
        assert samples and len(samples) % 2 == 0  # both seats read at every judged position
        width = len(module.FEATURES)
        assert all(len(numbers) == width + 1 and 0.0 <= numbers[width] <= 1.0 for numbers, _ in samples)
        mine = [numbers[1] for numbers, _ in samples]  # "my turn": one seat's at each position
        assert sum(mine) == len(samples) / 2
        labels = {label for _, label in samples}
        assert labels in ({0.0, 1.0}, {0.5})  # a winner and a loser, or a draw for both


def test_the_fitter_reports_the_fit_beside_a_constant_and_the_games_baseline(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--game", "beasts", "--mode", "training", "--games", "6", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert "2 seats: 6 greedy matches" in out
    assert "baseline:" in out and "constant 0.500" in out  # both seats read: the labels average ½
    weights = next(line for line in out.splitlines() if line.startswith("WEIGHTS = ("))
    assert weights.count(",") + 1 == len(evaluation_module("beasts").FEATURES)
