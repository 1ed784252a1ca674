"""The one way a Menagerie service connects to Redis."""

from __future__ import annotations

from redis.asyncio import Redis

from menagerie.shared.settings import Settings

# The longest blocking read any service issues (Watch's XREAD BLOCK). redis-py ≥ 6 reads
# with a 5 s socket timeout by default, which would cut a longer block short and turn an
# idle spectator stream into an INTERNAL error, so the client waits longer than this.
LONGEST_BLOCK_MS = 10_000


def connect_redis(settings: Settings) -> Redis:
    """An asyncio client whose reads outlast every blocking command the platform issues."""
    return Redis.from_url(
        settings.redis_url,
        socket_timeout=LONGEST_BLOCK_MS / 1000 + settings.redis_timeout_margin_s,
        health_check_interval=30,
    )
