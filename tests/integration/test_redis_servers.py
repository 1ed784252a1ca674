"""The servers the project starts itself when REDIS_URL is not set really answer."""

from __future__ import annotations

from typing import cast

import redis

from menagerie.shared.embedded_redis import EmbeddedRedis
from tests.support.redis_server import StreamEntries


def test_the_embedded_server_serves_streams_and_lua() -> None:
    server = EmbeddedRedis()
    url = server.start()
    try:
        client = redis.Redis.from_url(url)
        client.xadd("s", {"a": 1}, id="1-1")
        client.xgroup_create("s", "g", id="0")
        delivered = cast("list[tuple[bytes, StreamEntries]]", client.xreadgroup("g", "c", {"s": ">"}))
        assert delivered[0][1][0][0] == b"1-1"
        assert client.eval("return redis.call('XLEN', KEYS[1])", 1, "s") == 1
        claimed = cast("tuple[bytes, StreamEntries, list[bytes]]", client.xautoclaim("s", "g", "c2", 0))
        assert claimed[1][0][0] == b"1-1"
        client.close()
    finally:
        server.stop()
