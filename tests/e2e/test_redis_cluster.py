"""The platform as `make run` starts it, on a Redis Cluster of three masters (docs/scaling.md).

A cluster of the local `redis-server` on loopback (tests/support/redis_cluster.py); the
platform gets `REDIS_URL=redis+cluster://…` and Celery's broker is the embedded server
run.py starts for it. A player queues through the lobby and plays against bots to the
end (tickets, WatchTicket wake-ups, seat tokens, ratings: all on the cluster); then
all-bot matches play to the end through the dispatcher and the worker pool, every
match's keys in its shard's slot and the turn feeds spread over every master. `make test`
plays CLUSTER_MATCHES of them; `make chaos` plays the issue's 200.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import grpc
import pytest
from redis.crc import key_slot

from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from menagerie.shared.store.keys import match_keys, shard_keys
from tests.support.game_client import GameClient
from tests.support.keys import KEYS
from tests.support.lobby_client import queue_until_seated
from tests.support.platform import RunningPlatform, local_platform
from tests.support.redis_cluster import RunningCluster, cluster_binary, redis_cluster
from tests.support.stored_match import idempotency_fields, stored_entries

# A cluster of three masters under make run's platform: a minute and a half of a 2-core machine, so it runs in
# `make test-extended` (and its 200 matches in `make chaos`); make test's Redis is a single server.
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.extended,
    pytest.mark.skipif(cluster_binary() is None, reason="no redis-server or valkey-server binary to run a cluster"),
]

LOBBY, BEASTS = 0, 1  # port offsets: deploy/games.toml's port − 50050
SHARDS = 16  # the default MENAGERIE_SHARDS
CLUSTER_MATCHES = 16  # short random-bot Beasts matches (capture, two seats) in `make test`
CHAOS_MATCHES = 200  # the issue's figure, in `make chaos`


@pytest.fixture(scope="module")
def cluster() -> Iterator[RunningCluster]:
    with redis_cluster(masters=3) as running:
        yield running


@pytest.fixture(scope="module")
def platform(cluster: RunningCluster) -> Iterator[RunningPlatform]:
    with local_platform(KEYS, timeout=120, redis_url=cluster.url) as running:
        yield running


def test_make_run_takes_a_cluster_url_and_a_player_plays_bots_to_the_end(platform: RunningPlatform) -> None:
    output = platform.output()
    assert "redis        redis+cluster://127.0.0.1:" in output
    assert "broker       redis://127.0.0.1:" in output  # kombu cannot use a cluster: the embedded server
    with grpc.insecure_channel(platform.address(LOBBY)) as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        request = lobby_pb2.CreateTicketRequest(
            game="beasts", mode="capture", min_seats=2, max_seats=2, allow_bots=True, max_wait_seconds=1
        )
        player, ticket = queue_until_seated(lobby, request, "Clustered")
        assert ticket.status == lobby_pb2.TICKET_STATUS_SEATED
        seating = ticket.seating
        game = GameClient("beasts", seating.game_endpoint)
        played = game.play_seat_to_end(seating.match_id, seating.seat, seating.seat_token, random.Random(15))
        game.close()
        assert played.moves > 0 and played.summary.outcome.reason
        # The lobby's ratings (a WATCH/MULTI on the game's ratings slot) follow the match.
        deadline = time.monotonic() + 30
        entries: list[lobby_pb2.LeaderboardEntry] = []
        while not entries and time.monotonic() < deadline:
            reply = lobby.GetLeaderboard(lobby_pb2.GetLeaderboardRequest(game="beasts", limit=100))
            entries = [e for e in reply.entries if e.player_id == player.player_id]
            time.sleep(0.2)
        assert entries and entries[0].matches == 1


def play_bot_matches(platform: RunningPlatform, cluster: RunningCluster, count: int) -> None:
    """Creates `count` all-bot Beasts matches, waits until each ends, and checks their keys and moves."""
    service_token = KEYS.signer().issue_service("tests", 3600)[0]
    game = GameClient("beasts", platform.address(BEASTS))
    created = [game.create(service_token, mode="capture", seats=2, bots=(0, 1)) for _ in range(count)]
    pending = {m.match_id for m in created}
    deadline = time.monotonic() + 60 + count * 3
    while pending:
        assert time.monotonic() < deadline, f"{len(pending)} of {count} bot matches did not finish"
        for match_id in list(pending):
            if game.summary(match_id, service_token).outcome.reason:
                pending.discard(match_id)
        time.sleep(0.25)
    game.close()
    for match in created:
        keys = match_keys(match.match_id, SHARDS)
        # Every key of a match is in its shard's slot (one Lua script per move needs it).
        together = (keys.state, keys.events, keys.idempotency, keys.shard.turns, keys.shard.deadlines)
        assert len({key_slot(key.encode()) for key in together}) == 1
        with cluster.node_client(keys.state) as node:
            rows = stored_entries(node, match.match_id)
            fields = idempotency_fields(node, match.match_id)
        assert rows and len(fields) == len(rows) == len(set(fields)), "one distinct bot decision per move"
    # The turn feeds are one per shard, spread over every master: no single slot carries them all.
    busy = set()
    for feed in (shard_keys(shard).turns for shard in range(SHARDS)):
        with cluster.node_client(feed) as node:
            if node.xlen(feed):
                busy.add(cluster.port_of(feed))
    assert len(busy) == 3


def test_bot_matches_play_to_the_end_on_the_cluster(platform: RunningPlatform, cluster: RunningCluster) -> None:
    play_bot_matches(platform, cluster, CLUSTER_MATCHES)


@pytest.mark.chaos
def test_two_hundred_bot_matches_play_to_the_end_on_the_cluster(
    platform: RunningPlatform, cluster: RunningCluster
) -> None:
    play_bot_matches(platform, cluster, CHAOS_MATCHES)
