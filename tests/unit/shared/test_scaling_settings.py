"""Cluster URLs, the Celery broker beside a cluster, and replica addresses (docs/scaling.md)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from redis.asyncio.cluster import RedisCluster

from menagerie.shared.redis_client import connect_redis, is_cluster, is_cluster_url, node_url
from menagerie.shared.rpc.channels import PER_MATCH, ROUND_ROBIN, channel_options, grpc_target
from menagerie.shared.settings import BotSettings, LobbySettings, Settings

KEYS_FILE = "/keys/verify-keys.json"  # named, not read: the settings never open it


def test_a_cluster_url_makes_the_cluster_client_and_a_plain_one_does_not() -> None:
    assert is_cluster_url("redis+cluster://10.0.0.5:6379") and is_cluster_url("rediss+cluster://u:p@h:1")
    assert not is_cluster_url("redis://127.0.0.1:6379/0")
    assert node_url("rediss+cluster://u:p@h:1") == "rediss://u:p@h:1"
    assert node_url("redis://h:1/0") == "redis://h:1/0"
    cluster = Settings.model_validate({"REDIS_URL": "redis+cluster://127.0.0.1:1", "verify_keys_file": KEYS_FILE})
    plain = Settings.model_validate({"REDIS_URL": "redis://127.0.0.1:1/0", "verify_keys_file": KEYS_FILE})
    client: object = connect_redis(cluster)  # typed as Redis: it serves the same commands
    assert isinstance(client, RedisCluster) and is_cluster(client)
    assert not is_cluster(connect_redis(plain))


def test_the_bots_need_a_plain_broker_beside_a_cluster() -> None:
    with pytest.raises(ValidationError, match="MENAGERIE_BROKER_URL"):
        BotSettings.model_validate({"REDIS_URL": "redis+cluster://127.0.0.1:1", "verify_keys_file": KEYS_FILE})
    settings = BotSettings.model_validate(
        {
            "REDIS_URL": "redis+cluster://127.0.0.1:1",
            "verify_keys_file": KEYS_FILE,
            "broker_url": "redis://127.0.0.1:2/0",
        }
    )
    assert settings.broker() == "redis://127.0.0.1:2/0"
    plain = BotSettings.model_validate({"REDIS_URL": "redis://127.0.0.1:1/0", "verify_keys_file": KEYS_FILE})
    assert plain.broker() == "redis://127.0.0.1:1/0"


def test_replicas_become_one_round_robin_target() -> None:
    assert grpc_target("127.0.0.1:1|127.0.0.1:2") == "ipv4:127.0.0.1:1,127.0.0.1:2"
    assert grpc_target("[::1]:1|[::1]:2") == "ipv6:[::1]:1,[::1]:2"
    assert grpc_target("beasts:50051") == "beasts:50051"
    assert ROUND_ROBIN in channel_options("127.0.0.1:1|127.0.0.1:2")
    assert ROUND_ROBIN in channel_options("dns:///beasts:50051")
    assert channel_options("127.0.0.1:1") == []  # one address keeps gRPC's pick_first
    assert channel_options("127.0.0.1:1|127.0.0.1:2", per_match=True) == [PER_MATCH]
    assert channel_options("127.0.0.1:1", per_match=True) == []
    with pytest.raises(ValueError, match="dns:///"):
        grpc_target("a:1|b:2")


def test_the_bots_call_a_games_replicas_per_match_unless_told_round_robin() -> None:
    settings = BotSettings.model_validate({"REDIS_URL": "redis://h:1/0", "verify_keys_file": KEYS_FILE})
    assert settings.game_routing == "per-match"
    chosen = {"REDIS_URL": "redis://h:1/0", "verify_keys_file": KEYS_FILE, "game_routing": "round-robin"}
    assert BotSettings.model_validate(chosen).game_routing == "round-robin"
    with pytest.raises(ValidationError, match="game_routing"):
        BotSettings.model_validate({**chosen, "game_routing": "random"})


def test_the_lobby_gives_clients_the_replicas_as_one_target() -> None:
    settings = LobbySettings.model_validate(
        {"REDIS_URL": "redis://h:1/0", "verify_keys_file": KEYS_FILE, "game_endpoints": "beasts=10.0.0.1:1|10.0.0.2:1"}
    )
    assert settings.public_endpoints() == {"beasts": "ipv4:10.0.0.1:1,10.0.0.2:1"}
    with pytest.raises(ValidationError, match="dns:///"):
        LobbySettings.model_validate(
            {"REDIS_URL": "redis://h:1/0", "verify_keys_file": KEYS_FILE, "game_endpoints": "beasts=a:1|b:2"}
        )
