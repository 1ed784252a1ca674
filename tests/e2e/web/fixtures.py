"""The web client in a real browser: the built app, the gateway before the platform, Debian's chromium.

A plugin: a test module says `pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]`.
The platform is the session's minimatch (every game, the lobby, the dispatcher and a real Celery
worker); the gateway is its own process in front of it, as `make run` starts it; the app is
built by `make web` (npm ci from the lockfile when needed, vite build when stale); the browser
is Debian's chromium driven by Playwright (the Python package: no browser download).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright._impl._driver import compute_driver_executable
from playwright.sync_api import Browser, Page, sync_playwright

from menagerie.shared.lifetime import die_with_parent, spawn, stop_group, tied_script
from tests.support.minimatch import RunningMinimatch
from tests.support.platform import free_port_block

ROOT = Path(__file__).resolve().parents[3]
CHROMIUM = Path("/usr/bin/chromium")
DIST = ROOT / "clients" / "web" / "dist"
# The test workers (pytest-xdist) each run the session fixtures: two `npm ci` in one node_modules,
# or two apt-get at once, break each other (CI failed so: one npm removed what the other installed).
SETUP_LOCK = ROOT / "clients" / "web" / ".setup.lock"
# Where the boards' screenshots go: `make screenshots` sets docs/screenshots; otherwise a temporary folder.
SCREENSHOTS_ENV = "MENAGERIE_SCREENSHOTS"


@contextlib.contextmanager
def one_worker_at_a_time() -> Iterator[None]:
    """Holds SETUP_LOCK (flock): what the block sets up is set up by one test worker at a time."""
    with SETUP_LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def install_chromium() -> str | None:
    """Debian's chromium, installed with apt-get when missing; None (and why) when it cannot be."""
    if CHROMIUM.exists():
        return None
    if shutil.which("apt-get") is None or os.geteuid() != 0:
        return "no /usr/bin/chromium, and apt-get cannot install it here (not Debian, or not root)"
    for argv in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium"]):
        done = subprocess.run(argv, capture_output=True, text=True, timeout=600, check=False)
        if done.returncode != 0:
            return f"`{' '.join(argv)}` failed: {done.stderr.strip()[-500:]}"
    return None if CHROMIUM.exists() else "apt-get installed no /usr/bin/chromium"


@pytest.fixture(scope="session")
def web_app() -> Path:
    """The built web app: `make web` (a no-op when the build is fresh)."""
    with one_worker_at_a_time():
        # Tied (SIGTERM: make stops its recipe, whose npm is tied to it in turn; the Makefile) to this process.
        argv = die_with_parent(["make", "-s", "web"], signal.SIGTERM)
        done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"make web failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert (DIST / "index.html").is_file()
    return DIST


# The gateway's limits in the session's fixture: short, so tests/e2e/web/test_gateway_probe.py sees
# each one act within seconds; still far above what a browser test needs.
GATEWAY_LIMITS = {
    "MENAGERIE_HEADER_TIMEOUT_SECONDS": "2",
    "MENAGERIE_BODY_TIMEOUT_SECONDS": "2",
    "MENAGERIE_KEEPALIVE_TIMEOUT_SECONDS": "5",
    "MENAGERIE_MAX_CONNECTIONS": "64",
    "MENAGERIE_MAX_REQUEST_BYTES": str(1024 * 1024),
    "MENAGERIE_READY_CHECK_SECONDS": "0.5",
}


@dataclass
class RunningGateway:
    """The gateway's process, its URL, its metrics URL and the limits it was given."""

    process: subprocess.Popen[bytes]
    url: str
    log: Path
    metrics_url: str
    limits: dict[str, str]


def healthy(url: str) -> bool:
    """True when GET url/healthz answers 200."""
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=1) as reply:
            return bool(reply.status == 200)
    except (urllib.error.URLError, OSError):
        return False


@contextlib.contextmanager
def gateway_process(lobby: str, games: dict[str, str], static: Path, **extra_env: str) -> Iterator[RunningGateway]:
    """`python -m menagerie.gateway` in front of `lobby` and `games` (GATEWAY_LIMITS, then `extra_env`)."""
    port = free_port_block(2)
    log = Path(tempfile.mkstemp(prefix="gateway-", suffix=".log")[1])
    env = {
        **os.environ,
        **GATEWAY_LIMITS,
        "MENAGERIE_PORT": str(port),
        "MENAGERIE_METRICS_PORT": str(port + 1),
        "MENAGERIE_LOBBY_ADDRESS": lobby,
        "MENAGERIE_GAME_ENDPOINTS": ",".join(f"{game}={address}" for game, address in games.items()),
        "MENAGERIE_STATIC_DIR": str(static),
        "MENAGERIE_LOG_LEVEL": "info",
        **extra_env,
    }
    with log.open("wb") as sink:
        process = spawn(
            [sys.executable, "-m", "menagerie.gateway"], env=env, stdout=sink, stderr=subprocess.STDOUT, cwd=ROOT
        )
    url = f"http://127.0.0.1:{port}"
    running = RunningGateway(process, url, log, f"http://127.0.0.1:{port + 1}/metrics", GATEWAY_LIMITS)
    try:
        deadline = time.monotonic() + 30
        while not healthy(url):
            assert process.poll() is None, f"the gateway exited:\n{log.read_text(errors='replace')[-3000:]}"
            assert time.monotonic() < deadline, f"the gateway did not answer:\n{log.read_text(errors='replace')}"
            time.sleep(0.1)
        yield running
    finally:
        stop_group(process, signal.SIGTERM, 30)


@pytest.fixture(scope="session")
def gateway(minimatch: RunningMinimatch, web_app: Path) -> Iterator[RunningGateway]:
    """`python -m menagerie.gateway` in front of the session's platform, serving the built app."""
    with gateway_process(minimatch.lobby, minimatch.games, web_app) as running:
        yield running


# Per module, not per session: Playwright's sync API keeps an event loop running in this thread while it
# is open, and the async tests that run after these (tests/integration) need the thread's loop free.
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Headless Debian chromium under Playwright; skipped, saying why, only where it cannot be installed."""
    with one_worker_at_a_time():
        problem = install_chromium()
    if problem is not None:
        pytest.skip(f"browser tests need Debian's chromium: {problem}")
    with tempfile.TemporaryDirectory(prefix="menagerie-browser-") as folder, pytest.MonkeyPatch.context() as patch:
        # Playwright's driver (node) and the browser it starts, each tied to its parent (SIGKILL when it dies,
        # however it dies): without that, they end only once they notice their pipes closed, a second or two.
        node, _cli = compute_driver_executable()
        patch.setenv("PLAYWRIGHT_NODEJS_PATH", tied_executable(Path(folder) / "node", node))
        chromium = tied_executable(Path(folder) / "chromium", str(CHROMIUM))
        with sync_playwright() as playwright:
            launched = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            try:
                yield launched
            finally:
                launched.close()


def tied_executable(path: Path, target: str) -> str:
    """Writes at `path` a script that runs `target` tied to the process that starts it; returns its path."""
    path.write_text(tied_script(target))
    path.chmod(0o755)
    return str(path)


@pytest.fixture
def page(browser: Browser, gateway: RunningGateway) -> Iterator[Page]:
    """A fresh browser context (its own localStorage) on the gateway's app."""
    context = browser.new_context(base_url=gateway.url, viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(30_000)
    opened = context.new_page()
    try:
        yield opened
    finally:
        context.close()


@pytest.fixture
def screenshots(tmp_path: Path) -> Path:
    """The folder the boards' screenshots go to (docs/screenshots under `make screenshots`)."""
    folder = Path(os.environ.get(SCREENSHOTS_ENV) or tmp_path)
    if not folder.is_absolute():
        folder = ROOT / folder
    folder.mkdir(parents=True, exist_ok=True)
    return folder
