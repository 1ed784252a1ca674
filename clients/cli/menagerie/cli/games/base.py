"""What the CLI needs from each game (all from the game's protobuf messages)."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Protocol

import grpc
from rich.console import RenderableType


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
        """The position as `view` shows it."""
        ...
