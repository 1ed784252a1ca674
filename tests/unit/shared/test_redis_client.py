"""The platform's Redis client waits longer than any blocking read it is asked to make."""

from __future__ import annotations

import inspect

from menagerie.lobby.servicer import WATCH_HEARTBEAT_MS
from menagerie.shared.games.host import WATCH_POLL_MS
from menagerie.shared.redis_client import LONGEST_BLOCK_MS, connect_redis
from menagerie.shared.settings import Settings
from menagerie.shared.streams import StreamConsumer


def test_socket_timeout_outlasts_every_blocking_read() -> None:
    settings = Settings.model_validate({"REDIS_URL": "redis://127.0.0.1:1/0", "token_secret": "x" * 32})
    client = connect_redis(settings)
    timeout_s = client.connection_pool.connection_kwargs["socket_timeout"]
    stream_block_ms = inspect.signature(StreamConsumer).parameters["block_ms"].default
    blocks_ms = {"watch": WATCH_POLL_MS, "ticket watch": WATCH_HEARTBEAT_MS, "stream consumer": stream_block_ms}
    assert max(blocks_ms.values()) <= LONGEST_BLOCK_MS
    assert timeout_s >= LONGEST_BLOCK_MS / 1000 + settings.redis_timeout_margin_s
