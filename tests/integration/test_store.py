"""The match store's Lua scripts on a real Redis: all of a move lands, or none of it."""

from __future__ import annotations

import time
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from typing import cast

import msgspec
import pytest
from redis.asyncio import Redis

from menagerie.common.v1 import common_pb2
from menagerie.rules.contract import Outcome, SeatResult
from menagerie.shared.store import Commit, MatchMeta, MatchStore, NewMatch, SeatDeadline, SeatMeta
from tests.support.redis_server import database_of_its_own, throwaway_redis
from tests.unit.rules.toy import Added, Dealt, Event

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def own_redis_url() -> Iterator[str]:
    """A Redis server of this module's own.

    These matches have deadlines long past (created at 1 s after the epoch): on the session's
    server, a dispatcher started by another test takes them at once (seen in a full run).
    """
    with throwaway_redis() as (url, _kind):
        yield url


@pytest.fixture
async def store(own_redis_url: str) -> AsyncIterator[MatchStore]:
    redis = Redis.from_url(own_redis_url)
    store = MatchStore(redis, shards=4)
    yield store
    store.close()
    await redis.aclose()


def notice(match_id: str, version: int) -> bytes:
    """A real turn notice: the shard feeds are shared with other tests' readers, which parse every entry."""
    return common_pb2.MatchEvent(match_id=match_id, game="g", version=version).SerializeToString()


def new_match(match_id: str) -> NewMatch:
    meta = MatchMeta(
        game="g",
        mode="m",
        options={},
        turn_timer_seconds=30,
        seats=[SeatMeta(0, "p0", "A"), SeatMeta(1, "p1", "B", bot=True, bot_level="random")],
        seed=1,
        created_ms=1_000,
    )
    return NewMatch(
        match_id=match_id,
        meta=meta,
        state=b"state-1",
        seat_versions=[1, 1],
        to_act=[0],
        deadlines=[SeatDeadline(0, 1, 31_000)],
        setup_events=[Dealt(seat=0, token=7)],
        notice=notice(match_id, 1),
        status="active",
        outcome=None,
    )


async def snapshot(store: MatchStore, match_id: str) -> dict[str, object]:
    keys = store.keys(match_id)
    redis = store.redis
    return {
        "state": await redis.hgetall(keys.state),
        "events": await redis.xlen(keys.events),
        "idem": await redis.hgetall(keys.idempotency),
        "feed": await redis.xlen(keys.shard.turns),
        "deadlines": await redis.zrange(keys.shard.deadlines, 0, -1, withscores=True),
    }


async def commit_for(store: MatchStore, match_id: str, key: str = "0:k1", **changes: object) -> Commit:
    record, _ = await store.load(match_id)
    assert record is not None
    commit = Commit(
        match_id=match_id,
        loaded=record,
        idempotency_field=key,
        answer=b"answer-2",
        seat=0,
        action=b"action",
        events=[Added(seat=0, count=3)],
        state=b"state-2",
        seat_versions=[2, 2],
        to_act=[1],
        deadlines=[SeatDeadline(1, 2, 45_000)],
        notice=notice(match_id, 2),
        outcome=None,
        now_ms=5_000,
        retention_seconds=600,
    )
    return replace(commit, **changes)  # type: ignore[arg-type]


async def test_create_writes_everything_once(store: MatchStore) -> None:
    match_id = uuid.uuid4().hex
    assert await store.create(new_match(match_id)) is True
    assert await store.create(replace(new_match(match_id), state=b"other")) is False
    record, _ = await store.load(match_id)
    assert record is not None
    assert (record.version, record.state, record.to_act, record.status) == (1, b"state-1", [0], "active")
    # The snapshot the host keeps after a create, without reading it back, is the one stored.
    assert new_match(match_id).stored() == record
    entries = await store.entries(match_id, 0)
    assert [(e.version, e.seat) for e in entries] == [(1, None)]
    assert msgspec.msgpack.decode(entries[0].events, type=list[Event]) == [Dealt(seat=0, token=7)]
    deadlines = await store.redis.zrange(store.keys(match_id).shard.deadlines, 0, -1, withscores=True)
    assert (f"{match_id}|0|1".encode(), 31_000.0) in deadlines


async def test_a_commit_stores_state_entry_answer_notice_and_deadlines(store: MatchStore) -> None:
    match_id = uuid.uuid4().hex
    await store.create(new_match(match_id))
    result = await store.commit(await commit_for(store, match_id))
    assert result.status == "ok"
    record, answer = await store.load(match_id, "0:k1")
    assert record is not None and answer == b"answer-2"
    assert (record.version, record.state, record.seat_versions, record.to_act) == (2, b"state-2", [2, 2], [1])
    entries = await store.entries(match_id, 1)
    assert [(e.version, e.seat, e.action) for e in entries] == [(2, 0, b"action")]
    deadlines = cast(
        "list[tuple[bytes, float]]",
        await store.redis.zrange(store.keys(match_id).shard.deadlines, 0, -1, withscores=True),
    )
    members = {m for m, _ in deadlines if m.decode().startswith(match_id)}
    assert members == {f"{match_id}|1|2".encode()}


async def test_a_commit_at_an_old_version_writes_nothing(store: MatchStore) -> None:
    match_id = uuid.uuid4().hex
    await store.create(new_match(match_id))
    stale = await commit_for(store, match_id)
    assert (await store.commit(await commit_for(store, match_id, key="0:other"))).status == "ok"
    before = await snapshot(store, match_id)
    result = await store.commit(replace(stale, idempotency_field="0:third"))
    assert result.status == "conflict"
    assert await snapshot(store, match_id) == before


async def test_a_seen_idempotency_key_returns_the_first_answer_and_writes_nothing(store: MatchStore) -> None:
    match_id = uuid.uuid4().hex
    await store.create(new_match(match_id))
    await store.commit(await commit_for(store, match_id))
    before = await snapshot(store, match_id)
    again = await commit_for(store, match_id, answer=b"a different answer")
    result = await store.commit(again)
    assert (result.status, result.answer) == ("duplicate", b"answer-2")
    assert await snapshot(store, match_id) == before


async def test_a_missing_match_is_reported(store: MatchStore) -> None:
    match_id = uuid.uuid4().hex
    await store.create(new_match(match_id))
    commit = await commit_for(store, match_id)
    await store.redis.delete(store.keys(match_id).state)
    assert (await store.commit(commit)).status == "missing"


async def test_the_final_move_sets_expiry_and_moves_the_match_to_the_finished_index(store: MatchStore) -> None:
    match_id = uuid.uuid4().hex
    await store.create(new_match(match_id))
    outcome = Outcome([SeatResult(0, "win"), SeatResult(1, "loss", rank=2)], "done")
    await store.commit(await commit_for(store, match_id, outcome=outcome, deadlines=[], to_act=[]))
    keys = store.keys(match_id)
    for key in (keys.state, keys.events, keys.idempotency):
        assert 0 < await store.redis.ttl(key) <= 600
    assert await store.redis.zscore(keys.shard.active, match_id) is None
    assert await store.redis.zscore(keys.shard.finished, match_id) == 1_000
    record, _ = await store.load(match_id)
    assert record is not None and record.finished and record.outcome == outcome
    left = cast("list[bytes]", await store.redis.zrange(keys.shard.deadlines, 0, -1))
    assert not [m for m in left if m.decode().startswith(match_id)]
    finished = await store.list_records("finished", 100, None)
    assert match_id in [r.match_id for r in finished]


async def test_the_results_feed_gets_the_final_notice_and_no_other(store: MatchStore) -> None:
    match_id = uuid.uuid4().hex
    results = store.keys(match_id).shard.results

    async def notices_of_the_match() -> list[bytes]:
        entries = cast("list[tuple[bytes, dict[bytes, bytes]]]", await store.redis.xrange(results))
        return [f[b"pb"] for _, f in entries if common_pb2.MatchEvent.FromString(f[b"pb"]).match_id == match_id]

    await store.create(new_match(match_id))
    await store.commit(await commit_for(store, match_id))
    assert await notices_of_the_match() == []  # a new match and an ordinary move: the turn feed only
    outcome = Outcome([SeatResult(0, "win"), SeatResult(1, "loss", rank=2)], "done")
    final = notice(match_id, 3)
    await store.commit(
        await commit_for(store, match_id, key="1:k2", outcome=outcome, deadlines=[], to_act=[], notice=final)
    )
    assert await notices_of_the_match() == [final]
    # A match over at its creation has its notice there at once.
    over = uuid.uuid4().hex
    await store.create(replace(new_match(over), outcome=outcome, status="finished", notice=notice(over, 1)))
    entries = cast("list[tuple[bytes, dict[bytes, bytes]]]", await store.redis.xrange(store.keys(over).shard.results))
    assert notice(over, 1) in [f[b"pb"] for _, f in entries]


async def test_keys_of_a_match_share_one_hash_tag(store: MatchStore) -> None:
    keys = store.keys("abc")
    tags = {k.split("{")[1].split("}")[0] for k in (keys.state, keys.events, keys.idempotency, *keys.shard)}
    assert len(tags) == 1


async def test_a_commit_trims_its_shard_feed_by_age_as_well_as_by_length(redis_url: str) -> None:
    """Notices older than the feed's age bound go (in whole stream nodes: at most ~100 old ones stay)."""
    redis = Redis.from_url(database_of_its_own(redis_url, 7))  # a database of its own: the feed starts empty
    try:
        await redis.flushdb()
        store = MatchStore(redis, shards=1, feed_max_age_s=60)
        match_id = uuid.uuid4().hex
        feed = store.keys(match_id).shard.turns
        for ms in range(1_000, 1_400):
            await redis.xadd(feed, {"pb": notice("old", 1)}, id=f"{ms}-0")
        await store.create(new_match(match_id))
        now_ms = int(time.time() * 1000)
        assert (await store.commit(await commit_for(store, match_id, now_ms=now_ms))).status == "ok"
        old = cast("list[object]", await redis.xrange(feed, min="-", max=f"{now_ms - 60_000}"))
        assert len(old) <= 100, len(old)
        assert await redis.xlen(feed) >= 2  # the create's and the commit's notices stay
        store.close()
    finally:
        await redis.flushdb()
        await redis.aclose()
