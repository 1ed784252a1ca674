"""The store's pipelined script connection against a real Redis: replies in order, and every failure bounded."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator, Iterator
from typing import cast

import pytest
from redis.asyncio import Redis
from redis.commands.core import AsyncScript
from redis.exceptions import AuthenticationError, BusyLoadingError, ResponseError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from menagerie.shared.store.pipelined import CLIENT_NAME, PipelinedConnection, RedisRunner

pytestmark = pytest.mark.integration

ECHO = "return {ARGV[1], redis.call('INCR', KEYS[1])}"
REFUSE = "return redis.error_reply('REFUSED by the script')"
# The reply a Redis gives while it reads its files after a restart (as a script can say it).
STILL_LOADING = "return redis.error_reply('LOADING Redis is loading the dataset in memory')"


def database(url: str, db: int) -> str:
    """The same server's URL with another database."""
    return f"{url.rsplit('/', 1)[0]}/{db}"


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[Redis]:
    redis = Redis.from_url(database(redis_url, 9))
    yield redis
    await redis.aclose()


@pytest.fixture
async def runner(client: Redis) -> AsyncIterator[RedisRunner]:
    scripts = RedisRunner.of(client)
    assert scripts.pipelined
    yield scripts
    scripts.close()


async def our_connection_id(client: Redis) -> str:
    """The id of the runner's connection, by the name it gives itself."""
    clients = await client.client_list()
    return str(next(c["id"] for c in clients if c["name"] == CLIENT_NAME))


async def test_many_calls_at_once_each_get_their_own_reply(client: Redis, runner: RedisRunner) -> None:
    script = client.register_script(ECHO)
    await client.delete("pipelined:counter")
    replies = await asyncio.gather(*(runner.script(script, ["pipelined:counter"], [f"call-{i}"]) for i in range(500)))
    assert [reply[0] for reply in replies] == [f"call-{i}".encode() for i in range(500)]
    # Each ran exactly once.
    assert sorted(reply[1] for reply in replies) == list(range(1, 501))
    # On the database the client's URL names.
    assert await client.get("pipelined:counter") == b"500"


async def test_a_script_the_server_forgot_is_loaded_again(client: Redis, runner: RedisRunner) -> None:
    script = client.register_script(ECHO)
    await runner.script(script, ["pipelined:forgot"], ["first"])
    await client.script_flush()
    reply = await runner.script(script, ["pipelined:forgot"], ["again"])
    assert reply[0] == b"again"


async def test_a_forgotten_script_found_missing_by_many_calls_at_once_is_loaded_for_all(redis_url: str) -> None:
    # A pool of two: one SCRIPT LOAD per call through it, as before, ran out of connections.
    client = Redis.from_url(database(redis_url, 9), max_connections=2)
    runner = RedisRunner.of(client)
    try:
        script = client.register_script(ECHO)
        await client.script_flush()
        replies = await asyncio.gather(
            *(runner.script(script, ["pipelined:flushed"], [f"call-{i}"]) for i in range(200))
        )
        assert [reply[0] for reply in replies] == [f"call-{i}".encode() for i in range(200)]
    finally:
        runner.close()
        await client.aclose()


async def test_an_error_reply_is_raised_and_the_connection_goes_on(client: Redis, runner: RedisRunner) -> None:
    with pytest.raises(ResponseError, match="REFUSED by the script"):
        await runner.script(client.register_script(REFUSE), [], [])
    reply = await runner.script(client.register_script(ECHO), ["pipelined:after-error"], ["fine"])
    assert reply[0] == b"fine"


async def test_a_redis_still_loading_is_a_connection_error_as_redis_py_raises_it(
    client: Redis, runner: RedisRunner
) -> None:
    # A ConnectionError is retried and then answered UNAVAILABLE; a plain ResponseError
    # would reach the player as INTERNAL (it did, once, in test_redis_crash).
    with pytest.raises(BusyLoadingError, match="Redis is loading the dataset"):
        await runner.script(client.register_script(STILL_LOADING), [], [])
    with pytest.raises(BusyLoadingError):
        await runner.batch([["EVAL", STILL_LOADING, "0"]])


async def test_a_killed_connection_is_replaced_without_the_caller_noticing(client: Redis, runner: RedisRunner) -> None:
    script = client.register_script(ECHO)
    await runner.script(script, ["pipelined:killed"], ["before"])
    first = await our_connection_id(client)
    await client.client_kill_filter(_id=first)
    assert (await runner.script(script, ["pipelined:killed"], ["after"]))[0] == b"after"
    assert await our_connection_id(client) != first


async def test_calls_in_flight_when_the_connection_dies_are_retried_once(client: Redis, runner: RedisRunner) -> None:
    script = client.register_script("redis.call('INCR', KEYS[1]); return ARGV[1]")
    await client.delete("pipelined:in-flight")
    await runner.script(script, ["pipelined:in-flight"], ["warm"])
    connection = await our_connection_id(client)
    calls = [asyncio.ensure_future(runner.script(script, ["pipelined:in-flight"], [str(i)])) for i in range(50)]
    await client.client_kill_filter(_id=connection)
    replies = await asyncio.gather(*calls)
    assert replies == [str(i).encode() for i in range(50)]
    # A call whose reply was lost may have run before the retry: at least once each, at most twice.
    assert 51 <= int(cast("bytes", await client.get("pipelined:in-flight"))) <= 101


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A TCP port that accepts connections and never answers."""
    listener = socket.create_server(("127.0.0.1", 0))
    yield listener.getsockname()[1]
    listener.close()


async def test_a_server_that_never_answers_is_a_timeout(silent_server: int) -> None:
    connection = PipelinedConnection("127.0.0.1", silent_server, timeout=0.2)
    with pytest.raises(RedisTimeoutError, match="did not answer"):
        await connection.call("PING")
    connection.close()


async def test_a_server_that_is_not_there_is_a_connection_error() -> None:
    with socket.create_server(("127.0.0.1", 0)) as probe:
        port = probe.getsockname()[1]  # closed again at once: nothing listens there
    connection = PipelinedConnection("127.0.0.1", port)
    with pytest.raises(RedisConnectionError, match="cannot connect"):
        await connection.call("PING")


async def test_the_urls_user_and_password_are_sent(redis_url: str) -> None:
    admin = Redis.from_url(redis_url)
    await admin.acl_setuser("pipelined-user", enabled=True, passwords=["+s3cret"], keys=["*"], commands=["+@all"])
    try:
        user = Redis.from_url(database(redis_url, 9).replace("redis://", "redis://pipelined-user:s3cret@"))
        scripts = RedisRunner.of(user)
        assert (await scripts.script(user.register_script(ECHO), ["pipelined:user"], ["as-user"]))[0] == b"as-user"
        scripts.close()
        wrong = Redis.from_url(redis_url.replace("redis://", "redis://pipelined-user:wrong@"))
        refused = RedisRunner.of(wrong)
        with pytest.raises(AuthenticationError):  # as redis-py raises it
            await refused.script(wrong.register_script(ECHO), ["pipelined:user"], ["refused"])
        refused.close()
        await user.aclose()
        await wrong.aclose()
    finally:
        await admin.acl_deluser("pipelined-user")
        await admin.aclose()


def test_one_connection_serves_one_event_loop_after_another(redis_url: str) -> None:
    connection = PipelinedConnection.for_client(Redis.from_url(redis_url))
    assert connection is not None

    async def echo() -> bytes:
        reply: bytes = await connection.call("ECHO", "here")
        connection.close()  # its owner closes it before the loop ends (the socket goes on its next turn)
        await asyncio.sleep(0)
        return reply

    assert asyncio.run(echo()) == b"here"
    assert asyncio.run(echo()) == b"here"  # opened again, on the new loop


def test_a_unix_socket_and_tls_go_through_redis_py() -> None:
    """So does a Redis Cluster (tests/e2e/test_redis_cluster.py plays whole matches on one)."""
    assert not RedisRunner.of(Redis.from_url("unix:///tmp/none.sock")).pipelined
    assert not RedisRunner.of(Redis.from_url("rediss://127.0.0.1:1/0")).pipelined


async def test_a_registered_script_object_is_what_the_runner_takes(client: Redis) -> None:
    script = client.register_script(ECHO)
    assert isinstance(script, AsyncScript)
    fallback = RedisRunner(client)  # what a cluster client gets: redis-py's own call
    assert (await fallback.script(script, ["pipelined:fallback"], ["through redis-py"]))[0] == b"through redis-py"


@pytest.mark.parametrize("pipelined", [True, False], ids=["pipelined", "redis-py"])
async def test_a_batch_answers_in_order_either_way(client: Redis, pipelined: bool) -> None:
    runner = RedisRunner.of(client) if pipelined else RedisRunner(client)
    assert runner.pipelined is pipelined
    await client.delete("pipelined:batch", "pipelined:batch-string")
    await runner.batch(
        [("HSET", "pipelined:batch", "a", 1), ("HSETNX", "pipelined:batch", "a", 2), ("EXPIRE", "pipelined:batch", 60)]
    )
    assert await client.hgetall("pipelined:batch") == {b"a": b"1"}  # in order: HSETNX found the field set
    assert 0 < await client.ttl("pipelined:batch") <= 60
    await runner.batch([])
    with pytest.raises(ResponseError):
        await runner.batch([("SET", "pipelined:batch-string", "x"), ("HSET", "pipelined:batch", "b"), ("PING",)])
    assert await client.get("pipelined:batch-string") == b"x"  # not a transaction: the others ran
    runner.close()


async def test_a_batch_in_flight_when_the_connection_dies_is_sent_again(client: Redis, runner: RedisRunner) -> None:
    await client.delete("pipelined:after", "pipelined:nothing")
    await runner.batch([("PING",)])
    first = await our_connection_id(client)
    # BLPOP holds the batch on the server for a second: the connection dies with it in flight.
    pending = asyncio.ensure_future(runner.batch([("BLPOP", "pipelined:nothing", 1), ("SET", "pipelined:after", "x")]))
    await asyncio.sleep(0.3)
    await client.client_kill_filter(_id=first)
    await pending
    assert await client.get("pipelined:after") == b"x"
    assert await our_connection_id(client) != first  # sent again, on a new connection
