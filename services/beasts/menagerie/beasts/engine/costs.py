"""Paying for creatures (mode II): the one home of the payment rule.

A cost is written in red, blue, yellow and green; wild tokens cover any shortfall, and
a capture spends the cost's own colours first, wild tokens for the rest. Resources
are counted as small tuples so that search (the greedy bot) can memoize on them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from menagerie.beasts.engine.data import COLOURS

# Tokens held per colour, in the order of COLOURS: red, blue, yellow, green, wild.
Resources = tuple[int, int, int, int, int]
# A creature's cost per colour: red, blue, yellow, green (never wild).
Cost = tuple[int, int, int, int]
WILD = COLOURS.index("wild")
PAYABLE = COLOURS[:WILD]


def resources_of(counts: Mapping[Any, int]) -> Resources:
    """Counts by colour name as a Resources tuple."""
    r, b, y, g, w = (counts.get(colour, 0) for colour in COLOURS)
    return (r, b, y, g, w)


def cost_of(cost: Mapping[Any, int]) -> Cost:
    """A creature's cost by colour name as a Cost tuple."""
    r, b, y, g = (cost.get(colour, 0) for colour in PAYABLE)
    return (r, b, y, g)


def deficit(have: Resources, cost: Cost) -> int:
    """Tokens still missing to pay `cost`, after wild tokens cover what they can (0: affordable)."""
    missing = sum(max(0, need - have[i]) for i, need in enumerate(cost))
    return max(0, missing - have[WILD])


def pay(have: Resources, cost: Cost) -> Resources:
    """The resources left after paying `cost`: the cost's own colours first, then wild tokens."""
    left = list(have)
    for i, need in enumerate(cost):
        own = min(need, left[i])
        left[i] -= own
        left[WILD] -= need - own
    r, b, y, g, w = left
    return (r, b, y, g, w)


def plus_one(have: Resources, colour: int) -> Resources:
    """`have` with one more token of the colour at index `colour`."""
    more = list(have)
    more[colour] += 1
    r, b, y, g, w = more
    return (r, b, y, g, w)
