"""Redis killed (SIGKILL) and restarted under load, with its append-only file: no acknowledged move is lost.

Players keep moving through a real game service while the Redis under it is killed
and started again on the same files. A client that hears UNAVAILABLE retries with the
same idempotency key, as a client should (the move then lands exactly once, or its
first answer comes back). Afterwards every move a client saw acknowledged is in its
match's event stream, in order and without gaps.

With `appendfsync everysec` Redis writes each command to the file before it answers and
fsyncs once a second: a killed process loses nothing it answered; a power cut may lose
the last second (README says so).
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import grpc
import pytest
import redis

from menagerie.shared.rpc.health import wait_until_serving
from menagerie.shared.store.keys import match_keys
from tests.support.game_client import GameClient, Match
from tests.support.keys import KEYS
from tests.support.redis_server import RestartableRedis, restartable_redis
from tests.support.services import ServiceProcess, game_process
from tests.support.stored_match import stored_entries

pytestmark = [pytest.mark.integration, pytest.mark.faults]

GAME = "beasts"
PLAYERS = 3
RETRYABLE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}
T = TypeVar("T")


@dataclass
class Player:
    """A client thread playing one match after another; what the service acknowledged."""

    client: GameClient
    service_token: str
    rng: random.Random
    acknowledged: dict[str, int] = field(default_factory=dict)  # match id -> highest acknowledged version
    retried: int = 0

    def call(self, stop: threading.Event, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """`function(*args, **kwargs)` until it answers something other than UNAVAILABLE (or the test stops)."""
        while True:
            try:
                return function(*args, **kwargs)
            except grpc.RpcError as error:
                if error.code() not in RETRYABLE or stop.is_set():
                    raise
                self.retried += 1
                time.sleep(0.1)

    def play(self, stop: threading.Event) -> None:
        """Plays random legal moves until `stop`, retrying a lost move with its own key."""
        match: Match | None = None
        while not stop.is_set():
            if match is None:
                match = self.call(stop, self.client.create, self.service_token, seats=2)
            summary = self.call(stop, self.client.summary, match.match_id, match.tokens[0])
            if not summary.to_act:
                match = None
                continue
            token = match.tokens[summary.to_act[0]]
            legal = self.call(stop, self.client.legal, match.match_id, token)
            action = self.rng.choice(legal.actions)
            key = uuid.uuid4().hex  # kept across retries: a lost answer must not become a second move
            try:
                answer = self.call(stop, self.client.submit, match.match_id, token, action, legal.view_version, key)
            except grpc.RpcError as error:
                if error.code() == grpc.StatusCode.ABORTED:
                    continue
                raise
            self.acknowledged[match.match_id] = max(answer.version, self.acknowledged.get(match.match_id, 0))


@pytest.fixture
def crashing() -> Iterator[tuple[RestartableRedis, ServiceProcess]]:
    with restartable_redis(aof=True) as server, game_process(GAME, server.url, KEYS) as service:
        yield server, service


def play_through_crashes(server: RestartableRedis, service: ServiceProcess, service_token: str, crashes: int) -> None:
    stop = threading.Event()
    players = [Player(GameClient(GAME, service.address), service_token, random.Random(n)) for n in range(PLAYERS)]
    failures: list[BaseException] = []

    def run(player: Player) -> None:
        try:
            player.play(stop)
        except BaseException as exc:  # reported below, with the thread's player
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(p,)) for p in players]
    for thread in threads:
        thread.start()
    try:
        for _ in range(crashes):
            time.sleep(1.0)
            server.kill()
            time.sleep(0.5)
            server.start()
            wait_until_serving(service.address, timeout=30)
        time.sleep(1.0)
    finally:
        stop.set()
        for thread in threads:
            thread.join(60)
    assert not failures, failures
    acknowledged = {m: v for p in players for m, v in p.acknowledged.items()}
    assert sum(acknowledged.values()) > 2 * len(acknowledged), "the players hardly moved"
    assert sum(p.retried for p in players) > 0, "no call met the outage"

    store = redis.Redis.from_url(server.url)
    try:
        for match_id, version in acknowledged.items():
            keys = match_keys(match_id, 16)
            stored = int(store.hget(keys.state, "version") or 0)
            assert stored >= version, f"{match_id}: acknowledged version {version}, stored {stored}"
            versions = [1] + [entry.version for entry in stored_entries(store, match_id)]  # 1: the setup
            assert versions == list(range(1, stored + 1)), f"{match_id}: entries {versions}"
    finally:
        store.close()
        for player in players:
            player.client.close()


def test_a_killed_redis_loses_no_acknowledged_move(
    crashing: tuple[RestartableRedis, ServiceProcess], service_token: str
) -> None:
    server, service = crashing
    play_through_crashes(server, service, service_token, crashes=1)


@pytest.mark.chaos
def test_redis_killed_five_times_under_load_loses_no_acknowledged_move(
    crashing: tuple[RestartableRedis, ServiceProcess], service_token: str
) -> None:
    server, service = crashing
    play_through_crashes(server, service, service_token, crashes=5)
