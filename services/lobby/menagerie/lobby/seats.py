"""Who the lobby seated where: each match it started, and each player's matches.

The matchmaker writes a match's record before it marks the tickets seated, so a player
who sees a seated ticket finds the match in ListMyMatches. Writing it again (a claim
completed by another replica) changes nothing. Finished matches are dropped from a
player's list when ListMyMatches finds them finished; every record expires with the
seat tokens' lifetime.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import msgspec
from redis.asyncio import Redis

from menagerie.lobby import keys
from menagerie.shared.store.pipelined import RedisRunner

# A player's list keeps its newest entries only (a player rarely plays this many at once).
MAX_MATCHES_PER_PLAYER = 100

_encode = msgspec.msgpack.Encoder().encode


class SeatedPlayer(msgspec.Struct, frozen=True, array_like=True):
    """Who sits in one seat of a match the lobby started."""

    seat: int
    player_id: str
    display_name: str
    bot: bool = False
    bot_level: str = ""


class SeatedMatch(msgspec.Struct, frozen=True):
    """A match the lobby started: its game, mode and seats."""

    match_id: str
    game: str
    mode: str
    seats: list[SeatedPlayer]
    started_ms: int

    def seats_of(self, player_id: str) -> list[int]:
        """The human seats `player_id` holds in this match."""
        return [s.seat for s in self.seats if s.player_id == player_id and not s.bot]

    @property
    def bots(self) -> int:
        """How many seats bots play."""
        return sum(1 for s in self.seats if s.bot)


_match = msgspec.msgpack.Decoder(SeatedMatch)


class SeatBook:
    """Reads and writes the lobby's record of matches and of each player's seats."""

    def __init__(self, redis: Redis, keep_seconds: int, runner: RedisRunner | None = None) -> None:
        self.redis = redis
        self.keep_seconds = keep_seconds
        self.runner = runner or RedisRunner(redis)

    async def record(self, match: SeatedMatch) -> None:
        """Stores the match and adds it to each of its players' lists (idempotent)."""
        await self.record_many([match])

    async def record_many(self, matches: Sequence[SeatedMatch]) -> None:
        """record() for several matches, in one round trip."""
        if not matches:
            return
        commands: list[tuple[str | int | bytes, ...]] = []
        for match in matches:
            commands.append(("SET", keys.seated_match(match.match_id), _encode(match), "EX", self.keep_seconds))
            for player_id in sorted({s.player_id for s in match.seats if not s.bot}):
                index = keys.player_matches(player_id)
                commands += [
                    ("ZADD", index, match.started_ms, match.match_id),
                    ("ZREMRANGEBYRANK", index, 0, -MAX_MATCHES_PER_PLAYER - 1),
                    ("EXPIRE", index, self.keep_seconds),
                ]
        await self.runner.batch(commands)

    async def match(self, match_id: str) -> SeatedMatch | None:
        """The lobby's record of a match, or None if it did not start it (or forgot it)."""
        blob = cast("bytes | None", await self.redis.get(keys.seated_match(match_id)))
        return _match.decode(blob) if blob else None

    async def matches_of(self, player_id: str, limit: int = MAX_MATCHES_PER_PLAYER) -> list[SeatedMatch]:
        """The player's matches, newest first (finished ones included until forgotten)."""
        index = keys.player_matches(player_id)
        ids = [m.decode() for m in cast("list[bytes]", await self.redis.zrevrange(index, 0, limit - 1))]
        if not ids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for match_id in ids:
                pipe.get(keys.seated_match(match_id))
            blobs = cast("list[bytes | None]", await pipe.execute())
        gone = [i for i, blob in zip(ids, blobs, strict=True) if blob is None]
        if gone:
            await self.redis.zrem(index, *gone)
        return [_match.decode(blob) for blob in blobs if blob is not None]

    async def forget(self, player_id: str, match_ids: Sequence[str]) -> None:
        """Drops matches (finished ones) from the player's list."""
        if match_ids:
            await self.redis.zrem(keys.player_matches(player_id), *match_ids)
