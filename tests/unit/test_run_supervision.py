"""make run's supervision (deploy/local/supervision.py): a process that exits is started again, with backoff."""

from __future__ import annotations

import subprocess
import sys

import pytest

from deploy.local.supervision import BACKOFF_FIRST, BACKOFF_MAX, STABLE_AFTER, START_ATTEMPTS, Child, exit_status
from menagerie.shared.lifetime import die_with_parent


def exiting(code: int) -> subprocess.Popen[bytes]:
    """A real process that exits at once with `code`."""
    return subprocess.Popen([sys.executable, "-c", f"raise SystemExit({code})"])


def test_an_exited_process_is_started_again_after_a_doubling_capped_backoff(capsys: pytest.CaptureFixture[str]) -> None:
    launches: list[subprocess.Popen[bytes]] = []

    def launch() -> subprocess.Popen[bytes]:
        launches.append(exiting(3))
        return launches[-1]

    child = Child("bot-worker", launch, launch(), started=0.0)
    now, waits = 0.0, []
    for _ in range(7):
        child.process.wait(10)
        child.check(now)  # notices the exit
        assert child.restart_at is not None
        waits.append(child.restart_at - now)
        child.check(child.restart_at - 0.01)  # not yet
        assert child.restart_at is not None
        now = child.restart_at
        child.check(now)  # starts it again
        assert child.restart_at is None
    assert waits == [0.5, 1, 2, 4, 8, 10, 10] and waits[0] == BACKOFF_FIRST and waits[-1] == BACKOFF_MAX
    assert len(launches) == 8
    for process in launches:
        process.wait(10)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "bot-worker exited with code 3; restarting it in 0.5 s"
    assert len(lines) == 7


def test_the_backoff_starts_over_once_the_process_has_run_a_while() -> None:
    child = Child("beasts", lambda: exiting(0), exiting(0), started=0.0, delay=BACKOFF_MAX)
    child.process.wait(10)
    child.check(STABLE_AFTER + 1)  # exit status 0 counts too: make run never asked it to stop
    assert child.restart_at == STABLE_AFTER + 1 + BACKOFF_FIRST


def test_a_launch_that_fails_is_tried_again_later(capsys: pytest.CaptureFixture[str]) -> None:
    def launch() -> subprocess.Popen[bytes]:
        raise RuntimeError("the embedded Valkey server did not start")

    child = Child("redis", launch, exiting(1), started=0.0)
    child.process.wait(10)
    child.check(1.0)
    child.check(1.5)
    assert child.restart_at == 2.5
    err = capsys.readouterr().err
    assert "redis did not start (the embedded Valkey server did not start); trying again in 1 s" in err


def ready_unless_exited(process: subprocess.Popen[bytes]) -> None:
    """A readiness wait as run.py's: RuntimeError when the process exits first."""
    try:
        process.wait(5)
    except subprocess.TimeoutExpired:
        return  # still running: ready
    raise RuntimeError(f"exited with {process.returncode}")


def test_a_process_that_dies_while_starting_is_started_again(capsys: pytest.CaptureFixture[str]) -> None:
    launches: list[subprocess.Popen[bytes]] = []

    def launch() -> subprocess.Popen[bytes]:
        # The first start aborts (as the gateway did, SIGABRT); the second stays up.
        argv = ["-c", "import os; os.abort()"] if not launches else ["-c", "import time; time.sleep(60)"]
        launches.append(subprocess.Popen(die_with_parent([sys.executable, *argv])))  # gone with this process
        return launches[-1]

    child = Child("gateway", launch, launch())
    try:
        child.wait_ready(ready_unless_exited)
        assert len(launches) == 2 and child.process is launches[1] and child.process.poll() is None
    finally:
        for process in launches:
            process.kill()
            process.wait()
    err = capsys.readouterr().err
    restart = f"gateway exited with code -6 (SIGABRT) while starting; starting it again (start 2 of {START_ATTEMPTS})"
    assert restart in err


def test_make_run_gives_up_on_a_process_that_never_starts(capsys: pytest.CaptureFixture[str]) -> None:
    child = Child("lobby", lambda: exiting(2), exiting(2))
    with pytest.raises(RuntimeError, match="exited with 2"):
        child.wait_ready(ready_unless_exited)
    assert capsys.readouterr().err.count("lobby exited with code 2 while starting") == START_ATTEMPTS - 1


def test_exit_statuses_name_the_signal() -> None:
    assert exit_status(1) == "code 1"
    assert exit_status(-9) == "code -9 (SIGKILL)"
