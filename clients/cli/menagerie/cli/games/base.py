"""What the CLI needs from each game (all from the game's protobuf messages)."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Protocol

import grpc
from rich.console import RenderableType


class GameUI(Protocol):
    """Drawing and naming for one game."""

    pb2: ModuleType

    def stub(self, channel: grpc.Channel) -> Any:
        """The game service's stub on `channel`."""
        ...

    def draw(self, view: Any, names: dict[int, str]) -> RenderableType:
        """The position as `view` shows it."""
        ...

    def describe_event(self, event: Any, names: dict[int, str], viewer: int | None, view: Any) -> str | None:
        """One line for an event (None to stay quiet)."""
        ...

    def describe_action(self, action: Any, view: Any, names: dict[int, str]) -> str:
        """A label for a legal action."""
        ...
