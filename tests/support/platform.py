"""The whole platform started the way `make run` starts it (deploy/local/run.py)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from deploy.games import load
from tests.support.services import stop_group, wait_for_line

ROOT = Path(__file__).resolve().parents[2]
READY = "The platform is up"


def free_port_block(size: int) -> int:
    """A base port such that base..base+size-1 are all free on loopback right now."""
    for _ in range(200):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            base = int(probe.getsockname()[1])
        if base + size >= 65535:
            continue
        sockets = []
        try:
            for port in range(base, base + size):
                s = socket.socket()
                sockets.append(s)
                s.bind(("127.0.0.1", port))
            return base
        except OSError:
            continue
        finally:
            for s in sockets:
                s.close()
    raise RuntimeError("no block of free ports")


@dataclass
class RunningPlatform:
    """A running `make run`: its process, its ports and what it printed."""

    process: subprocess.Popen[bytes]
    base_port: int
    log: Path
    env: dict[str, str]

    def address(self, offset: int) -> str:
        return f"127.0.0.1:{self.base_port + offset}"

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def group(self) -> list[int]:
        """Live processes of the runner's process group (the runner and all it started), zombies excluded."""
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if fields[0] != "Z" and int(fields[2]) == self.process.pid:
                    found.append(int(entry.name))
        return found

    def ctrl_c(self) -> int:
        """SIGINT to the whole group, as Ctrl-C in a terminal; returns the runner's exit code."""
        os.killpg(self.process.pid, signal.SIGINT)
        return self.process.wait(60)


@contextmanager
def local_platform(secret: str, timeout: float = 60.0, **extra_env: str) -> Iterator[RunningPlatform]:
    """Starts deploy/local/run.py on free ports; Ctrl-C (SIGINT) at the end."""
    base = free_port_block(max(row.offset for row in load()) + 1)  # the lobby at base, each game at its offset
    log = Path(tempfile.mkstemp(prefix="platform-", suffix=".log")[1])
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env.update(MENAGERIE_TOKEN_SECRET=secret, MENAGERIE_LOG_LEVEL="warning", **extra_env)
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [sys.executable, str(ROOT / "deploy" / "local" / "run.py"), "--base-port", str(base)],
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            start_new_session=True,  # its own process group, as a terminal gives it
        )
    platform = RunningPlatform(process, base, log, env)
    try:
        wait_for_line(process, log, READY, timeout)
        yield platform
    finally:
        stop_group(process, signal.SIGINT, 60)
