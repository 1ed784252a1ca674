"""The servers the project starts itself when REDIS_URL is not set really answer."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import pytest
import redis

from menagerie.shared.embedded_redis import DataDirInUse, EmbeddedRedis
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


def test_the_embedded_server_in_a_data_directory_keeps_its_data_across_restarts(tmp_path: Path) -> None:
    data = tmp_path / "data"
    server = EmbeddedRedis(data)
    url = server.start()
    try:
        client = redis.Redis.from_url(url)
        client.set("acknowledged", "move 7")
        client.xadd("feed", {"v": 1}, id="1-1")
        client.xgroup_create("feed", "dispatcher", id="0")
        assert client.config_get("appendfsync") == {"appendfsync": "everysec"}
        client.close()
        with pytest.raises(DataDirInUse):  # a second server on the same files is refused
            EmbeddedRedis(data).start()
    finally:
        server.stop()
    assert (data / "appendonlydir").is_dir(), "stop() must keep a persistent server's files"

    again = EmbeddedRedis(data)
    url = again.start()
    try:
        client = redis.Redis.from_url(url)
        assert client.get("acknowledged") == b"move 7"
        assert [g["name"] for g in cast("list[dict[str, bytes]]", client.xinfo_groups("feed"))] == [b"dispatcher"]
        client.close()
    finally:
        again.stop()


@pytest.mark.faults
def test_the_embedded_server_in_a_data_directory_loses_no_write_to_a_kill(tmp_path: Path) -> None:
    """SIGKILL of the server (a crash, not a power loss): every acknowledged write is in the AOF."""
    server = EmbeddedRedis(tmp_path)
    url = server.start()
    try:
        client = redis.Redis.from_url(url)
        for i in range(500):
            client.rpush("moves", i)
        client.close()
        assert server.process is not None
        server.process.kill()
        server.process.wait(10)
    finally:
        server.stop()
    again = EmbeddedRedis(tmp_path)
    client = redis.Redis.from_url(again.start())
    try:
        assert client.llen("moves") == 500
    finally:
        client.close()
        again.stop()


def test_a_throwaway_embedded_server_leaves_nothing_behind() -> None:
    server = EmbeddedRedis()
    url = server.start()
    client = redis.Redis.from_url(url)
    directory = Path(cast("dict[str, str]", client.config_get("dir"))["dir"])
    assert client.config_get("appendonly") == {"appendonly": "no"}
    client.close()
    server.stop()
    assert not directory.exists()
