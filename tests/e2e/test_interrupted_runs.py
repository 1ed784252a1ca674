"""Nothing outlives an interrupted run (issue 34): `make test`, `make run` and `make bench`, killed.

Each test starts a real run in a process group of its own, with a tag in its environment
that every process the run starts inherits, waits (generously) until the run's processes are
up, notes them and the ports they listen on, kills the run as a person or CI would, and then
asserts that within GONE_SECONDS no process of the run is left and none of its ports is
held. What a run started is known by the tag, and by its tree of processes while it was up:
so a process that was re-parented or moved to a session of its own is still found, and
nothing that the run did not start is ever touched (its leftovers, should a test fail, are
killed by the same tag).

- `make test`: a slice of the suite (tests/e2e/interrupted_slice.py) that starts the heavy
  fixtures on two test workers — Redis, every game service, the lobby, the dispatcher, a
  Celery worker and its pool; minimatch with its worker, the gateway and Chromium — run
  through make as `make test` runs its pytest, then SIGTERM to make; again, without make,
  with SIGKILL to the pytest process.
- `make run` (deploy/local/run.py on free ports, its own data directory), SIGKILL once it is
  up; its data directory's lock is free afterwards.
- `make bench` (its platform group: a game service, the dispatcher and a Celery worker with
  its pool, one game), SIGKILL to make while the bots play.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from menagerie.shared.embedded_redis import LOCK_FILE
from menagerie.shared.lifetime import spawn, stop_group
from tests.e2e import interrupted_slice
from tests.support.platform import local_platform

pytestmark = [pytest.mark.e2e, pytest.mark.faults]
# web_app (`make web` before the slice needs it) and the fixtures it stands on.
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]

ROOT = Path(__file__).resolve().parents[2]
SLICE = Path(interrupted_slice.__file__)
TAG = "MENAGERIE_KILL_TEST_TAG"
GONE_SECONDS = 5.0  # the bound: every process of the run gone, and its ports free, this soon after the kill
# The slice starts some twenty processes on two loaded cores (a full `make test` beside it).
UP_SECONDS = 240.0
# `make -o FILE`: the virtualenv counts as installed, so make never reinstalls it in the middle of a test.
MAKE = ["make", "--no-print-directory", "-o", ".venv/.installed"]


@dataclass(frozen=True)
class Proc:
    """A live process: its pid, start time (the two name it for good) and command line."""

    pid: int
    started: str
    cmdline: str


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError:
        return b""


def _proc(pid: int) -> Proc | None:
    """The process `pid` if it is alive (a zombie is not)."""
    stat = _read(f"/proc/{pid}/stat").decode(errors="replace")
    fields = stat.rsplit(")", 1)[-1].split()
    if len(fields) < 20 or fields[0] in ("Z", "X"):
        return None
    cmdline = _read(f"/proc/{pid}/cmdline").replace(b"\0", b" ").decode(errors="replace").strip()
    return Proc(pid, fields[19], cmdline)


def _parent(pid: int) -> int:
    fields = _read(f"/proc/{pid}/stat").decode(errors="replace").rsplit(")", 1)[-1].split()
    return int(fields[1]) if len(fields) > 1 else 0


def live_pids() -> list[int]:
    """Every pid in /proc."""
    return [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()]


def tagged(tag: str) -> dict[int, Proc]:
    """The live processes whose environment carries the run's tag (whatever their parent or session now)."""
    needle = f"{TAG}={tag}".encode()
    found = {}
    for pid in live_pids():
        if needle in _read(f"/proc/{pid}/environ").split(b"\0") and (proc := _proc(pid)) is not None:
            found[pid] = proc
    return found


def descendants(root: int) -> dict[int, Proc]:
    """`root` and every live process under it, by parent links."""
    children: dict[int, list[int]] = {}
    for pid in live_pids():
        children.setdefault(_parent(pid), []).append(pid)
    found, todo = {}, [root]
    while todo:
        pid = todo.pop()
        if (proc := _proc(pid)) is not None:
            found[pid] = proc
        todo.extend(children.get(pid, []))
    return found


def still_alive(seen: dict[int, Proc], tag: str) -> dict[int, Proc]:
    """Which of the run's processes are alive: those seen (the same start time) and any carrying the tag."""
    left = {pid: proc for pid, proc in seen.items() if (now := _proc(pid)) is not None and now.started == proc.started}
    return {**left, **tagged(tag)}


def _socket_inodes(pid: int) -> set[str]:
    inodes = set()
    with contextlib.suppress(OSError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                if (target := os.readlink(fd)).startswith("socket:["):
                    inodes.add(target[len("socket:[") : -1])
    return inodes


def listeners() -> dict[str, int]:
    """Every listening TCP socket of the machine: its inode -> its port."""
    found = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in _read(table).decode().splitlines()[1:]:
            fields = line.split()
            if len(fields) > 9 and fields[3] == "0A":  # TCP_LISTEN
                found[fields[9]] = int(fields[1].rsplit(":", 1)[1], 16)
    return found


def ports_of(pids: dict[int, Proc]) -> dict[int, str]:
    """The TCP ports the processes listen on -> the command line of one holder."""
    table = listeners()
    return {table[inode]: proc.cmdline for pid, proc in pids.items() for inode in _socket_inodes(pid) if inode in table}


def held_ports(ports: dict[int, str], ours: dict[int, Proc]) -> list[str]:
    """The ports among `ports` that something listens on, that a process of `ours` (alive) holds, or whose holder
    is unknown; a port taken meanwhile by a process the run did not start is free of the run."""
    table = listeners()
    listening = {inode: port for inode, port in table.items() if port in ports}
    if not listening:
        return []
    holders: dict[str, list[str]] = {}
    for pid in live_pids():
        for inode in _socket_inodes(pid) & listening.keys():
            holders.setdefault(inode, []).append(f"{pid} {(_proc(pid) or Proc(pid, '', '?')).cmdline[:80]}")
    held = []
    for inode, port in listening.items():
        owners = holders.get(inode, [])
        if not owners or any(int(owner.split()[0]) in ours for owner in owners):
            held.append(f"port {port} (was {ports[port][:80]!r}) held by {owners or 'an unknown process'}")
    return held


@dataclass
class Run:
    """A run under test: its first process and the tag its processes carry."""

    process: subprocess.Popen[bytes]
    tag: str
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def processes(self) -> dict[int, Proc]:
        """What the run has started so far: its tree and the tagged processes."""
        return {**descendants(self.process.pid), **tagged(self.tag)}


def missing(run: Run, patterns: dict[str, int]) -> list[str]:
    """For each pattern that fewer than `count` processes of the run match: how many did, and of what."""
    names = [proc.cmdline for proc in run.processes().values()]
    short = []
    for pattern, count in patterns.items():
        found = sum(re.search(pattern, name) is not None for name in names)
        if found < count:
            short.append(f"{found} processes of the run match {pattern!r}, expected {count}: {names}")
    return short


def expect_running(run: Run, patterns: dict[str, int]) -> None:
    """Asserts that, for each pattern, at least `count` processes of the run have a command line it matches."""
    assert not (short := missing(run, patterns)), short


def wait_until(what: str, condition: Callable[[], bool], run: Run, timeout: float = UP_SECONDS) -> None:
    """Polls `condition` until it holds; fails, with the run's output, after `timeout` s or if the run ends."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert run.process.poll() is None, f"the run ended ({run.process.returncode}) before {what}:\n{run.output()}"
        assert time.monotonic() < deadline, f"timed out waiting for {what}; the run's output:\n{run.output()[-5000:]}"
        time.sleep(0.2)


def kill_and_check(run: Run, sig: signal.Signals, what: str) -> float:
    """Kills the run's first process with `sig`; asserts its processes are all gone, and its ports free, within
    GONE_SECONDS; returns how long that took."""
    seen = run.processes()
    ports = ports_of(seen)
    assert len(seen) >= 5, f"{what}: too few processes to prove anything: {seen}"
    assert ports, f"{what}: the run listens on no port: {seen}"
    started = time.monotonic()
    run.process.send_signal(sig)
    while (left := still_alive(seen, run.tag)) and time.monotonic() - started < GONE_SECONDS:
        time.sleep(0.05)
    gone_after = time.monotonic() - started
    assert not left, f"{what}: still running {GONE_SECONDS:g} s after {sig.name}: " + "; ".join(
        f"{pid} {proc.cmdline[:100]}" for pid, proc in left.items()
    )
    # A killed multi-threaded process can be gone from its pid while its last threads still close its
    # files: for that moment its listening socket has no holder to be found (seen once in a fresh
    # clone, "held by an unknown process"). The ports, like the processes, have GONE_SECONDS.
    while (held := held_ports(ports, seen)) and time.monotonic() - started < GONE_SECONDS:
        time.sleep(0.05)
    assert not held, f"{what}: {GONE_SECONDS:g} s after {sig.name}: {held}"
    print(f"{what}: {len(seen)} processes and {len(ports)} ports gone {gone_after:.2f} s after {sig.name}")
    return gone_after


@contextlib.contextmanager
def started(argv: list[str], tmp_path: Path, **env: str) -> Iterator[Run]:
    """Starts `argv` from the repository with a fresh tag; kills whatever of it is left at the end."""
    tag = uuid.uuid4().hex
    log = tmp_path / "run.log"
    # Not this test worker's own pytest settings: the run is a session of its own.
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    with log.open("wb") as sink:
        process = spawn(argv, env={**environment, TAG: tag, **env}, cwd=ROOT, stdout=sink, stderr=subprocess.STDOUT)
    run = Run(process, tag, log)
    try:
        yield run
    finally:
        for pid in still_alive(run.processes(), tag):  # only what a failed test left
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        stop_group(process, signal.SIGKILL, 10)


def slice_argv() -> list[str]:
    """pytest over the slice, as `make test` runs the suite: two workers, the same scheduling."""
    return [str(Path(sys.executable).parent / "pytest"), "-n", "2", "--dist", "loadgroup", "-q", str(SLICE)]


@pytest.fixture
def slice_env(tmp_path: Path, web_app: Path) -> dict[str, str]:
    """The slice's settings: where it says it is up; the browser too where Chromium is (installed if need be)."""
    # Here, not above: the plugin (pytest_plugins) must be the first to import the module.
    from tests.e2e.web.fixtures import CHROMIUM, install_chromium, one_worker_at_a_time

    # web_app: built before the slice starts, so that the kill never lands in the middle of `make web`.
    with one_worker_at_a_time():
        problem = install_chromium()
    ready = tmp_path / "ready"
    ready.mkdir()
    browser = "1" if problem is None and CHROMIUM.exists() else "0"
    return {interrupted_slice.READY_ENV: str(ready), interrupted_slice.BROWSER_ENV: browser}


def slice_up(run: Run, env: dict[str, str]) -> None:
    """Waits until both tests of the slice say their fixtures are up; asserts that each kind of process runs."""
    ready = Path(env[interrupted_slice.READY_ENV])
    wait_until("the slice's fixtures", lambda: {p.name for p in ready.iterdir()} == {"platform", "web"}, run)
    expect_running(run, SLICE_PROCESSES | ({"chromium": 1} if env[interrupted_slice.BROWSER_ENV] == "1" else {}))


# What the slice runs once it is up (tests/e2e/interrupted_slice.py), by command line.
SLICE_PROCESSES = {
    re.escape("-c import sys;exec(eval(sys.stdin.readline()))"): 2,  # the two test workers (pytest-xdist)
    "redis-server|valkey-server": 2,  # the session's and minimatch's
    "menagerie.shared.games": 4,
    "menagerie.lobby": 1,
    "menagerie.bots.dispatcher": 1,
    "menagerie.bots.worker": 4,  # the session's worker and its two pool processes; minimatch's
    "deploy/local/minimatch.py": 1,
    "menagerie.gateway": 1,
}


# make test keeps the harsher case (its pytest killed, below); a polite SIGTERM to make runs in make test-extended.
@pytest.mark.extended
@pytest.mark.long
def test_make_test_stopped_with_sigterm_to_make_leaves_nothing(tmp_path: Path, slice_env: dict[str, str]) -> None:
    """SIGTERM to make (as CI's timeout, or a person): make ends its shell, and everything under it goes."""
    makefile = tmp_path / "slice.mk"
    # The Makefile's own shell and tie ($(TIED)), the slice in place of the suite.
    makefile.write_text(f"kill-slice:\n\t$(TIED) {' '.join(slice_argv())}\n")
    with started([*MAKE, "-f", "Makefile", "-f", str(makefile), "kill-slice"], tmp_path, **slice_env) as run:
        slice_up(run, slice_env)
        kill_and_check(run, signal.SIGTERM, "make test, SIGTERM to make")


@pytest.mark.long
def test_make_test_with_its_pytest_killed_leaves_nothing(tmp_path: Path, slice_env: dict[str, str]) -> None:
    """SIGKILL to the pytest process itself: its workers go, and with them everything each started."""
    with started(slice_argv(), tmp_path, **slice_env) as run:
        slice_up(run, slice_env)
        kill_and_check(run, signal.SIGKILL, "make test, SIGKILL to pytest")


@pytest.mark.long
def test_make_run_killed_leaves_nothing(tmp_path: Path) -> None:
    """SIGKILL to deploy/local/run.py once the platform is up: its services, workers, gateway and Redis go.

    Its data directory is free again too: the lock a second `make run` on the same data takes
    first (DataDirInUse) is not held by an orphan.
    """
    tag = uuid.uuid4().hex
    data = tmp_path / "data"
    args = ("--data-dir", str(data), "--keys-dir", str(tmp_path / "keys"))
    with local_platform(None, args=args, MENAGERIE_KILL_TEST_TAG=tag) as platform:  # TAG
        run = Run(platform.process, tag, platform.log)
        # The gateway, four games, the lobby, the dispatcher, two workers (the plain one on Celery's threads
        # pool, one process; the search one with a prefork pool of one, forked as its worker starts, which
        # may be just after the platform is up), Redis.
        every = {
            "menagerie.gateway": 1,
            "menagerie.shared.games": 4,
            "menagerie.lobby": 1,
            "menagerie.bots.worker": 3,
            "menagerie.bots.dispatcher": 1,
            "valkey-server": 1,
        }
        wait_until("every process of make run", lambda: not missing(run, every), run)
        expect_running(run, every)
        kill_and_check(run, signal.SIGKILL, "make run, SIGKILL")
    with (data / LOCK_FILE).open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _bench_up(run: Run) -> Callable[[], bool]:
    def up() -> bool:
        names = [p.cmdline for p in run.processes().values()]
        # The bench's bot worker takes the plain queues, so it runs Celery's threads pool: one process.
        workers = sum("menagerie.bots.worker" in name for name in names)
        return workers >= 1 and any("menagerie.bots.dispatcher" in name for name in names)

    return up


@pytest.mark.long
def test_make_bench_killed_leaves_nothing(tmp_path: Path) -> None:
    """SIGKILL to `make bench` (its platform group, one game) while its bots play."""
    args = "--only platform --game zoo --hops 1000000 --tickets 10"
    with started([*MAKE, "bench", f"ARGS={args}"], tmp_path) as run:
        wait_until("the bench's game service, dispatcher and bot worker", _bench_up(run), run)
        assert re.search(r"\[platform: Redis ", run.output()), run.output()
        kill_and_check(run, signal.SIGKILL, "make bench, SIGKILL to make")
