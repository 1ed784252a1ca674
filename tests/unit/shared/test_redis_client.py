"""The platform's Redis client waits longer than any blocking read it is asked to make."""

from __future__ import annotations

import inspect

from menagerie.lobby.servicer import WATCH_HEARTBEAT_MS
from menagerie.shared.redis_client import LONGEST_BLOCK_MS, connect_blocking_redis, connect_redis
from menagerie.shared.settings import Settings
from menagerie.shared.streams import StreamConsumer
from menagerie.shared.wakeups import StreamWakeups


def test_socket_timeout_outlasts_every_blocking_read() -> None:
    settings = Settings.model_validate({"REDIS_URL": "redis://127.0.0.1:1/0", "token_secret": "x" * 32})
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
