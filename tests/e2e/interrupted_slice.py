"""A slice of the suite that brings the heavy fixtures up and holds them, for test_interrupted_runs to kill.

Not collected by the suite (its name is not test_*.py): tests/e2e/test_interrupted_runs.py runs
it by path, in a pytest of its own with two test workers, and kills that run once each test
below has written that its fixtures are up, into the folder MENAGERIE_SLICE_READY names. One
worker holds the session's Redis, every game service, the lobby, the dispatcher and a Celery
bot worker with its pool; the other the minimatch platform (its Redis, its worker), the
gateway in front of it and, with MENAGERIE_SLICE_BROWSER=1, Chromium on the gateway's page.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.support.fixtures import GameServices
from tests.support.services import ServiceProcess

if TYPE_CHECKING:  # imported at run time by pytest_plugins below, which must come first
    from tests.e2e.web.fixtures import RunningGateway
    from tests.support.minimatch import RunningMinimatch

# The fixtures of the one-process platform and of the web client.
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]

READY_ENV = "MENAGERIE_SLICE_READY"
BROWSER_ENV = "MENAGERIE_SLICE_BROWSER"
# How long a test holds its fixtures up: longer than the killer waits, yet it ends by itself.
HOLD_SECONDS = 240.0


def hold(name: str) -> None:
    """Says that this test's fixtures are up, then waits to be killed (at most HOLD_SECONDS)."""
    (Path(os.environ[READY_ENV]) / name).write_text(str(os.getpid()))
    deadline = time.monotonic() + HOLD_SECONDS
    while time.monotonic() < deadline:
        time.sleep(0.2)
    pytest.fail(f"not killed within {HOLD_SECONDS:.0f} s")


# `long`: a group of its own (tests/support/fixtures.py), so that each test has a worker to itself.
@pytest.mark.long
def test_the_platform_processes_are_up(
    game_services: GameServices, lobby_service: ServiceProcess, dispatcher: ServiceProcess, bot_worker: ServiceProcess
) -> None:
    assert all(service.process.poll() is None for service in (lobby_service, dispatcher, bot_worker))
    hold("platform")


@pytest.mark.long
def test_minimatch_the_gateway_and_the_browser_are_up(
    request: pytest.FixtureRequest, minimatch: RunningMinimatch, gateway: RunningGateway
) -> None:
    assert minimatch.process.poll() is None and gateway.process.poll() is None
    if os.environ.get(BROWSER_ENV) == "1":
        request.getfixturevalue("page").goto("/")
    hold("web")
