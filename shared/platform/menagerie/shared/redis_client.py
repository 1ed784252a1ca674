"""The one way a Menagerie service connects to Redis: one server, or a Redis Cluster.

A URL whose scheme is `redis+cluster://` (or `rediss+cluster://` for TLS) names a Redis
Cluster by one of its nodes (docs/scaling.md): every client made here is then redis-py's
cluster client, which follows the slot map, MOVED and ASK. The keys are laid out for it
(store/keys.py, lobby/keys.py): every script and MULTI of the platform touches one slot.
The cluster client serves the same commands as the single-server one, so the rest of the
code keeps its `Redis` annotations; what differs (a blocking read over several slots,
CLIENT UNBLOCK on one node's connection) is handled where it is issued (streams.py,
cluster_wakeups.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol, cast
from urllib.parse import quote, urlsplit, urlunsplit

import redis
import redis.cluster
from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.exceptions import ConnectionError

# The longest blocking read any service issues (Watch's XREAD BLOCK). redis-py ≥ 6 reads
# with a 5 s socket timeout by default, which would cut a longer block short and turn an
# idle spectator stream into an INTERNAL error, so the client waits longer than this.
LONGEST_BLOCK_MS = 10_000
CONNECT_TIMEOUT_SECONDS = 5.0

# URL schemes that name a Redis Cluster, and the plain scheme of each of its nodes.
CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}
# A cluster client retries a command after a node went away, a MOVED slot or CLUSTERDOWN
# (a failover in progress) this many times, refreshing its slot map in between.
CLUSTER_RETRIES = 3


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


def is_cluster_url(url: str) -> bool:
    """True when `url` names a Redis Cluster (`redis+cluster://host:port`)."""
    return urlsplit(url).scheme in CLUSTER_SCHEMES


def read_secret(path: str) -> str:
    """The text of a secret's file, without the line end an editor or `echo` leaves (ValueError if unreadable)."""
    try:
        text = Path(path).read_text().strip()
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror}") from exc
    if not text:
        raise ValueError(f"{path} is empty")
    return text


def with_password(url: str, password: str) -> str:
    """`url` with `password` in place of its own (its user, if it names one, kept)."""
    parts = urlsplit(url)
    userinfo, at, host = parts.netloc.rpartition("@")
    user = userinfo.partition(":")[0] if at else ""  # as written (already percent-encoded)
    netloc = f"{user}:{quote(password, safe='')}@{host}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def node_url(url: str) -> str:
    """The plain URL of the node a cluster URL names (a plain URL is returned as it is)."""
    parts = urlsplit(url)
    scheme = CLUSTER_SCHEMES.get(parts.scheme)
    if scheme is None:
        return url
    return urlunsplit((scheme, parts.netloc, parts.path, parts.query, parts.fragment))


def is_cluster(client: object) -> bool:
    """True when `client` is a cluster client (made by this module from a cluster URL)."""
    return isinstance(client, (RedisCluster, redis.cluster.RedisCluster))


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

    With a cluster URL it is redis-py's asyncio cluster client instead, holding up to
    `redis_pool_size` connections per node (past that a call fails at once with
    ConnectionError: the cluster client has no waiting pool), typed as `Redis` since it
    serves the same commands.
    """
    if is_cluster_url(settings.redis_url):
        return cast("Redis", connect_cluster(settings.redis_url, settings, max_connections=settings.redis_pool_size))
    pool = BlockingConnectionPool.from_url(
        settings.redis_url,
        max_connections=settings.redis_pool_size,
        timeout=settings.redis_pool_wait_s,
        **_connection_options(settings),
    )
    return Redis.from_pool(pool)


def connect_cluster(url: str, settings: RedisSettings, **options: Any) -> RedisCluster:
    """An asyncio cluster client for the cluster `url` names."""
    return RedisCluster.from_url(node_url(url), **{**_cluster_options(settings), **options})


def connect_blocking_redis(settings: RedisSettings) -> Redis:
    """A client of one connection for a process's one blocking reader (StreamWakeups; one server only)."""
    return Redis.from_url(settings.redis_url, single_connection_client=True, **_connection_options(settings))


def connect_node(host: str, port: int, settings: RedisSettings, *, single: bool) -> Redis:
    """A plain client of one cluster node (its blocking reader when `single`), with the cluster URL's options."""
    parts = urlsplit(node_url(settings.redis_url))
    netloc = f"{host}:{port}"
    if parts.username or parts.password:
        netloc = f"{parts.netloc.rsplit('@', 1)[0]}@{netloc}"
    url = urlunsplit((parts.scheme, netloc, "/0", parts.query, ""))
    return Redis.from_url(url, single_connection_client=single, **_connection_options(settings))


def connect_sync_redis(url: str, **options: Any) -> redis.Redis:
    """A blocking (non-asyncio) client for `url`: the cluster client for a cluster URL."""
    if is_cluster_url(url):
        return cast("redis.Redis", redis.cluster.RedisCluster.from_url(node_url(url), **options))
    return redis.Redis.from_url(url, **options)


def _connection_options(settings: RedisSettings) -> dict[str, Any]:
    return {
        "socket_timeout": LONGEST_BLOCK_MS / 1000 + settings.redis_timeout_margin_s,
        "socket_connect_timeout": CONNECT_TIMEOUT_SECONDS,
        "health_check_interval": 30,
        "retry": Retry(
            ExponentialWithJitterBackoff(base=0.05, cap=0.5), retries=1, supported_errors=(ConnectionError,)
        ),
    }


def _cluster_options(settings: RedisSettings) -> dict[str, Any]:
    # The cluster client uses its Retry only for how many times to retry (it picks the
    # errors itself: a lost node, MOVED, CLUSTERDOWN while a replica takes over).
    return {
        **_connection_options(settings),
        "retry": Retry(ExponentialWithJitterBackoff(base=0.05, cap=0.5), retries=CLUSTER_RETRIES),
    }
