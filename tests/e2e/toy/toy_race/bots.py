"""Race to Ten's bot levels: `greedy` (every game ships it; `random` comes with the contract)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from .engine import Play, RaceView


class GreedyPolicy:
    """Wins now if a card reaches the target; else keeps the total out of the rival's reach, playing low."""

    needs_view = True

    def choose(self, view: RaceView, legal: Sequence[Play], seat: int, rng: random.Random) -> Play:
        """The chosen card."""
        winning = [a for a in legal if view.total + a.card >= view.target]
        if winning:
            return winning[0]
        safe = [a for a in legal if view.total + a.card < view.target - 3]
        return min(safe or legal, key=lambda a: a.card)


POLICIES: dict[str, Any] = {"greedy": GreedyPolicy}
