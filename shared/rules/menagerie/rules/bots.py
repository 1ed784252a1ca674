"""What a bot policy is, the `random` level every game has, and finding a game's levels.

A policy chooses among the legal actions from what the seat may see (its view): the
same bytes a human in the seat gets. Each game names its own levels in the
`menagerie.bots` entry point group (a dict level -> policy factory).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from menagerie.rules.registry import BOTS, plugins


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


PolicyFactory = Callable[[], Policy]
EVERY_GAME: dict[str, PolicyFactory] = {"random": RandomPolicy}


def levels(game: str) -> dict[str, PolicyFactory]:
    """The bot levels of `game`: `random`, and the game's own."""
    return {**EVERY_GAME, **plugins(BOTS).get(game, {})}


def policy_for(game: str, level: str) -> Policy:
    """A new policy playing `game` at `level`; KeyError naming the known levels if there is none."""
    known = levels(game)
    if level not in known:
        raise KeyError(f"no bot level {level!r} for game {game!r}; known levels: {', '.join(sorted(known))}")
    return known[level]()
