"""Entry point of the gateway (console script `menagerie-gateway`): finds the backends, then serves HTTP."""

from __future__ import annotations

import asyncio
import contextlib
import resource
import signal
import time
from collections.abc import Iterator
from types import FrameType

import grpc
import structlog
import uvicorn
from starlette.types import ASGIApp

from menagerie.gateway.app import Backends, Gateway
from menagerie.gateway.clients import ClientAddresses
from menagerie.gateway.errors import RequestIds, strict_codecs
from menagerie.gateway.headers import SecurityHeaders
from menagerie.gateway.limits import BodyLimit
from menagerie.gateway.logs import rate_limit_server_logs
from menagerie.gateway.metrics import Measured
from menagerie.gateway.protocol import protocol_class
from menagerie.gateway.readiness import watch_lobby
from menagerie.gateway.relay import RelayCredential
from menagerie.gateway.settings import GatewaySettings
from menagerie.gateway.tracing import traced
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from menagerie.shared.logs import configure_logging
from menagerie.shared.observability import Health, HttpEndpoint
from menagerie.shared.rpc.bootstrap import load_settings
from menagerie.shared.tracing import setup_tracing

DISCOVERY_CALL_SECONDS = 2.0
DISCOVERY_PAUSE_SECONDS = 0.5
# File descriptors kept for the backends' channels, the metrics port and logs, beside the browsers' sockets.
RESERVED_FDS = 64


async def discover_games(
    settings: GatewaySettings, backends: Backends, log: structlog.stdlib.BoundLogger
) -> dict[str, str]:
    """Game id -> address: MENAGERIE_GAME_ENDPOINTS, else the endpoints of the lobby's ListGames (retried)."""
    if configured := settings.endpoints():
        return configured
    lobby = lobby_pb2_grpc.LobbyStub(backends.channel(settings.lobby_address)())
    deadline = time.monotonic() + settings.discovery_timeout_seconds
    while True:
        try:
            reply = await lobby.ListGames(lobby_pb2.ListGamesRequest(), timeout=DISCOVERY_CALL_SECONDS)
            return {listing.game: listing.endpoint for listing in reply.games}
        except grpc.aio.AioRpcError as exc:
            if time.monotonic() > deadline:
                raise SystemExit(
                    f"gateway: the lobby at {settings.lobby_address} did not list the games ({exc.code().name})"
                ) from None
            log.info("waiting for the lobby", lobby=settings.lobby_address, code=exc.code().name)
            await asyncio.sleep(DISCOVERY_PAUSE_SECONDS)


def connection_limit(wanted: int) -> int:
    """`wanted`, lowered to what the open-file limit leaves (past it, accept() fails for everyone)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - RESERVED_FDS))


def asgi_stack(gateway: Gateway, settings: GatewaySettings) -> ASGIApp:
    """The router behind its middlewares: a request's span, metrics, security headers, request ids, body limits,
    client addresses."""
    strict_codecs()
    limited = BodyLimit(
        ClientAddresses(gateway, settings.proxies()), settings.max_request_bytes, settings.body_timeout_seconds
    )
    return traced(Measured(SecurityHeaders(RequestIds(limited))))


def uvicorn_config(app: ASGIApp, settings: GatewaySettings) -> uvicorn.Config:
    """uvicorn's settings: the gateway's protocol (header timeout), limits, no Server banner."""
    return uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        http=protocol_class(settings.header_timeout_seconds),
        lifespan="off",
        log_config=None,
        access_log=False,
        server_header=False,
        limit_concurrency=connection_limit(settings.max_connections),
        timeout_keep_alive=settings.keepalive_timeout_seconds,
        timeout_graceful_shutdown=int(settings.grace_seconds) or None,
    )


class _Server(uvicorn.Server):
    """uvicorn's server, which reports NOT_SERVING on /healthz from the moment it is asked to stop."""

    def __init__(self, config: uvicorn.Config, gateway: Gateway, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(config)
        self.gateway = gateway
        self.loop = loop

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        """uvicorn's handlers, without raising the signal again after the drain: a requested stop exits 0."""
        originals = {sig: signal.signal(sig, self.handle_exit) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, handler in originals.items():
                signal.signal(sig, handler)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """SIGTERM/SIGINT: draining starts; probes see it first, open streams end."""
        self.gateway.serving = False
        # A signal handler runs between the loop's steps: hand the Event to the loop rather than set it here.
        self.loop.call_soon_threadsafe(self.gateway.draining.set)
        super().handle_exit(sig, frame)


async def serve(settings: GatewaySettings) -> None:
    """Serves until SIGTERM/SIGINT (uvicorn's handlers), then lets open requests finish for grace_seconds."""
    log: structlog.stdlib.BoundLogger = structlog.get_logger(service="gateway")
    backends = Backends(settings.tls_ca_file, settings.per_match())
    try:
        games = await discover_games(settings, backends, log)
        relay_signer = settings.relay_signer()
        relay = RelayCredential(relay_signer) if relay_signer is not None else None
        if relay is None:
            log.warning("no MENAGERIE_SIGNING_KEY_FILE: every anonymous call counts under the gateway's own address")
        gateway = Gateway(
            settings.lobby_address,
            games,
            backends,
            settings.static_dir,
            settings.call_timeout_seconds,
            settings.stream_timeout_seconds,
            settings.max_request_bytes,
            relay,
        )
        health = Health("gateway")
        endpoint = HttpEndpoint(settings.host, settings.metrics_port, health) if settings.metrics_port else None

        def report(reachable: bool) -> None:
            gateway.lobby_reachable = reachable
            health.set(gateway.ready)

        watcher = asyncio.create_task(
            watch_lobby(backends.channel(settings.lobby_address), report, settings.ready_check_seconds, log)
        )
        server = _Server(uvicorn_config(asgi_stack(gateway, settings), settings), gateway, asyncio.get_running_loop())
        starting = asyncio.create_task(server.serve())
        # uvicorn has no event for 'listening'; its flag is polled for the start log line and health.
        while not server.started and not starting.done():  # noqa: ASYNC110
            await asyncio.sleep(0.05)
        if server.started:
            gateway.serving = True
            log.info(
                "gateway started",
                address=f"http://{settings.host}:{settings.port}",
                lobby=settings.lobby_address,
                games=games,
                static=str(settings.static_dir) if gateway.static is not None else None,
                max_connections=server.config.limit_concurrency,
                relays_clients=relay is not None,
                trusted_proxies=settings.trusted_proxies or None,
                metrics=f"http://{settings.host}:{endpoint.port}/metrics" if endpoint else None,
            )
        await starting
        gateway.serving = False
        health.set(False)
        watcher.cancel()
        if endpoint is not None:
            endpoint.close()
        if not server.started:
            raise SystemExit(f"gateway: cannot listen on {settings.host}:{settings.port}")
    finally:
        await backends.close()
    log.info("service stopped")


def main() -> None:
    """Runs the gateway until SIGTERM."""
    settings = load_settings(GatewaySettings)
    configure_logging("gateway", settings.log_format, settings.log_level)
    rate_limit_server_logs(settings.log_interval_seconds)
    setup_tracing("gateway")  # before any channel to the backends is made: each carries the context
    asyncio.run(serve(settings))


if __name__ == "__main__":
    main()
