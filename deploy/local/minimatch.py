"""The whole platform in one process, for tests and development (Open Match's minimatch).

Every installed game (menagerie.rules.registry.game_ids()), the lobby and the dispatcher
run as servers in ONE asyncio event loop, each started through the bootstrap production
uses (menagerie.shared.rpc.bootstrap.serve, with its supervised loops, health and drain)
on 127.0.0.1 with a free port: about a second to start, instead of a process per service.
The Celery bot worker is a real worker in ONE child process (`python -m
menagerie.bots.worker`, the threads pool), not a thread: Celery's worker installs signal
handlers, configures logging and keeps process-wide state, its tasks make blocking gRPC
calls, and the project's rule is that tests use a real worker process. Redis is the
caller's (a URL).

Run it as its own process (what the e2e tests do, tests/support/minimatch.py):

    python deploy/local/minimatch.py [--keys-dir DIR]   # REDIS_URL, or an embedded Valkey server; Ctrl-C stops it

(the token keys of DIR, made by `python -m menagerie.shared.keys generate DIR`; without it,
new ones for this run). Each service gets the verifying set and its own issuer's key.

It prints the addresses, then one line `MINIMATCH_READY {"lobby": …, "games": {…},
"dispatcher": …}`. Or embed it in a process of your own:

    with Minimatch(redis_url, keys_dir) as platform:
        platform.lobby             # "127.0.0.1:PORT"
        platform.games["beasts"]   # every installed game
        platform.dispatcher        # its gRPC health service

but not in a process that forks without exec'ing (pexpect, multiprocessing's fork):
grpcio's fork handlers meet the servers' busy gRPC threads and the child can crash
("Other threads are currently calling into gRPC, skipping fork() handlers", then a
segmentation fault — seen when the e2e tests ran it inside pytest).

`make run` (deploy/local/run.py) is still how users start the platform: a process per
service, as in production; this is its one-process sibling.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any, Self

from menagerie.bots.dispatcher import register as register_dispatcher
from menagerie.lobby.main import register as register_lobby
from menagerie.rules.registry import game_ids
from menagerie.shared.games.binding import binding
from menagerie.shared.games.service import game_registrar
from menagerie.shared.keys import VERIFY_FILE, generate
from menagerie.shared.lifetime import spawn, stop_group
from menagerie.shared.rpc.bootstrap import ProcessSettings, Register, serve
from menagerie.shared.settings import BotSettings, GameServiceSettings, LobbySettings

HOST = "127.0.0.1"
WORKER_READY = " ready."  # Celery's line once the worker consumes
GRACE_SECONDS = 1.0  # in-flight calls get this long at stop; tests have none left by then


class MinimatchError(RuntimeError):
    """The in-process platform did not start."""


class Minimatch:
    """Every installed game, the lobby and the dispatcher in one event loop; a Celery worker beside it."""

    def __init__(
        self,
        redis_url: str,
        keys_dir: Path,
        *,
        settings: Mapping[str, object] | None = None,
        worker_concurrency: int = 4,
        startup_timeout: float = 60.0,
    ) -> None:
        """`settings` (field name -> value) apply to every service's settings object and the worker's environment."""
        self.redis_url = redis_url
        self.keys_dir = keys_dir
        self.extra = dict(settings or {})
        self.worker_concurrency = worker_concurrency
        self.startup_timeout = startup_timeout
        self.games: dict[str, str] = {}
        self.lobby = ""
        self.dispatcher = ""
        self.worker: subprocess.Popen[bytes] | None = None
        self.worker_log = Path(tempfile.mkstemp(prefix="minimatch-worker-", suffix=".log")[1])
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    # --- the in-process services -------------------------------------------------------

    def _keys(self, role: str) -> dict[str, str]:
        """The verifying set, and `role`'s private key ("": none)."""
        signing = str(self.keys_dir / f"{role}.jwk") if role else ""
        return {"verify_keys_file": str(self.keys_dir / VERIFY_FILE), "signing_key_file": signing}

    def _values(self, role: str, **fields: object) -> dict[str, object]:
        # Explicit values win over the environment (pydantic-settings reads it too), so an
        # operator's MENAGERIE_PORT or MENAGERIE_METRICS_PORT cannot make services collide.
        return {
            **self.extra,
            "REDIS_URL": self.redis_url,
            **self._keys(role),
            "host": HOST,
            "port": 0,
            "metrics_port": 0,
            "grace_seconds": GRACE_SECONDS,
            **fields,
        }

    async def _start(
        self, name: str, settings: ProcessSettings, register: Register, tasks: list[asyncio.Task[None]]
    ) -> str:
        """Starts one service in this loop; returns its address once it listens and runs its loops."""
        assert self._stop is not None
        loop = asyncio.get_running_loop()
        port: asyncio.Future[int] = loop.create_future()
        task = asyncio.create_task(
            serve(name, settings, register, stop=self._stop, started=port.set_result, handle_signals=False),
            name=f"minimatch:{name}",
        )
        tasks.append(task)
        waiting: set[asyncio.Future[Any]] = {port, task}
        done, _ = await asyncio.wait(waiting, timeout=self.startup_timeout, return_when=asyncio.FIRST_COMPLETED)
        if port in done:
            return f"{HOST}:{port.result()}"
        if task in done:
            task.result()  # raises what stopped it
            raise MinimatchError(f"{name} returned before it started")
        raise MinimatchError(f"{name} did not start within {self.startup_timeout:.0f} s")

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        tasks: list[asyncio.Task[None]] = []
        try:
            for game in game_ids():
                settings = GameServiceSettings.model_validate(self._values("games"))
                self.games[game] = await self._start(game, settings, game_registrar(binding(game)), tasks)
            endpoints = ",".join(f"{game}={address}" for game, address in self.games.items())
            lobby = LobbySettings.model_validate(
                self._values("lobby", game_endpoints=endpoints, public_game_endpoints="")
            )
            self.lobby = await self._start("lobby", lobby, register_lobby, tasks)
            bots = BotSettings.model_validate(self._values("", game_endpoints=endpoints))
            self.dispatcher = await self._start("dispatcher", bots, register_dispatcher, tasks)
        except BaseException as exc:
            self._error = exc
            self._stop.set()
        finally:
            self._ready.set()
        await self._stop.wait()
        # Each serve() drains and closes on its own once stop is set.
        await asyncio.gather(*tasks, return_exceptions=True)

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # kept for start() to raise in the caller's thread
            self._error = self._error or exc
            self._ready.set()

    # --- the worker --------------------------------------------------------------------

    def _start_worker(self) -> None:
        endpoints = ",".join(f"{game}={address}" for game, address in self.games.items())
        env = {
            **os.environ,
            **{f"MENAGERIE_{name.upper()}": str(value) for name, value in self.extra.items()},
            "REDIS_URL": self.redis_url,
            **{f"MENAGERIE_{name.upper()}": value for name, value in self._keys("bots").items()},
            "MENAGERIE_GAME_ENDPOINTS": endpoints,
            "MENAGERIE_METRICS_PORT": "0",
            "MENAGERIE_WORKER_POOL": "threads",  # one process, whatever the concurrency
            "MENAGERIE_WORKER_CONCURRENCY": str(self.worker_concurrency),
            "MENAGERIE_LOG_LEVEL": "info",  # Celery says " ready." at info
        }
        with self.worker_log.open("wb") as sink:
            # A group of its own, stopped whole; and tied to this process: SIGKILL when it dies, however it dies.
            self.worker = spawn(
                [sys.executable, "-m", "menagerie.bots.worker"], env=env, stdout=sink, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + self.startup_timeout
        while WORKER_READY not in self.worker_log.read_text(errors="replace"):
            if self.worker.poll() is not None or time.monotonic() > deadline:
                raise MinimatchError(f"the bot worker did not start; its log:\n{self.worker_output()[-3000:]}")
            time.sleep(0.1)

    def worker_output(self) -> str:
        """Everything the worker has logged so far."""
        return self.worker_log.read_text(errors="replace")

    def _stop_worker(self) -> None:
        worker, self.worker = self.worker, None
        if worker is None:
            return
        exited = worker.poll() is not None
        stop_group(worker, signal.SIGTERM, 30)  # warm shutdown: running turns finish (and nothing it forked stays)
        if worker.returncode == 0 and not exited:
            self.worker_log.unlink(missing_ok=True)  # kept when something went wrong

    # --- life ----------------------------------------------------------------------------

    def start(self) -> None:
        """Starts every service, then the worker; raises MinimatchError (after cleaning up) if one does not start."""
        self._thread = threading.Thread(target=self._run, name="minimatch", daemon=True)
        self._thread.start()
        if not self._ready.wait(self.startup_timeout + 5):
            self.stop()
            raise MinimatchError("the services did not start")
        if self._error is not None:
            self.stop()
            raise MinimatchError(f"a service did not start: {self._error!r}") from self._error
        try:
            self._start_worker()
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        """Stops the worker (its turns finish), then every service (they drain); waits for both."""
        self._stop_worker()
        if self._loop is not None and self._stop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has already closed
                self._loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(GRACE_SECONDS * 4 + 15)
            self._thread = None

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self, _kind: type[BaseException] | None, _value: BaseException | None, _traceback: TracebackType | None
    ) -> None:
        self.stop()


READY = "MINIMATCH_READY"


def _main() -> int:
    """Runs the platform in this process until SIGINT/SIGTERM; Redis from REDIS_URL or an embedded server."""
    from menagerie.shared.embedded_redis import EmbeddedRedis
    from menagerie.shared.logs import configure_logging

    configure_logging(
        "minimatch", os.environ.get("MENAGERIE_LOG_FORMAT", "console"), os.environ.get("MENAGERIE_LOG_LEVEL", "info")
    )
    parser = argparse.ArgumentParser(description="Run the Menagerie platform in one process.")
    parser.add_argument("--keys-dir", type=Path, default=None, help="the token keys (default: new ones for this run)")
    given = parser.parse_args().keys_dir
    keys_dir = given.resolve() if given else Path(tempfile.mkdtemp(prefix="minimatch-keys-"))
    if given is None:
        generate(keys_dir)
    embedded = None if os.environ.get("REDIS_URL") else EmbeddedRedis()
    redis_url = os.environ.get("REDIS_URL") or (embedded.start() if embedded else "")
    stopped = threading.Event()

    def request_stop(_signum: int, _frame: FrameType | None) -> None:
        stopped.set()

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    try:
        with Minimatch(redis_url, keys_dir) as platform:
            print(f"lobby        {platform.lobby}")
            for game, address in platform.games.items():
                print(f"{game:<12} {address}")
            print(f"dispatcher   {platform.dispatcher} (gRPC health)")
            print(f"bot-worker   pid {platform.worker.pid if platform.worker else '?'}, log {platform.worker_log}")
            addresses = {"lobby": platform.lobby, "games": platform.games, "dispatcher": platform.dispatcher}
            print(f"{READY} {json.dumps(addresses)}", flush=True)
            stopped.wait()
    except MinimatchError as exc:
        print(f"could not start the platform: {exc}", file=sys.stderr)
        return 1
    finally:
        if embedded is not None:
            embedded.stop()
        if given is None:
            shutil.rmtree(keys_dir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(_main())
