"""The platform's Redis client waits longer than any blocking read it is asked to make."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from pydantic import ValidationError

from menagerie.lobby.servicer import WATCH_HEARTBEAT_MS
from menagerie.shared.redis_client import LONGEST_BLOCK_MS, connect_blocking_redis, connect_redis
from menagerie.shared.settings import BotSettings, Settings
from menagerie.shared.streams import StreamConsumer
from menagerie.shared.wakeups import StreamWakeups


def test_socket_timeout_outlasts_every_blocking_read() -> None:
    settings = Settings.model_validate(
        {"REDIS_URL": "redis://127.0.0.1:1/0", "verify_keys_file": "/keys/verify-keys.json"}
    )
    timeouts_s = [
        client.connection_pool.connection_kwargs["socket_timeout"]
        for client in (connect_redis(settings), connect_blocking_redis(settings))
    ]
    blocks_ms = {
        "watch wake-ups": inspect.signature(StreamWakeups).parameters["block_ms"].default,
        "ticket watch": WATCH_HEARTBEAT_MS,
        "stream consumer": inspect.signature(StreamConsumer).parameters["block_ms"].default,
    }
    assert max(blocks_ms.values()) <= LONGEST_BLOCK_MS
    assert min(timeouts_s) >= LONGEST_BLOCK_MS / 1000 + settings.redis_timeout_margin_s


def test_the_redis_password_file_goes_into_every_client_url(tmp_path: Path) -> None:
    """MENAGERIE_REDIS_PASSWORD_FILE (a compose or Kubernetes secret) is read once into REDIS_URL, user kept."""
    secret = tmp_path / "redis-password"
    secret.write_text("p@ss/w:rd\n")  # what `echo` leaves, with characters a URL must escape
    base = {"verify_keys_file": "/keys/verify-keys.json", "redis_password_file": str(secret)}
    settings = BotSettings.model_validate({**base, "REDIS_URL": "redis://lobby:old@redis:6379/0"})
    assert settings.redis_url == "redis://lobby:p%40ss%2Fw%3Ard@redis:6379/0"
    assert settings.broker() == settings.redis_url  # Celery's broker is the same server, the same user
    client = connect_redis(settings).connection_pool.connection_kwargs
    assert (client["username"], client["password"]) == ("lobby", "p@ss/w:rd")
    anonymous = Settings.model_validate({**base, "REDIS_URL": "redis://redis:6379/0"})
    assert connect_blocking_redis(anonymous).connection_pool.connection_kwargs["password"] == "p@ss/w:rd"
    for problem, path in (("empty", tmp_path / "empty"), ("cannot read", tmp_path / "missing")):
        if problem == "empty":
            path.write_text("\n")
        with pytest.raises(ValidationError, match=problem):
            Settings.model_validate({**base, "redis_password_file": str(path), "REDIS_URL": "redis://redis:6379/0"})
