"""The gateway's ASGI application: Connect services by path, /healthz, and the web app's files.

Paths:
  /menagerie.lobby.v1.Lobby/<Method>             the lobby
  /menagerie.<game>.v1.<Game>/<Method>           each game's own service (its name is unique)
  /games/<game>/menagerie.<game>.v1.<Game>/...   the same, under the game's prefix
  /games/<game>/menagerie.common.v1.Matches/...  each game's Matches service (the same name on every game)
  /games/<game>/menagerie.generic.v1.Game/...    each game in the generic envelope (every game; the only
                                                 service of a game that ships no proto)
  /healthz                                       200 SERVING, or 503 NOT_SERVING while starting or draining
  /readyz                                        the same, and 503 NOT_SERVING while the lobby does not answer
  anything else                                  the built web app (clients/web/dist), index.html at /
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import grpc
from google.protobuf.descriptor import ServiceDescriptor
from starlette.exceptions import HTTPException
from starlette.responses import PlainTextResponse
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from menagerie.common.v1 import matches_pb2
from menagerie.gateway.forward import DISCONNECTED, Forwarder
from menagerie.gateway.limits import BoundedGzip
from menagerie.gateway.paths import GAMES_PREFIX, HEALTH_PATHS
from menagerie.gateway.relay import RelayCredential
from menagerie.generic.v1 import generic_pb2
from menagerie.lobby.v1 import lobby_pb2
from menagerie.shared.rpc.channels import open_aio_channel

# A request larger than the backends accept (grpc.max_receive_message_length) is refused here already.
MAX_REQUEST_BYTES = 4 * 1024 * 1024
MATCHES = matches_pb2.DESCRIPTOR.services_by_name["Matches"]
GENERIC = generic_pb2.DESCRIPTOR.services_by_name["Game"]
LOBBY = lobby_pb2.DESCRIPTOR.services_by_name["Lobby"]


def connect_application(service: ServiceDescriptor, forwarder: Forwarder, limit: int = MAX_REQUEST_BYTES) -> ASGIApp:
    """The generated Connect ASGI application of `service` (module <proto>_connect), serving `forwarder`."""
    module_name = service.file.name.removesuffix(".proto").replace("/", ".") + "_connect"
    module = importlib.import_module(module_name)
    application = getattr(module, f"{service.name}ASGIApplication")
    # The generated class wants its Protocol; the forwarder answers every method of it by name.
    # Its gzip is bounded: connect-python inflates a stream's envelope whole before checking its size.
    return cast("ASGIApp", application(cast("Any", forwarder), read_max_bytes=limit, compressions=[BoundedGzip(limit)]))


def game_service(game: str) -> ServiceDescriptor | None:
    """A game's own service, found by convention: the one service of menagerie.<game>.v1.<game>_pb2.

    None for a game that ships no proto (no such package here): the generic service serves it.
    """
    name = f"menagerie.{game}.v1.{game}_pb2"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and name.startswith(exc.name):
            return None
        raise
    services = list(module.DESCRIPTOR.services_by_name.values())
    if len(services) != 1:
        raise LookupError(f"menagerie.{game}.v1.{game}_pb2 has {len(services)} services, expected one")
    return cast("ServiceDescriptor", services[0])


@dataclass
class Backends:
    """One grpc.aio channel per backend address, opened on first use (in the serving event loop)."""

    ca_file: str = ""
    # Games' channels send each call to its match's replica (the Forwarder names the match in each call).
    per_match_games: bool = False
    channels: dict[tuple[str, bool], grpc.aio.Channel] = field(default_factory=dict)

    def channel(self, address: str, game: bool = False) -> Callable[[], grpc.aio.Channel]:
        """A function that returns the channel to `address` (a game service's when `game`)."""
        key = (address, game and self.per_match_games)

        def get() -> grpc.aio.Channel:
            if key not in self.channels:
                self.channels[key] = open_aio_channel(address, self.ca_file, per_match=key[1])
            return self.channels[key]

        return get

    async def close(self) -> None:
        """Closes every channel (open calls are cancelled)."""
        await asyncio.gather(*(channel.close() for channel in self.channels.values()), return_exceptions=True)
        self.channels.clear()


class Gateway:
    """Routes each request to a Connect application, the health answer or the static files."""

    def __init__(
        self,
        lobby: str,
        games: dict[str, str],
        backends: Backends,
        static_dir: Path,
        call_timeout: float,
        stream_timeout: float,
        limit: int = MAX_REQUEST_BYTES,
        relay: RelayCredential | None = None,
    ) -> None:
        self.serving = False
        # Set by menagerie.gateway.readiness while the lobby answers its health check.
        self.lobby_reachable = False
        self.games = games
        self.draining = asyncio.Event()

        def app(service: ServiceDescriptor, address: str, game: bool = True) -> ASGIApp:
            channel = backends.channel(address, game)
            forwarder = Forwarder(service, channel, call_timeout, stream_timeout, self.draining, relay)
            return connect_application(service, forwarder, limit)

        self.root: dict[str, ASGIApp] = {LOBBY.full_name: app(LOBBY, lobby, game=False)}
        self.per_game: dict[str, dict[str, ASGIApp]] = {}
        for game, address in games.items():
            served = {MATCHES.full_name: app(MATCHES, address), GENERIC.full_name: app(GENERIC, address)}
            own = game_service(game)
            if own is not None:
                served[own.full_name] = self.root[own.full_name] = app(own, address)
            self.per_game[game] = served
        self.static: ASGIApp | None = (
            StaticFiles(directory=static_dir, html=True) if (static_dir / "index.html").is_file() else None
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The ASGI entry point (http only; lifespan is the server's business here)."""
        if scope["type"] != "http":
            return
        path: str = scope["path"]
        if path in HEALTH_PATHS:
            up = self.serving if path == "/healthz" else self.ready
            response = PlainTextResponse("SERVING\n" if up else "NOT_SERVING\n", status_code=200 if up else 503)
            await response(scope, receive, send)
            return
        target, scope = self._route(scope, path)
        if target is None:
            if self.static is None:
                await PlainTextResponse("the web app is not built: run `make web`\n", status_code=404)(
                    scope, receive, send
                )
                return
            try:
                await self.static(scope, receive, send)
            except HTTPException as exc:  # StaticFiles raises its 404 for an exception middleware we do not need
                await PlainTextResponse(f"{exc.detail}\n", status_code=exc.status_code)(scope, receive, send)
            return
        await self._with_disconnect(target, scope, receive, send)

    @property
    def ready(self) -> bool:
        """Serving, and the lobby answers: a browser sent here now would get somewhere."""
        return self.serving and self.lobby_reachable

    def _route(self, scope: Scope, path: str) -> tuple[ASGIApp | None, Scope]:
        """The Connect application for `path` (and the scope it sees), or None for a static file."""
        if path.startswith(GAMES_PREFIX):
            game, _, rest = path.removeprefix(GAMES_PREFIX).partition("/")
            service = rest.partition("/")[0]
            target = self.per_game.get(game, {}).get(service)
            if target is not None:
                # The generated application strips root_path when the full path is not one of its own.
                return target, {**scope, "root_path": scope.get("root_path", "") + GAMES_PREFIX + game}
            return None, scope
        service = path.removeprefix("/").partition("/")[0]
        return self.root.get(service), scope

    async def _with_disconnect(self, target: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
        """Runs `target` with DISCONNECTED set once the browser goes, so forwarded streams end at once."""
        gone = asyncio.Event()
        token = DISCONNECTED.set(gone)

        async def watched() -> Message:
            message = await receive()
            if message["type"] == "http.disconnect":
                gone.set()
            return message

        try:
            await target(scope, watched, send)
        finally:
            DISCONNECTED.reset(token)
