"""The whole platform in one process (deploy/local/minimatch.py), started once per test session.

A plugin: a test module that wants the `minimatch` fixture says
`pytest_plugins = ["tests.support.minimatch"]`. Two processes for the session — the
platform and its Celery worker — instead of seven per test. The platform runs in a
process of its own, not inside pytest: the CLI tests fork (pexpect), and a fork of a
process whose gRPC servers are busy can crash (see deploy/local/minimatch.py).

It gets a Redis of its own — a throwaway server, or another database of REDIS_URL's —
so that its dispatcher and bot worker never take turns meant for the integration
tests' processes, nor theirs.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from menagerie.shared.lifetime import spawn, stop_group
from tests.support.keys import KEYS, KeyDir
from tests.support.redis_server import throwaway_redis
from tests.support.services import wait_for_line

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "deploy" / "local" / "minimatch.py"
READY = "MINIMATCH_READY"  # deploy/local/minimatch.py's last line once everything runs
# A database of REDIS_URL's server that no other fixture uses.
OWN_DATABASE = 13


@dataclass
class RunningMinimatch:
    """The platform's process, its log and where its services listen."""

    process: subprocess.Popen[bytes]
    log: Path
    lobby: str = ""
    games: dict[str, str] = field(default_factory=dict)
    dispatcher: str = ""  # its gRPC health service

    def output(self) -> str:
        """Everything the platform has printed and logged so far."""
        return self.log.read_text(errors="replace")


def other_database(url: str, database: int = OWN_DATABASE) -> str:
    """`url` with its database number replaced."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{database}"))


@contextmanager
def minimatch_process(redis_url: str, keys: KeyDir, timeout: float = 60.0) -> Iterator[RunningMinimatch]:
    """Runs deploy/local/minimatch.py on `keys` against `redis_url` until the block ends (SIGTERM: it drains)."""
    log = Path(tempfile.mkstemp(prefix="minimatch-", suffix=".log")[1])
    env = {**os.environ, "REDIS_URL": redis_url, "MENAGERIE_LOG_LEVEL": "warning"}
    with log.open("wb") as sink:
        # A group of its own, stopped whole, and tied to this process (SIGKILL when it dies; its worker is tied to it).
        process = spawn(
            [sys.executable, str(SCRIPT), "--keys-dir", str(keys.directory)],
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )
    platform = RunningMinimatch(process, log)
    try:
        wait_for_line(process, log, READY, timeout)
        line = next(line for line in platform.output().splitlines() if line.startswith(READY))
        addresses = json.loads(line.removeprefix(READY))
        platform.lobby, platform.games, platform.dispatcher = (
            addresses["lobby"],
            addresses["games"],
            addresses["dispatcher"],
        )
        yield platform
    finally:
        stop_group(process, signal.SIGTERM, 60)


@pytest.fixture(scope="session")
def minimatch() -> Iterator[RunningMinimatch]:
    """Every installed game, the lobby, the dispatcher and a Celery worker, started once for the session."""
    with throwaway_redis() as (url, kind):
        if kind == "REDIS_URL":
            url = other_database(url)
        with minimatch_process(url, KEYS) as platform:
            yield platform
