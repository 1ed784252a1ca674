"""Games are plugins: installed packages name their parts in entry points.

A game's package (services/<game>/pyproject.toml) declares, under its game id:

    [project.entry-points."menagerie.games"]    beasts = "menagerie.beasts.engine:BeastsEngine"
    [project.entry-points."menagerie.bots"]     beasts = "menagerie.beasts.bots:POLICIES"
    [project.entry-points."menagerie.cli"]      beasts = "menagerie.beasts.cli:BeastsScreen"

and everything that serves, plays or draws games (the game service, the bot pool,
the CLI, the arena, the tests) iterates these groups instead of naming games.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points
from typing import Any

GAMES = "menagerie.games"
BOTS = "menagerie.bots"
CLI = "menagerie.cli"


@cache
def plugins(group: str) -> dict[str, Any]:
    """Game id -> the loaded object each installed game names in `group`, in game-id order."""
    found = {point.name: point for point in entry_points(group=group)}
    return {name: found[name].load() for name in sorted(found)}


def game_ids() -> list[str]:
    """Every installed game, by id."""
    return list(plugins(GAMES))


def engine(game: str) -> Any:
    """A new engine of `game`; KeyError naming the installed games if there is none."""
    engines = plugins(GAMES)
    if game not in engines:
        raise KeyError(f"no game {game!r} is installed; installed: {', '.join(engines) or 'none'}")
    return engines[game]()
