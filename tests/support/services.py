"""Real service processes for the tests, started the way operators start them.

Each is started with menagerie.shared.lifetime.spawn: at the head of a process group of its
own (stopped whole), and tied to the test process, so that it gets SIGKILL the moment the
test process dies, however it dies (a test worker killed, an interrupted `make test`).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path

from menagerie.shared.lifetime import spawn, stop_group
from menagerie.shared.rpc.health import wait_until_serving
from tests.support.keys import KeyDir
from tests.support.redis_server import free_port


@dataclass
class ServiceProcess:
    """A running service: where it listens, its process and its log."""

    module: str
    address: str
    process: subprocess.Popen[bytes]
    log: Path
    argv: tuple[str, ...] = ()  # after `python -m module` (a game service: its game id)

    def output(self) -> str:
        """Everything the service has logged so far."""
        return self.log.read_text(errors="replace")


TOKEN_VARIABLES = ("MENAGERIE_SIGNING_KEY_FILE", "MENAGERIE_VERIFY_KEYS_FILE")


def service_env(redis_url: str, keys: KeyDir, module: str = "", **extra: str) -> dict[str, str]:
    """The environment a Menagerie process `python -m module` reads.

    `keys` are the platform's token keys: the process gets the verifying set and its issuer's key.
    """
    inherited = {k: v for k, v in os.environ.items() if k not in TOKEN_VARIABLES}
    return {**inherited, "REDIS_URL": redis_url, **keys.env(module), "MENAGERIE_LOG_LEVEL": "warning", **extra}


@contextmanager
def service_process(
    module: str, redis_url: str, secret: KeyDir, argv: tuple[str, ...] = (), **extra_env: str
) -> Iterator[ServiceProcess]:
    """Runs `python -m module *argv` on a free port until the block ends (then SIGTERM)."""
    port = free_port()
    name = argv[0] if argv else module.split(".")[1]
    log = Path(tempfile.mkstemp(prefix=f"{name}-", suffix=".log")[1])
    env = service_env(redis_url, secret, module, MENAGERIE_PORT=str(port), **extra_env)
    with log.open("wb") as sink:
        process = spawn([sys.executable, "-m", module, *argv], env=env, stdout=sink, stderr=subprocess.STDOUT)
    service = ServiceProcess(module, f"127.0.0.1:{port}", process, log, argv)
    try:
        try:
            # A service that serves TLS is asked over TLS, trusting the CA its settings name.
            wait_until_serving(service.address, process, ca_file=extra_env.get("MENAGERIE_TLS_CA_FILE", ""))
        except (RuntimeError, TimeoutError) as exc:
            raise RuntimeError(f"{exc}; its log:\n{service.output()[-3000:]}") from None
        yield service
    finally:
        stop_group(process, signal.SIGTERM, 20)


# `python -m menagerie.shared.games GAME` is the console script `menagerie-game GAME`.
GAME_MODULE = "menagerie.shared.games"


def game_process(game: str, redis_url: str, secret: KeyDir, **extra_env: str) -> AbstractContextManager[ServiceProcess]:
    """Runs the installed game `game` as `menagerie-game` runs it, on a free port (see service_process)."""
    return service_process(GAME_MODULE, redis_url, secret, (game,), **extra_env)


# How long a process without a gRPC port may take to say it has started.
STARTUP_TIMEOUT_S = 60.0


@contextmanager
def worker_process(
    module: str,
    redis_url: str,
    secret: KeyDir,
    ready: str,
    *,
    timeout: float = STARTUP_TIMEOUT_S,
    **extra_env: str,
) -> Iterator[ServiceProcess]:
    """Runs a process without a gRPC port (dispatcher, Celery worker) in its own session.

    It counts as started once `ready` appears in its log. Its own session lets a test
    kill it with everything it forked (os.killpg), as a crashed container would die.
    """
    log = Path(tempfile.mkstemp(prefix=f"{module.split('.')[-1]}-", suffix=".log")[1])
    env = service_env(redis_url, secret, module, **{"MENAGERIE_LOG_LEVEL": "info", **extra_env})
    with log.open("wb") as sink:
        process = spawn([sys.executable, "-m", module], env=env, stdout=sink, stderr=subprocess.STDOUT)
    service = ServiceProcess(module, "", process, log)
    try:
        wait_for_line(process, log, ready, timeout)
        yield service
    finally:
        stop_group(process, signal.SIGTERM, 30)


def dispatcher_process(redis_url: str, secret: KeyDir, **extra_env: str) -> AbstractContextManager[ServiceProcess]:
    """The bot dispatcher in its own session, started once it says so (see worker_process)."""
    return worker_process(
        "menagerie.bots.dispatcher", redis_url, secret, "dispatcher started", timeout=STARTUP_TIMEOUT_S, **extra_env
    )


def bot_worker_process(redis_url: str, secret: KeyDir, **extra_env: str) -> AbstractContextManager[ServiceProcess]:
    """A Celery bot worker in its own session, started once Celery says it is ready (see worker_process)."""
    return worker_process("menagerie.bots.worker", redis_url, secret, " ready.", timeout=STARTUP_TIMEOUT_S, **extra_env)


def wait_for_line(process: subprocess.Popen[bytes], log: Path, text: str, timeout: float) -> None:
    """Blocks until `text` appears in the process's log; fails with the log if it exits or times out."""
    deadline = time.monotonic() + timeout
    while text not in log.read_text(errors="replace"):
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{process.args!r} did not start; its log:\n{log.read_text(errors='replace')[-3000:]}")
        time.sleep(0.1)


def stop_process(process: subprocess.Popen[bytes], timeout: float = 20.0) -> int:
    """SIGTERM, then SIGKILL if it does not exit in time; returns the exit code."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return process.returncode
