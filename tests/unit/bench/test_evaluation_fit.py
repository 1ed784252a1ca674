"""The evaluation fitter (bench/evaluation.py): the regression, and the labelled positions it fits."""

from __future__ import annotations

import random

from bench.evaluation import evaluation_module, fit, log_loss, play_and_label
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
        seed: play_and_label(engine, greedy, MatchSetup("coop", 3, {"difficulty": "normal"}), seed, module.features)
        for seed in range(4)
    }
    for samples in results.values():
        assert samples  # every match has turns
        assert len({label for _, label in samples}) == 1  # one result per match
        assert all(len(numbers) == len(module.FEATURES) for numbers, _ in samples)
