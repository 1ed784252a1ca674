"""The bot hop: from a turn notice to the bot's move applied, through Celery."""

from __future__ import annotations

import time

import grpc

from bench.stats import Latencies
from menagerie.beasts.v1 import beasts_pb2, beasts_pb2_grpc
from menagerie.common.v1 import common_pb2, matches_pb2, matches_pb2_grpc


def bot_hops(address: str, service_token: str, hops: int) -> Latencies:
    """Plays all-bot 3-seat matches (random bots) and times each move after the previous one.

    A spectator's Watch stream stamps the arrival of every accepted move; the time
    between two arrivals is one hop: the game service's turn notice, the dispatcher,
    the Celery task, the worker's GetView, ListLegalActions and SubmitAction. The Watch
    delivery delay is on both ends and cancels out.
    """
    auth = (("authorization", f"Bearer {service_token}"),)
    samples: list[float] = []
    started = time.perf_counter()
    with grpc.insecure_channel(address) as channel:
        matches = matches_pb2_grpc.MatchesStub(channel)
        beasts = beasts_pb2_grpc.BeastsStub(channel)
        while len(samples) < hops:
            reply = matches.CreateMatch(
                matches_pb2.CreateMatchRequest(
                    config=common_pb2.MatchConfig(game="beasts", mode="training"),
                    seats=[
                        common_pb2.SeatInfo(seat=i, kind=common_pb2.SEAT_KIND_BOT, bot_level="random") for i in range(3)
                    ],
                ),
                metadata=auth,
            )
            previous: float | None = None
            request = beasts_pb2.WatchRequest(match_id=reply.match.match_id, from_version=1)
            for _ in beasts.Watch(request, metadata=auth, timeout=300):
                now = time.perf_counter()
                if previous is not None:
                    samples.append(now - previous)
                previous = now
    return Latencies(samples[:hops], time.perf_counter() - started)
