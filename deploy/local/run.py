"""`make run`: the whole platform on this machine, no Docker.

Starts Redis (REDIS_URL if set, else the embedded Valkey server the project ships),
then every service as its own process — one `menagerie-game` per row of
deploy/games.toml, each of which must be installed — waits until each reports
SERVING, prints where each listens, and stops everything cleanly on Ctrl-C (or SIGTERM):
the lobby and the bot pool first, then the games, Redis last.

What it keeps: the embedded server appends every write to a file in `.menagerie/data`
(AOF, fsync every second), and the token keys are kept in `.menagerie/keys` (made once by
menagerie.shared.keys.generate: a private key per issuer, mode 0600, and the verifying set),
so players, seat tokens, ratings and the matches in progress survive a restart, a crash
included: the dispatcher's deadline scan sends the bots back to the decisions they had
pending. Each process gets the verifying set and only its own issuer's private key (the
lobby's, the games', the bots', the gateway's; the dispatcher none). `--fresh` keeps nothing
(a throwaway server, new keys); `--data-dir` puts the data elsewhere, `--keys-dir` the keys
(a folder made by `python -m menagerie.shared.keys generate DIR` is used as it is, with
--fresh too); with REDIS_URL, keeping the data is that server's business. REDIS_URL may name a Redis
Cluster (`redis+cluster://host:port`, docs/scaling.md); Celery's broker cannot be one, so
it is then MENAGERIE_BROKER_URL, or else the embedded server started for it alone.

It supervises what it started: a process that exits while the platform runs — any exit
status, the bot worker after a Redis outage or a service killed outright — is started
again after a backoff (0.5 s doubling to 10 s, back to 0.5 s once it has run 30 s), with
one line naming the process and its exit status. One that exits before it is ready is
started again at once, up to START_ATTEMPTS starts, before `make run` gives up.

Nothing it starts outlives it: when run.py dies, however it dies (SIGKILL included), the
kernel sends each of its processes SIGKILL and the embedded server SIGTERM (the parent-death
signal, menagerie.shared.lifetime); a bot worker's pool processes go with their worker.

The gateway (services/gateway) serves the web app and the Connect API for browsers on
its own HTTP port, --web-port (MENAGERIE_WEB_PORT, default 8080): `web  http://…` is
printed once it answers /healthz. `make run` builds the web app first (`make web`).

Usage: python deploy/local/run.py [--base-port 50050] [--host 127.0.0.1] [--web-port 8080]
                                  [--data-dir PATH | --fresh] [--keys-dir PATH]
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType

from menagerie.shared.embedded_redis import EmbeddedRedis
from menagerie.shared.lifetime import spawn
from menagerie.shared.redis_client import is_cluster_url
from menagerie.shared.rpc.health import wait_until_serving

# Run as a script, deploy/ is not importable as a package yet: its parts are deploy/games.py (the games
# table) and, beside this file, services.py (what runs), supervision.py (restarts, stops, readiness) and
# token_files.py (the keys each process gets).
REPOSITORY = Path(__file__).resolve().parents[2]
if str(REPOSITORY) not in sys.path:
    sys.path.insert(0, str(REPOSITORY))

from deploy.games import GamesTableError  # noqa: E402
from deploy.local.services import GATEWAY, PLATFORM, WEB_PORT, Service, games  # noqa: E402
from deploy.local.supervision import Child, terminate, wait_until_http, wait_until_listed  # noqa: E402
from deploy.local.token_files import key_env, token_keys  # noqa: E402

# What `make run` keeps between runs (git-ignored); `rm -rf .menagerie` starts clean.
STATE = REPOSITORY / ".menagerie"
DATA_DIR = STATE / "data"
KEYS_DIR = STATE / "keys"

# How long a process may take to serve before the start gives up. Every process starts at once and
# mostly imports: a few seconds on a quiet laptop, far more on a machine busy with other work. A
# process that exits is noticed at once; this bounds only a hang.
START_SECONDS = 120.0
WATCH_INTERVAL = 0.2
# How long each tier may drain on stop before SIGKILL: the bot worker lets running turns
# finish (which need the games up), the services their in-flight calls.
PLATFORM_GRACE = 35.0
GAMES_GRACE = 15.0


class Platform:
    """The running processes and the Redis server under them."""

    def __init__(
        self,
        host: str,
        base_port: int,
        games: tuple[Service, ...],
        data_dir: Path | None = DATA_DIR,
        keys_dir: Path | None = KEYS_DIR,
        web_port: int = WEB_PORT,
    ) -> None:
        self.host = host
        self.web_port = web_port
        self.base_port = base_port
        self.games = games
        self.data_dir = data_dir  # None: a throwaway server
        self.keys_dir = keys_dir  # None: new keys for this run only
        self.keys = Path()  # the folder the processes read their keys from, once started
        self.fresh_keys: Path | None = None  # new keys of this run, removed on stop
        self.game_children: list[Child] = []
        self.platform_children: list[Child] = []
        self.redis: EmbeddedRedis | None = None
        self.redis_child: Child | None = None
        self.stopping = False

    @property
    def children(self) -> list[Child]:
        """Every supervised process, Redis first."""
        head = [self.redis_child] if self.redis_child is not None else []
        return head + self.game_children + self.platform_children

    def start(self) -> None:
        """Starts Redis and every service; returns once all are SERVING."""
        redis_url = os.environ.get("REDIS_URL")
        broker: dict[str, str] = {}
        if redis_url:
            print(f"redis        {redis_url} (REDIS_URL)")
            print("data         kept by that server, as it is configured (make run keeps none of it)")
            if is_cluster_url(redis_url) and not os.environ.get("MENAGERIE_BROKER_URL"):
                # kombu's Redis transport cannot use a cluster: Celery's broker is the embedded server.
                broker["MENAGERIE_BROKER_URL"] = self._start_embedded()
                print(f"broker       {broker['MENAGERIE_BROKER_URL']} (embedded Valkey: Celery's broker only)")
        else:
            redis_url = self._start_embedded()
            print(f"redis        {redis_url.removeprefix('redis://').removesuffix('/0')} (embedded Valkey)")
            if self.data_dir is None:
                print("data         none kept (--fresh: a throwaway server, deleted on stop)")
            else:
                print(f"data         {self.data_dir} (kept across restarts; delete it to start clean)")
        keys, where = token_keys(self.keys_dir)
        self.fresh_keys = None if self.keys_dir is not None else keys
        self.keys = keys
        print(f"keys         {where}", flush=True)
        endpoints = ",".join(f"{g.name}={self.host}:{self.base_port + (g.port_offset or 0)}" for g in self.games)
        env = {
            "MENAGERIE_LOG_LEVEL": "warning",
            **os.environ,
            "REDIS_URL": redis_url,
            **broker,
            "MENAGERIE_HOST": self.host,
        }
        # Every process at once, then each waited for: the start is mostly imports, so on a small machine
        # it is the CPU, not the order, that sets the pace. The lobby asks the games again every second
        # until each answers, the bots reach them per decision and the gateway retries the lobby.
        self.game_children = self._spawn(self.games, env, endpoints)
        self.platform_children = self._spawn(PLATFORM, env, endpoints)
        gateway = self._spawn_gateway(env, endpoints)
        self.platform_children.insert(0, gateway)
        self._wait_serving(self.games, self.game_children)
        self._wait_serving(PLATFORM, self.platform_children[1:])
        # Up means usable: the lobby has heard from every game (its first ask may have come too early).
        wait_until_listed(f"{self.host}:{self.base_port}", [g.name for g in self.games], START_SECONDS)
        url = f"http://{self.host}:{self.web_port}"
        gateway.wait_ready(functools.partial(wait_until_http, f"{url}/healthz", timeout=START_SECONDS))
        print(f"{'web':<12} {url}", flush=True)

    def _start_embedded(self) -> str:
        """Starts the embedded server (supervised, stopped last); returns its URL."""
        self.redis = EmbeddedRedis(self.data_dir)
        url = self.redis.start()
        assert self.redis.process is not None
        self.redis_child = Child("redis", self._restart_redis, self.redis.process)
        return url

    def _spawn_gateway(self, env: dict[str, str], endpoints: str) -> Child:
        """Starts the gateway (not waited for)."""
        gateway_env = {
            **env,
            **key_env(self.keys, GATEWAY.role),
            "MENAGERIE_PORT": str(self.web_port),
            "MENAGERIE_LOBBY_ADDRESS": f"{self.host}:{self.base_port}",
            "MENAGERIE_GAME_ENDPOINTS": endpoints,
        }
        argv = [sys.executable, "-m", GATEWAY.module]

        def launch() -> subprocess.Popen[bytes]:
            return spawn(argv, own_group=False, env=gateway_env)  # tied to this process: see _spawn

        return Child(GATEWAY.name, launch, launch())

    def _restart_redis(self) -> subprocess.Popen[bytes]:
        """The embedded server again, on its port (the services have its URL) and with its data."""
        assert self.redis is not None
        self.redis.stop()  # reaps the dead one; a throwaway one's files go, as they would have
        self.redis.start(port=self.redis.port)
        assert self.redis.process is not None
        return self.redis.process

    def _spawn(self, services: tuple[Service, ...], env: dict[str, str], endpoints: str) -> list[Child]:
        """Starts `services` (not waited for)."""
        started = []
        for service in services:
            service_env = {**env, **key_env(self.keys, service.role)}
            if service.port_offset is not None:
                service_env["MENAGERIE_PORT"] = str(self.base_port + service.port_offset)
            if service.needs_games:
                service_env["MENAGERIE_GAME_ENDPOINTS"] = endpoints
            service_env.update(service.env)
            argv = [sys.executable, "-m", service.module, *service.args]

            def launch(argv: list[str] = argv, service_env: dict[str, str] = service_env) -> subprocess.Popen[bytes]:
                # Tied to this process: if it dies, however it dies, each gets SIGKILL rather than hold its port.
                # Not SIGTERM's drain: nobody is left to wait for it, a service's drain takes up to its grace (5 s)
                # and the worker's warm shutdown up to a turn's time limit; a process killed outright loses no
                # acknowledged move (the store's promise), and the bot pool's processes go with their worker.
                # In the runner's own group (own_group=False): Ctrl-C in the terminal reaches every process.
                return spawn(argv, own_group=False, env=service_env)

            started.append(Child(service.name, launch, launch()))
        return started

    def _wait_serving(self, services: tuple[Service, ...], children: list[Child]) -> None:
        """Waits until each gRPC server among `services` is SERVING; prints where each one is."""
        for service, child in zip(services, children, strict=True):
            if service.port_offset is None:
                print(f"{service.name:<12} running (pid {child.process.pid})", flush=True)
                continue
            address = f"{self.host}:{self.base_port + service.port_offset}"
            child.wait_ready(functools.partial(wait_until_serving, address, timeout=START_SECONDS))
            print(f"{service.name:<12} {address}", flush=True)

    def watch(self) -> int:
        """Supervises the processes until asked to stop: one that exits is started again after a backoff."""
        while not self.asked_to_stop():
            now = time.monotonic()
            for child in self.children:
                if self.asked_to_stop():  # a stop request during a (slow) restart: start nothing more
                    break
                child.check(now)
            time.sleep(WATCH_INTERVAL)
        return 0

    def asked_to_stop(self) -> bool:
        """True once Ctrl-C or SIGTERM asked the platform to stop (set by the signal handler)."""
        return self.stopping

    def stop(self) -> None:
        """SIGTERM the lobby and the bot pool, then the games (each tier drains), then stop Redis."""
        self.stopping = True
        terminate(self.platform_children, PLATFORM_GRACE)
        terminate(self.game_children, GAMES_GRACE)
        if self.redis is not None:
            self.redis.stop()
        if self.fresh_keys is not None:
            shutil.rmtree(self.fresh_keys, ignore_errors=True)


def main() -> int:
    """Runs the platform until Ctrl-C or SIGTERM."""
    parser = argparse.ArgumentParser(description="Run the Menagerie platform locally.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--base-port", type=int, default=int(os.environ.get("MENAGERIE_BASE_PORT", 50050)))
    parser.add_argument(
        "--web-port",
        type=int,
        default=int(os.environ.get("MENAGERIE_WEB_PORT", WEB_PORT)),
        help="the gateway's HTTP port: the web app and the Connect API (MENAGERIE_WEB_PORT)",
    )
    keep = parser.add_mutually_exclusive_group()
    keep.add_argument(
        "--data-dir", type=Path, default=DATA_DIR, help=f"where the embedded server keeps its data ({DATA_DIR})"
    )
    keep.add_argument("--fresh", action="store_true", help="keep nothing: a throwaway server and new token keys")
    parser.add_argument(
        "--keys-dir",
        type=Path,
        default=None,
        help=f"where the token keys are kept ({KEYS_DIR}; made there if it holds none; with --fresh, used as it is)",
    )
    args = parser.parse_args()
    try:
        platform = Platform(
            args.host,
            args.base_port,
            games(),
            data_dir=None if args.fresh else args.data_dir.resolve(),
            keys_dir=args.keys_dir.resolve() if args.keys_dir else None if args.fresh else KEYS_DIR,
            web_port=args.web_port,
        )
    except GamesTableError as exc:  # nothing has started yet
        print(f"could not start the platform: {exc}", file=sys.stderr)
        return 1

    def request_stop(_signum: int, _frame: FrameType | None) -> None:
        platform.stopping = True

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    code = 0
    try:
        platform.start()
        lobby = f"{args.host}:{args.base_port}"
        print(
            f"\nThe platform is up. Play in a browser: http://{args.host}:{args.web_port}\n"
            "Or in another terminal:\n"
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
