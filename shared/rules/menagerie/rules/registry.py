"""Games are plugins: installed packages name their parts in entry points.

A game's package (services/<game>/pyproject.toml) declares, under its game id:

    [project.entry-points."menagerie.games"]    beasts = "menagerie.beasts.engine:BeastsEngine"
    [project.entry-points."menagerie.bots"]     beasts = "menagerie.beasts.bots:POLICIES"
    [project.entry-points."menagerie.cli"]      beasts = "menagerie.beasts.cli:BeastsScreen"

and everything that serves, plays or draws games (the game service, the bot pool,
the CLI, the arena, the tests) iterates these groups instead of naming games.

A package that is no game's may offer a bot level to every game, under the level's name:

    [project.entry-points."menagerie.levels"]   mcts = "menagerie.search.mcts:MctsPolicy"

(a factory taking the game id and a `budget`; see menagerie.rules.bots.levels).
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points
from typing import Any

GAMES = "menagerie.games"
BOTS = "menagerie.bots"
CLI = "menagerie.cli"
LEVELS = "menagerie.levels"  # keyed by level, not by game: levels every game gets


@cache
def plugins(group: str) -> dict[str, Any]:
    """Name (a game id; a level for LEVELS) -> the loaded object each installed package names in `group`, by name."""
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
