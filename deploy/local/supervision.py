"""make run's supervision of its processes: a process that exits is started again with backoff, and
stops go SIGTERM first, SIGKILL after a grace; the readiness waits the start uses."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field

import grpc

from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from menagerie.shared.rpc.channels import open_channel

# Restart backoff: the first restart waits BACKOFF_FIRST, each next one twice as long up
# to BACKOFF_MAX; a process that ran STABLE_AFTER seconds before exiting starts over.
BACKOFF_FIRST = 0.5
BACKOFF_MAX = 10.0
STABLE_AFTER = 30.0
# A process that exits before it is ready is started again, this many starts in all, before make run gives up.
START_ATTEMPTS = 3


def exit_status(code: int) -> str:
    """'code 1', or 'code -9 (SIGKILL)' for a process a signal ended."""
    if code >= 0:
        return f"code {code}"
    try:
        return f"code {code} ({signal.Signals(-code).name})"
    except ValueError:
        return f"code {code}"


@dataclass
class Child:
    """A supervised process: how to start it, the running one, and its restart backoff."""

    name: str
    launch: Callable[[], subprocess.Popen[bytes]]
    process: subprocess.Popen[bytes]
    started: float = field(default_factory=time.monotonic)
    delay: float = BACKOFF_FIRST
    restart_at: float | None = None  # set while it waits to be started again

    def wait_ready(self, ready: Callable[[subprocess.Popen[bytes]], None]) -> None:
        """Blocks until `ready(process)` returns; one that exits while starting is started again (START_ATTEMPTS)."""
        for attempt in range(1, START_ATTEMPTS + 1):
            try:
                ready(self.process)
                return
            except RuntimeError:
                code = self.process.poll()
                if code is None or attempt == START_ATTEMPTS:
                    raise
            print(
                f"{self.name} exited with {exit_status(code)} while starting;"
                f" starting it again (start {attempt + 1} of {START_ATTEMPTS})",
                file=sys.stderr,
                flush=True,
            )
            self.process = self.launch()
            self.started = time.monotonic()

    def check(self, now: float) -> None:
        """Notices an exit (one line, a restart scheduled), or starts it again once its backoff is over."""
        if self.restart_at is None:
            code = self.process.poll()
            if code is None:
                return
            if now - self.started >= STABLE_AFTER:
                self.delay = BACKOFF_FIRST
            self.restart_at = now + self.delay
            print(f"{self.name} exited with {exit_status(code)}; restarting it in {self.delay:g} s", file=sys.stderr)
            sys.stderr.flush()
            self.delay = min(self.delay * 2, BACKOFF_MAX)
        elif now >= self.restart_at:
            try:
                self.process = self.launch()
            except Exception as exc:  # e.g. Redis did not come back: try again after the next backoff
                self.restart_at = now + self.delay
                print(f"{self.name} did not start ({exc}); trying again in {self.delay:g} s", file=sys.stderr)
                sys.stderr.flush()
                self.delay = min(self.delay * 2, BACKOFF_MAX)
                return
            self.started = time.monotonic()
            self.restart_at = None


def terminate(children: list[Child], grace: float) -> None:
    """SIGTERM to each running child, then waits up to `grace` seconds before SIGKILL."""
    for child in children:
        if child.process.poll() is None:
            child.process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + grace
    for child in children:
        try:
            child.process.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.process.kill()
            child.process.wait()


def wait_until_http(url: str, process: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    """Blocks until GET `url` answers 200 (or the process exits)."""
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"{url} exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=1) as reply:
                if reply.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"{url} did not answer within {timeout:.0f} s")
        time.sleep(0.1)


def wait_until_listed(lobby: str, names: list[str], timeout: float = 30.0) -> None:
    """Blocks until the lobby's ListGames shows each game in `names` available."""
    deadline = time.monotonic() + timeout
    with open_channel(lobby) as channel:
        stub = lobby_pb2_grpc.LobbyStub(channel)
        while True:
            try:
                listing = stub.ListGames(lobby_pb2.ListGamesRequest(), timeout=2)
                if {g.game for g in listing.games if g.available} >= set(names):
                    return
            except grpc.RpcError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"the lobby did not list every game within {timeout:.0f} s")
            time.sleep(0.1)
