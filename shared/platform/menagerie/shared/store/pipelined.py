"""The request path's scripts and batches over one pipelined connection: many calls in flight on one socket.

redis-py's asyncio client takes a connection from its pool for every command and gives it
back after the reply, each command wrapped in a retry, a health check and a timeout. On
this project's 2-core machine that was 71 µs of the caller's CPU per EVALSHA with 8
callers at once (122 µs with one), where writing the same commands on one connection and
reading the replies in order cost 19 µs (74 µs with one): `make bench` prints both, its
section "The store's script call". A move is one EVALSHA, so the match store sends its
scripts here, and so does the lobby (its scripts, and its batches of writes for seated
tickets); every other command stays with redis-py. A process has one (`Runtime.runner`).

How it works: Redis answers a connection's commands in the order they came, so each call
queues a future and the replies resolve them in turn (hiredis parses them). Commands
issued in one turn of the event loop go out in one write. A call waits at most `timeout`
seconds: then the connection is closed (its replies could no longer be told apart from
late ones) and the caller gets redis-py's TimeoutError. A lost connection fails what was
in flight with redis-py's ConnectionError; the next call connects again. So the callers
see the same errors as from redis-py, and the interceptor answers both UNAVAILABLE.

Only a plain TCP server is served this way (`redis://`, with its user, password and
database). A Redis Cluster, TLS or a Unix socket goes through redis-py as before:
`RedisRunner.of` picks.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, cast

import hiredis
from redis._parsers.base import BaseParser
from redis.asyncio import Redis
from redis.asyncio.connection import Connection
from redis.commands.core import AsyncScript
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from menagerie.shared.redis_client import CONNECT_TIMEOUT_SECONDS, is_cluster

Arg = bytes | str | int
CLIENT_NAME = "menagerie-scripts"
# A client made without a socket timeout (redis-py's default: none) still waits at most this.
DEFAULT_TIMEOUT_SECONDS = 10.0


def _command(args: Sequence[Arg]) -> bytes:
    """One command in Redis's wire format (RESP: an array of bulk strings)."""
    parts = [b"*%d\r\n" % len(args)]
    for arg in args:
        raw = arg if isinstance(arg, bytes) else str(arg).encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(raw), raw))
    return b"".join(parts)


def _error(reply: ResponseError) -> Exception:
    """The error reply as redis-py raises it, by redis-py's own table of error codes.

    NOSCRIPT becomes NoScriptError (which the runner answers by loading the script) and
    LOADING, a Redis still reading its files after a restart, BusyLoadingError: a
    ConnectionError, so the call is retried and then answered UNAVAILABLE, never INTERNAL.
    """
    error: Exception = BaseParser.parse_error(str(reply))  # type: ignore[no-untyped-call]  # redis-py leaves it untyped
    return error


class _Pipe(asyncio.Protocol):
    """One connection: commands written in order, replies matched to them in order.

    One timer watches the oldest command still waiting (not one per command): once it has
    waited `timeout` seconds, every waiting command fails with TimeoutError and the
    connection is closed, since a late reply would answer the wrong caller.
    """

    def __init__(self, timeout: float) -> None:
        self._timeout = timeout
        self._reader = hiredis.Reader(replyError=ResponseError)
        self._waiting: deque[tuple[float, asyncio.Future[Any]]] = deque()  # (sent at, its reply)
        self._outgoing: list[bytes] = []
        self._transport: asyncio.Transport | None = None
        self._watchdog: asyncio.TimerHandle | None = None
        self.lost: Exception | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast("asyncio.Transport", transport)

    def data_received(self, data: bytes) -> None:
        self._reader.feed(data)
        while (reply := self._reader.gets()) is not False:
            if not self._waiting:  # a reply nobody asked for: the stream can no longer be trusted
                self.close()
                return
            _, future = self._waiting.popleft()
            if not future.done():  # its caller may have given up (cancelled)
                future.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(RedisConnectionError(f"lost the connection to Redis: {exc or 'closed'}"))

    def _fail(self, error: Exception) -> None:
        """Fails every waiting command with `error` (the first failure is what later calls are told)."""
        if self.lost is None:
            self.lost = error
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        while self._waiting:
            _, future = self._waiting.popleft()
            if not future.done():
                future.set_exception(error)

    def send(self, args: Sequence[Arg]) -> asyncio.Future[Any]:
        """Queues one command (written at the end of this turn of the loop); its reply's future."""
        if self.lost is not None or self._transport is None:
            raise self.lost or RedisConnectionError("not connected to Redis")
        loop = asyncio.get_running_loop()
        if not self._outgoing:
            loop.call_soon(self._flush)
        self._outgoing.append(_command(args))
        future = loop.create_future()
        self._waiting.append((loop.time(), future))
        if self._watchdog is None:
            self._watchdog = loop.call_later(self._timeout, self._watch)
        return future

    def _watch(self) -> None:
        """Fails what waited too long; else looks again when the oldest waiting command would have."""
        self._watchdog = None
        if not self._waiting:
            return
        loop = asyncio.get_running_loop()
        due = self._waiting[0][0] + self._timeout
        if loop.time() >= due:
            self._fail(RedisTimeoutError(f"Redis did not answer within {self._timeout:g} s"))
            self.close()
        else:
            self._watchdog = loop.call_at(due, self._watch)

    def _flush(self) -> None:
        if self._transport is not None and self.lost is None:
            self._transport.write(b"".join(self._outgoing))
        self._outgoing.clear()

    def close(self) -> None:
        """Closes the connection; what was in flight fails with ConnectionError."""
        if self._transport is not None:
            self._transport.abort()


class PipelinedConnection:
    """Commands to one Redis server over one pipelined connection, opened (again) when needed."""

    def __init__(
        self,
        host: str,
        port: int,
        *,
        db: int = 0,
        username: str | None = None,
        password: str | None = None,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        connect_timeout: float = CONNECT_TIMEOUT_SECONDS,
    ) -> None:
        self._address = (host, port)
        self._setup: list[list[Arg]] = []
        if password:
            self._setup.append(["AUTH", username, password] if username else ["AUTH", password])
        self._setup.append(["CLIENT", "SETNAME", CLIENT_NAME])  # so that CLIENT LIST tells it apart
        if db:
            self._setup.append(["SELECT", db])
        self._timeout = timeout
        self._connect_timeout = connect_timeout
        self._pipe: _Pipe | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._connecting: asyncio.Lock | None = None

    async def call(self, *args: Arg) -> Any:
        """Runs one command; its reply, or redis-py's error for it (ConnectionError, TimeoutError, ResponseError)."""
        pipe = self._ready() or await self._connect()
        reply = await pipe.send(args)
        if isinstance(reply, ResponseError):
            raise _error(reply)
        return reply

    async def call_many(self, commands: Sequence[Sequence[Arg]]) -> list[Any]:
        """Runs several commands, written together; their replies in order (the first error reply raised)."""
        pipe = self._ready() or await self._connect()
        futures = [pipe.send(command) for command in commands]
        replies: list[Any] = []
        try:
            for future in futures:  # replies come in order: after the first, the rest are mostly in
                replies.append(await future)
        except BaseException:
            for future in futures[len(replies) :]:
                if future.done():
                    future.exception()  # retrieved: asyncio would otherwise warn of a lost error
                else:
                    future.cancel()
            raise
        for reply in replies:
            if isinstance(reply, ResponseError):
                raise _error(reply)
        return replies

    def _ready(self) -> _Pipe | None:
        """The open connection of the running loop, if there is one."""
        pipe = self._pipe
        if pipe is not None and pipe.lost is None and self._loop is asyncio.get_running_loop():
            return pipe
        return None

    async def _connect(self) -> _Pipe:
        loop = asyncio.get_running_loop()
        if self._loop is not loop:  # a connection (and its lock) serve the loop they were made on
            self._drop()
            self._loop, self._connecting = loop, asyncio.Lock()
        assert self._connecting is not None
        async with self._connecting:
            if ready := self._ready():  # another caller connected while this one waited
                return ready
            self._drop()
            try:
                async with asyncio.timeout(self._connect_timeout):
                    _, pipe = await loop.create_connection(lambda: _Pipe(self._timeout), *self._address)
            except (OSError, TimeoutError) as exc:
                host, port = self._address
                raise RedisConnectionError(f"cannot connect to Redis at {host}:{port}: {exc}") from exc
            for command in self._setup:
                reply = await pipe.send(command)
                if isinstance(reply, ResponseError):
                    pipe.close()
                    raise _error(reply)
            self._pipe = pipe
            return pipe

    def _drop(self) -> None:
        if self._pipe is not None:
            with contextlib.suppress(RuntimeError):  # its event loop is closed already
                self._pipe.close()
            self._pipe = None

    def close(self) -> None:
        """Closes the connection (a later call opens a new one)."""
        self._drop()

    @classmethod
    def for_client(cls, client: Redis) -> PipelinedConnection | None:
        """A connection to the server `client` talks to, if it is one plain TCP server (else None)."""
        if is_cluster(client):
            return None
        pool = client.connection_pool
        if pool.connection_class is not Connection:  # TLS, a Unix socket: redis-py's own
            return None
        options = pool.connection_kwargs
        return cls(
            options.get("host", "localhost"),
            int(options.get("port", 6379)),
            db=int(options.get("db", 0) or 0),
            username=options.get("username"),
            password=options.get("password"),
            # The same bounds as the client's own connections.
            timeout=options.get("socket_timeout") or DEFAULT_TIMEOUT_SECONDS,
            connect_timeout=options.get("socket_connect_timeout") or CONNECT_TIMEOUT_SECONDS,
        )


class RedisRunner:
    """Runs the request path's scripts and batches of commands: pipelined where it can, else through redis-py.

    A script is sent as EVALSHA; a server that does not know it (restarted, SCRIPT FLUSH)
    is sent it once with SCRIPT LOAD over the same connection, however many calls found it
    missing at once (a pool of one-off loads would run out of connections). A connection
    lost before the reply is tried once more on a fresh one, as the process's redis-py
    client does (redis_client.connect_redis: one retry for ConnectionError); a TimeoutError
    is not retried, since the command may have run.
    A runner made without a connection (`RedisRunner(client)`) is redis-py's path alone.
    """

    def __init__(self, client: Redis, connection: PipelinedConnection | None = None) -> None:
        self._client = client
        self._connection = connection
        self._loading: dict[str, asyncio.Future[Any]] = {}  # sha → its SCRIPT LOAD in flight

    @classmethod
    def of(cls, client: Redis) -> RedisRunner:
        """The runner for `client`'s server (pipelined when it is one plain TCP server)."""
        return cls(client, PipelinedConnection.for_client(client))

    @property
    def pipelined(self) -> bool:
        """True when commands go over the pipelined connection."""
        return self._connection is not None

    async def script(self, script: AsyncScript, keys: Sequence[str], args: Sequence[Arg]) -> Any:
        """The script's reply for `keys` and `args`."""
        if self._connection is None:
            return await script(keys=list(keys), args=list(args))
        command = ("EVALSHA", script.sha, len(keys), *keys, *args)
        try:
            return await self._retried(lambda connection: connection.call(*command))
        except NoScriptError:
            await self._load(script)
            return await self._retried(lambda connection: connection.call(*command))

    async def _load(self, script: AsyncScript) -> None:
        """Sends SCRIPT LOAD once for every caller that is waiting on it."""
        loading = self._loading.get(script.sha)
        if loading is None:
            loading = asyncio.ensure_future(
                self._retried(lambda connection: connection.call("SCRIPT", "LOAD", cast("str | bytes", script.script)))
            )
            self._loading[script.sha] = loading
            loading.add_done_callback(lambda _: self._loading.pop(script.sha, None))
        # One caller cancelled must not cancel the load the others wait on.
        await asyncio.shield(loading)

    async def batch(self, commands: Sequence[Sequence[Arg]]) -> None:
        """Several commands sent together, as a redis-py pipeline without MULTI; an error reply raises.

        Their replies are not returned: the two paths would give them in different shapes
        (redis-py turns some into Python values).
        """
        if not commands:
            return
        if self._connection is None:
            async with self._client.pipeline(transaction=False) as pipe:
                for command in commands:
                    pipe.execute_command(*command)
                await pipe.execute()
            return
        await self._retried(lambda connection: connection.call_many(commands))

    async def _retried(self, call: Callable[[PipelinedConnection], Awaitable[Any]]) -> Any:
        assert self._connection is not None
        try:
            return await call(self._connection)
        except RedisConnectionError:
            return await call(self._connection)

    def close(self) -> None:
        """Closes the pipelined connection, if any."""
        if self._connection is not None:
            self._connection.close()
