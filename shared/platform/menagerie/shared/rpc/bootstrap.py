"""Starting a process: settings, logging, Redis, supervised loops, health, metrics, drain.

Every Menagerie process starts through here (Open Match's `appmain`):

    run_service("lobby", LobbySettings, register)          # a gRPC service
    run_service("dispatcher", BotSettings, register)       # no servicers of its own: register returns []
    run_blocking("bot-worker", settings, work)             # a foreground loop that is not asyncio (Celery)

`register(server, runtime)` adds the process's servicers to the gRPC server and returns
their full names (for health and reflection); it may add supervised background loops
(`runtime.add_loop`) and closers (`runtime.on_close`). A loop is restarted after any
error with exponential backoff and jitter (menagerie.shared.supervision), so a Redis
connection error — `CLIENT KILL`, Redis restarted — never ends the process.

Every gRPC server also serves reflection, v1 and v1alpha (menagerie.shared.rpc.reflection),
and its errors carry google.rpc.Status details whose ErrorInfo domain is
"menagerie.<name>" (menagerie.shared.rpc.details).

Health, one answer on two kinds of probe:
* the standard gRPC health service on MENAGERIE_HOST:MENAGERIE_PORT, for every process
  run by `run_service` — including the dispatcher, which serves nothing else there
  (its port defaults to 0: a free port, named in its "dispatcher started" log line;
  deployments set MENAGERIE_PORT so that a probe knows where to ask);
* `GET /healthz` (200 SERVING / 503 NOT_SERVING) beside `/metrics` on
  MENAGERIE_METRICS_PORT when it is set (0 = off), for every process, the Celery worker
  included, whose pool forks and so cannot host a gRPC server.
Both say SERVING only while Redis answers a PING (checked every HEALTH_INTERVAL_SECONDS),
and NOT_SERVING from SIGTERM on.

Shutdown (SIGTERM, SIGINT or `stop`): health goes NOT_SERVING, the loops get
`grace_seconds` to return, the gRPC server drains for `grace_seconds`, then the
closers run in reverse order of registration — those `register` added, then the
metrics endpoint, then the Redis client — each bounded and each run even if an
earlier one failed.
"""

from __future__ import annotations

import asyncio
import inspect
import signal
import sys
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import NoReturn, Protocol, TypeVar

import grpc
import redis
import structlog
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from prometheus_client import REGISTRY, CollectorRegistry
from pydantic import ValidationError
from redis.asyncio import Redis

from menagerie.shared.cluster_wakeups import stream_wakeups
from menagerie.shared.logs import configure_logging
from menagerie.shared.observability import Health, HttpEndpoint
from menagerie.shared.redis_client import RedisSettings, connect_redis, connect_sync_redis
from menagerie.shared.rpc.channels import server_credentials
from menagerie.shared.rpc.interceptor import ServiceInterceptor
from menagerie.shared.rpc.quotas import Quotas, QuotaSettings
from menagerie.shared.rpc.reflection import enable_reflection
from menagerie.shared.store.pipelined import RedisRunner
from menagerie.shared.supervision import Loop, supervise
from menagerie.shared.tokens import TokenSigner
from menagerie.shared.wakeups import StreamWakeups

T = TypeVar("T")

HEALTH_INTERVAL_SECONDS = 2.0
CLOSER_TIMEOUT_SECONDS = 10.0

Background = Loop
Closer = Callable[[], Awaitable[None] | None]


class ProcessSettings(RedisSettings, Protocol):
    """What the bootstrap reads from a process's settings (ServiceSettings and BotSettings have it all)."""

    @property
    def rate_limit_per_second(self) -> float: ...
    @property
    def rate_limit_burst(self) -> int: ...
    @property
    def max_streams_per_caller(self) -> int: ...
    @property
    def max_streams(self) -> int: ...
    @property
    def max_concurrent_rpcs(self) -> int: ...
    @property
    def tls_cert_file(self) -> str: ...
    @property
    def tls_key_file(self) -> str: ...
    @property
    def tls_ca_file(self) -> str: ...
    def token_signer(self) -> TokenSigner: ...
    @property
    def log_format(self) -> str: ...
    @property
    def log_level(self) -> str: ...
    @property
    def host(self) -> str: ...
    @property
    def port(self) -> int: ...
    @property
    def metrics_port(self) -> int: ...
    @property
    def grace_seconds(self) -> float: ...


@dataclass
class Runtime:
    """What a process's registration gets to build its servicers, loops and closers."""

    name: str
    settings: ProcessSettings
    redis: Redis
    signer: TokenSigner
    log: structlog.stdlib.BoundLogger
    stop: asyncio.Event
    health: Health
    # The call rates and budgets the interceptor applies; `register` may give a method a budget of its own.
    quotas: Quotas = field(default_factory=lambda: Quotas(QuotaSettings()))
    # Loops that run beside the server (matchmaking, stream consumers); each gets the
    # stop event and should return soon after it is set. Unnamed ones are named after
    # their function; add_loop names them for logs and metrics.
    background: list[Background] = field(default_factory=list)
    loops: list[tuple[str, Background]] = field(default_factory=list)
    closers: list[Closer] = field(default_factory=list)
    _wakeups: StreamWakeups | None = None
    _runner: RedisRunner | None = None

    def runner(self) -> RedisRunner:
        """The process's runner of request-path scripts and batches, one pipelined connection (closed at shutdown)."""
        if self._runner is None:
            self._runner = RedisRunner.of(self.redis)
            self.on_close(self._runner.close)
        return self._runner

    def wakeups(self) -> StreamWakeups:
        """The process's one stream reader for watchers (created, supervised and closed on first use)."""
        if self._wakeups is None:
            self._wakeups = stream_wakeups(self.settings, self.redis)
            self.add_loop("stream-wakeups", self._wakeups.run)
            self.on_close(self._wakeups.close)
        return self._wakeups

    def add_loop(self, name: str, loop: Background) -> None:
        """Runs `loop` supervised beside the server: restarted after any error, stopped on shutdown."""
        self.loops.append((name, loop))

    def on_close(self, closer: Closer) -> None:
        """Runs `closer` (sync or async) at shutdown; closers run in reverse order of registration."""
        self.closers.append(closer)

    def all_loops(self) -> list[tuple[str, Background]]:
        """Named loops first, then the unnamed ones under their function's name."""
        unnamed = [(getattr(loop, "__qualname__", repr(loop)), loop) for loop in self.background]
        return [*self.loops, *unnamed]


Register = Callable[[grpc.aio.Server, Runtime], Awaitable[list[str]]]


async def _watch_redis(runtime: Runtime, servicer: health.aio.HealthServicer, names: list[str]) -> None:
    """Keeps health in step with Redis: a process without its store cannot serve."""
    first = True
    while True:
        try:
            await asyncio.wait_for(runtime.redis.ping(), timeout=HEALTH_INTERVAL_SECONDS)
            ok = True
        except Exception:
            ok = False
        if runtime.health.set(ok) or first:
            status = health_pb2.HealthCheckResponse.SERVING if ok else health_pb2.HealthCheckResponse.NOT_SERVING
            for name in ["", *names]:
                await servicer.set(name, status)
            if ok:
                runtime.log.info("health", serving=True)
            else:
                runtime.log.warning("health", serving=False, reason="Redis does not answer")
            first = False
        await asyncio.sleep(HEALTH_INTERVAL_SECONDS)


async def run_closers(
    closers: list[Closer], log: structlog.stdlib.BoundLogger, each_seconds: float = CLOSER_TIMEOUT_SECONDS
) -> None:
    """Runs `closers` in reverse order, each for `each_seconds` at most; a failing one does not stop the others."""
    for closer in reversed(closers):
        try:
            result = closer()
            if inspect.isawaitable(result):
                await asyncio.wait_for(result, each_seconds)
        except Exception:
            log.exception("closer failed", closer=getattr(closer, "__qualname__", repr(closer)))


async def serve(
    name: str,
    settings: ProcessSettings,
    register: Register,
    *,
    stop: asyncio.Event | None = None,
    started: Callable[[int], None] | None = None,
    handle_signals: bool = True,
) -> None:
    """Runs the process until SIGTERM/SIGINT (or `stop`), then drains and stops.

    `started` is called with the gRPC port once the server listens and the loops run;
    `handle_signals=False` leaves signals alone (several services in one process).
    """
    log: structlog.stdlib.BoundLogger = structlog.get_logger(service=name)
    stop = stop or asyncio.Event()
    if handle_signals:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)

    redis_client = connect_redis(settings)
    quotas = Quotas(
        QuotaSettings(
            settings.rate_limit_per_second,
            settings.rate_limit_burst,
            settings.max_streams_per_caller,
            settings.max_streams,
        )
    )
    signer = settings.token_signer()
    runtime = Runtime(name, settings, redis_client, signer, log, stop, Health(name), quotas)
    runtime.on_close(redis_client.aclose)  # the first registered, so the last closed
    tasks: list[asyncio.Task[None]] = []
    try:
        metrics_port = 0
        if settings.metrics_port:
            endpoint = _http_endpoint(name, settings, runtime.health)
            runtime.on_close(endpoint.close)
            metrics_port = endpoint.port
        server = grpc.aio.server(
            interceptors=[ServiceInterceptor(runtime.signer, quotas, domain=f"menagerie.{name}")],
            options=[
                ("grpc.so_reuseport", 0),
                ("grpc.max_receive_message_length", 4 * 1024 * 1024),
                # gRPC core cancels calls that arrive faster than the asyncio server takes them
                # once 1,000 wait (3,000 hard): a crowd of watchers reconnecting after a restart
                # does. Let as many wait as may run at once.
                ("grpc.server.max_pending_requests", settings.max_concurrent_rpcs),
                ("grpc.server.max_pending_requests_hard_limit", settings.max_concurrent_rpcs),
            ],
            maximum_concurrent_rpcs=settings.max_concurrent_rpcs,
        )
        names = await register(server, runtime)

        health_servicer = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
        for service in ["", *names]:
            await health_servicer.set(service, health_pb2.HealthCheckResponse.NOT_SERVING)
        enable_reflection([*names, health.SERVICE_NAME], server)  # v1 and v1alpha
        address = f"{settings.host}:{settings.port}"
        credentials = server_credentials(settings.tls_cert_file, settings.tls_key_file)
        try:
            if credentials is None:
                port = server.add_insecure_port(address)
            else:
                port = server.add_secure_port(address, credentials)
        except RuntimeError:
            port = 0
        if port == 0:
            raise SystemExit(f"{name}: cannot listen on {settings.host}:{settings.port}")
        await server.start()
        # Registered after everything `register` added, so calls drain before what they use closes.
        runtime.on_close(lambda: server.stop(settings.grace_seconds))

        watcher = asyncio.create_task(_watch_redis(runtime, health_servicer, names), name=f"{name}:health")
        loops = [
            asyncio.create_task(supervise(name, loop_name, loop, stop, log), name=f"{name}:{loop_name}")
            for loop_name, loop in runtime.all_loops()
        ]
        tasks += [watcher, *loops]
        log.info(
            f"{name} started",
            address=f"{settings.host}:{port}",
            tls=credentials is not None,
            metrics_port=metrics_port or None,
            services=names,
            loops=[loop_name for loop_name, _ in runtime.all_loops()],
        )
        if started is not None:
            started(port)

        await stop.wait()
        log.info("draining", grace_seconds=settings.grace_seconds)
        runtime.health.set(False)
        await health_servicer.enter_graceful_shutdown()
        watcher.cancel()
        if loops:
            await asyncio.wait(loops, timeout=settings.grace_seconds)
    finally:
        # Whatever ended the run (stop, a failed start, cancellation): no task outlives it.
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await run_closers(runtime.closers, log, settings.grace_seconds + CLOSER_TIMEOUT_SECONDS)
    log.info("service stopped")


def _http_endpoint(
    name: str, settings: ProcessSettings, status: Health, registry: CollectorRegistry | None = None
) -> HttpEndpoint:
    try:
        return HttpEndpoint(settings.host, settings.metrics_port, status, registry or REGISTRY)
    except OSError as exc:
        raise SystemExit(f"{name}: cannot serve metrics on {settings.host}:{settings.metrics_port}: {exc}") from None


def _problem(loc: tuple[int | str, ...], message: str) -> str:
    """One validation error, led by the variable it is about (none for a rule across several)."""
    if not loc:
        return message.removeprefix("Value error, ")
    name = str(loc[0])
    return f"{name if name.isupper() else f'MENAGERIE_{name.upper()}'}: {message}"


def load_settings(settings_type: type[T]) -> T:
    """The settings from the environment, or exit with a message naming what is missing."""
    try:
        return settings_type()
    except ValidationError as exc:
        problems = "; ".join(_problem(e["loc"], e["msg"]) for e in exc.errors())
        print(f"configuration error: {problems}", file=sys.stderr)
        raise SystemExit(2) from None


def run_service(name: str, settings_type: type[ProcessSettings], register: Register) -> None:
    """The whole life of an asyncio process (a gRPC service, the dispatcher): configure, serve, drain, exit."""
    settings = load_settings(settings_type)
    configure_logging(name, settings.log_format, settings.log_level)
    asyncio.run(serve(name, settings, register))


@dataclass
class BlockingRuntime:
    """What a foreground loop that is not asyncio gets: its settings, health, log and closers."""

    name: str
    settings: ProcessSettings
    log: structlog.stdlib.BoundLogger
    health: Health
    closers: list[Callable[[], None]] = field(default_factory=list)

    def on_close(self, closer: Callable[[], None]) -> None:
        """Runs `closer` at exit; closers run in reverse order of registration."""
        self.closers.append(closer)


def redis_answers(url: str, timeout: float = HEALTH_INTERVAL_SECONDS) -> bool:
    """True when the Redis server at `url` answers a PING within `timeout` seconds."""
    client = connect_sync_redis(url, socket_timeout=timeout, socket_connect_timeout=timeout)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()


def _watch_in_thread(runtime: BlockingRuntime, check: Callable[[], bool], stop: threading.Event) -> None:
    while True:
        try:
            ok = check()
        except Exception:
            ok = False
        if runtime.health.set(ok):
            if ok:
                runtime.log.info("health", serving=True)
            else:
                runtime.log.warning("health", serving=False)
        if stop.wait(HEALTH_INTERVAL_SECONDS):
            return


def run_blocking(
    name: str,
    settings: ProcessSettings,
    work: Callable[[BlockingRuntime], int],
    *,
    check: Callable[[], bool] | None = None,
    registry: CollectorRegistry | None = None,
) -> NoReturn:
    """The whole life of a process whose main loop is not asyncio (the Celery worker); exits with `work`'s status.

    Logging, the `/metrics` + `/healthz` endpoint on MENAGERIE_METRICS_PORT (when set; it
    serves `registry`, default the process's) and a health thread that runs `check`
    (default: Redis answers) every HEALTH_INTERVAL_SECONDS; `work` owns the foreground and
    its own signals. Closers run in reverse order at exit.
    """
    log: structlog.stdlib.BoundLogger = configure_logging(name, settings.log_format, settings.log_level)
    runtime = BlockingRuntime(name, settings, log, Health(name))
    stop = threading.Event()
    code = 1
    try:
        if settings.metrics_port:
            endpoint = _http_endpoint(name, settings, runtime.health, registry)
            runtime.on_close(endpoint.close)
            log.info("metrics and health", address=f"{settings.host}:{endpoint.port}")
        probe = check or (lambda: redis_answers(settings.redis_url))
        watcher = threading.Thread(target=_watch_in_thread, args=(runtime, probe, stop), name="health", daemon=True)
        watcher.start()

        def stop_watching() -> None:
            stop.set()
            watcher.join(HEALTH_INTERVAL_SECONDS * 2)

        runtime.on_close(stop_watching)
        code = work(runtime)
    finally:
        runtime.health.set(False)
        for closer in reversed(runtime.closers):
            try:
                closer()
            except Exception:
                log.exception("closer failed", closer=getattr(closer, "__qualname__", repr(closer)))
    raise SystemExit(code)
