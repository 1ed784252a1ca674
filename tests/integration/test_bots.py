"""The bot pool with a real dispatcher and real Celery worker processes."""

from __future__ import annotations

import os
import signal
import time
from contextlib import AbstractContextManager

import pytest
import redis

from menagerie.beasts.v1 import beasts_pb2
from menagerie.bots.celery_app import queue_for
from menagerie.common.v1 import common_pb2, matches_pb2
from menagerie.rules.registry import game_ids
from tests.support.fixtures import GameClients
from tests.support.game_client import GameClient, Match, bearer
from tests.support.keys import KEYS
from tests.support.probes import settled, wait_for
from tests.support.services import ServiceProcess, bot_worker_process
from tests.support.stored_match import idempotency_fields, stored_entries

pytestmark = pytest.mark.integration


def finished(beasts: GameClient, match: Match, token: str) -> bool:
    return beasts.summary(match.match_id, token).status == common_pb2.MATCH_STATUS_FINISHED


def entries(redis_url: str, match_id: str) -> list[tuple[int | None, bool]]:
    """(acting seat, timeout decision) of every stored entry after the setup."""
    client = redis.Redis.from_url(redis_url)
    rows = stored_entries(client, match_id)
    client.close()
    return [(e.seat, e.timeout_decision) for e in rows]


def idempotency_keys(redis_url: str, match_id: str) -> list[str]:
    client = redis.Redis.from_url(redis_url)
    found = idempotency_fields(client, match_id)
    client.close()
    return found


@pytest.mark.usefixtures("dispatcher", "bot_worker")
def test_bots_of_each_level_play_a_whole_match_through_celery(
    beasts: GameClient, service_token: str, redis_url: str
) -> None:
    """A random and a greedy table at once, on one worker (a worker's start is the costly part)."""
    matches = {
        level: beasts.create(service_token, mode="training", seats=3, bots=(0, 1, 2), bot_level=level)
        for level in ("random", "greedy")
    }
    for level, match in matches.items():

        def done(match: Match = match) -> bool:
            return finished(beasts, match, service_token)

        wait_for(done, 120, f"the {level} bots to finish")
        summary = beasts.summary(match.match_id, service_token)
        assert summary.outcome.reason
        moves = entries(redis_url, match.match_id)
        assert len(moves) == summary.version - 1
        assert not any(auto for _, auto in moves)
        # One idempotency key per accepted move, each naming its decision: no decision applied twice.
        keys = idempotency_keys(redis_url, match.match_id)
        assert len(keys) == len(moves) == len(set(keys))
        assert all(key.split(":", 1)[1].startswith(f"bot:{match.match_id}:") for key in keys)


@pytest.mark.usefixtures("dispatcher", "bot_worker")
def test_a_quiet_human_is_played_once_by_a_bot_and_play_goes_on(
    beasts: GameClient, service_token: str, redis_url: str
) -> None:
    match = beasts.create(service_token, mode="capture", seats=3, bots=(1, 2), turn_timer=1, seed=12)
    # The human (seat 0) never moves; each time its timer runs out a bot decides for it.
    wait_for(
        lambda: sum(1 for seat, auto in entries(redis_url, match.match_id) if seat == 0 and auto) >= 3,
        60,
        "three timed-out decisions of seat 0",
    )
    moves = entries(redis_url, match.match_id)
    assert all(auto == (seat == 0) for seat, auto in moves), "only the human's seat is decided on timeout"
    assert {seat for seat, _ in moves} == {0, 1, 2}, "play goes on around the table"
    keys = idempotency_keys(redis_url, match.match_id)
    assert len(keys) == len(moves) == len(set(keys))
    # The events say which moves were timeout decisions.
    for response in beasts.stub.Watch(
        beasts_pb2.WatchRequest(match_id=match.match_id), metadata=bearer(match.tokens[0]), timeout=10
    ):
        for event in response.events:
            if event.header.HasField("seat"):
                assert event.header.timeout_decision == (event.header.seat == 0)
        if response.HasField("view"):
            break


@pytest.mark.usefixtures("dispatcher")
def test_a_killed_worker_is_recovered_by_deadlines_without_double_moves(
    beasts: GameClient, service_token: str, redis_url: str, game_endpoints: str
) -> None:
    def start_worker() -> AbstractContextManager[ServiceProcess]:
        return bot_worker_process(redis_url, KEYS, MENAGERIE_GAME_ENDPOINTS=game_endpoints)

    with start_worker() as first:
        match = beasts.create(service_token, mode="training", seats=3, bots=(0, 1, 2), bot_level="greedy")
        wait_for(lambda: len(entries(redis_url, match.match_id)) >= 10, 60, "some moves")
        os.killpg(first.process.pid, signal.SIGKILL)
        first.process.wait()
        # A move the worker sent just before it died may still land (the service had the call):
        # the count is read once it has been still for half a second.
        stalled_at = settled(lambda: len(entries(redis_url, match.match_id)), quiet=0.5, limit=5)
    time.sleep(1)
    assert len(entries(redis_url, match.match_id)) == stalled_at, "nothing moves without a worker"
    assert not finished(beasts, match, service_token)
    with start_worker():
        wait_for(lambda: finished(beasts, match, service_token), 120, "the match to finish after recovery")
    moves = entries(redis_url, match.match_id)
    keys = idempotency_keys(redis_url, match.match_id)
    assert len(keys) == len(moves) == len(set(keys)), "every accepted move is a distinct decision"
    assert beasts.summary(match.match_id, service_token).version == len(moves) + 1


@pytest.mark.usefixtures("dispatcher")
def test_a_worker_plays_only_the_games_it_is_given(
    beasts: GameClient, game_client: GameClients, service_token: str, redis_url: str, game_endpoints: str
) -> None:
    other = game_client("zoo" if "zoo" in game_ids() else next(g for g in game_ids() if g != "beasts"))
    seats = max(other.binding.info.modes[0].min_seats, 2)

    def worker(games: str) -> AbstractContextManager[ServiceProcess]:
        return bot_worker_process(
            redis_url,
            KEYS,
            MENAGERIE_GAME_ENDPOINTS=game_endpoints,
            MENAGERIE_WORKER_GAMES=games,
        )

    def version(client: GameClient, match: Match) -> int:
        return int(client.summary(match.match_id, service_token).version)

    queues = redis.Redis.from_url(redis_url)
    beasts_match = beasts.create(service_token, mode="training", seats=3, bots=(0, 1, 2))
    wait_for(lambda: bool(queues.llen(queue_for("beasts"))), 10, "the Beasts decision in its queue")
    with worker(other.game):
        other_match = other.create(service_token, seats=seats, bots=tuple(range(seats)))
        wait_for(lambda: version(other, other_match) >= 4, 60, f"the {other.game} bots to play")
        assert version(beasts, beasts_match) == 1, "a worker for another game played Beasts"
        assert queues.llen(queue_for("beasts")), "the Beasts decisions wait in their own queue"
    queues.close()
    with worker("beasts"):  # a pool of its own for Beasts
        wait_for(lambda: version(beasts, beasts_match) >= 4, 60, "the Beasts bots to play")


@pytest.mark.usefixtures("dispatcher", "bot_worker")
def test_a_left_seat_is_played_by_a_bot_at_once_and_taken_back_on_return(
    beasts: GameClient, service_token: str, redis_url: str
) -> None:
    # Two people; the test plays seat 1, so the match waits on it while seat 0 is away and cannot end
    # before seat 0's person returns (bots now play a move in milliseconds). A turn timer of 10
    # minutes: any bot move for seat 0 comes from the leave, not from its timer.
    match = beasts.create(service_token, mode="capture", seats=2, turn_timer=600, seed=5)
    token, other = match.tokens[0], match.tokens[1]

    def play_seat_1_until_seat_0_acts() -> bool:
        summary = beasts.summary(match.match_id, token)
        if 1 in summary.to_act:
            legal = beasts.legal(match.match_id, other)
            if legal.actions:
                beasts.submit(match.match_id, other, legal.actions[0], legal.view_version)
        return 0 in beasts.summary(match.match_id, token).to_act

    wait_for(play_seat_1_until_seat_0_acts, 30, "seat 0 to act")
    left = beasts.matches.LeaveSeat(matches_pb2.LeaveSeatRequest(match_id=match.match_id), metadata=bearer(token))
    assert list(left.match.away) == [0]
    wait_for(
        lambda: any(seat == 0 for seat, _ in entries(redis_url, match.match_id)), 10, "a bot to play the left seat"
    )
    settled(lambda: len(entries(redis_url, match.match_id)), 1.0, 30)  # its bot's moves until seat 1 must act
    back = beasts.matches.ReturnToSeat(matches_pb2.ReturnToSeatRequest(match_id=match.match_id), metadata=bearer(token))
    assert list(back.match.away) == []
    by_bot = len([1 for seat, _ in entries(redis_url, match.match_id) if seat == 0])

    wait_for(play_seat_1_until_seat_0_acts, 30, "seat 0's turn again, its person back")
    settled(lambda: len(entries(redis_url, match.match_id)), 1.0, 30)  # a bot move under way may still land first
    legal = beasts.legal(match.match_id, token)
    assert legal.actions, "the bots play no more for the seat once its person is back"
    beasts.submit(match.match_id, token, legal.actions[0], legal.view_version)
    client = redis.Redis.from_url(redis_url)
    rows = [e for e in stored_entries(client, match.match_id) if e.seat == 0]
    client.close()
    assert rows[:by_bot] and all(e.away_decision and not e.timeout_decision for e in rows[:by_bot])
    assert not rows[-1].away_decision, "the last move of seat 0 is its person's"
    keys = idempotency_keys(redis_url, match.match_id)
    assert len(keys) == len(set(keys)) == len(entries(redis_url, match.match_id))
