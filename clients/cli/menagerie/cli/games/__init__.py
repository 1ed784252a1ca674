"""How the CLI shows each game: its stub, views, events and action labels."""

from __future__ import annotations

from menagerie.cli.games.base import GameUI
from menagerie.cli.games.beasts import BeastsUI
from menagerie.cli.games.pursuit import PursuitUI
from menagerie.cli.games.zoo import ZooUI

GAMES: dict[str, GameUI] = {"beasts": BeastsUI(), "pursuit": PursuitUI(), "zoo": ZooUI()}

__all__ = ["GAMES", "GameUI"]
