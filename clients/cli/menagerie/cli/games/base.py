"""What the CLI needs from each game (all from the game's protobuf messages)."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Protocol

import grpc
from rich.console import RenderableType

from menagerie.cli.menu import Entry


class GameUI(Protocol):
    """Drawing one game's position.

    The words come from the game's engine through the service: each event's header
    text, the view's prompt text and ListLegalActions' labels. A renderer only draws
    what the view holds.
    """

    pb2: ModuleType

    def stub(self, channel: grpc.Channel) -> Any:
        """The game service's stub on `channel`."""
        ...

    def draw(self, view: Any, names: dict[int, str]) -> RenderableType:
        """The position as `view` shows it (the board, on demand)."""
        ...

    def status(self, view: Any, names: dict[int, str]) -> RenderableType:
        """A few lines (at most 4 at 80 columns) that the choice screen shows above the menu."""
        ...

    def menu(self, view: Any, legal: Any, room: int) -> list[Entry]:
        """ListLegalActions as menu entries (groups, toggles) for a screen with `room` menu rows."""
        ...

    def how_to_play(self) -> str:
        """The game's short how-to-play (`menagerie rules GAME`)."""
        ...
