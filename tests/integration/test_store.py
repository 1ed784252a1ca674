"""The match store's Lua scripts on a real Redis: all of a move lands, or none of it.

The last tests check the scripts against the record's one schema (MatchRecord and the
scripts' argument structs): what they read and write is what the structs name.
"""

from __future__ import annotations

import re
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
from menagerie.shared.store import (
    FINISHED,
    Commit,
    DecisionCount,
    MatchMeta,
    MatchRecord,
    MatchStore,
    NewMatch,
    SeatDeadline,
    SeatMeta,
    StoredEntry,
)
from menagerie.shared.store.hashes import HashCodec
from menagerie.shared.store.match_store import ARCHIVE_FIELD, LIVE_EVERY_MS, LIVE_FIELD
from menagerie.shared.store.scripts import CreateArgs, SeatArgs, SubmitArgs, source
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


def new_match(match_id: str, **changes: object) -> NewMatch:
    """A match of two seats at version 1; `changes` replace fields of its record."""
    meta = MatchMeta(
        game="g",
        mode="m",
        options={},
        turn_timer_seconds=30,
        seats=[SeatMeta(0, "p0", "A"), SeatMeta(1, "p1", "B", bot=True, bot_level="random")],
        seed=1,
        created_ms=1_000,
    )
    record = MatchRecord(
        match_id=match_id,
        meta=meta,
        version=1,
        state=b"state-1",
        seat_versions=[1, 1],
        to_act=[0],
        deadlines=[SeatDeadline(0, 1, 31_000)],
        status="active",
        outcome=None,
        updated_ms=meta.created_ms,
        decisions=[DecisionCount()] * 2,
    )
    setup = StoredEntry(1, None, b"", msgspec.msgpack.encode([Dealt(seat=0, token=7)]), meta.created_ms)
    return NewMatch(msgspec.structs.replace(record, **changes), setup, notice(match_id, 1))


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


async def commit_for(
    store: MatchStore, match_id: str, key: str = "0:k1", answer: bytes = b"answer-2", **changes: object
) -> Commit:
    """Seat 0's move on the stored match, to version 2; `changes` replace fields of the record it makes."""
    record, _ = await store.load(match_id)
    assert record is not None
    applied = msgspec.structs.replace(
        record,
        version=record.version + 1,
        state=b"state-2",
        seat_versions=[2, 2],
        to_act=[1],
        deadlines=[SeatDeadline(1, 2, 45_000)],
        updated_ms=5_000,
        decisions=[DecisionCount(1, 0), DecisionCount()],
    )
    applied = msgspec.structs.replace(applied, **changes)
    if applied.outcome is not None:
        applied = msgspec.structs.replace(applied, status=FINISHED)
    entry = StoredEntry(applied.version, 0, b"action", msgspec.msgpack.encode([Added(seat=0, count=3)]), 5_000)
    return Commit(record, applied, entry, key, answer, notice(match_id, applied.version), retention_seconds=600)


async def test_create_writes_everything_once(store: MatchStore) -> None:
    match_id = uuid.uuid4().hex
    assert await store.create(new_match(match_id)) is True
    assert await store.create(new_match(match_id, state=b"other")) is False
    record, _ = await store.load(match_id)
    assert record is not None
    assert (record.version, record.state, record.to_act, record.status) == (1, b"state-1", [0], "active")
    # The snapshot the host keeps after a create, without reading it back, is the one stored.
    assert new_match(match_id).record == record
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
    final = notice(match_id, 3)  # what commit_for sends with the move to version 3
    await store.commit(await commit_for(store, match_id, key="1:k2", outcome=outcome, deadlines=[], to_act=[]))
    assert await notices_of_the_match() == [final]
    # A match over at its creation has its notice there at once.
    over = uuid.uuid4().hex
    await store.create(new_match(over, outcome=outcome, status="finished"))
    entries = cast("list[tuple[bytes, dict[bytes, bytes]]]", await store.redis.xrange(store.keys(over).shard.results))
    assert notice(over, 1) in [f[b"pb"] for _, f in entries]


async def test_a_watched_matchs_notice_asks_for_a_live_estimate_at_most_once_a_period(store: MatchStore) -> None:
    match_id = uuid.uuid4().hex
    keys = store.keys(match_id)

    async def move_asks_for_one(key: str) -> bool:
        """Commits a move; whether its turn notice carries the live field."""
        assert (await store.commit(await commit_for(store, match_id, key=key))).status == "ok"
        entries = cast("list[tuple[bytes, dict[bytes, bytes]]]", await store.redis.xrevrange(keys.shard.turns))
        fields = next(f for _, f in entries if common_pb2.MatchEvent.FromString(f[b"pb"]).match_id == match_id)
        return fields.get(LIVE_FIELD) == b"1"

    await store.create(new_match(match_id))
    assert not await move_asks_for_one("0:k1")  # nobody watches the chart
    await store.watch_live(match_id)
    assert await move_asks_for_one("0:k2")
    assert 0 < await store.redis.pttl(keys.live_due) <= LIVE_EVERY_MS
    assert not await move_asks_for_one("0:k3")  # one was asked for within the period
    await store.redis.delete(keys.live_due)  # the period is over
    assert await move_asks_for_one("0:k4")
    await store.redis.delete(keys.watched, keys.live_due)  # the spectator left
    assert not await move_asks_for_one("0:k5")


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
        assert (await store.commit(await commit_for(store, match_id, updated_ms=now_ms))).status == "ok"
        old = cast("list[object]", await redis.xrange(feed, min="-", max=f"{now_ms - 60_000}"))
        assert len(old) <= 100, len(old)
        assert await redis.xlen(feed) >= 2  # the create's and the commit's notices stay
        store.close()
    finally:
        await redis.flushdb()
        await redis.aclose()


# --- The record's one schema: MatchRecord, through MatchStore.records, read by name in Lua.

SCRIPT_ARGS = {"create.lua": CreateArgs, "submit.lua": SubmitArgs, "seat.lua": SeatArgs}


@pytest.mark.parametrize("script", sorted(SCRIPT_ARGS))
def test_a_script_reads_its_one_argument_by_the_fields_of_its_struct(script: str) -> None:
    """Every field of the struct is read by the script, and the script reads no other (nor another ARGV)."""
    text = source(script)
    read = set(re.findall(r"\bargs\.(\w+)", text))
    assert read == set(SCRIPT_ARGS[script].__struct_fields__)
    assert set(re.findall(r"ARGV\[(\d+)\]", text)) == {"1"}
    assert "local args = cmsgpack.unpack(ARGV[1])" in text


def test_the_state_hash_fields_a_script_names_are_the_records() -> None:
    """The few the scripts name themselves (the version and seating checks, 'finished') are MatchRecord's."""
    named = {
        field
        for script in ("create.lua", "submit.lua", "compact.lua", "seat.lua")
        for field in re.findall(r"'H(?:GET|SET)', KEYS\[1\], '(\w+)'", source(script))
    }
    assert named == {"version", "status", "seating", ARCHIVE_FIELD}
    assert named - {ARCHIVE_FIELD} <= set(MatchStore.records.names)
    assert MatchStore.records.names == tuple(f for f in MatchRecord.__struct_fields__ if f != "match_id")


def as_stored(record: MatchRecord) -> dict[str, bytes]:
    """Every stored field of `record`, as MatchStore.records writes it."""
    values = msgspec.structs.astuple(record)
    return {e.name: e.encode(values[e.position]) for e in MatchStore.records.encoders()}


async def stored_fields(store: MatchStore, match_id: str) -> dict[str, bytes]:
    raw = cast("dict[bytes, bytes]", await store.redis.hgetall(store.keys(match_id).state))
    return {name.decode(): value for name, value in raw.items()}


async def test_create_and_submit_write_every_field_of_the_record_under_its_name(store: MatchStore) -> None:
    match_id = uuid.uuid4().hex
    new = new_match(match_id)
    await store.create(new)
    assert await stored_fields(store, match_id) == as_stored(new.record)
    outcome = Outcome([SeatResult(0, "win"), SeatResult(1, "loss", rank=2)], "done")
    commit = await commit_for(store, match_id, outcome=outcome, deadlines=[], to_act=[])
    assert (await store.commit(commit)).status == "ok"
    # Every field as the codec writes it: all but the match id (the key), none other.
    assert await stored_fields(store, match_id) == as_stored(commit.applied)
    record, _ = await store.load(match_id)
    assert record == commit.applied


class Annotated(MatchRecord):
    """MatchRecord with a field added, as a future change would add one."""

    note: str = ""
    tally: list[int] = msgspec.field(default_factory=list)


class AnnotatedStore(MatchStore):
    records = HashCodec(Annotated, key=("match_id",))


async def test_a_field_added_to_the_record_is_written_and_read_with_no_other_change(own_redis_url: str) -> None:
    """The scripts and the reads take their fields from the struct: a new one needs nothing else."""
    redis = Redis.from_url(own_redis_url)
    store = AnnotatedStore(redis, shards=4)
    try:
        match_id = uuid.uuid4().hex
        new = new_match(match_id)
        created = Annotated(**msgspec.structs.asdict(new.record), note="created", tally=[1])
        assert await store.create(replace(new, record=created))
        assert (await stored_fields(store, match_id))["note"] == b"created"
        commit = await commit_for(store, match_id, note="moved", tally=[1, 2])
        assert (await store.commit(commit)).status == "ok"
        record, _ = await store.load(match_id)
        assert isinstance(record, Annotated)
        assert (record.note, record.tally, record.version) == ("moved", [1, 2], 2)
        assert set(await stored_fields(store, match_id)) == {*MatchStore.records.names, "note", "tally"}
        # A record stored before the field existed reads as its default.
        await redis.hdel(store.keys(match_id).state, "note", "tally")
        record, _ = await store.load(match_id)
        assert isinstance(record, Annotated) and (record.note, record.tally) == ("", [])
    finally:
        store.close()
        await redis.aclose()
