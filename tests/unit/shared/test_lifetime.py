"""menagerie.shared.lifetime: children tied to their parent, groups stopped whole, orphans reaped (issue 34).

Real processes throughout: a small Python parent that starts children the way the project
does and prints their pids, then is killed; the tests look at /proc.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from menagerie.shared.lifetime import (
    OWNER_ENV,
    child_env,
    die_with_parent,
    owner_alive,
    owner_id,
    owner_of,
    processes,
    reap_orphans,
    spawn,
    stop_group,
    tied_script,
)

GONE_SECONDS = 5.0


def alive(pid: int) -> bool:
    """True while `pid` runs (a zombie does not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def wait_gone(pids: list[int], timeout: float = GONE_SECONDS) -> list[int]:
    """Waits until none of `pids` runs, at most `timeout` s; returns those still running."""
    deadline = time.monotonic() + timeout
    while (left := [pid for pid in pids if alive(pid)]) and time.monotonic() < deadline:
        time.sleep(0.02)
    return left


@contextmanager
def parent_of(code: str) -> Iterator[tuple[subprocess.Popen[bytes], list[int]]]:
    """A Python process running `code`, which prints the pids it started on one line; killed at the end."""
    program = f"import sys, time, subprocess\nfrom menagerie.shared.lifetime import *\n{code}\ntime.sleep(60)\n"
    process = subprocess.Popen([sys.executable, "-c", program], stdout=subprocess.PIPE)
    assert process.stdout is not None
    pids = [int(pid) for pid in process.stdout.readline().split()]
    try:
        yield process, pids
    finally:
        process.kill()
        process.wait()
        process.stdout.close()
        for pid in filter(alive, pids):  # what a failed test left
            os.kill(pid, signal.SIGKILL)


pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="parent-death signals are Linux's")


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_children_die_with_their_parent_however_it_dies(sig: signal.Signals) -> None:
    code = "a = spawn(['sleep', '60'])\nb = spawn(['sleep', '60'], own_group=False)\nprint(a.pid, b.pid, flush=True)"
    with parent_of(code) as (parent, children):
        assert all(alive(pid) for pid in children)
        parent.send_signal(sig)
        assert wait_gone(children) == []


def test_a_child_started_from_a_passing_thread_outlives_the_thread_not_the_process() -> None:
    # The parent-death signal fires when the thread that forked the child ends: spawn forks from a lasting thread.
    code = (
        "import threading\nstarted = []\n"
        # The thread lives on a moment, so that the child is tied (setpriv's prctl) before the thread ends.
        "worker = threading.Thread(target=lambda: (started.append(spawn(['sleep', '60'])), time.sleep(0.5)))\n"
        "worker.start(); worker.join(); time.sleep(0.5)\n"
        "print(started[0].pid if started[0].poll() is None else -1, flush=True)"
    )
    with parent_of(code) as (parent, children):
        assert children[0] > 0, "the child died with the thread that asked for it"
        parent.kill()
        assert wait_gone(children) == []


def test_a_tied_script_ties_what_another_program_starts(tmp_path: Path) -> None:
    # As Playwright's driver starts the browser: a plain start of the script, which ties the target to its starter.
    script = tmp_path / "sleeper"
    script.write_text(tied_script("sleep"))
    script.chmod(0o755)
    code = f"p = subprocess.Popen([{str(script)!r}, '60'])\ntime.sleep(0.5)\nprint(p.pid, flush=True)"
    with parent_of(code) as (parent, children):
        assert alive(children[0]) and "sleep 60" in Path(f"/proc/{children[0]}/cmdline").read_text().replace("\0", " ")
        parent.kill()
        assert wait_gone(children) == []


def test_a_child_whose_parent_died_before_it_was_tied_does_not_run() -> None:
    argv = die_with_parent([sys.executable, "-c", "print('ran')"])
    # As if the parent had died between fork and prctl: the child's parent is no longer the pid it was given.
    argv[argv.index("menagerie") + 1] = "1"
    done = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)
    assert (done.returncode, done.stdout) == (125, "")


def test_tie_to_parent_kills_a_process_whose_parent_is_already_gone() -> None:
    code = "from menagerie.shared.lifetime import tie_to_parent; tie_to_parent(1); print('survived')"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30, check=False)
    assert (done.returncode, done.stdout) == (-signal.SIGKILL, "")


def test_stop_group_stops_what_the_leader_forked() -> None:
    leader = spawn(["sh", "-c", "sleep 60 & sleep 60 & wait"])
    deadline = time.monotonic() + GONE_SECONDS
    while len(members := [pid for pid, group in processes() if group == leader.pid]) < 3:
        assert time.monotonic() < deadline, members
        time.sleep(0.02)
    assert stop_group(leader, signal.SIGTERM, 5) == -signal.SIGTERM
    assert wait_gone(members) == []


def test_children_carry_their_owner_and_reap_orphans_kills_only_those_of_a_dead_owner() -> None:
    # Started untied (no death signal, a session of its own): only the owner mark can find it once its parent died.
    code = "p = subprocess.Popen(['sleep', '60'], env=child_env(), start_new_session=True)\nprint(p.pid, flush=True)"
    ours = subprocess.Popen(["sleep", "60"], env=child_env(), start_new_session=True)
    try:
        with parent_of(code) as (parent, (orphan,)):
            assert owner_of(orphan) == owner_id(parent.pid) and owner_alive(owner_id(parent.pid))
            parent.kill()
            parent.wait()
            assert not owner_alive(owner_id(parent.pid) or "")
            time.sleep(0.2)
            assert alive(orphan), "the untied child died by itself: the test proves nothing"
            assert orphan in reap_orphans()
            assert wait_gone([orphan]) == []
        assert owner_of(ours.pid) == owner_id() and alive(ours.pid), "a child of a live owner was reaped"
        assert os.environ.get(OWNER_ENV) == owner_id()  # set by the plugin (tests/support/fixtures.py)
    finally:
        ours.kill()
        ours.wait()
