"""Starting a service: settings, logging, Redis, the gRPC server, health, reflection, drain.

Every service's entry point is one call, e.g.

    run_service("beasts", GameServiceSettings, register_beasts)

where `register` adds the service's servicers to the server and returns their full
names (for health and reflection). Health reports SERVING only while Redis answers.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

import grpc
import structlog
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from prometheus_client import start_http_server
from pydantic import ValidationError
from redis.asyncio import Redis

from menagerie.shared.logs import configure_logging
from menagerie.shared.redis_client import connect_redis
from menagerie.shared.rpc.interceptor import ServiceInterceptor
from menagerie.shared.settings import ServiceSettings, Settings
from menagerie.shared.tokens import TokenSigner

S = TypeVar("S", bound=Settings)
SS = TypeVar("SS", bound=ServiceSettings)

HEALTH_INTERVAL_SECONDS = 2.0


Background = Callable[[asyncio.Event], Awaitable[None]]


@dataclass
class Runtime:
    """What a service's registration gets to build its servicers."""

    name: str
    settings: ServiceSettings
    redis: Redis
    signer: TokenSigner
    log: structlog.stdlib.BoundLogger
    # Loops that run beside the server (matchmaking, stream consumers); each gets the
    # stop event and should return soon after it is set.
    background: list[Background] = field(default_factory=list)


Register = Callable[[grpc.aio.Server, Runtime], Awaitable[list[str]]]


async def _watch_redis(runtime: Runtime, servicer: health.aio.HealthServicer, names: list[str]) -> None:
    """Keeps health in step with Redis: a service without its store cannot serve."""
    serving: bool | None = None
    while True:
        try:
            await asyncio.wait_for(runtime.redis.ping(), timeout=HEALTH_INTERVAL_SECONDS)
            ok = True
        except Exception:
            ok = False
        if ok != serving:
            status = health_pb2.HealthCheckResponse.SERVING if ok else health_pb2.HealthCheckResponse.NOT_SERVING
            for name in ["", *names]:
                await servicer.set(name, status)
            runtime.log.info("health", serving=ok)
            serving = ok
        await asyncio.sleep(HEALTH_INTERVAL_SECONDS)


async def _supervised(loop: Background, stop: asyncio.Event, log: structlog.stdlib.BoundLogger) -> None:
    """Runs a background loop until stop; restarts it after an unexpected error."""
    while not stop.is_set():
        try:
            await loop(stop)
        except asyncio.CancelledError:
            raise
        except Exception:
            if stop.is_set():
                return  # failing while the service stops (its store may be gone already) is no news
            log.exception("background loop failed; restarting", loop=getattr(loop, "__qualname__", repr(loop)))
            await asyncio.sleep(1)


async def serve(
    name: str,
    settings: ServiceSettings,
    register: Register,
    *,
    stop: asyncio.Event | None = None,
    started: Callable[[int], None] | None = None,
) -> None:
    """Runs the service until SIGTERM/SIGINT (or `stop`), then drains and stops."""
    log = structlog.get_logger(service=name)
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)

    redis = connect_redis(settings)
    runtime = Runtime(name, settings, redis, TokenSigner(settings.token_secret.get_secret_value()), log)
    server = grpc.aio.server(
        interceptors=[ServiceInterceptor(runtime.signer)],
        options=[("grpc.so_reuseport", 0), ("grpc.max_receive_message_length", 4 * 1024 * 1024)],
    )
    names = await register(server, runtime)

    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for service in ["", *names]:
        await health_servicer.set(service, health_pb2.HealthCheckResponse.NOT_SERVING)
    reflection.enable_server_reflection([*names, health.SERVICE_NAME, reflection.SERVICE_NAME], server)

    port = server.add_insecure_port(f"{settings.host}:{settings.port}")
    if port == 0:
        raise SystemExit(f"{name}: cannot listen on {settings.host}:{settings.port}")
    if settings.metrics_port:
        start_http_server(settings.metrics_port, addr=settings.host)
    await server.start()
    watcher = asyncio.create_task(_watch_redis(runtime, health_servicer, names))
    loops = [asyncio.create_task(_supervised(loop, stop, log)) for loop in runtime.background]
    log.info("service started", address=f"{settings.host}:{port}", services=names)
    if started is not None:
        started(port)

    await stop.wait()
    log.info("draining", grace_seconds=settings.grace_seconds)
    await health_servicer.enter_graceful_shutdown()
    watcher.cancel()
    if loops:
        _, pending = await asyncio.wait(loops, timeout=settings.grace_seconds)
        for task in pending:
            task.cancel()
    await server.stop(settings.grace_seconds)
    await redis.aclose()
    log.info("service stopped")


def _env_name(loc: tuple[int | str, ...]) -> str:
    name = str(loc[0]) if loc else "?"
    return name if name.isupper() else f"MENAGERIE_{name.upper()}"


def load_settings(settings_type: type[S]) -> S:
    """The settings from the environment, or exit with a message naming what is missing."""
    try:
        return settings_type()  # type: ignore[call-arg]
    except ValidationError as exc:
        problems = "; ".join(f"{_env_name(e['loc'])}: {e['msg']}" for e in exc.errors())
        print(f"configuration error: {problems}", file=sys.stderr)
        raise SystemExit(2) from None


def run_service(name: str, settings_type: type[SS], register: Register) -> None:
    """The whole life of a service process: configure, serve, drain, exit."""
    settings = load_settings(settings_type)
    configure_logging(name, settings.log_format, settings.log_level)
    asyncio.run(serve(name, settings, register))
