"""The bot hop: from a turn notice to the bot's move applied, through Celery."""

from __future__ import annotations

import time
from typing import cast

import grpc
import redis

from bench.service import GameLoad
from bench.stats import Latencies
from menagerie.common.v1 import common_pb2, matches_pb2, matches_pb2_grpc
from menagerie.shared.store.keys import match_keys

SHARDS = 16


def bot_hops(address: str, redis_url: str, service_token: str, hops: int, load: GameLoad) -> Latencies:
    """Plays all-bot matches of `load` (random bots) and times each move after the previous one.

    The bench follows the match's turn feed in Redis (XREAD, no load on the game
    service) and stamps the arrival of every notice; the time between two notices is
    one hop: the dispatcher reads the notice and enqueues a Celery task, a worker runs
    it (ListLegalActions, SubmitAction) and the move's commit appends the next notice.
    """
    auth = (("authorization", f"Bearer {service_token}"),)
    client = redis.Redis.from_url(redis_url)
    samples: list[float] = []
    started = time.perf_counter()
    with grpc.insecure_channel(address) as channel:
        matches = matches_pb2_grpc.MatchesStub(channel)
        while len(samples) < hops:
            match_id = f"hop-{time.time_ns()}"
            feed = match_keys(match_id, SHARDS).shard.turns
            last = cast("list[tuple[bytes, object]]", client.xrevrange(feed, count=1))
            cursor = last[0][0] if last else b"0-0"
            matches.CreateMatch(
                matches_pb2.CreateMatchRequest(
                    match_id=match_id,
                    config=common_pb2.MatchConfig(game=load.game, mode=load.mode, options=load.options),
                    seats=[
                        common_pb2.SeatInfo(seat=i, kind=common_pb2.SEAT_KIND_BOT, bot_level="random")
                        for i in range(load.seats)
                    ],
                ),
                metadata=auth,
            )
            previous: float | None = None
            finished = False
            while not finished:
                reply = cast(
                    "list[tuple[bytes, list[tuple[bytes, dict[bytes, bytes]]]]]",
                    client.xread({feed: cursor}, block=5000),
                )
                arrived = time.perf_counter()
                assert reply, "the bots stopped playing"
                for entry_id, fields in reply[0][1]:
                    cursor = entry_id
                    notice = common_pb2.MatchEvent.FromString(fields[b"pb"])
                    if notice.match_id != match_id:
                        continue
                    if previous is not None:
                        samples.append(arrived - previous)
                    previous = arrived
                    finished = notice.kind == common_pb2.MATCH_EVENT_KIND_FINISHED
    client.close()
    return Latencies(samples[:hops], time.perf_counter() - started)
