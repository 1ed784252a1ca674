"""The one way a Menagerie service connects to Redis."""

from __future__ import annotations

from typing import Any, Protocol

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.exceptions import ConnectionError

# The longest blocking read any service issues (Watch's XREAD BLOCK). redis-py ≥ 6 reads
# with a 5 s socket timeout by default, which would cut a longer block short and turn an
# idle spectator stream into an INTERNAL error, so the client waits longer than this.
LONGEST_BLOCK_MS = 10_000
CONNECT_TIMEOUT_SECONDS = 5.0


class RedisSettings(Protocol):
    """The settings a Redis client is made from (every Settings has them)."""

    @property
    def redis_url(self) -> str: ...
    @property
    def redis_timeout_margin_s(self) -> float: ...
    @property
    def redis_pool_size(self) -> int: ...
    @property
    def redis_pool_wait_s(self) -> float: ...


def connect_redis(settings: RedisSettings) -> Redis:
    """The request path's client: a bounded pool whose reads outlast every blocking command.

    The pool holds at most `redis_pool_size` connections and a caller waits up to
    `redis_pool_wait_s` for a free one (then ConnectionError, which clients see as
    UNAVAILABLE): a burst queues instead of failing. Nothing parks in this pool for long —
    waiting for a stream's next entry is StreamWakeups' job, on a connection of its own
    (`connect_blocking_redis`) — so a crowd of watchers cannot starve the calls.

    `Redis.from_url` makes connections that never retry (the constructor's default of ten
    retries does not apply), and in the asyncio client a failed health-check PING is not
    retried either: it raises. One retry on a fresh connection, for ConnectionError only,
    makes a connection the server closed while it sat in the pool (`CLIENT KILL`, a
    timeout, a failover) invisible to the caller. A TimeoutError is not retried: the
    command may have run. Anything longer (Redis down) is the caller's to handle; the
    bootstrap's loops restart with backoff and health goes NOT_SERVING.
    """
    pool = BlockingConnectionPool.from_url(
        settings.redis_url,
        max_connections=settings.redis_pool_size,
        timeout=settings.redis_pool_wait_s,
        **_connection_options(settings),
    )
    return Redis.from_pool(pool)


def connect_blocking_redis(settings: RedisSettings) -> Redis:
    """A client of one connection for a process's one blocking reader (StreamWakeups)."""
    return Redis.from_url(settings.redis_url, single_connection_client=True, **_connection_options(settings))


def _connection_options(settings: RedisSettings) -> dict[str, Any]:
    return {
        "socket_timeout": LONGEST_BLOCK_MS / 1000 + settings.redis_timeout_margin_s,
        "socket_connect_timeout": CONNECT_TIMEOUT_SECONDS,
        "health_check_interval": 30,
        "retry": Retry(
            ExponentialWithJitterBackoff(base=0.05, cap=0.5), retries=1, supported_errors=(ConnectionError,)
        ),
    }
