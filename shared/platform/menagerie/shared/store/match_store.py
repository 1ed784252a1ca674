"""The Redis match store: snapshots, event streams, turn feeds and deadlines.

Every write of a match goes through one Lua script (create.lua, submit.lua), so a
move's state, events, idempotency record, turn notice and deadlines land together
or not at all. A script gets one argument, a struct of menagerie.shared.store.scripts
encoded once; the state hash it writes is MatchRecord's, field by field, through the
record's one codec (`MatchStore.records`), which every read here decodes with.
Once a match is over, compact.lua packs its event stream and recorded
answers into one compressed record (the state hash's 'archive' field): every read
here finds them there, so a finished match keeps a few kilobytes instead of one
stream entry and one answer per move.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, cast

import msgspec
from redis.asyncio import Redis

from menagerie.shared.store.hashes import HashCodec
from menagerie.shared.store.keys import MatchKeys, deadline_member, match_keys, shard_keys
from menagerie.shared.store.pipelined import RedisRunner
from menagerie.shared.store.records import FINISHED, Archive, MatchRecord, SeatDeadline, StoredEntry, WinEstimates
from menagerie.shared.store.scripts import (
    CreateArgs,
    RecordPairs,
    SeatArgs,
    SubmitArgs,
    encode,
    lua_pairs,
    lua_string,
    source,
)
from menagerie.shared.tracing import script_span

_encode = msgspec.msgpack.Encoder().encode
_archive = msgspec.msgpack.Decoder(Archive)
_win_estimates = msgspec.msgpack.Decoder(WinEstimates)
_chances = msgspec.msgpack.Decoder(list[float])
# How long a spectator's GetLiveWinChances keeps the match watched, and its live estimates kept after the last.
WATCH_SECONDS = 15
LIVE_SECONDS = 3600
# A watched match's turn notice asks for a live estimate at most this often (submit.lua; the chart
# is redrawn every few seconds anyway), and carries LIVE_FIELD when it does.
LIVE_EVERY_MS = 2000
LIVE_FIELD = b"live"
ARCHIVE_FIELD = "archive"  # of the state hash, once the match is compacted
_COMPRESSION_LEVEL = 6  # zlib's default: level 9 saves under 2% more here
# What a move never changes: create.lua writes it, submit.lua leaves it as it is.
_WRITTEN_ONCE = frozenset({"meta"})


def _bot_turns(turns: dict[int, bytes]) -> msgspec.Raw:
    """The bot turns hash's (seat, BotTurn) pairs, as HSET takes them."""
    return lua_pairs([(str(seat), turn) for seat, turn in turns.items()])


def read_archive(raw: bytes) -> Archive:
    """A compacted match's entries and answers, from its state hash's 'archive' field."""
    return _archive.decode(zlib.decompress(raw))


@dataclass
class NewMatch:
    """Everything create.lua writes for a new match."""

    record: MatchRecord  # the snapshot at version 1
    setup: StoredEntry  # the event stream's entry 1: the setup's events
    notice: bytes
    # Each bot seat to act: what its bot needs to decide (menagerie.shared.bots.BotTurn, encoded).
    bot_turns: dict[int, bytes] = field(default_factory=dict)


@dataclass
class Commit:
    """Everything submit.lua writes for one accepted move."""

    loaded: MatchRecord  # the snapshot the move was decided on (the script checks it is still the stored one)
    applied: MatchRecord  # the snapshot once the move landed
    entry: StoredEntry  # the move on the event stream
    idempotency_field: str
    answer: bytes
    notice: bytes
    retention_seconds: int  # how long a match this move ends is kept
    # Each bot seat to act after the move: what its bot needs to decide (BotTurn, encoded).
    bot_turns: dict[int, bytes] = field(default_factory=dict)


@dataclass
class SeatChange:
    """Everything seat.lua writes when a player leaves a seat to a bot or returns to it: no move, no new version."""

    loaded: MatchRecord  # the snapshot it was decided on (the script checks its version and seating)
    applied: MatchRecord  # with the new `away`, `seating` and deadlines
    notice: bytes  # a turn notice, so that the dispatcher sends a bot at once to a seat left while it must act


@dataclass(frozen=True)
class CommitResult:
    """What became of a commit: stored, a duplicate (with the first answer), a lost race, or no match."""

    status: Literal["ok", "duplicate", "conflict", "missing"]
    answer: bytes = b""


class MatchStore:
    """Reads and writes matches in Redis; knows nothing of any game's rules."""

    # The state hash: MatchRecord's fields, less the match id (its key says it).
    records: ClassVar[HashCodec[MatchRecord]] = HashCodec(MatchRecord, key=("match_id",))

    def __init__(
        self,
        redis: Redis,
        shards: int,
        feed_maxlen: int = 100_000,
        feed_max_age_s: int = 3600,
        runner: RedisRunner | None = None,
    ) -> None:
        self.redis = redis
        self.shards = shards
        # A shard's turn feed is bounded twice: by length, and by age (a quiet shard's old
        # notices would otherwise stay until its length bound is reached).
        self.feed_maxlen = feed_maxlen
        self.feed_max_age_s = feed_max_age_s
        self._create = redis.register_script(source("create.lua"))
        self._submit = redis.register_script(source("submit.lua"))
        self._compact = redis.register_script(source("compact.lua"))
        self._seat = redis.register_script(source("seat.lua"))
        self._estimates = redis.register_script(source("estimates.lua"))
        # The state hash as the scripts write it: every field at creation, what a move changes after.
        self._created_fields = RecordPairs(self.records)
        self._moved_fields = RecordPairs(self.records, skip=_WRITTEN_ONCE)
        # The hot path's two scripts (a new match, a move) over a pipelined connection: the
        # process's (Runtime.runner), or one of the store's own.
        self._owns_runner = runner is None
        self._runner = runner or RedisRunner.of(redis)

    def close(self) -> None:
        """Closes the store's own connection, if it made one (the Redis client is its owner's to close)."""
        if self._owns_runner:
            self._runner.close()

    def keys(self, match_id: str) -> MatchKeys:
        """The keys of one match."""
        return match_keys(match_id, self.shards)

    async def create(self, new: NewMatch) -> bool:
        """Stores a new match at version 1; False if the id is taken."""
        record = new.record
        keys = self.keys(record.match_id)
        script_keys = [
            keys.state,
            keys.events,
            keys.shard.turns,
            keys.shard.deadlines,
            keys.shard.active,
            keys.shard.results,
            keys.bot_turns,
        ]
        with script_span("create.lua") as traceparent:
            args = CreateArgs(
                match_id=record.match_id,
                created_ms=str(record.meta.created_ms),
                record=self._created_fields(record),
                entry=lua_pairs(_entry_fields(new.setup)),
                deadlines_added=_deadline_scores(record.match_id, record.deadlines),
                notice=lua_string(new.notice),
                feed_maxlen=str(self.feed_maxlen),
                finished=record.outcome is not None,
                bot_turns=_bot_turns(new.bot_turns),
                traceparent=traceparent,
            )
            return bool(await self._runner.script(self._create, script_keys, [encode(args)]))

    async def load(
        self, match_id: str, idempotency_field: str | None = None
    ) -> tuple[MatchRecord | None, bytes | None]:
        """The match's snapshot and, when asked, the answer recorded for an idempotency key."""
        keys = self.keys(match_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(keys.state, self.records.names)
            if idempotency_field is not None:
                pipe.hget(keys.idempotency, idempotency_field)
            replies = await pipe.execute()
        answer = replies[1] if idempotency_field is not None else None
        record = self.records.decode(replies[0], match_id)
        if answer is None and idempotency_field is not None and record is not None and record.finished:
            # A compacted match keeps its answers in the archive (read only on this rare path).
            raw = cast("bytes | None", await self.redis.hget(keys.state, ARCHIVE_FIELD))
            if raw:
                answer = read_archive(raw).answers.get(idempotency_field)
        return record, answer

    async def commit(self, c: Commit) -> CommitResult:
        """Stores one accepted move unless the match moved on or the key was seen before."""
        record = c.applied
        keys = self.keys(record.match_id)
        retention = c.retention_seconds if record.finished else 0
        with script_span("submit.lua") as traceparent:
            reply = await self._runner.script(
                self._submit, self._submit_keys(keys), (encode(self._submit_args(c, retention, traceparent)),)
            )
        status = reply[0].decode()
        return CommitResult(status=status, answer=reply[1] if status == "duplicate" else b"")

    @staticmethod
    def _submit_keys(keys: MatchKeys) -> tuple[str, ...]:
        return (
            keys.state,
            keys.events,
            keys.idempotency,
            keys.shard.turns,
            keys.shard.deadlines,
            keys.shard.active,
            keys.shard.finished,
            keys.shard.results,
            keys.bot_turns,
            keys.watched,
            keys.live_due,
        )

    def _submit_args(self, c: Commit, retention: int, traceparent: str) -> SubmitArgs:
        record = c.applied
        return SubmitArgs(
            match_id=record.match_id,
            loaded_version=str(c.loaded.version),
            loaded_seating=str(c.loaded.seating),
            idempotency_field=c.idempotency_field,
            answer=lua_string(c.answer),
            record=self._moved_fields(record),
            entry_id=f"{c.entry.version}-1",
            entry=lua_pairs(_entry_fields(c.entry)),
            deadlines_removed=[_member(record.match_id, d) for d in c.loaded.deadlines],
            deadlines_added=_deadline_scores(record.match_id, record.deadlines),
            notice=lua_string(c.notice),
            bot_turns=_bot_turns(c.bot_turns),
            feed_maxlen=str(self.feed_maxlen),
            feed_min_id=f"{max(0, record.updated_ms - self.feed_max_age_s * 1000)}-0",
            finished=record.finished,
            retention_s=str(retention),
            created_ms=str(record.meta.created_ms),
            finished_min_ms=str(record.updated_ms - retention * 1000),
            live_every_ms=str(LIVE_EVERY_MS),
            traceparent=traceparent,
        )

    async def change_seating(self, change: SeatChange) -> bool:
        """Stores a leave or a return unless the match moved on (a move, or another leave or return): False then."""
        record = change.applied
        keys = self.keys(record.match_id)
        args = SeatArgs(
            loaded_version=str(change.loaded.version),
            loaded_seating=str(change.loaded.seating),
            record=lua_pairs(
                [(name, self.records.encode_field(record, name)) for name in ("away", "seating", "deadlines")]
            ),
            deadlines_removed=[_member(record.match_id, d) for d in change.loaded.deadlines],
            deadlines_added=_deadline_scores(record.match_id, record.deadlines),
            notice=lua_string(change.notice),
            feed_maxlen=str(self.feed_maxlen),
        )
        script_keys = (keys.state, keys.shard.turns, keys.shard.deadlines)
        with script_span("seat.lua"):
            return bool(await self._seat(keys=script_keys, args=(encode(args),)))

    async def entries(self, match_id: str, after_version: int, limit: int | None = None) -> list[StoredEntry]:
        """Event-stream entries with version > after_version, oldest first (from the archive once compacted)."""
        keys = self.keys(match_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hget(keys.state, ARCHIVE_FIELD)
            pipe.xrange(keys.events, min=f"({after_version}-1", max="+", count=limit)
            archive, raw = await pipe.execute()
        return _entries(archive, raw, after_version)[:limit]

    async def snapshot(self, match_id: str, after_version: int) -> tuple[MatchRecord | None, list[StoredEntry]]:
        """The snapshot and the entries after `after_version`, read atomically (same version)."""
        keys = self.keys(match_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hmget(keys.state, self.records.names)
            pipe.hget(keys.state, ARCHIVE_FIELD)
            pipe.xrange(keys.events, min=f"({after_version}-1", max="+")
            state, archive, raw = await pipe.execute()
        return self.records.decode(state, match_id), _entries(archive, raw, after_version)

    async def compact(self, match_id: str, version: int) -> bool:
        """Packs a match finished at `version`: its stream and answers into one compressed record.

        Nothing writes to a finished match's stream or answers any more, so reading them
        first and compacting after is safe; the script checks the match is still finished
        at `version` (False: nothing done).
        """
        keys = self.keys(match_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.xrange(keys.events)
            pipe.hgetall(keys.idempotency)
            raw, answers = await pipe.execute()
        entries = [_entry(entry_id, fields) for entry_id, fields in cast("list[tuple[bytes, dict[bytes, bytes]]]", raw)]
        archive = Archive(entries, {field.decode(): answer for field, answer in answers.items()})
        packed = zlib.compress(_encode(archive), _COMPRESSION_LEVEL)
        script_keys = (keys.state, keys.events, keys.idempotency)
        return bool(await self._compact(keys=script_keys, args=(version, packed)))

    async def record_win_estimates(self, match_id: str, estimates: WinEstimates) -> bool:
        """Keeps a finished match's win estimates for as long as the match (False: no finished match, nothing done)."""
        keys = self.keys(match_id)
        return bool(await self._estimates(keys=(keys.state, keys.estimates), args=(_encode(estimates),)))

    async def win_estimates(self, match_id: str) -> WinEstimates | None:
        """The match's win estimates, once RecordWinEstimates kept them."""
        raw = cast("bytes | None", await self.redis.get(self.keys(match_id).estimates))
        return None if raw is None else _win_estimates.decode(raw)

    async def watch_live(self, match_id: str) -> dict[int, list[float]]:
        """Notes that someone watches the match's chart (for WATCH_SECONDS) and returns its live estimates so far."""
        keys = self.keys(match_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(keys.watched, b"1", ex=WATCH_SECONDS)
            pipe.hgetall(keys.live)
            _, raw = await pipe.execute()
        return {int(version): _chances.decode(value) for version, value in raw.items()}

    async def record_live(self, match_id: str, chances: dict[int, list[float]]) -> None:
        """Keeps a live match's estimates (each step's chances; empty: none) for LIVE_SECONDS after the last."""
        keys = self.keys(match_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(keys.live, mapping={str(v): _encode(c) for v, c in chances.items()})
            pipe.expire(keys.live, LIVE_SECONDS)
            await pipe.execute()

    async def list_records(self, status: str | None, limit: int, before: tuple[int, str] | None) -> list[MatchRecord]:
        """Matches newest first (by creation), optionally only those in `status`, older than `before`."""
        indexes = []
        for shard in range(self.shards):
            sk = shard_keys(shard)
            if status in (None, "active"):
                indexes.append(sk.active)
            if status in (None, FINISHED):
                indexes.append(sk.finished)
        high = "+inf" if before is None else before[0]
        async with self.redis.pipeline(transaction=False) as pipe:
            for index in indexes:
                pipe.zrevrangebyscore(index, high, "-inf", start=0, num=limit + 1, withscores=True)
            replies = await pipe.execute()
        candidates = sorted(
            {(int(score), member.decode()) for reply in replies for member, score in reply},
            reverse=True,
        )
        if before is not None:
            candidates = [c for c in candidates if c < before]
        ids = [match_id for _, match_id in candidates[:limit]]
        async with self.redis.pipeline(transaction=False) as pipe:
            for match_id in ids:
                pipe.hmget(self.keys(match_id).state, self.records.names)
            states = await pipe.execute()
        records = [self.records.decode(state, match_id) for match_id, state in zip(ids, states, strict=True)]
        return [r for r in records if r is not None]

    async def memory_usage(self, match_id: str) -> int:
        """Bytes Redis uses for the match's own keys (state, events, idempotency)."""
        keys = self.keys(match_id)
        total = 0
        for key in (keys.state, keys.events, keys.idempotency):
            total += int(await self.redis.memory_usage(key, samples=0) or 0)
        return total


def _member(match_id: str, deadline: SeatDeadline) -> str:
    return deadline_member(match_id, deadline.seat, deadline.view_version)


def _deadline_scores(match_id: str, deadlines: list[SeatDeadline]) -> list[str]:
    """Score, member, score, member … of the shard's deadlines set, as ZADD takes them."""
    out: list[str] = []
    for d in deadlines:
        out += (str(d.deadline_ms), _member(match_id, d))
    return out


def _entry_fields(entry: StoredEntry) -> list[tuple[str, bytes]]:
    """The stream entry's (field, value) pairs; `_entry` reads them back (the version is the entry's id)."""
    fields = [
        ("seat", b"" if entry.seat is None else b"%d" % entry.seat),
        ("action", entry.action),
        ("events", entry.events),
        ("time", b"%d" % entry.time_ms),
        ("auto", b"1" if entry.timeout_decision else b"0"),
    ]
    if entry.timeout_label:  # only a timeout decision has one: the others' entries stay smaller
        fields.append(("label", entry.timeout_label.encode()))
    if entry.away_decision:
        fields.append(("away", b"1"))
    return fields


def _entries(archive: bytes | None, raw: Any, after_version: int) -> list[StoredEntry]:
    """The entries after `after_version`: the archive's once compacted, else the stream's."""
    if archive:
        return [entry for entry in read_archive(archive).entries if entry.version > after_version]
    entries = cast("list[tuple[bytes, dict[bytes, bytes]]]", raw)
    return [_entry(entry_id, fields) for entry_id, fields in entries]


def _entry(entry_id: bytes, fields: dict[bytes, bytes]) -> StoredEntry:
    seat = fields.get(b"seat", b"")
    return StoredEntry(
        version=int(entry_id.split(b"-")[0]),
        seat=int(seat) if seat else None,
        action=fields.get(b"action", b""),
        events=fields[b"events"],
        time_ms=int(fields.get(b"time", b"0")),
        timeout_decision=fields.get(b"auto") == b"1",
        timeout_label=fields.get(b"label", b"").decode(),
        away_decision=fields.get(b"away") == b"1",
    )
