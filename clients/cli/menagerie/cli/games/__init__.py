"""How the CLI shows each game: the renderers games name in entry points, else the generic board.

A game's package may register its renderer in the `menagerie.cli` group; the renderer
works from the game's protobuf messages only (the CLI never imports an engine). A game
that registers none, with a proto of its own or without, is drawn from the generic
service every game service serves (menagerie.cli.games.generic).
"""

from __future__ import annotations

from menagerie.cli.games.base import GameUI
from menagerie.cli.games.generic import GenericUI
from menagerie.rules.registry import CLI, plugins

GAMES: dict[str, GameUI] = {game: renderer() for game, renderer in plugins(CLI).items()}
GENERIC: GameUI = GenericUI()


def ui_for(game: str) -> GameUI:
    """The renderer of `game`: its own when it ships one, else the generic board."""
    return GAMES.get(game, GENERIC)


__all__ = ["GAMES", "GENERIC", "GameUI", "ui_for"]
