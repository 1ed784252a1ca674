"""Bot policies by game and level."""

from __future__ import annotations

from collections.abc import Callable

from menagerie.bots.policies.base import Policy, RandomPolicy
from menagerie.bots.policies.beasts import BeastsGreedy
from menagerie.bots.policies.pursuit import PursuitGreedy
from menagerie.bots.policies.zoo import ZooGreedy

# Levels every game has; any game id is accepted for these.
_ANY_GAME: dict[str, Callable[[], Policy]] = {"random": RandomPolicy}
# Levels particular to one game.
_BY_GAME: dict[tuple[str, str], Callable[[], Policy]] = {
    ("beasts", "greedy"): BeastsGreedy,
    ("pursuit", "greedy"): PursuitGreedy,
    ("zoo", "greedy"): ZooGreedy,
}


def policy_for(game: str, level: str) -> Policy:
    """A new policy playing `game` at `level`; KeyError if there is no such pair."""
    factory = _BY_GAME.get((game, level)) or _ANY_GAME.get(level)
    if factory is None:
        known = sorted({*_ANY_GAME, *(lvl for g, lvl in _BY_GAME if g == game)})
        raise KeyError(f"no bot level {level!r} for game {game!r}; known levels: {', '.join(known)}")
    return factory()


__all__ = ["BeastsGreedy", "Policy", "PursuitGreedy", "RandomPolicy", "ZooGreedy", "policy_for"]
