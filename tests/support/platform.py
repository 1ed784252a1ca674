"""The whole platform started the way `make run` starts it (deploy/local/run.py)."""

from __future__ import annotations

import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from deploy.games import load
from menagerie.shared.lifetime import spawn, stop_group
from tests.support.keys import KeyDir
from tests.support.services import wait_for_line

ROOT = Path(__file__).resolve().parents[2]
READY = "The platform is up"


def _ephemeral_ports() -> tuple[int, int]:
    """The range the kernel draws outgoing connections' local ports from (Linux; a usual default elsewhere)."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999


def free_port_block(size: int) -> int:
    """A base port such that base..base+size-1 are all free on loopback right now.

    The block is drawn below the ephemeral range: a block inside it was free when probed
    but could be taken a moment later as the local port of some outgoing connection (a
    full run once lost its lobby port that way: "Address already in use").
    """
    low, _high = _ephemeral_ports()
    top = max(low, 20_000 + size) - size
    rng = random.Random()
    for _ in range(200):
        base = rng.randrange(10_000, top)
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


def port_block_size() -> int:
    """How many ports from the base `make run` takes: the lobby at base, each game at its offset."""
    return max(row.offset for row in load()) + 1


@dataclass(frozen=True)
class Proc:
    """One live process as /proc shows it."""

    pid: int
    ppid: int
    pgid: int
    cmdline: str


def processes() -> list[Proc]:
    """Every live process of this machine (zombies excluded)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if fields[0] != "Z":
                found.append(Proc(int(entry.name), int(fields[1]), int(fields[2]), cmdline))
    return found


def _environ(pid: int) -> list[str]:
    """The environment `pid` started with, one NAME=value per entry (empty once it is gone)."""
    try:
        return Path(f"/proc/{pid}/environ").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return []


def alive(pid: int) -> bool:
    """True while `pid` is a live process (not gone, not a zombie)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


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
        return [p.pid for p in processes() if p.pgid == self.process.pid]

    def child(self, needle: str, env: str = "") -> int:
        """The pid of the runner's direct child whose command line contains `needle` (and, if given, with `env` set).

        `env` ("NAME=value") tells apart children that run the same command (the bot worker
        and the search worker are both `menagerie.bots.worker`).
        """
        found = [
            p.pid
            for p in processes()
            if p.ppid == self.process.pid and needle in p.cmdline and (not env or env in _environ(p.pid))
        ]
        assert len(found) == 1, f"{len(found)} children of the runner match {needle!r} {env}"
        return found[0]

    def redis_pid(self) -> int:
        """The embedded server's pid: the runner's child in a session of its own."""
        found = [p.pid for p in processes() if p.ppid == self.process.pid and p.pgid != self.process.pid]
        assert len(found) == 1, f"expected one embedded server, found {found}"
        return found[0]

    def kill_tree(self, pid: int, timeout: float = 10.0) -> None:
        """SIGKILL of `pid` and every process it started, as a crash would end them."""
        tree, table = {pid}, processes()
        while grown := {p.pid for p in table if p.ppid in tree} - tree:
            tree |= grown
        for member in tree:
            with contextlib.suppress(ProcessLookupError):  # ended meanwhile
                os.kill(member, signal.SIGKILL)
        deadline = time.monotonic() + timeout
        while any(alive(member) for member in tree):
            assert time.monotonic() < deadline, f"still alive after SIGKILL: {[m for m in tree if alive(m)]}"
            time.sleep(0.05)

    def ctrl_c(self) -> int:
        """SIGINT to the whole group, as Ctrl-C in a terminal; returns the runner's exit code."""
        os.killpg(self.process.pid, signal.SIGINT)
        return self.process.wait(60)

    def crash(self, timeout: float = 10.0) -> list[int]:
        """SIGKILL to every process: the runner's group and the embedded server's session; returns the pids killed."""
        pids = [p.pid for p in processes() if p.pgid == self.process.pid or p.ppid == self.process.pid]
        redis = [p.pid for p in processes() if p.ppid == self.process.pid and p.pgid != self.process.pid]
        os.killpg(self.process.pid, signal.SIGKILL)
        for pid in redis:
            os.killpg(pid, signal.SIGKILL)  # its own session: a group of its own
        self.process.wait(timeout)
        deadline = time.monotonic() + timeout
        while any(alive(pid) for pid in pids):
            assert time.monotonic() < deadline, f"still alive after SIGKILL: {[p for p in pids if alive(p)]}"
            time.sleep(0.05)
        return pids


@contextmanager
def local_platform(
    keys: KeyDir | None,
    # Ten processes start (Redis, four games, the lobby, the dispatcher, two workers, the
    # gateway): on two loaded cores that took more than 60 s once (a full run on 4 workers).
    timeout: float = 150.0,
    *,
    args: Sequence[str] = ("--fresh",),
    base_port: int | None = None,
    redis_url: str | None = None,
    **extra_env: str,
) -> Iterator[RunningPlatform]:
    """Starts deploy/local/run.py on free ports (or from `base_port`); Ctrl-C (SIGINT) at the end.

    `redis_url` becomes REDIS_URL (a Redis Cluster's `redis+cluster://host:port` too);
    None: unset, so run.py starts its embedded server.
    `keys` (a folder of keys the test signs with, tests.support.keys) go to run.py's --keys-dir
    (None: run.py's own, new with --fresh, else kept where --keys-dir says);
    `args` go to run.py, by default `--fresh` so that a test never touches the repository's
    `.menagerie/` (pass `--data-dir` and `--keys-dir` to keep data and keys across runs).
    """
    base = base_port if base_port is not None else free_port_block(port_block_size())
    log = Path(tempfile.mkstemp(prefix="platform-", suffix=".log")[1])
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    if keys is not None:
        args = (*args, "--keys-dir", str(keys.directory))
    if redis_url is not None:
        env["REDIS_URL"] = redis_url
    # The gateway's HTTP port is not in the block: a free one, so a test never meets a `make run` on 8080.
    env["MENAGERIE_WEB_PORT"] = str(free_port_block(1))
    env.update({"MENAGERIE_LOG_LEVEL": "warning", **extra_env})
    with log.open("wb") as sink:
        # Its own process group, as a terminal gives it; and tied to this process, as make ties it (the Makefile).
        process = spawn(
            [sys.executable, str(ROOT / "deploy" / "local" / "run.py"), "--base-port", str(base), *args],
            env=env,
            stdout=sink,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
        )
    platform = RunningPlatform(process, base, log, env)
    try:
        wait_for_line(process, log, READY, timeout)
        yield platform
    finally:
        stop_group(process, signal.SIGINT, 60)


T = TypeVar("T")


def wait_for(what: str, probe: Callable[[], T | None], timeout: float = 60.0) -> T:
    """Polls `probe` until it returns something other than None; fails naming `what` after `timeout` s."""
    deadline = time.monotonic() + timeout
    while (value := probe()) is None:
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)
    return value


def quick_platform(
    keys: KeyDir | None, args: tuple[str, ...] = ("--fresh",), base_port: int | None = None
) -> AbstractContextManager[RunningPlatform]:
    """make run with short recovery times, so the tests that kill its processes stay short.

    Bot turns are sent again 2 s after their deadline (10 s by default), and a decision a
    killed worker was playing is marked in progress for 5 s (the soft time limit, 20 s by
    default; menagerie.bots.marks): after a crash its match waits that long for its bot.
    """
    return local_platform(
        keys,
        args=args,
        base_port=base_port,
        MENAGERIE_BOT_TURN_DEADLINE_SECONDS="2",
        MENAGERIE_REDISPATCH_SECONDS="2",
        MENAGERIE_TASK_SOFT_TIME_LIMIT_SECONDS="5",
        MENAGERIE_TASK_TIME_LIMIT_SECONDS="10",
    )
