"""A Redis Cluster of three masters on loopback, from the local `redis-server` binary.

Each node runs in a throwaway directory with `cluster-enabled yes` and no persistence;
the slots are split in three even ranges (CLUSTER ADDSLOTSRANGE) and the nodes meet
(CLUSTER MEET), then the cluster is ready once every node reports `cluster_state:ok`.
The URL it gives is `redis+cluster://127.0.0.1:<port>` (docs/scaling.md), which every
Menagerie component turns into redis-py's cluster client.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import redis
from redis.crc import key_slot

from menagerie.shared.lifetime import spawn, stop_group
from tests.support.redis_server import free_ports

SLOTS = 16_384


def cluster_binary() -> str | None:
    """The local redis-server (or valkey-server) binary, or None when neither is installed."""
    return shutil.which("redis-server") or shutil.which("valkey-server")


@dataclass
class RunningCluster:
    """The nodes' ports, their processes, and the cluster URL."""

    ports: list[int]
    processes: list[subprocess.Popen[bytes]]

    @property
    def url(self) -> str:
        return f"redis+cluster://127.0.0.1:{self.ports[0]}"

    def node_url(self, index: int) -> str:
        """A plain URL of one node (for checks that look at one server)."""
        return f"redis://127.0.0.1:{self.ports[index]}/0"

    def port_of(self, key: str) -> int:
        """The port of the master that serves `key`'s slot (the slots stay where they were put)."""
        with redis.Redis(port=self.ports[0]) as client:
            ranges = cast("list[list[Any]]", _command(client, "CLUSTER", "SLOTS"))
        slot = key_slot(key.encode())
        return next(int(r[2][1]) for r in ranges if int(r[0]) <= slot <= int(r[1]))

    @contextmanager
    def node_client(self, key: str) -> Iterator[redis.Redis]:
        """A plain client of the master that serves `key` (closed at the end of the block)."""
        with redis.Redis(port=self.port_of(key)) as client:
            yield client


def _command(client: redis.Redis, *args: str | int) -> Any:
    return client.execute_command(*args)  # type: ignore[no-untyped-call]


def _wait_cluster_ok(ports: list[int], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    clients = [redis.Redis(port=port) for port in ports]
    try:
        while True:
            states = [_command(c, "CLUSTER", "INFO").decode() for c in clients]
            known = [len(_command(c, "CLUSTER", "NODES").decode().strip().splitlines()) for c in clients]
            if all("cluster_state:ok" in s for s in states) and all(n == len(ports) for n in known):
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"the cluster did not come up within {timeout:.0f} s: {states}")
            time.sleep(0.1)
    finally:
        for client in clients:
            client.close()


# A port chosen free may be taken before the node binds it (another test's connection got it
# as its local port): the node then exits at once, and is started again on other ports.
START_ATTEMPTS = 3


def _start_node(binary: str, root: Path, timeout: float, taken: list[int]) -> tuple[int, int, subprocess.Popen[bytes]]:
    """One cluster node answering PING: (its port, its bus port, its process)."""
    log = ""
    for attempt in range(START_ATTEMPTS):
        # The bus port by default is port + 10000, which may be taken (or past 65535): each its own.
        port, bus_port = [p for p in free_ports(2 + len(taken)) if p not in taken][:2]
        node = root / f"{port}-{attempt}"
        node.mkdir()
        argv = [
            binary,
            "--port", str(port),
            "--bind", "127.0.0.1",
            "--cluster-enabled", "yes",
            "--cluster-port", str(bus_port),
            "--cluster-config-file", str(node / "nodes.conf"),
            "--cluster-node-timeout", "5000",
            "--dir", str(node),
            "--save", "",
            "--appendonly", "no",
            "--logfile", str(node / "server.log"),
        ]  # fmt: skip
        process = spawn(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if _answers(port, process, timeout):
            return port, bus_port, process
        stop_group(process, signal.SIGKILL)
        log = (node / "server.log").read_text(errors="replace")[-2000:]
        if "Address already in use" not in log:
            raise RuntimeError(f"cluster node {port} did not start (exit {process.returncode}): {log}")
    raise RuntimeError(f"no cluster node started in {START_ATTEMPTS} attempts, ports taken each time: {log}")


def _answers(port: int, process: subprocess.Popen[bytes], timeout: float) -> bool:
    """Whether the node on `port` answers PING before it exits or `timeout` passes."""
    deadline = time.monotonic() + timeout
    # Short socket timeouts: whatever else holds the port may accept and never answer.
    with redis.Redis(port=port, socket_timeout=1, socket_connect_timeout=1) as client:
        while process.poll() is None and time.monotonic() < deadline:
            try:
                client.ping()
                return process.poll() is None  # the answer was this node's, not another server's
            except redis.RedisError:
                time.sleep(0.05)
    return False


@contextmanager
def redis_cluster(masters: int = 3, timeout: float = 20.0) -> Iterator[RunningCluster]:
    """Starts `masters` cluster nodes, splits the slots between them and joins them; stops them at the end."""
    binary = cluster_binary()
    if binary is None:
        raise RuntimeError("no redis-server or valkey-server binary")
    root = Path(tempfile.mkdtemp(prefix="menagerie-cluster-"))
    ports: list[int] = []
    bus_ports: list[int] = []
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for _ in range(masters):
            port, bus_port, process = _start_node(binary, root, timeout, taken=ports + bus_ports)
            ports.append(port)
            bus_ports.append(bus_port)
            processes.append(process)
        per_node = SLOTS // masters
        for index, port in enumerate(ports):
            first = index * per_node
            last = SLOTS - 1 if index == masters - 1 else first + per_node - 1
            with redis.Redis(port=port) as client:
                _command(client, "CLUSTER", "ADDSLOTSRANGE", first, last)
        with redis.Redis(port=ports[0]) as client:
            for port, bus_port in zip(ports[1:], bus_ports[1:], strict=True):
                _command(client, "CLUSTER", "MEET", "127.0.0.1", port, bus_port)
        _wait_cluster_ok(ports, timeout)
        yield RunningCluster(ports, processes)
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            stop_group(process, signal.SIGTERM, 10)
        shutil.rmtree(root, ignore_errors=True)
