"""Child processes that never outlive the process that started them (issue 34).

Three layers, since each alone leaves a gap:

- The parent-death signal (Linux: PR_SET_PDEATHSIG, set by `setpriv` in the child before it
  execs the program): the kernel signals the child the moment its parent dies, however it
  died, SIGKILL included. It reaches that one child only, so every level sets it for its own children
  (the services of `make run`, minimatch's worker, the Celery pool's processes, Redis…).
  It fires when the *thread* that forked the child ends, so spawn() forks from the main
  thread or from one thread that lives as long as the process. A child whose parent died
  before the signal was set has been re-parented already and would never get it: the
  trampoline of die_with_parent() compares `$PPID` with the parent's pid after setting it,
  and exits on a mismatch.
- Process groups: spawn() starts a child at the head of a group (a session) of its own, so
  stopping it stops what it forked too (stop_group), and what is still running at
  interpreter exit is killed whole (atexit).
- An owner mark: every child of spawn() carries MENAGERIE_OWNER, the pid and start time of
  the process that started it, in its environment (its descendants inherit it), so
  reap_orphans() finds whatever an owner that has died left behind, even a process that
  was re-parented or moved to a group of its own (the tests' session guard runs it).
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import queue
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import IO, Any

OWNER_ENV = "MENAGERIE_OWNER"
PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
# The child's check, run once `setpriv` has set the signal: still the parent's child, or exit.
# `$PPID` is read by the shell as it starts, after the prctl: a parent that died before it shows as another pid.
_CHECK_PARENT = 'test "$PPID" = "$1" || exit 125; shift; exec "$@"'
_POLL = 0.02

File = int | IO[Any] | None


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (state first), or None when it is gone."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _start_time(pid: int) -> str | None:
    """When `pid` started (clock ticks since boot): with the pid, names one process for good; None if gone or dead."""
    fields = _stat(pid)
    if fields is None or fields[0] in ("Z", "X"):
        return None
    return fields[19]  # field 22 of stat(5); the first two (pid, comm) are cut off


def owner_id(pid: int | None = None) -> str:
    """`pid:start-time` of `pid` (default: this process), the value of MENAGERIE_OWNER in its children."""
    pid = os.getpid() if pid is None else pid
    return f"{pid}:{_start_time(pid) or 0}"


def owner_alive(owner: str) -> bool:
    """True while the process that `owner` (an owner_id) names is running; a zombie counts as dead."""
    pid, _, started = owner.partition(":")
    return pid.isdigit() and _start_time(int(pid)) == started


def die_with_parent(argv: Sequence[str], sig: signal.Signals = signal.SIGKILL) -> list[str]:
    """`argv` run through `setpriv --pdeathsig`: the child gets `sig` when this process dies (Linux; else `argv`)."""
    # Not a preexec_fn calling prctl: a preexec_fn makes subprocess fork() rather than vfork(),
    # which runs gRPC's fork handlers in the child, and from grpcio 1.80 those abort it now and
    # then (epoll_wait EBADF once close_fds has closed gRPC's epoll fd; grpc#43055) in any
    # process that has used a channel. setpriv and sh exec in place: the child keeps its pid.
    setpriv = shutil.which("setpriv") if sys.platform.startswith("linux") else None
    if setpriv is None:
        return list(argv)
    name = sig.name.removeprefix("SIG")
    return [setpriv, "--pdeathsig", name, "--", "/bin/sh", "-c", _CHECK_PARENT, "menagerie", str(os.getpid()), *argv]


def tied_script(target: str, sig: signal.Signals = signal.SIGKILL) -> str:
    """A /bin/sh script that runs `target` with its arguments, tied to whichever process starts the script.

    For a program that another program starts (Playwright's driver starts the browser): the
    script goes where that program expects the executable.
    """
    setpriv = shutil.which("setpriv") if sys.platform.startswith("linux") else None
    if setpriv is None:
        return f'#!/bin/sh\nexec {shlex.quote(target)} "$@"\n'
    tie = f"{setpriv} --pdeathsig {sig.name.removeprefix('SIG')} -- /bin/sh -c {shlex.quote(_CHECK_PARENT)}"
    # "$PPID" here is the starting process's pid: the check after the tie compares the child's parent with it.
    return f'#!/bin/sh\nexec {tie} menagerie "$PPID" {shlex.quote(target)} "$@"\n'


def tie_to_parent(parent: int, sig: signal.Signals = signal.SIGKILL) -> bool:
    """Has the kernel send `sig` to this process when `parent` dies (Linux); if it already has, sends it now."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) != 0:
        return False
    if os.getppid() != parent:  # re-parented before the prctl: the signal will never come
        os.kill(os.getpid(), sig)
    return True


def child_env(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """`env` (default: this process's) with MENAGERIE_OWNER naming this process."""
    return {**(os.environ if env is None else env), OWNER_ENV: owner_id()}


Job = tuple[Callable[[], subprocess.Popen[bytes]], Future[subprocess.Popen[bytes]]]

# The groups this process started and has not stopped yet: killed at interpreter exit.
_groups: dict[int, subprocess.Popen[bytes]] = {}
_groups_lock = threading.Lock()
_spawner: queue.SimpleQueue[Job] | None = None


def _forget_after_fork() -> None:
    # A forked child (the Celery pool's) started none of these, has no spawner thread, and
    # may have been forked while another thread held the lock.
    global _spawner, _groups_lock
    _groups.clear()
    _spawner = None
    _groups_lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_after_fork)


def _spawn_thread_main(jobs: queue.SimpleQueue[Job]) -> None:
    while True:
        make, done = jobs.get()
        try:
            done.set_result(make())
        except BaseException as exc:
            done.set_exception(exc)


def _from_a_lasting_thread(make: Callable[[], subprocess.Popen[bytes]]) -> subprocess.Popen[bytes]:
    """Runs `make` in the main thread or in one that lasts as long as the process (the death signal's rule)."""
    global _spawner
    if threading.current_thread() is threading.main_thread():
        return make()
    with _groups_lock:
        if _spawner is None:
            _spawner = queue.SimpleQueue()
            threading.Thread(target=_spawn_thread_main, args=(_spawner,), name="menagerie-spawner", daemon=True).start()
        jobs = _spawner
    done: Future[subprocess.Popen[bytes]] = Future()
    jobs.put((make, done))
    return done.result()


def spawn(
    argv: Sequence[str],
    *,
    sig: signal.Signals = signal.SIGKILL,
    own_group: bool = True,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    stdin: File = None,
    stdout: File = None,
    stderr: File = None,
    pass_fds: Sequence[int] = (),
) -> subprocess.Popen[bytes]:
    """Starts `argv` tied to this process: `sig` when it dies, the owner mark, and (own_group) a group of its own."""

    def make() -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            die_with_parent(argv, sig),
            env=child_env(env),
            cwd=cwd,
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            pass_fds=pass_fds,
            start_new_session=own_group,
        )

    process = _from_a_lasting_thread(make)
    if own_group:
        with _groups_lock:
            _groups[process.pid] = process
    return process


def _exited(process: subprocess.Popen[bytes]) -> bool:
    """True once `process` has exited; where waitid exists it is left unreaped, so its group id stays reserved."""
    if not hasattr(os, "waitid"):  # macOS: reaped, and kill_group goes by the owner mark
        return process.poll() is not None
    try:
        return os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:  # reaped already
        return True


def processes() -> list[tuple[int, int]]:
    """(pid, process group) of every live process of this machine, zombies left out."""
    found: list[tuple[int, int]] = []
    if not Path("/proc").is_dir():
        return found
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(int(entry.name))) is not None and fields[0] not in ("Z", "X"):
            found.append((int(entry.name), int(fields[2])))
    return found


def owner_of(pid: int) -> str | None:
    """The MENAGERIE_OWNER that `pid` started with, if any (None too when its environment cannot be read)."""
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return None
    prefix = f"{OWNER_ENV}=".encode()
    return next((item[len(prefix) :].decode() for item in environ if item.startswith(prefix)), None)


def kill_group(process: subprocess.Popen[bytes], sig: signal.Signals = signal.SIGKILL) -> None:
    """Sends `sig` to the group `process` leads (started by spawn), never to a group that reused its number."""
    if process.returncode is None:
        # Not reaped yet (a zombie at worst): the group id cannot have been reused.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, sig)
        return
    # Reaped: the number may name someone else's group by now, so only members that carry our mark.
    mine = owner_id()
    for pid, group in processes():
        if group == process.pid and owner_of(pid) == mine:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)


def stop_group(process: subprocess.Popen[bytes], sig: signal.Signals = signal.SIGTERM, timeout: float = 20.0) -> int:
    """`sig` to the process's group, SIGKILL to what is left of it after `timeout` s; returns the leader's exit code."""
    if process.returncode is None and not _exited(process):
        kill_group(process, sig)
        deadline = time.monotonic() + timeout
        while not _exited(process) and time.monotonic() < deadline:
            time.sleep(_POLL)
    kill_group(process)  # what the leader forked and left, or the leader itself if it would not stop
    code = process.wait()
    with _groups_lock:
        _groups.pop(process.pid, None)
    return code


@atexit.register
def kill_started_groups() -> None:
    """SIGKILL to every group this process started and has not stopped (run at interpreter exit)."""
    with _groups_lock:
        started = list(_groups.values())
        _groups.clear()
    reaped = set()
    for process in started:
        if process.returncode is None:
            kill_group(process)
        else:
            reaped.add(process.pid)
    if reaped:  # one look at /proc for them all (kill_group's way for a reaped leader)
        mine = owner_id()
        for pid, group in processes():
            if group in reaped and owner_of(pid) == mine:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


def reap_orphans() -> list[int]:
    """SIGKILL to every process whose MENAGERIE_OWNER names a process that has died; returns their pids."""
    killed = []
    alive: dict[str, bool] = {}
    me = os.getpid()
    for pid, _group in processes():
        owner = owner_of(pid) if pid != me else None
        if owner is None:
            continue
        if owner not in alive:
            alive[owner] = owner_alive(owner)
        if not alive[owner]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
    return killed
