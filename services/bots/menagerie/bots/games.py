"""The games the bot pool can play: each game's binding (engine + protobuf modules)."""

from __future__ import annotations

from menagerie.beasts.service import BINDING as BEASTS
from menagerie.pursuit.service import BINDING as PURSUIT
from menagerie.shared.games.binding import GameBinding
from menagerie.zoo.service import BINDING as ZOO

BINDINGS: dict[str, GameBinding] = {b.info.game: b for b in (BEASTS, ZOO, PURSUIT)}
