"""Stated chance: exact distributions of dice."""

from __future__ import annotations

from fractions import Fraction

from menagerie.rules.chance import combine, dice_outcomes, die_outcomes


def test_a_die_with_repeated_faces() -> None:
    assert dict(die_outcomes(["a", "b", "b"])) == {"a": Fraction(1, 3), "b": Fraction(2, 3)}


def test_several_dice_give_multisets_with_multinomial_chances() -> None:
    outcomes = dict(dice_outcomes(["x", "y"], 2))
    assert outcomes == {("x", "x"): Fraction(1, 4), ("x", "y"): Fraction(1, 2), ("y", "y"): Fraction(1, 4)}
    assert sum(dict(dice_outcomes(range(1, 7), 3)).values()) == 1
    assert len(dice_outcomes(range(1, 7), 3)) == 56


def test_independent_rolls_combine() -> None:
    both = dict(combine(dice_outcomes(["x", "y"], 1), dice_outcomes(["z"], 1)))
    assert both == {("x", "z"): Fraction(1, 2), ("y", "z"): Fraction(1, 2)}
