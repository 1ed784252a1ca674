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
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

import grpc

from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from menagerie.rules.registry import game_ids
from menagerie.shared.embedded_redis import EmbeddedRedis
from menagerie.shared.keys import ROLE_GRANTS, VERIFY_FILE, generate
from menagerie.shared.lifetime import spawn
from menagerie.shared.redis_client import is_cluster_url
from menagerie.shared.rpc.channels import open_channel
from menagerie.shared.rpc.health import wait_until_serving

# Run as a script, deploy/ is not importable as a package yet; the games table's reader is deploy/games.py.
REPOSITORY = Path(__file__).resolve().parents[2]
if str(REPOSITORY) not in sys.path:
    sys.path.insert(0, str(REPOSITORY))

from deploy.games import GamesTableError, check_installed, load  # noqa: E402

# `python -m menagerie.shared.games GAME` is the console script `menagerie-game GAME`.
GAME_MODULE = "menagerie.shared.games"

# What `make run` keeps between runs (git-ignored); `rm -rf .menagerie` starts clean.
STATE = REPOSITORY / ".menagerie"
DATA_DIR = STATE / "data"
KEYS_DIR = STATE / "keys"

# Restart backoff: the first restart waits BACKOFF_FIRST, each next one twice as long up
# to BACKOFF_MAX; a process that ran STABLE_AFTER seconds before exiting starts over.
BACKOFF_FIRST = 0.5
BACKOFF_MAX = 10.0
STABLE_AFTER = 30.0
# A process that exits before it is ready is started again, this many starts in all, before make run gives up.
START_ATTEMPTS = 3
# How long a process may take to serve before the start gives up. Every process starts at once and
# mostly imports: a few seconds on a quiet laptop, far more on a machine busy with other work. A
# process that exits is noticed at once; this bounds only a hang.
START_SECONDS = 120.0
WATCH_INTERVAL = 0.2
# How long each tier may drain on stop before SIGKILL: the bot worker lets running turns
# finish (which need the games up), the services their in-flight calls.
PLATFORM_GRACE = 35.0
GAMES_GRACE = 15.0


@dataclass(frozen=True)
class Service:
    """One process of the platform."""

    name: str
    module: str
    port_offset: int | None  # None: not a gRPC server
    needs_games: bool = False  # reads MENAGERIE_GAME_ENDPOINTS
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()  # its own settings, over the shared environment
    role: str = ""  # the issuer whose private key it holds (menagerie.shared.keys.ROLE_GRANTS); "": none


def games() -> tuple[Service, ...]:
    """One service per row of deploy/games.toml; GamesTableError when a row's game is not installed."""
    rows = load()
    check_installed(rows, game_ids())
    return tuple(Service(row.id, GAME_MODULE, row.offset, args=(row.id,), role="games") for row in rows)


# The browsers' door: HTTP on the web port (Connect and the web app), not a gRPC server.
GATEWAY = Service("gateway", "menagerie.gateway", None, needs_games=True, role="gateway")
WEB_PORT = 8080

PLATFORM = (
    Service("lobby", "menagerie.lobby", 0, needs_games=True, role="lobby"),
    Service("dispatcher", "menagerie.bots.dispatcher", None, needs_games=True),
    Service(
        "bot-worker",
        "menagerie.bots.worker",
        None,
        needs_games=True,
        env=(("MENAGERIE_WORKER_QUEUES", "plain"),),
        role="bots",
    ),
    # mcts decisions (a second of a core each) on a worker of their own: they never hold the
    # slots that random and greedy decisions wait for; one process, the machine has few cores.
    Service(
        "search-worker",
        "menagerie.bots.worker",
        None,
        needs_games=True,
        env=(("MENAGERIE_WORKER_QUEUES", "search"), ("MENAGERIE_WORKER_CONCURRENCY", "1")),
        role="bots",
    ),
)


def exit_status(code: int) -> str:
    """'code 1', or 'code -9 (SIGKILL)' for a process a signal ended."""
    if code >= 0:
        return f"code {code}"
    try:
        return f"code {code} ({signal.Signals(-code).name})"
    except ValueError:
        return f"code {code}"


def token_keys(directory: Path | None) -> tuple[Path, str]:
    """(keys folder, what it is): `directory` as it is if it holds keys, else made there now, else a new one.

    A new folder is generated beside `directory` and renamed into place, so two runs starting
    at once never each keep different keys.
    """
    if directory is None:
        fresh = Path(tempfile.mkdtemp(prefix="menagerie-keys-"))
        generate(fresh)
        return fresh, "new for this run (--fresh: tokens end with them)"
    if (directory / VERIFY_FILE).exists():
        missing = [role for role in ROLE_GRANTS if not (directory / f"{role}.jwk").exists()]
        if missing:
            raise RuntimeError(f"{directory} holds no key for {', '.join(missing)}; delete it to make new keys")
        return directory, f"{directory} (player and seat tokens stay valid across restarts)"
    directory.parent.mkdir(parents=True, exist_ok=True)
    made = Path(tempfile.mkdtemp(prefix=f".{directory.name}-", dir=directory.parent))
    generate(made)
    try:
        made.rename(directory)  # fails if another run put its keys there first (or the folder is not empty)
    except OSError:
        shutil.rmtree(made, ignore_errors=True)
        if not (directory / VERIFY_FILE).exists():
            what = f"{directory} holds no {VERIFY_FILE} and is not empty"
            raise RuntimeError(f"{what}; name another --keys-dir") from None
        return token_keys(directory)
    return directory, f"{directory} (made now; player and seat tokens stay valid across restarts)"


def key_env(directory: Path, role: str) -> dict[str, str]:
    """The token settings of a process holding `role`'s key ("": verifying only)."""
    env = {"MENAGERIE_VERIFY_KEYS_FILE": str(directory / VERIFY_FILE), "MENAGERIE_SIGNING_KEY_FILE": ""}
    if role:
        env["MENAGERIE_SIGNING_KEY_FILE"] = str(directory / f"{role}.jwk")
    return env


@dataclass
class Child:
    """A supervised process: how to start it, the running one, and its restart backoff."""

    name: str
    launch: Callable[[], subprocess.Popen[bytes]]
    process: subprocess.Popen[bytes]
    started: float = field(default_factory=time.monotonic)
    delay: float = BACKOFF_FIRST
    restart_at: float | None = None  # set while it waits to be started again

    def wait_ready(self, ready: Callable[[subprocess.Popen[bytes]], None]) -> None:
        """Blocks until `ready(process)` returns; one that exits while starting is started again (START_ATTEMPTS)."""
        for attempt in range(1, START_ATTEMPTS + 1):
            try:
                ready(self.process)
                return
            except RuntimeError:
                code = self.process.poll()
                if code is None or attempt == START_ATTEMPTS:
                    raise
            print(
                f"{self.name} exited with {exit_status(code)} while starting;"
                f" starting it again (start {attempt + 1} of {START_ATTEMPTS})",
                file=sys.stderr,
                flush=True,
            )
            self.process = self.launch()
            self.started = time.monotonic()

    def check(self, now: float) -> None:
        """Notices an exit (one line, a restart scheduled), or starts it again once its backoff is over."""
        if self.restart_at is None:
            code = self.process.poll()
            if code is None:
                return
            if now - self.started >= STABLE_AFTER:
                self.delay = BACKOFF_FIRST
            self.restart_at = now + self.delay
            print(f"{self.name} exited with {exit_status(code)}; restarting it in {self.delay:g} s", file=sys.stderr)
            sys.stderr.flush()
            self.delay = min(self.delay * 2, BACKOFF_MAX)
        elif now >= self.restart_at:
            try:
                self.process = self.launch()
            except Exception as exc:  # e.g. Redis did not come back: try again after the next backoff
                self.restart_at = now + self.delay
                print(f"{self.name} did not start ({exc}); trying again in {self.delay:g} s", file=sys.stderr)
                sys.stderr.flush()
                self.delay = min(self.delay * 2, BACKOFF_MAX)
                return
            self.started = time.monotonic()
            self.restart_at = None


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
        _terminate(self.platform_children, PLATFORM_GRACE)
        _terminate(self.game_children, GAMES_GRACE)
        if self.redis is not None:
            self.redis.stop()
        if self.fresh_keys is not None:
            shutil.rmtree(self.fresh_keys, ignore_errors=True)


def wait_until_http(url: str, process: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    """Blocks until GET `url` answers 200 (or the process exits)."""
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"{url} exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=1) as reply:
                if reply.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"{url} did not answer within {timeout:.0f} s")
        time.sleep(0.1)


def wait_until_listed(lobby: str, names: list[str], timeout: float = 30.0) -> None:
    """Blocks until the lobby's ListGames shows each game in `names` available."""
    deadline = time.monotonic() + timeout
    with open_channel(lobby) as channel:
        stub = lobby_pb2_grpc.LobbyStub(channel)
        while True:
            try:
                listing = stub.ListGames(lobby_pb2.ListGamesRequest(), timeout=2)
                if {g.game for g in listing.games if g.available} >= set(names):
                    return
            except grpc.RpcError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"the lobby did not list every game within {timeout:.0f} s")
            time.sleep(0.1)


def _terminate(children: list[Child], grace: float) -> None:
    """SIGTERM to each running child, then waits up to `grace` seconds before SIGKILL."""
    for child in children:
        if child.process.poll() is None:
            child.process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + grace
    for child in children:
        try:
            child.process.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.process.kill()
            child.process.wait()


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
