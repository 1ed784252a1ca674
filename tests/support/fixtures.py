"""Fixtures for every test, wherever it lives (loaded as a plugin: `-p tests.support.fixtures`)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest

from menagerie.shared.tokens import TokenSigner
from tests.support.game_client import BeastsClient
from tests.support.redis_server import throwaway_redis
from tests.support.services import ServiceProcess, service_process, worker_process

TOKEN_SECRET = secrets.token_hex(32)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A real Redis server: REDIS_URL, a container, redis-server, or the embedded one."""
    with throwaway_redis() as (url, _kind):
        yield url


@pytest.fixture(scope="session")
def signer() -> TokenSigner:
    """Signs tokens with the secret every test service uses."""
    return TokenSigner(TOKEN_SECRET)


@pytest.fixture(scope="session")
def service_token(signer: TokenSigner) -> str:
    """A service credential, as the lobby holds."""
    return signer.issue_service("tests", 3600)[0]


# Bot turns time out after 2 s here (10 s in production) so recovery tests stay short.
BOT_DEADLINE_SECONDS = "2"


@pytest.fixture(scope="session")
def beasts_service(redis_url: str) -> Iterator[ServiceProcess]:
    """The Beasts service in its own process, shared by the session's tests."""
    with service_process(
        "menagerie.beasts.service", redis_url, TOKEN_SECRET, MENAGERIE_BOT_TURN_DEADLINE_SECONDS=BOT_DEADLINE_SECONDS
    ) as service:
        yield service


@pytest.fixture(scope="session")
def zoo_service(redis_url: str) -> Iterator[ServiceProcess]:
    """The Fantasy Zoo service in its own process, shared by the session's tests."""
    with service_process(
        "menagerie.zoo.service", redis_url, TOKEN_SECRET, MENAGERIE_BOT_TURN_DEADLINE_SECONDS=BOT_DEADLINE_SECONDS
    ) as service:
        yield service


@pytest.fixture(scope="session")
def pursuit_service(redis_url: str) -> Iterator[ServiceProcess]:
    """The cooperative dice game's service in its own process, shared by the session's tests."""
    with service_process(
        "menagerie.pursuit.service", redis_url, TOKEN_SECRET, MENAGERIE_BOT_TURN_DEADLINE_SECONDS=BOT_DEADLINE_SECONDS
    ) as service:
        yield service


@pytest.fixture(scope="session")
def game_endpoints(beasts_service: ServiceProcess, zoo_service: ServiceProcess, pursuit_service: ServiceProcess) -> str:
    """MENAGERIE_GAME_ENDPOINTS for processes that call the game services."""
    return f"beasts={beasts_service.address},zoo={zoo_service.address},pursuit={pursuit_service.address}"


@pytest.fixture(scope="session")
def lobby_service(redis_url: str, game_endpoints: str) -> Iterator[ServiceProcess]:
    """The lobby in its own process."""
    with service_process(
        "menagerie.lobby",
        redis_url,
        TOKEN_SECRET,
        MENAGERIE_GAME_ENDPOINTS=game_endpoints,
        MENAGERIE_MATCHMAKER_INTERVAL_MS="50",
    ) as service:
        yield service


@pytest.fixture(scope="session")
def dispatcher(redis_url: str, game_endpoints: str) -> Iterator[ServiceProcess]:
    """The bot dispatcher in its own process."""
    with worker_process(
        "menagerie.bots.dispatcher",
        redis_url,
        TOKEN_SECRET,
        "dispatcher started",
        MENAGERIE_GAME_ENDPOINTS=game_endpoints,
        MENAGERIE_REDISPATCH_SECONDS=BOT_DEADLINE_SECONDS,
        MENAGERIE_DEADLINE_SCAN_MS="100",
    ) as process:
        yield process


@pytest.fixture
def bot_worker(redis_url: str, game_endpoints: str) -> Iterator[ServiceProcess]:
    """A Celery worker of the bot pool (a fresh one per test: some tests kill it)."""
    with worker_process(
        "menagerie.bots.worker", redis_url, TOKEN_SECRET, " ready.", MENAGERIE_GAME_ENDPOINTS=game_endpoints
    ) as process:
        yield process


@pytest.fixture
def beasts(beasts_service: ServiceProcess) -> Iterator[BeastsClient]:
    """A client of the session's Beasts service."""
    client = BeastsClient(beasts_service.address)
    yield client
    client.close()
