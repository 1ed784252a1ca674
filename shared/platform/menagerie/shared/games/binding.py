"""How one game plugs into the platform: its engine and its generated protobuf modules."""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

import grpc

from menagerie.rules.contract import GameInfo


@dataclass(frozen=True)
class GameBinding:
    """A game's engine plus its `<game>_pb2` / `<game>_pb2_grpc` modules and service name.

    Every game's proto follows one shape (View, Action, Event, GetViewRequest, …), so
    the platform reaches the message types by name and needs no per-game code.
    """

    engine: Any  # an Engine (menagerie.rules.contract); engines still on untyped events lack part of it
    pb2: ModuleType
    pb2_grpc: ModuleType
    service: str

    @property
    def info(self) -> GameInfo:
        """The game's id, title and modes."""
        info: GameInfo = self.engine.info
        return info

    @property
    def service_name(self) -> str:
        """The full gRPC service name, e.g. menagerie.beasts.v1.Beasts."""
        return str(self.pb2.DESCRIPTOR.services_by_name[self.service].full_name)

    def add_to_server(self, servicer: Any, server: grpc.aio.Server) -> None:
        """Registers `servicer` as this game's typed service."""
        getattr(self.pb2_grpc, f"add_{self.service}Servicer_to_server")(servicer, server)
