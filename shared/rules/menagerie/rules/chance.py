"""Chance stated, not only rolled: exact outcome distributions of dice.

An engine rolls its dice with the match Rng; where a decision's value depends on a
roll, the engine also states the roll's distribution with these helpers, so a bot
reasons from the engine's own numbers instead of re-deriving the dice.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Hashable, Sequence
from fractions import Fraction
from functools import cache
from math import factorial, prod
from typing import TypeVar

F = TypeVar("F", bound=Hashable)

# (outcome, probability) pairs whose probabilities add up to 1.
Distribution = list[tuple[F, Fraction]]


def die_outcomes(faces: Sequence[F]) -> Distribution[F]:
    """One die: each distinct face with its chance (faces may repeat on a die)."""
    counts = Counter(faces)
    return [(face, Fraction(n, len(faces))) for face, n in counts.items()]


def dice_outcomes(faces: Sequence[F], count: int) -> Distribution[tuple[F, ...]]:
    """`count` identical dice: each multiset of faces (in the die's face order) with its chance."""
    return list(_dice_outcomes(tuple(faces), count))


@cache
def _dice_outcomes(faces: tuple[F, ...], count: int) -> tuple[tuple[tuple[F, ...], Fraction], ...]:
    single = die_outcomes(faces)
    order = [face for face, _ in single]
    out = []
    for combo in itertools.combinations_with_replacement(range(len(order)), count):
        counts = Counter(combo)
        ways = Fraction(factorial(count), prod(factorial(n) for n in counts.values()))
        chance = ways * prod((single[i][1] ** n for i, n in counts.items()), start=Fraction(1))
        out.append((tuple(order[i] for i in combo), chance))
    return tuple(out)


def combine(first: Distribution[tuple[F, ...]], second: Distribution[tuple[F, ...]]) -> Distribution[tuple[F, ...]]:
    """Two independent rolls taken together (outcomes concatenated, chances multiplied)."""
    merged: dict[tuple[F, ...], Fraction] = {}
    for a, p in first:
        for b, q in second:
            merged[a + b] = merged.get(a + b, Fraction(0)) + p * q
    return list(merged.items())
