"""A task's marks against a real Redis: its decision in progress and its game's access, read in one round trip."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
import redis

from menagerie.bots.marks import Access, Marks, running_key
from menagerie.shared.store.keys import match_keys

pytestmark = pytest.mark.integration


@pytest.fixture
def marks(redis_url: str) -> Iterator[Marks]:
    client = redis.Redis.from_url(redis_url)
    yield Marks(client, running_seconds=20, probe_seconds=60, shards=16)
    client.close()


def test_a_decision_is_marked_once_until_its_task_ends(marks: Marks) -> None:
    game, match = f"game-{uuid.uuid4().hex}", f"m-{uuid.uuid4().hex}"
    token, access, _ = marks.start(game, match, 1, 5)
    assert token and access == Access.OPEN
    assert 0 < marks.client.ttl(running_key(match, 1, 5)) <= 20
    assert marks.start(game, match, 1, 5)[0] is None, "a second delivery finds it in progress"
    assert marks.start(game, match, 1, 6)[0], "another version is another decision"
    marks.end(match, 1, 5, "not-the-owner")
    assert marks.client.exists(running_key(match, 1, 5)), "only the task that marked it removes the mark"
    marks.end(match, 1, 5, token)
    assert not marks.client.exists(running_key(match, 1, 5))
    assert marks.start(game, match, 1, 5)[0], "free again once its task ended"


def test_one_task_at_a_time_probes_an_unresponsive_game(marks: Marks) -> None:
    game = f"game-{uuid.uuid4().hex}"
    marks.unresponsive(game)
    accesses = [marks.start(game, f"m-{uuid.uuid4().hex}", 0, 1)[1] for _ in range(3)]
    assert accesses == [Access.PROBE, Access.CLOSED, Access.CLOSED]
    marks.responsive(game)
    assert marks.start(game, f"m-{uuid.uuid4().hex}", 0, 1)[1] == Access.OPEN


def test_a_redis_that_does_not_answer_lets_the_turn_be_played() -> None:
    client = redis.Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=1)  # nothing listens there
    try:
        assert Marks(client, 20, 60, 16).start("beasts", "m", 0, 1) == ("", Access.OPEN, None)
    finally:
        client.close()


def test_a_task_reads_what_the_game_wrote_for_its_seat_with_its_mark(marks: Marks) -> None:
    game, match = f"game-{uuid.uuid4().hex}", f"m-{uuid.uuid4().hex}"
    marks.client.hset(match_keys(match, 16).bot_turns, "1", b"seat 1's turn")
    assert marks.start(game, match, 1, 5).turn == b"seat 1's turn"
    assert marks.start(game, match, 2, 5).turn is None, "another seat's turn is not handed over"
