"""What a bot policy is: a choice among the legal actions, from what the seat may see."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol


class Policy(Protocol):
    """Chooses one of `legal` for `seat`, knowing only `view` (the seat's own view)."""

    # False when the choice ignores the view (it is then not fetched: one call fewer).
    needs_view: bool

    def choose(self, view: Any, legal: Sequence[Any], seat: int, rng: random.Random) -> Any:
        """One of `legal`."""
        ...


class RandomPolicy:
    """Any legal action, uniformly: the `random` level of every game."""

    needs_view = False

    def choose(self, view: Any, legal: Sequence[Any], seat: int, rng: random.Random) -> Any:
        """A uniformly random legal action."""
        return rng.choice(list(legal))
