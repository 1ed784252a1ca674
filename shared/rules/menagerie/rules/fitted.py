"""A fitted logistic regression's chance: the one formula every fitted evaluation and its fitter share."""

from __future__ import annotations

import math
from collections.abc import Sequence

# |z| beyond this changes a chance by less than 1e-13 and would overflow math.exp far out.
Z_LIMIT = 30.0


def logistic(z: float) -> float:
    """1 / (1 + e^-z), clamped so that no z overflows."""
    return 1.0 / (1.0 + math.exp(-max(-Z_LIMIT, min(Z_LIMIT, z))))


def fitted_chance(weights: Sequence[float], numbers: Sequence[float]) -> float:
    """The chance a logistic regression with `weights` gives a position read as `numbers`."""
    return logistic(sum(w * x for w, x in zip(weights, numbers, strict=True)))
