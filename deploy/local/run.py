"""`make run`: the whole platform on this machine, no Docker.

Starts Redis (REDIS_URL if set, else the embedded Valkey server the project ships),
then every service as its own process — one `menagerie-game` per row of
deploy/games.toml, each of which must be installed — waits until each reports
SERVING, prints where each listens, and stops everything cleanly on Ctrl-C (or SIGTERM).

Usage: python deploy/local/run.py [--base-port 50050] [--host 127.0.0.1]
"""

from __future__ import annotations

import argparse
import os
import secrets
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from menagerie.rules.registry import game_ids
from menagerie.shared.embedded_redis import EmbeddedRedis
from menagerie.shared.rpc.health import wait_until_serving

# Run as a script, deploy/ is not importable as a package yet; the games table's reader is deploy/games.py.
REPOSITORY = Path(__file__).resolve().parents[2]
if str(REPOSITORY) not in sys.path:
    sys.path.insert(0, str(REPOSITORY))

from deploy.games import GamesTableError, check_installed, load  # noqa: E402

# `python -m menagerie.shared.games GAME` is the console script `menagerie-game GAME`.
GAME_MODULE = "menagerie.shared.games"


@dataclass(frozen=True)
class Service:
    """One process of the platform."""

    name: str
    module: str
    port_offset: int | None  # None: not a gRPC server
    needs_games: bool = False  # reads MENAGERIE_GAME_ENDPOINTS
    args: tuple[str, ...] = ()


def games() -> tuple[Service, ...]:
    """One service per row of deploy/games.toml; GamesTableError when a row's game is not installed."""
    rows = load()
    check_installed(rows, game_ids())
    return tuple(Service(row.id, GAME_MODULE, row.offset, args=(row.id,)) for row in rows)


PLATFORM = (
    Service("lobby", "menagerie.lobby", 0, needs_games=True),
    Service("dispatcher", "menagerie.bots.dispatcher", None, needs_games=True),
    Service("bot-worker", "menagerie.bots.worker", None, needs_games=True),
)


class Platform:
    """The running processes and the Redis server under them."""

    def __init__(self, host: str, base_port: int, games: tuple[Service, ...]) -> None:
        self.host = host
        self.base_port = base_port
        self.games = games
        self.processes: list[tuple[Service, subprocess.Popen[bytes]]] = []
        self.redis: EmbeddedRedis | None = None
        self.stopping = False

    def start(self) -> None:
        """Starts Redis and every service; returns once all are SERVING."""
        redis_url = os.environ.get("REDIS_URL")
        if redis_url:
            print(f"redis        {redis_url} (REDIS_URL)")
        else:
            self.redis = EmbeddedRedis()
            redis_url = self.redis.start()
            print(f"redis        {redis_url.removeprefix('redis://').removesuffix('/0')} (embedded Valkey)")
        games = ",".join(f"{g.name}={self.host}:{self.base_port + (g.port_offset or 0)}" for g in self.games)
        env = {
            "MENAGERIE_LOG_LEVEL": "warning",
            **os.environ,
            "REDIS_URL": redis_url,
            "MENAGERIE_TOKEN_SECRET": os.environ.get("MENAGERIE_TOKEN_SECRET") or secrets.token_hex(32),
            "MENAGERIE_HOST": self.host,
        }
        # The game services first: the lobby and the bots look them up as they start.
        self._launch(self.games, env, games)
        self._launch(PLATFORM, env, games)

    def _launch(self, services: tuple[Service, ...], env: dict[str, str], games: str) -> None:
        """Starts `services` and waits until each gRPC server among them is SERVING."""
        started = []
        for service in services:
            service_env = dict(env)
            if service.port_offset is not None:
                service_env["MENAGERIE_PORT"] = str(self.base_port + service.port_offset)
            if service.needs_games:
                service_env["MENAGERIE_GAME_ENDPOINTS"] = games
            process = subprocess.Popen([sys.executable, "-m", service.module, *service.args], env=service_env)
            started.append((service, process))
        self.processes += started
        for service, process in started:
            if service.port_offset is None:
                print(f"{service.name:<12} running (pid {process.pid})", flush=True)
                continue
            address = f"{self.host}:{self.base_port + service.port_offset}"
            wait_until_serving(address, process)
            print(f"{service.name:<12} {address}", flush=True)

    def watch(self) -> int:
        """Waits until asked to stop, or until a service dies (then stops the rest)."""
        while not self.stopping:
            for service, process in self.processes:
                if process.poll() is not None:
                    print(f"{service.name} exited with {process.returncode}; stopping the platform", file=sys.stderr)
                    return 1
            time.sleep(0.2)
        return 0

    def stop(self) -> None:
        """SIGTERM every service (they drain), then stop Redis."""
        for _, process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 15
        for _, process in self.processes:
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if self.redis is not None:
            self.redis.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description="Run the Menagerie platform locally.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--base-port", type=int, default=int(os.environ.get("MENAGERIE_BASE_PORT", 50050)))
    args = parser.parse_args()
    try:
        platform = Platform(args.host, args.base_port, games())
    except GamesTableError as exc:  # nothing has started yet
        print(f"could not start the platform: {exc}", file=sys.stderr)
        return 1

    def request_stop(signum: int, frame: FrameType | None) -> None:
        platform.stopping = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    code = 0
    try:
        platform.start()
        lobby = f"{args.host}:{args.base_port}"
        print(
            "\nThe platform is up. In another terminal:\n"
            f"  .venv/bin/menagerie --lobby {lobby} games\n"
            f"  .venv/bin/menagerie --lobby {lobby} play {platform.games[0].name} --players 3\n"
            f"  .venv/bin/menagerie --lobby {lobby} watch MATCH_ID\n"
            "Press Ctrl-C to stop it.",
            flush=True,
        )
        code = platform.watch()
    except Exception as exc:
        print(f"could not start the platform: {exc}", file=sys.stderr)
        code = 1
    finally:
        print("stopping…", flush=True)
        platform.stop()
        print("stopped.", flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
