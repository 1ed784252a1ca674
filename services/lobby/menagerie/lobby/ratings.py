"""Ratings of competitive games (OpenSkill, Plackett–Luce), from finished matches.

The lobby reads every shard's results feed in its own consumer group: the FINISHED
notices, which the match store writes there as well as on the turn feed, so that the
lobby does not read every move. A FINISHED notice updates the ratings of the match's
seats in one optimistic transaction, exactly once per match (a `rated` marker is
written in the same transaction). Bots are rated too,
one identity per level ("bot:random"), so a human's rating means something against
them; several seats of one bot identity in a match count as copies of that rating
and the identity moves by their average.

A human seat whose decisions were mostly made by the timeout bot (more by it than by
the player, MatchEvent.decisions) keeps its rating: the seat still takes part in the
update, so its result counts for the others, but its own new rating is not written.
Walking away from a match earns nothing and costs nothing.
"""

from __future__ import annotations

import asyncio
import os
import socket
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import structlog
from openskill.models import PlackettLuce
from redis.asyncio import Redis
from redis.exceptions import WatchError

from menagerie.common.v1 import common_pb2
from menagerie.lobby import keys
from menagerie.lobby.directory import GameDirectory
from menagerie.shared.store.keys import shard_keys
from menagerie.shared.streams import StreamConsumer

log = structlog.get_logger(__name__)

RATED_MARKER_SECONDS = 90 * 24 * 3600


def mostly_timed_out(notice: common_pb2.MatchEvent) -> set[int]:
    """Human seats whose decisions the timeout bot made more often than the player did."""
    humans = {s.seat for s in notice.seats if s.kind != common_pb2.SEAT_KIND_BOT}
    return {d.seat for d in notice.decisions if d.seat in humans and d.by_timeout > d.by_player}


GROUP = "lobby-ratings"
# A player's rating record, as a standing reads it.
STANDING_FIELDS = ("name", "mu", "sigma", "matches", "wins", "bot")


@dataclass(frozen=True)
class Standing:
    """One player's rating and record in one game."""

    player_id: str
    display_name: str
    mu: float
    sigma: float
    matches: int
    wins: int
    bot: bool

    @property
    def ordinal(self) -> float:
        """A conservative single number: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


class Ratings:
    """Updates and reads ratings."""

    def __init__(self, redis: Redis, directory: GameDirectory) -> None:
        self.redis = redis
        self.directory = directory
        self.model = PlackettLuce()

    def _competitive(self, game: str, mode: str) -> bool:
        try:
            return not self.directory.mode(game, mode).cooperative
        except Exception:
            # Unknown or unreachable game: rate it; cooperative games declare themselves.
            return True

    async def record(self, notice: common_pb2.MatchEvent) -> bool:
        """Applies a finished match's result; False when it was applied before or is not rated."""
        if notice.kind != common_pb2.MATCH_EVENT_KIND_FINISHED or not self._competitive(notice.game, notice.mode):
            return False
        game = notice.game
        ranks = {s.seat: s.rank for s in notice.outcome.seats}
        wins = {s.seat for s in notice.outcome.seats if s.result == common_pb2.RESULT_WIN}
        seats = [s for s in notice.seats if s.seat in ranks]
        unrated = mostly_timed_out(notice)
        players: dict[str, list[common_pb2.SeatInfo]] = defaultdict(list)
        for seat in seats:
            if seat.seat not in unrated:
                players[seat.player_id].append(seat)
        if len(seats) < 2:
            return False
        if unrated:
            log.info(
                "seats left unrated: mostly played by the timeout bot", match=notice.match_id, seats=sorted(unrated)
            )
        rated_key = keys.rated(game, notice.match_id)
        # Every seat's key is watched: the unrated seats' ratings are read for the update too.
        player_keys = {s.player_id: keys.rating(game, s.player_id) for s in seats}
        while True:
            async with self.redis.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(rated_key, *player_keys.values())
                    # Not pipe.exists: a cluster pipeline splits EXISTS by slot and, once WATCH made it
                    # run commands at once, returns itself un-run (redis-py), which is always true.
                    if await pipe.execute_command("EXISTS", rated_key):
                        return False
                    current = {s.player_id: await self._read(pipe, game, s.player_id) for s in seats}
                    teams = [
                        [self.model.rating(mu=current[s.player_id].mu, sigma=current[s.player_id].sigma)] for s in seats
                    ]
                    updated = self.model.rate(teams, ranks=[ranks[s.seat] for s in seats])
                    pipe.multi()  # type: ignore[no-untyped-call]
                    for pid, own_seats in players.items():
                        rated_seats = {s.seat for s in own_seats}
                        indexes = [i for i, s in enumerate(seats) if s.seat in rated_seats]
                        mu = sum(updated[i][0].mu for i in indexes) / len(indexes)
                        sigma = sum(updated[i][0].sigma for i in indexes) / len(indexes)
                        seat = own_seats[0]
                        bot = seat.kind == common_pb2.SEAT_KIND_BOT
                        name = f"Bot ({seat.bot_level})" if bot else seat.display_name
                        standing = current[pid]
                        pipe.hset(
                            player_keys[pid],
                            mapping={
                                "name": name,
                                "mu": mu,
                                "sigma": sigma,
                                "matches": standing.matches + 1,
                                "wins": standing.wins + (1 if any(s.seat in wins for s in own_seats) else 0),
                                "bot": int(bot),
                            },
                        )
                        pipe.zadd(keys.board(game), {pid: mu - 3 * sigma})
                    pipe.set(rated_key, 1, ex=RATED_MARKER_SECONDS)
                    await pipe.execute()
                    return True
                except WatchError:
                    continue

    async def _read(self, client: Any, game: str, player_id: str) -> Standing:
        return self._standing(player_id, await client.hmget(keys.rating(game, player_id), STANDING_FIELDS))

    def _standing(self, player_id: str, values: Sequence[bytes | None]) -> Standing:
        """A standing from its record's STANDING_FIELDS (missing ones: a new player's)."""
        name, mu, sigma, matches, wins, bot = values
        default = self.model.rating()
        return Standing(
            player_id=player_id,
            display_name=name.decode() if name else player_id,
            mu=float(mu) if mu else default.mu,
            sigma=float(sigma) if sigma else default.sigma,
            matches=int(matches or 0),
            wins=int(wins or 0),
            bot=bool(int(bot or 0)),
        )

    async def standing(self, game: str, player_id: str) -> Standing:
        """One player's standing in a game (a new player's: the model's default rating)."""
        return await self._read(self.redis, game, player_id)

    async def standings(self, game: str, player_ids: Sequence[str]) -> list[Standing]:
        """Several players' standings in a game, in one round trip (the game's records share a slot)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for player_id in player_ids:
                pipe.hmget(keys.rating(game, player_id), STANDING_FIELDS)
            rows = await pipe.execute()
        return [self._standing(player_id, row) for player_id, row in zip(player_ids, rows, strict=True)]

    async def leaderboard(self, game: str, limit: int) -> list[Standing]:
        """The best `limit` standings of a game."""
        ids = cast("list[bytes]", await self.redis.zrevrange(keys.board(game), 0, limit - 1))
        return [await self._read(self.redis, game, pid.decode()) for pid in ids]

    def consumer(self, shards: int) -> StreamConsumer:
        """Reads every shard's results feed (finished matches only)."""

        async def handle(stream: str, entry_id: str, fields: dict[bytes, bytes]) -> None:
            notice = common_pb2.MatchEvent.FromString(fields[b"pb"])
            if await self.record(notice):
                log.info("ratings updated", match=notice.match_id, game=notice.game)

        return StreamConsumer(
            self.redis,
            [shard_keys(s).results for s in range(shards)],
            GROUP,
            f"lobby-{socket.gethostname()}-{os.getpid()}",
            handle,
            dead_letter="lb:ratings:dead",
        )

    async def run(self, stop: asyncio.Event, shards: int) -> None:
        """Consumes finished matches until stop (history included, once per match)."""
        consumer = self.consumer(shards)
        await consumer.ensure_groups(start_id="0")
        await consumer.run(stop)
