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

A game's data files ship in its package (`package_file`): e.g. the rating ladder of its bot
levels (ladder.json, menagerie.shared.ladder), read without importing any of its modules.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, entry_points
from importlib.util import find_spec
from pathlib import Path
from typing import Any

GAMES = "menagerie.games"
BOTS = "menagerie.bots"
CLI = "menagerie.cli"
LEVELS = "menagerie.levels"  # keyed by level, not by game: levels every game gets


@cache
def _points(group: str) -> dict[str, EntryPoint]:
    """Name -> the entry point each installed package names in `group`, by name; nothing is loaded."""
    return {point.name: point for point in sorted(entry_points(group=group), key=lambda point: point.name)}


@cache
def plugin(group: str, name: str) -> Any:
    """The object the installed package names under `name` in `group`, loaded once (KeyError if none)."""
    return _points(group)[name].load()


def plugins(group: str) -> dict[str, Any]:
    """Name (a game id; a level for LEVELS) -> the loaded object each installed package names in `group`, by name."""
    return {name: plugin(group, name) for name in _points(group)}


def game_ids() -> list[str]:
    """Every installed game, by id (no game's module is imported: a service of one game loads only its own)."""
    return list(_points(GAMES))


def engine(game: str) -> Any:
    """A new engine of `game`; KeyError naming the installed games if there is none."""
    installed = _points(GAMES)
    if game not in installed:
        raise KeyError(f"no game {game!r} is installed; installed: {', '.join(installed) or 'none'}")
    return plugin(GAMES, game)()


def package_file(game: str, name: str) -> Path | None:
    """Where the file `name` of the installed `game`'s package (menagerie.<game>, from its entry point) is or goes.

    None without such a game. Only the package's folders are looked up, none of its modules
    imported (the lobby reads a game's data so); the file itself may not exist yet.
    """
    point = next((p for p in entry_points(group=GAMES) if p.name == game), None)
    if point is None:
        return None
    spec = find_spec(".".join(point.module.split(".")[:2]))
    locations = (spec.submodule_search_locations or []) if spec is not None else []
    folders = [Path(folder) for folder in locations if Path(folder).is_dir()]
    if not folders:
        return None
    return next((folder / name for folder in folders if (folder / name).is_file()), folders[0] / name)
