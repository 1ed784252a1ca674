"""A game service whose Redis goes away: clients hear UNAVAILABLE (retryable), never INTERNAL.

A connection the server dropped while it sat in the pool (CLIENT KILL, a restart) is
replaced on the next call without the caller noticing; while Redis is down, calls
answer UNAVAILABLE and health says NOT_SERVING; once it is back, calls work again.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import grpc
import pytest
import redis

from menagerie.shared.rpc.health import wait_until_serving
from tests.support.game_client import GameClient
from tests.support.keys import KEYS
from tests.support.redis_server import RestartableRedis, restartable_redis
from tests.support.services import ServiceProcess, game_process

pytestmark = [pytest.mark.integration, pytest.mark.faults]

GAME = "beasts"


@pytest.fixture
def outage() -> Iterator[tuple[RestartableRedis, ServiceProcess]]:
    """A game service on a Redis of its own that the test may kill and restart (with its data: AOF)."""
    with restartable_redis(aof=True) as server, game_process(GAME, server.url, KEYS) as service:
        yield server, service


def eventually(call: Callable[[], object], timeout: float = 20.0) -> None:
    """Retries `call` while it answers UNAVAILABLE, as a client should."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            call()
            return
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.UNAVAILABLE or time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_a_killed_pooled_connection_is_replaced_without_the_caller_noticing(
    outage: tuple[RestartableRedis, ServiceProcess], service_token: str
) -> None:
    server, service = outage
    client = GameClient(GAME, service.address)
    try:
        match = client.create(service_token, seats=2)
        client.view(match.match_id, match.tokens[0])
        admin = redis.Redis.from_url(server.url)
        killed = admin.client_kill_filter(_type="normal", skipme=True)
        admin.close()
        assert killed >= 1
        for seat in (0, 1):
            assert client.view(match.match_id, match.tokens[seat]).version >= 1
    finally:
        client.close()


def test_redis_down_is_unavailable_then_the_same_calls_work_again(
    outage: tuple[RestartableRedis, ServiceProcess], service_token: str
) -> None:
    server, service = outage
    client = GameClient(GAME, service.address)
    try:
        match = client.create(service_token, seats=2)
        token, legal = next(
            (t, legal) for t in match.tokens.values() if (legal := client.legal(match.match_id, t)).actions
        )
        server.kill()
        calls: dict[str, Callable[[], object]] = {
            "GetView": lambda: client.view(match.match_id, token),
            "ListLegalActions": lambda: client.legal(match.match_id, token),
            "SubmitAction": lambda: client.submit(
                match.match_id, token, legal.actions[0], legal.view_version, key="during-outage"
            ),
            "Watch": lambda: next(
                iter(
                    client.stub.Watch(
                        client.pb2.WatchRequest(match_id=match.match_id),
                        metadata=(("authorization", f"Bearer {token}"),),
                        timeout=30,
                    )
                )
            ),
        }
        for verb, call in calls.items():
            with pytest.raises(grpc.RpcError) as error:
                call()
            assert error.value.code() == grpc.StatusCode.UNAVAILABLE, (verb, error.value.details())
            assert "retry" in (error.value.details() or ""), verb
        server.start()
        wait_until_serving(service.address, timeout=30)
        eventually(lambda: client.view(match.match_id, token))
        # The move refused during the outage was never applied: the same key now moves once.
        answer = client.submit(match.match_id, token, legal.actions[0], legal.view_version, key="during-outage")
        again = client.submit(match.match_id, token, legal.actions[0], legal.view_version, key="during-outage")
        assert answer.version == again.version == 2
    finally:
        client.close()
