"""How the CLI shows each installed game: the renderers games name in entry points.

A game's package registers its renderer in the `menagerie.cli` group; the renderer
works from the game's protobuf messages only (the CLI never imports an engine).
"""

from __future__ import annotations

from menagerie.cli.games.base import GameUI
from menagerie.rules.registry import CLI, plugins

GAMES: dict[str, GameUI] = {game: renderer() for game, renderer in plugins(CLI).items()}

__all__ = ["GAMES", "GameUI"]
