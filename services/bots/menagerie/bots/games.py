"""The games the bot pool can play: every installed game's binding (engine + protobuf modules)."""

from __future__ import annotations

from menagerie.shared.games.binding import GameBinding, bindings

BINDINGS: dict[str, GameBinding] = bindings()
