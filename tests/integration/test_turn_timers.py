"""Turn timers in every view, and what a timeout bot's move tells each reader (issue 14, item 3).

Real game services on loopback and a real Redis: every installed game's GetView and Watch
carry the deadline of the human seats to act; a finished match carries none; a move the
timeout bot made is flagged on its events, told on Watch (its label to the seat alone),
counted per seat in the match summary and flagged on the shard's turn notice.
"""

from __future__ import annotations

import random
import time
import uuid
from typing import Any, cast

import pytest
import redis

from menagerie.common.v1 import common_pb2, matches_pb2
from menagerie.shared.games.binding import binding
from menagerie.shared.store.keys import match_keys
from menagerie.shared.tokens import TokenSigner
from tests.support.game_client import GameClient, bearer
from tests.support.services import ServiceProcess

pytestmark = pytest.mark.integration

TIMER = 30
SHARDS = 16  # the game services' default (MENAGERIE_SHARDS is not set in the tests)


def watch_to_version(client: GameClient, match_id: str, token: str, version: int) -> list[Any]:
    """The Watch responses from the start up to the one at `version` (the current one)."""
    stream = client.stub.Watch(client.pb2.WatchRequest(match_id=match_id), metadata=bearer(token), timeout=30)
    responses = []
    for response in stream:
        responses.append(response)
        if response.version >= version and response.HasField("view"):
            break
    stream.cancel()
    return responses


def remaining_ms(deadline: common_pb2.SeatDeadline, clock: common_pb2.DecisionClock) -> int:
    return deadline.deadline.ToMilliseconds() - clock.server_time.ToMilliseconds()


def test_every_view_carries_the_deadline_of_the_seats_to_act(game_service: ServiceProcess, service_token: str) -> None:
    game = game_service.argv[0]
    client = GameClient(game, game_service.address)
    try:
        mode = binding(game).info.modes[0]
        seats = max(2, mode.min_seats)
        match = client.create(service_token, mode=mode.mode, seats=seats, turn_timer=TIMER, seed=3)
        summary = client.summary(match.match_id, service_token)
        assert summary.to_act, "a new match waits for someone"
        assert sorted(d.seat for d in summary.clock.deadlines) == sorted(summary.to_act)
        for seat, token in match.tokens.items():
            reply = client.view(match.match_id, token)
            clock = reply.clock
            assert sorted(d.seat for d in clock.deadlines) == sorted(summary.to_act), seat
            for deadline in clock.deadlines:
                assert deadline.seconds == TIMER
                assert 0 < remaining_ms(deadline, clock) <= TIMER * 1000
            (watched,) = watch_to_version(client, match.match_id, token, reply.version)
            assert [(d.seat, d.deadline) for d in watched.clock.deadlines] == [
                (d.seat, d.deadline) for d in clock.deadlines
            ]
        spectator = client.view(match.match_id, service_token)
        assert [d.seat for d in spectator.clock.deadlines] == [d.seat for d in summary.clock.deadlines]
        assert [(d.seat, d.by_player, d.by_timeout) for d in summary.decisions] == [(s, 0, 0) for s in range(seats)]
    finally:
        client.close()


def test_bot_seats_have_no_clock_and_a_finished_match_none_at_all(beasts: GameClient, service_token: str) -> None:
    match = beasts.create(service_token, mode="capture", seats=2, bots=(1,), bot_level="random", turn_timer=TIMER)
    token = match.tokens[0]
    bot_turns = 0
    for _ in range(5000):
        summary = beasts.summary(match.match_id, token)
        if not summary.to_act:
            break
        view = beasts.view(match.match_id, token)
        assert [d.seat for d in view.clock.deadlines] == [s for s in summary.to_act if s == 0]
        bot_turns += 1 in summary.to_act
        seat = summary.to_act[0]
        legal = beasts.legal(match.match_id, match.tokens[seat])
        beasts.submit(match.match_id, match.tokens[seat], random.choice(legal.actions), legal.view_version)
    assert bot_turns > 0, "the bot seat was asked to act (here the test plays it)"
    finished = beasts.view(match.match_id, token)
    assert beasts.summary(match.match_id, token).status == common_pb2.MATCH_STATUS_FINISHED
    assert not finished.clock.deadlines
    assert finished.clock.HasField("server_time")
    (last,) = watch_to_version(beasts, match.match_id, token, finished.version)[-1:]
    assert last.HasField("view") and not last.clock.deadlines
    assert not beasts.summary(match.match_id, token).clock.deadlines


def test_a_timeout_move_is_flagged_told_and_counted(
    beasts: GameClient, service_token: str, signer: TokenSigner, redis_url: str
) -> None:
    match = beasts.create(service_token, mode="capture", seats=2, turn_timer=1)
    seat = beasts.summary(match.match_id, service_token).to_act[0]
    other = 1 - seat
    bot_token, _ = signer.issue_seat(match.match_id, seat, "bots", "Bot", 60, bot=True)
    before = beasts.view(match.match_id, match.tokens[seat])
    (deadline,) = before.clock.deadlines
    time.sleep(max(0.0, remaining_ms(deadline, before.clock) / 1000) + 0.3)
    legal = beasts.legal(match.match_id, match.tokens[seat])
    label = legal.labels[0].text
    reply = beasts.submit(match.match_id, bot_token, legal.actions[0], legal.view_version)
    assert all(event.header.timeout_decision and event.header.seat == seat for event in reply.events)

    own = watch_to_version(beasts, match.match_id, match.tokens[seat], reply.version)
    theirs = watch_to_version(beasts, match.match_id, match.tokens[other], reply.version)
    watched = watch_to_version(beasts, match.match_id, service_token, reply.version)
    for responses in (own, theirs, watched):
        flagged = [r for r in responses if r.HasField("timeout")]
        assert [r.version for r in flagged] == [reply.version]
        assert flagged[0].timeout.seat == seat
        assert all(e.header.timeout_decision for e in flagged[0].events)
    assert own[-1].timeout.text == f"Your turn timer ran out; a bot chose: {label.rstrip('.')}."
    name = f"Player {seat}"
    for responses in (theirs, watched):
        assert responses[-1].timeout.text == f"{name}'s turn timer ran out; a bot decided for them."
        assert label not in responses[-1].timeout.text

    summary = beasts.summary(match.match_id, service_token)
    assert (summary.decisions[seat].by_player, summary.decisions[seat].by_timeout) == (0, 1)
    assert (summary.decisions[other].by_player, summary.decisions[other].by_timeout) == (0, 0)

    client = redis.Redis.from_url(redis_url)
    try:
        feed = match_keys(match.match_id, SHARDS).shard.turns
        entries = cast("list[tuple[bytes, dict[bytes, bytes]]]", client.xrevrange(feed, count=500))
        notices = [common_pb2.MatchEvent.FromString(fields[b"pb"]) for _, fields in entries]
        (notice,) = [n for n in notices if n.match_id == match.match_id and n.version == reply.version]
        assert notice.HasField("seat") and notice.seat == seat and notice.timeout_decision
    finally:
        client.close()

    # The seat's own next move counts for its player and is not flagged.
    if seat in beasts.summary(match.match_id, service_token).to_act:
        legal = beasts.legal(match.match_id, match.tokens[seat])
        mine = beasts.submit(match.match_id, match.tokens[seat], legal.actions[0], legal.view_version)
        assert not any(e.header.timeout_decision for e in mine.events)
        assert beasts.summary(match.match_id, service_token).decisions[seat].by_player == 1


def test_a_bot_seat_created_without_a_level_plays_greedy(beasts: GameClient, service_token: str) -> None:
    request = matches_pb2.CreateMatchRequest(
        match_id=uuid.uuid4().hex,
        config=common_pb2.MatchConfig(game="beasts", mode="capture"),
        seats=[
            common_pb2.SeatInfo(seat=0, player_id="p0", kind=common_pb2.SEAT_KIND_HUMAN),
            common_pb2.SeatInfo(seat=1, kind=common_pb2.SEAT_KIND_BOT),
        ],
    )
    reply = beasts.matches.CreateMatch(request, metadata=bearer(service_token))
    assert reply.match.seats[1].bot_level == "greedy"
