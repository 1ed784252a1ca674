"""How one game plugs into the platform: its engine and its generated protobuf modules.

Nothing here names a game. An installed game (see menagerie.rules.registry) is bound
by convention: game `x` has its generated code in `menagerie.x.v1.x_pb2` and
`menagerie.x.v1.x_pb2_grpc`, and that proto file declares exactly one service. A game
that ships no such package is served through the generic service alone
(menagerie.generic.v1.Game, its values as JSON: menagerie.shared.games.messages), and
every game is served through it too, beside its own. Every binding is checked when it
is made, so a game whose proto lacks a message or a method the platform reaches by name,
or an enum value for a word its engine may send (menagerie.shared.schema), stops its
process at start, naming what is missing.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from functools import cached_property
from types import ModuleType
from typing import Any

import grpc
from google.protobuf.descriptor import Descriptor

from menagerie.rules import registry
from menagerie.rules.contract import Engine, GameInfo
from menagerie.shared.games.messages import JsonMessages, Messages, TypedMessages
from menagerie.shared.schema import enum_problems

# The messages the platform reaches by name in every game's pb2 module.
MESSAGES = (
    "View",
    "Action",
    "Event",
    "GetViewRequest",
    "GetViewResponse",
    "ListLegalActionsRequest",
    "ListLegalActionsResponse",
    "SubmitActionRequest",
    "SubmitActionResponse",
    "WatchRequest",
    "WatchResponse",
)
# The methods of every game's service: method -> whether it streams its responses.
METHODS = {"GetView": False, "ListLegalActions": False, "SubmitAction": False, "Watch": True}
# The generic service's code: any game's values as JSON (menagerie.shared.games.messages).
GENERIC_MODULES = ("menagerie.generic.v1.generic_pb2", "menagerie.generic.v1.generic_pb2_grpc")


class GameBindingError(Exception):
    """A game's generated code does not have the shape the platform expects."""


def pb2_module_names(game: str) -> tuple[str, str]:
    """The generated modules of `game`, by convention: menagerie.<id>.v1.<id>_pb2 and _pb2_grpc."""
    return f"menagerie.{game}.v1.{game}_pb2", f"menagerie.{game}.v1.{game}_pb2_grpc"


@dataclass(frozen=True)
class GameBinding:
    """A game's engine plus its `<game>_pb2` / `<game>_pb2_grpc` modules and service name.

    Every game's proto follows one shape (View, Action, Event, GetViewRequest, …), so
    the platform reaches the message types by name and needs no per-game code; the
    constructor checks that shape (GameBindingError names everything missing).
    """

    engine: Engine
    pb2: ModuleType
    pb2_grpc: ModuleType
    service: str

    def __post_init__(self) -> None:
        self.check()

    @classmethod
    def for_engine(cls, engine: Any) -> GameBinding:
        """The binding of `engine` by convention: its game id names its modules, whose one service it serves.

        A game without a `menagerie.<id>.v1` package at all gets the generic binding.
        """
        game = engine.info.game
        modules = []
        for name in pb2_module_names(game):
            try:
                modules.append(importlib.import_module(name))
            except ImportError as exc:
                if not modules and isinstance(exc, ModuleNotFoundError) and name.startswith(str(exc.name)):
                    return cls.generic(engine)  # no generated code at all: a game without a proto
                raise GameBindingError(f"game {game!r}: cannot import its generated module {name}: {exc}") from exc
        pb2, pb2_grpc = modules
        services = list(pb2.DESCRIPTOR.services_by_name)
        if len(services) != 1:
            raise GameBindingError(
                f"game {game!r}: {pb2.__name__} must declare exactly one service, not {len(services)}"
                f" ({', '.join(services) or 'none'})"
            )
        return cls(engine, pb2, pb2_grpc, services[0])

    @classmethod
    def generic(cls, engine: Any) -> GameBinding:
        """`engine` served through menagerie.generic.v1.Game (its values as JSON)."""
        pb2, pb2_grpc = (importlib.import_module(name) for name in GENERIC_MODULES)
        return cls(engine, pb2, pb2_grpc, "Game")

    @property
    def typed(self) -> bool:
        """True when the game ships its own proto (False: the generic service is its only one)."""
        return str(getattr(self.pb2, "__name__", "")) != GENERIC_MODULES[0]

    @cached_property
    def messages(self) -> Messages:
        """The translation between the engine's values and this binding's messages."""
        return TypedMessages(self.pb2, self.engine) if self.typed else JsonMessages(self.pb2, self.engine)

    def check(self) -> None:
        """Raises GameBindingError naming every message, method and helper the platform needs but the code lacks."""
        module = getattr(self.pb2, "__name__", "the pb2 module")
        problems = []
        missing = [name for name in MESSAGES if not hasattr(self.pb2, name)]
        if missing:
            problems.append(f"{module} lacks the messages {', '.join(missing)}")
        service = self.pb2.DESCRIPTOR.services_by_name.get(self.service)
        if service is None:
            problems.append(f"{module} declares no service {self.service!r}")
        else:
            methods = service.methods_by_name
            absent = [name for name in METHODS if name not in methods]
            if absent:
                problems.append(f"service {service.full_name} lacks the methods {', '.join(absent)}")
            for name, streams in METHODS.items():
                method = methods.get(name)
                if method is None:
                    continue
                shape = (method.input_type.name, method.output_type.name, method.server_streaming)
                expected = (f"{name}Request", f"{name}Response", streams)
                if shape != expected:
                    stream = "stream " if streams else ""
                    problems.append(
                        f"{service.full_name}.{name} must be ({expected[0]}) returns ({stream}{expected[1]})"
                    )
        helpers = [f"add_{self.service}Servicer_to_server", f"{self.service}Stub"]
        lacking = [name for name in helpers if not hasattr(self.pb2_grpc, name)]
        if lacking:
            problems.append(f"{getattr(self.pb2_grpc, '__name__', 'the pb2_grpc module')} lacks {', '.join(lacking)}")
        problems.extend(self.word_problems())
        if problems:
            raise GameBindingError(f"the game's generated code does not fit the platform: {'; '.join(problems)}")

    def word_problems(self) -> list[str]:
        """Each word the engine's view, actions and events may hold that the game's enums lack (typed games)."""
        if not self.typed:
            return []  # the generic service carries the engine's words as JSON
        engine = self.engine
        found = []
        for name, engine_type in (
            ("View", engine.view_type),
            ("Action", engine.action_type),
            ("Event", engine.event_type),
        ):
            descriptor = getattr(getattr(self.pb2, name, None), "DESCRIPTOR", None)
            if isinstance(descriptor, Descriptor):  # a missing message is named above
                found.extend(enum_problems(engine_type, descriptor))
        return found

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

    def stub(self, channel: grpc.Channel | grpc.aio.Channel) -> Any:
        """A client stub of this game's typed service on `channel`."""
        return getattr(self.pb2_grpc, f"{self.service}Stub")(channel)


@functools.cache
def binding(game: str) -> GameBinding:
    """The binding of the installed game `game`, made once per process; KeyError naming the installed games."""
    engine = registry.engine(game)
    if engine.info.game != game:
        raise GameBindingError(f"the engine installed as game {game!r} says it is {engine.info.game!r}")
    return GameBinding.for_engine(engine)


def bindings() -> dict[str, GameBinding]:
    """Every installed game's binding, by game id."""
    return {game: binding(game) for game in registry.game_ids()}
