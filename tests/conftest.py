"""Fixtures shared by every test: a real Redis server, real service processes, tokens."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import pytest

from menagerie.shared.tokens import TokenSigner
from tests.support.beasts_client import BeastsClient
from tests.support.redis_server import throwaway_redis
from tests.support.services import ServiceProcess, service_process

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


@pytest.fixture(scope="session")
def beasts_service(redis_url: str) -> Iterator[ServiceProcess]:
    """The Beasts service in its own process, shared by the session's tests."""
    with service_process("menagerie.beasts.service", redis_url, TOKEN_SECRET) as service:
        yield service


@pytest.fixture
def beasts(beasts_service: ServiceProcess) -> Iterator[BeastsClient]:
    """A client of the session's Beasts service."""
    client = BeastsClient(beasts_service.address)
    yield client
    client.close()
