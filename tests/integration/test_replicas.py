"""Two Beasts processes on one Redis serve the same matches: any replica, any move."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator

import grpc
import pytest

from menagerie.beasts.v1 import beasts_pb2
from tests.support.fixtures import TOKEN_SECRET
from tests.support.game_client import GameClient
from tests.support.services import ServiceProcess, game_process

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def second_replica(redis_url: str) -> Iterator[ServiceProcess]:
    with game_process("beasts", redis_url, TOKEN_SECRET) as service:
        yield service


def test_moves_alternating_between_replicas_all_land(
    beasts: GameClient, second_replica: ServiceProcess, service_token: str
) -> None:
    other = GameClient("beasts", second_replica.address)
    replicas = [beasts, other]
    rng = random.Random(6)
    match = beasts.create(service_token, mode="training", seats=3, options={"spell_cards": "true"})
    moves = 0
    while True:
        # Each replica has cached the snapshot of its own last move; the other moved since.
        reader, writer = rng.sample(replicas, 2)
        summary = reader.summary(match.match_id, match.tokens[0])
        if not summary.to_act:
            break
        token = match.tokens[summary.to_act[0]]
        legal = reader.legal(match.match_id, token)
        key = uuid.uuid4().hex
        action = rng.choice(legal.actions)
        first = writer.submit(match.match_id, token, action, legal.view_version, key=key)
        retry = reader.submit(match.match_id, token, action, legal.view_version, key=key)
        assert first.SerializeToString() == retry.SerializeToString()
        assert first.version == summary.version + 1
        moves += 1
    final = beasts.summary(match.match_id, service_token)
    assert final.version == moves + 1
    assert final.outcome.reason
    other.close()


def test_a_stale_replica_still_refuses_an_old_version(
    beasts: GameClient, second_replica: ServiceProcess, service_token: str
) -> None:
    other = GameClient("beasts", second_replica.address)
    match = beasts.create(service_token, mode="capture", seats=2)
    seat = beasts.summary(match.match_id, service_token).to_act[0]
    token = match.tokens[seat]
    version = other.legal(match.match_id, token).view_version  # the other replica caches version 1
    beasts.submit(match.match_id, token, beasts_pb2.Action(roll=beasts_pb2.Roll()), version)
    move = beasts.legal(match.match_id, token).actions[0]
    with pytest.raises(grpc.RpcError) as stale:
        other.submit(match.match_id, token, move, version)
    assert stale.value.code() == grpc.StatusCode.ABORTED
    fresh = other.legal(match.match_id, token).view_version
    assert other.submit(match.match_id, token, move, fresh).version == version + 2
    other.close()
