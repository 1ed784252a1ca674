"""The bot hop: from a turn notice to the bot's move applied, through the dispatcher and Celery.

Each hop is timed beside a baseline from the same run: the same notice-to-notice time
when the bench itself plays the seats (XREAD of the notice, then the calls a bot makes,
straight to the game service, no dispatcher, no Celery). The gap between the two is what
the bot pool adds to a move.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import grpc
import redis

from bench.service import GameLoad
from bench.stats import Latencies, verdict
from menagerie.common.v1 import common_pb2, matches_pb2, matches_pb2_grpc
from menagerie.rules.bots import policy_for
from menagerie.rules.rng import seed_from
from menagerie.shared import codec
from menagerie.shared.store.keys import match_keys

SHARDS = 16
TARGET_P50_MS = 2.5
TARGET_P99_MS = 8.0
FEED_WAIT_MS = 5_000  # a bot that has not moved in this long has stopped playing

Notice = common_pb2.MatchEvent
# Plays the seats of `notice` that must act (the bench's own player); None for the bot pool.
Player = Callable[[Notice], None]


@dataclass
class HopFigures:
    """One level's hops through the pool beside the bench playing the same matches directly."""

    level: str
    pool: Latencies
    direct: Latencies


def _follow(
    client: redis.Redis,
    matches: matches_pb2_grpc.MatchesStub,
    auth: Any,
    load: GameLoad,
    kind: common_pb2.SeatKind.ValueType,
    level: str,
) -> tuple[str, str, bytes, dict[int, str]]:
    """Creates a match of `load` with every seat of `kind`; (match id, its turn feed, feed cursor, seat tokens)."""
    match_id = f"hop-{time.time_ns()}"
    feed = match_keys(match_id, SHARDS).shard.turns
    last = cast("list[tuple[bytes, object]]", client.xrevrange(feed, count=1))
    cursor = last[0][0] if last else b"0-0"
    reply = matches.CreateMatch(match_request(load, match_id, kind, level), metadata=auth)
    return match_id, feed, cursor, {t.seat: t.token for t in reply.seat_tokens}


def match_request(
    load: GameLoad, match_id: str, kind: common_pb2.SeatKind.ValueType, level: str = ""
) -> matches_pb2.CreateMatchRequest:
    """CreateMatch of a match of `load` whose every seat is of `kind` (bots of `level`, or bench players)."""
    return matches_pb2.CreateMatchRequest(
        match_id=match_id,
        config=common_pb2.MatchConfig(game=load.game, mode=load.mode, options=load.options),
        seats=[
            common_pb2.SeatInfo(seat=i, kind=kind, bot_level=level)
            if kind == common_pb2.SEAT_KIND_BOT
            else common_pb2.SeatInfo(seat=i, kind=kind, player_id=f"bench-{i}")
            for i in range(load.seats)
        ],
    )


def _time_match(client: redis.Redis, feed: str, cursor: bytes, match_id: str, play: Player | None) -> list[float]:
    """The times between consecutive notices of one match, until it finishes."""
    samples: list[float] = []
    previous: float | None = None
    while True:
        reply = cast(
            "list[tuple[bytes, list[tuple[bytes, dict[bytes, bytes]]]]]",
            client.xread({feed: cursor}, block=FEED_WAIT_MS),
        )
        arrived = time.perf_counter()
        assert reply, "the bots stopped playing"
        for entry_id, fields in reply[0][1]:
            cursor = entry_id
            notice = Notice.FromString(fields[b"pb"])
            if notice.match_id != match_id:
                continue
            if previous is not None:
                samples.append(arrived - previous)
            previous = arrived
            if notice.kind == common_pb2.MATCH_EVENT_KIND_FINISHED:
                return samples
            if play is not None:
                play(notice)


def _direct_player(channel: grpc.Channel, load: GameLoad, level: str, match_id: str, tokens: dict[int, str]) -> Player:
    """Plays the seats as a bot of `level` does (the same calls and policy), straight to the service."""
    binding = load.binding
    pb, engine = binding.pb2, binding.engine
    stub = getattr(binding.pb2_grpc, f"{binding.service}Stub")(channel)
    policy = policy_for(load.game, level)

    def play(notice: Notice) -> None:
        # Only the first seat to act: its move writes the next notice, which times the hop.
        seat, version = notice.to_act[0], notice.to_act_versions[0]
        auth = (("authorization", f"Bearer {tokens[seat]}"),)
        view = None
        if policy.needs_view:
            reply = stub.GetView(pb.GetViewRequest(match_id=match_id), metadata=auth, timeout=5)
            view = codec.from_message(reply.view, engine.view_type)
        legal = stub.ListLegalActions(pb.ListLegalActionsRequest(match_id=match_id), metadata=auth, timeout=5)
        actions = [codec.decode_tagged(a, engine.action_type, "action") for a in legal.actions]
        choice = policy.choose(view, actions, seat, random.Random(seed_from(match_id, seat, version)))
        request = pb.SubmitActionRequest(
            match_id=match_id,
            expected_version=version,
            idempotency_key=f"{match_id}:{seat}:{version}",
            action=codec.tagged_to_message(pb.Action, choice),
        )
        stub.SubmitAction(request, metadata=auth, timeout=5)

    return play


def bot_hops(address: str, redis_url: str, service_token: str, hops: int, load: GameLoad, level: str) -> HopFigures:
    """Times `hops` moves of all-bot matches of `load` at `level`, and as many played directly by the bench.

    The bench follows each match's turn feed in Redis (XREAD, no load on the game
    service) and stamps the arrival of every notice; the time between two notices is one
    hop: the dispatcher reads the notice and enqueues a Celery task, a worker runs it
    (the bot's calls to the game) and the move's commit appends the next notice. The two
    kinds of matches alternate, so that both see the same conditions of a shared host.
    """
    auth = (("authorization", f"Bearer {service_token}"),)
    client = redis.Redis.from_url(redis_url)
    pool: list[float] = []
    direct: list[float] = []
    walls = [0.0, 0.0]
    with grpc.insecure_channel(address) as channel:
        matches = matches_pb2_grpc.MatchesStub(channel)
        while len(pool) < hops or len(direct) < hops:
            started = time.perf_counter()
            match_id, feed, cursor, _ = _follow(client, matches, auth, load, common_pb2.SEAT_KIND_BOT, level)
            pool += _time_match(client, feed, cursor, match_id, None)
            walls[0] += time.perf_counter() - started
            started = time.perf_counter()
            match_id, feed, cursor, tokens = _follow(client, matches, auth, load, common_pb2.SEAT_KIND_HUMAN, "")
            play = _direct_player(channel, load, level, match_id, tokens)
            first = cast("list[tuple[bytes, list[tuple[bytes, dict[bytes, bytes]]]]]", client.xread({feed: cursor}))
            # The first notice (the match's creation) starts the clock: play it, then time the rest.
            play(Notice.FromString(first[0][1][0][1][b"pb"]))
            direct += _time_match(client, feed, first[0][1][0][0], match_id, play)
            walls[1] += time.perf_counter() - started
    client.close()
    return HopFigures(level, Latencies(pool[:hops], walls[0]), Latencies(direct[:hops], walls[1]))


def report_hops(title: str, seats: int, figures: list[HopFigures]) -> None:
    """Prints each level's hop beside its direct baseline, with the targets' verdicts."""
    print(f"\n== Bot hop (turn notice → bot's move applied; {title}, {seats} bots, 1 dispatcher, 1 worker × 2)")
    print(f"  {'':40}{'p50 ms':>9}{'p99 ms':>9}{'moves':>8}")
    for f in figures:
        baseline = f"bench plays {f.level} directly (baseline)"
        print(f"  {baseline:40}{f.direct.p50_ms:9.2f}{f.direct.p99_ms:9.2f}{len(f.direct.samples):8}")
        pooled = f"{f.level} bots through the pool"
        print(f"  {pooled:40}{f.pool.p50_ms:9.2f}{f.pool.p99_ms:9.2f}{len(f.pool.samples):8}")
    for f in figures:
        p50, p99 = f.pool.p50_ms, f.pool.p99_ms
        print(
            f"  {f.level:7} p50 {p50:6.2f} ms (target ≤ {TARGET_P50_MS:g}) {verdict(p50 <= TARGET_P50_MS)}"
            f"   p99 {p99:6.2f} ms (target ≤ {TARGET_P99_MS:g}) {verdict(p99 <= TARGET_P99_MS)}"
            f"   the pool adds {p50 - f.direct.p50_ms:.2f} ms at p50"
        )
