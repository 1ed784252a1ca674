"""What a bot policy is, the `random` level every game has, and finding a game's levels.

A policy chooses among the legal actions from what the seat may see (its view): the
same bytes a human in the seat gets. Each game names its own levels in the
`menagerie.bots` entry point group (a dict level -> policy factory).

Levels in `SEARCH_LEVELS` think for a `SearchBudget` per decision: their factories take
it as the `budget` keyword; every other factory is called with no argument. A search level
is no one game's and does not live in the contract: a package on the bots' side (the `mcts`
level: menagerie.search) offers it to every game in the `menagerie.levels` entry point group.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Protocol

import msgspec

from menagerie.rules.registry import BOTS, LEVELS, plugin, plugins


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


class SearchBudget(msgspec.Struct, frozen=True):
    """How long a searching bot may think per decision."""

    seconds: float = 1.0  # wall clock per decision; the search is anytime
    iterations: int = 0  # > 0: also stop after this many iterations (deterministic for a seed)


# Levels whose factories take a `budget` keyword (a SearchBudget) and spend it.
SEARCH_LEVELS: frozenset[str] = frozenset({"mcts"})

PolicyFactory = Callable[..., Policy]
EVERY_GAME: dict[str, PolicyFactory] = {"random": RandomPolicy}


# The levels every game must ship, checked as its service starts: `random` comes with the
# contract, `greedy` from the game's own `menagerie.bots` entry point.
REQUIRED_LEVELS: tuple[str, ...] = ("random", "greedy")


def missing_levels(game: str) -> list[str]:
    """The levels of REQUIRED_LEVELS that `game` does not ship (empty: it ships them all)."""
    known = levels(game)
    return [level for level in REQUIRED_LEVELS if level not in known]


def levels(game: str) -> dict[str, PolicyFactory]:
    """The bot levels of `game`: `random`, those offered to every game (`mcts`), and the game's own."""
    offered = {level: partial(factory, game) for level, factory in plugins(LEVELS).items()}
    try:
        own = plugin(BOTS, game)  # this game's alone: a game's service imports no other game
    except KeyError:
        own = {}
    return {**EVERY_GAME, **offered, **own}


def policy_for(game: str, level: str, budget: SearchBudget | None = None) -> Policy:
    """A new policy playing `game` at `level` (a search level thinks for `budget`, default 1 s a decision).

    KeyError naming the known levels if there is none.
    """
    known = levels(game)
    if level not in known:
        raise KeyError(f"no bot level {level!r} for game {game!r}; known levels: {', '.join(sorted(known))}")
    if level in SEARCH_LEVELS:
        return known[level](budget=budget)
    return known[level]()
