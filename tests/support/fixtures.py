"""Fixtures for every test, wherever it lives (loaded as a plugin: `-p tests.support.fixtures`).

Game services come from the registry, never by name: `game_services` maps every
installed game to its service process (each started on first use, shared by the
session), a test that takes `game_service` runs once per installed game, and
`game_client("zoo")` opens a client of one of them.

Nothing the suite starts outlives it (issue 34; menagerie.shared.lifetime): the processes
are started tied to the test process that starts them (SIGKILL when it dies, however it
dies), each test worker is tied to the pytest process that started it, and every process
started from here carries this process's owner mark, so that the session guard
(`process_guard`) kills whatever an earlier run that was killed outright left behind.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack
from typing import Any

import grpc
import pytest

from menagerie.lobby.v1 import lobby_pb2_grpc
from menagerie.rules.registry import game_ids
from menagerie.shared.lifetime import OWNER_ENV, kill_started_groups, owner_id, reap_orphans, tie_to_parent
from menagerie.shared.tokens import TokenSigner
from tests.support.game_client import GameClient
from tests.support.keys import KEYS
from tests.support.redis_server import throwaway_redis
from tests.support.services import ServiceProcess, bot_worker_process, dispatcher_process, game_process, service_process

GameClients = Callable[[str], GameClient]


def pytest_configure(config: pytest.Config) -> None:
    """Child processes hear Ctrl-C and carry this process's owner mark; a test worker dies with its pytest.

    Ctrl-C even when the suite itself was started in the background: a shell starts a
    background command (`make test &` in a script) with SIGINT ignored, every child inherits
    that, and a Python child started so never raises KeyboardInterrupt: the tests that stop a
    command with SIGINT as a user's Ctrl-C would wait for it in vain. With a handler here
    instead, children start with the default disposition (exec resets handlers).
    """
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    # Every process started from here, by any means (subprocess, pexpect, Playwright's driver),
    # carries this process's mark: the session guard of a later run finds what it left.
    os.environ[OWNER_ENV] = owner_id()
    # The tests register hundreds of guests from 127.0.0.1: no budget of new guests per address in the
    # lobbies they start, unless a test sets one (tests/e2e/web/test_gateway_budgets.py).
    os.environ.setdefault("MENAGERIE_GUESTS_PER_MINUTE", "0")
    controller = getattr(config, "workerinput", {}).get(CONTROLLER)
    if controller is not None:
        # A test worker (pytest-xdist) dies with the pytest process that started it, and so
        # (each level tied to the one above) does everything the worker started.
        tie_to_parent(int(controller))


# The key of the controller's pid in a test worker's `workerinput`.
CONTROLLER = "menagerie_controller_pid"


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """Tells each test worker (pytest-xdist) which process started it, for tie_to_parent."""
    node.workerinput[CONTROLLER] = os.getpid()


@pytest.fixture(scope="session", autouse=True)
def process_guard() -> Iterator[None]:
    """Kills what an earlier run left (its owner died) before the session, and what is left of this one after it."""
    reap_orphans()
    yield
    kill_started_groups()  # every fixture stops its own; this is for one whose teardown never ran
    reap_orphans()


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Last, in the process that started the test workers: what a worker that died left behind."""
    if not hasattr(session.config, "workerinput"):
        reap_orphans()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """How `make test` spreads the suite over its workers (`--dist loadgroup`).

    A module's tests stay together on one worker, so its module fixtures (service processes)
    are built once; but each long seeded run (marked `property`) and each other long test
    (marked `long`) is a group of its own, and those groups go first: run one after another
    behind their module, a game's property runs alone took longer than the rest of the suite.
    (Runs before xdist reads the groups.)
    """

    def long_run(item: pytest.Item) -> bool:
        return any(item.get_closest_marker(name) is not None for name in ("property", "long"))

    for item in items:
        item.add_marker(pytest.mark.xdist_group(item.nodeid if long_run(item) else item.nodeid.split("::")[0]))
    items.sort(key=lambda item: not long_run(item))


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A real Redis server: REDIS_URL, a container, redis-server, or the embedded one."""
    with throwaway_redis() as (url, _kind):
        yield url


@pytest.fixture(scope="session")
def signer() -> TokenSigner:
    """Signs tokens of every kind with the tests' own key, which every test service trusts."""
    return KEYS.signer()


@pytest.fixture(scope="session")
def service_token(signer: TokenSigner) -> str:
    """A service credential, as the lobby holds."""
    return signer.issue_service("tests", 3600)[0]


# Bot turns time out after 2 s here (10 s in production) so recovery tests stay short.
BOT_DEADLINE_SECONDS = "2"


class GameServices(Mapping[str, ServiceProcess]):
    """Every installed game's service process, by game id; each starts on first use and stops with the session."""

    def __init__(self, redis_url: str, stack: ExitStack) -> None:
        self._redis_url = redis_url
        self._stack = stack
        self._running: dict[str, ServiceProcess] = {}

    def __getitem__(self, game: str) -> ServiceProcess:
        if game not in self:
            raise KeyError(f"no game {game!r} is installed; installed: {', '.join(self)}")
        if game not in self._running:
            self._running[game] = self._stack.enter_context(
                game_process(game, self._redis_url, KEYS, MENAGERIE_BOT_TURN_DEADLINE_SECONDS=BOT_DEADLINE_SECONDS)
            )
        return self._running[game]

    def __contains__(self, game: object) -> bool:
        # Mapping's default would start the service just to answer.
        return game in game_ids()

    def __iter__(self) -> Iterator[str]:
        return iter(game_ids())

    def __len__(self) -> int:
        return len(game_ids())

    def endpoints(self) -> str:
        """MENAGERIE_GAME_ENDPOINTS naming every installed game (all of them started)."""
        return ",".join(f"{game}={service.address}" for game, service in self.items())


@pytest.fixture(scope="session")
def game_services(redis_url: str) -> Iterator[GameServices]:
    """Every installed game's service in its own process, started when a test first needs it."""
    with ExitStack() as stack:
        yield GameServices(redis_url, stack)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test that takes `game_service` runs once per installed game."""
    if "game_service" in metafunc.fixturenames:
        metafunc.parametrize("game_service", game_ids(), indirect=True)


@pytest.fixture
def game_service(request: pytest.FixtureRequest, game_services: GameServices) -> ServiceProcess:
    """The service of one installed game (the test runs for each; see pytest_generate_tests)."""
    game: str = request.param
    return game_services[game]


@pytest.fixture
def game_client(game_services: GameServices) -> Iterator[GameClients]:
    """Opens clients of the session's game services by game id; they close after the test."""
    opened: list[GameClient] = []

    def open_client(game: str) -> GameClient:
        client = GameClient(game, game_services[game].address)
        opened.append(client)
        return client

    yield open_client
    for client in opened:
        client.close()


@pytest.fixture(scope="session")
def game_endpoints(game_services: GameServices) -> str:
    """MENAGERIE_GAME_ENDPOINTS for processes that call the game services: every installed game."""
    return game_services.endpoints()


@pytest.fixture(scope="session")
def lobby_service(redis_url: str, game_endpoints: str) -> Iterator[ServiceProcess]:
    """The lobby in its own process."""
    with service_process(
        "menagerie.lobby",
        redis_url,
        KEYS,
        MENAGERIE_GAME_ENDPOINTS=game_endpoints,
        MENAGERIE_MATCHMAKER_INTERVAL_MS="50",
    ) as service:
        yield service


@pytest.fixture(scope="module")
def lobby(lobby_service: ServiceProcess) -> Iterator[lobby_pb2_grpc.LobbyStub]:
    """A client of the session's lobby (a module may define its own `lobby` over another process)."""
    with grpc.insecure_channel(lobby_service.address) as channel:
        yield lobby_pb2_grpc.LobbyStub(channel)


@pytest.fixture(scope="session")
def dispatcher(redis_url: str, game_endpoints: str) -> Iterator[ServiceProcess]:
    """The bot dispatcher in its own process."""
    with dispatcher_process(
        redis_url,
        KEYS,
        MENAGERIE_GAME_ENDPOINTS=game_endpoints,
        MENAGERIE_REDISPATCH_SECONDS=BOT_DEADLINE_SECONDS,
        MENAGERIE_DEADLINE_SCAN_MS="100",
    ) as process:
        yield process


@pytest.fixture
def bot_worker(redis_url: str, game_endpoints: str) -> Iterator[ServiceProcess]:
    """A Celery worker of the bot pool (a fresh one per test: some tests kill it)."""
    with bot_worker_process(redis_url, KEYS, MENAGERIE_GAME_ENDPOINTS=game_endpoints) as process:
        yield process


@pytest.fixture
def beasts(game_client: GameClients) -> GameClient:
    """A client of the session's Beasts service: the game the platform's own integration tests play."""
    return game_client("beasts")
