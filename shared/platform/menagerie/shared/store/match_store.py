"""The Redis match store: snapshots, event streams, turn feeds and deadlines.

Every write of a match goes through one Lua script (create.lua, submit.lua), so a
move's state, events, idempotency record, turn notice and deadlines land together
or not at all. Once a match is over, compact.lua packs its event stream and recorded
answers into one compressed record (the state hash's 'archive' field): every read
here finds them there, so a finished match keeps a few kilobytes instead of one
stream entry and one answer per move.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Literal, cast

import msgspec
from redis.asyncio import Redis

from menagerie.rules.contract import Outcome
from menagerie.shared.store.keys import MatchKeys, deadline_member, match_keys, shard_keys
from menagerie.shared.store.pipelined import RedisRunner
from menagerie.shared.store.records import (
    FINISHED,
    Archive,
    DecisionCount,
    MatchMeta,
    MatchRecord,
    SeatDeadline,
    StoredEntry,
)

_FIELDS = (
    "meta",
    "version",
    "state",
    "seat_versions",
    "to_act",
    "deadlines",
    "status",
    "outcome",
    "updated_ms",
    "decisions",
)

_encode = msgspec.msgpack.Encoder().encode
_meta = msgspec.msgpack.Decoder(MatchMeta)
_ints = msgspec.msgpack.Decoder(list[int])
_deadlines = msgspec.msgpack.Decoder(list[SeatDeadline])
_outcome = msgspec.msgpack.Decoder(Outcome)
_decisions = msgspec.msgpack.Decoder(list[DecisionCount])
_archive = msgspec.msgpack.Decoder(Archive)
ARCHIVE_FIELD = "archive"  # of the state hash, once the match is compacted
_COMPRESSION_LEVEL = 6  # zlib's default: level 9 saves under 2% more here


def read_archive(raw: bytes) -> Archive:
    """A compacted match's entries and answers, from its state hash's 'archive' field."""
    return _archive.decode(zlib.decompress(raw))


def _script(name: str) -> str:
    return (resources.files("menagerie.shared.store") / "lua" / name).read_text()


def _pairs(mapping: dict[str, Any]) -> list[Any]:
    out: list[Any] = [len(mapping)]
    for key, value in mapping.items():
        out += [key, value]
    return out


@dataclass
class NewMatch:
    """Everything create.lua writes for a new match."""

    match_id: str
    meta: MatchMeta
    state: bytes
    seat_versions: list[int]
    to_act: list[int]
    deadlines: list[SeatDeadline]
    setup_events: list[Any]
    notice: bytes
    status: str
    outcome: Outcome | None

    def stored(self) -> MatchRecord:
        """The snapshot as create.lua stores it (version 1)."""
        return MatchRecord(
            match_id=self.match_id,
            meta=self.meta,
            version=1,
            state=self.state,
            seat_versions=self.seat_versions,
            to_act=self.to_act,
            deadlines=self.deadlines,
            status=self.status,
            outcome=self.outcome,
            updated_ms=self.meta.created_ms,
            decisions=[DecisionCount()] * len(self.meta.seats),
        )


@dataclass
class Commit:
    """Everything submit.lua writes for one accepted move."""

    match_id: str
    loaded: MatchRecord
    idempotency_field: str
    answer: bytes
    seat: int
    action: bytes
    events: list[Any]
    state: bytes
    seat_versions: list[int]
    to_act: list[int]
    deadlines: list[SeatDeadline]
    notice: bytes
    outcome: Outcome | None
    now_ms: int
    retention_seconds: int
    timeout_decision: bool = False
    # Every seat's decision count with this move counted (written in the same script).
    decisions: list[DecisionCount] = field(default_factory=list)
    # The engine's label of a timeout decision's action, for its seat (see StoredEntry).
    timeout_label: str = ""

    def applied(self) -> MatchRecord:
        """The snapshot as it is once this commit landed."""
        return MatchRecord(
            match_id=self.match_id,
            meta=self.loaded.meta,
            version=self.loaded.version + 1,
            state=self.state,
            seat_versions=self.seat_versions,
            to_act=self.to_act,
            deadlines=self.deadlines,
            status=FINISHED if self.outcome is not None else self.loaded.status,
            outcome=self.outcome,
            updated_ms=self.now_ms,
            decisions=self.decisions,
        )


@dataclass(frozen=True)
class CommitResult:
    """What became of a commit: stored, a duplicate (with the first answer), a lost race, or no match."""

    status: Literal["ok", "duplicate", "conflict", "missing"]
    answer: bytes = b""


class MatchStore:
    """Reads and writes matches in Redis; knows nothing of any game's rules."""

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
        self._create = redis.register_script(_script("create.lua"))
        self._submit = redis.register_script(_script("submit.lua"))
        self._compact = redis.register_script(_script("compact.lua"))
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

    @staticmethod
    def _deadline_pairs(match_id: str, deadlines: Sequence[SeatDeadline]) -> list[Any]:
        out: list[Any] = [len(deadlines)]
        for d in deadlines:
            out += [d.deadline_ms, _member(match_id, d)]
        return out

    async def create(self, new: NewMatch) -> bool:
        """Stores a new match at version 1; False if the id is taken."""
        keys = self.keys(new.match_id)
        state = {
            "meta": _encode(new.meta),
            "version": 1,
            "state": new.state,
            "seat_versions": _encode(new.seat_versions),
            "to_act": _encode(new.to_act),
            "deadlines": _encode(new.deadlines),
            "status": new.status,
            "outcome": _encode(new.outcome) if new.outcome else b"",
            "updated_ms": new.meta.created_ms,
            "decisions": _encode([DecisionCount()] * len(new.meta.seats)),
        }
        entry = {"seat": "", "action": b"", "events": _encode(new.setup_events), "time": new.meta.created_ms}
        args = [
            new.match_id,
            new.meta.created_ms,
            new.notice,
            self.feed_maxlen,
            1 if new.outcome is not None else 0,
            *_pairs(state),
            *_pairs(entry),
            *self._deadline_pairs(new.match_id, new.deadlines),
        ]
        script_keys = [
            keys.state,
            keys.events,
            keys.shard.turns,
            keys.shard.deadlines,
            keys.shard.active,
            keys.shard.results,
        ]
        return bool(await self._runner.script(self._create, script_keys, args))

    async def load(
        self, match_id: str, idempotency_field: str | None = None
    ) -> tuple[MatchRecord | None, bytes | None]:
        """The match's snapshot and, when asked, the answer recorded for an idempotency key."""
        keys = self.keys(match_id)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(keys.state, _FIELDS)
            if idempotency_field is not None:
                pipe.hget(keys.idempotency, idempotency_field)
            replies = await pipe.execute()
        answer = replies[1] if idempotency_field is not None else None
        record = _record(match_id, replies[0])
        if answer is None and idempotency_field is not None and record is not None and record.finished:
            # A compacted match keeps its answers in the archive (read only on this rare path).
            raw = cast("bytes | None", await self.redis.hget(keys.state, ARCHIVE_FIELD))
            if raw:
                answer = read_archive(raw).answers.get(idempotency_field)
        return record, answer

    async def commit(self, c: Commit) -> CommitResult:
        """Stores one accepted move unless the match moved on or the key was seen before."""
        keys = self.keys(c.match_id)
        finished = c.outcome is not None
        retention = c.retention_seconds if finished else 0
        removed = " ".join(_member(c.match_id, d) for d in c.loaded.deadlines)
        added = " ".join(f"{d.deadline_ms} {_member(c.match_id, d)}" for d in c.deadlines)
        args = (
            c.match_id,
            c.loaded.version,
            c.loaded.version + 1,
            c.idempotency_field,
            c.answer,
            c.notice,
            self.feed_maxlen,
            retention,
            c.loaded.meta.created_ms,
            c.now_ms - retention * 1000,
            # the state hash (same fields as _FIELDS, less meta and version)
            c.state,
            _encode(c.seat_versions),
            _encode(c.to_act),
            _encode(c.deadlines),
            FINISHED if finished else c.loaded.status,
            _encode(c.outcome) if c.outcome else b"",
            c.now_ms,
            # the event-stream entry
            c.seat,
            c.action,
            _encode(c.events),
            c.now_ms,
            1 if c.timeout_decision else 0,
            removed,
            added,
            f"{max(0, c.now_ms - self.feed_max_age_s * 1000)}-0",
            _encode(c.decisions),
            c.timeout_label,
        )
        script_keys = (
            keys.state,
            keys.events,
            keys.idempotency,
            keys.shard.turns,
            keys.shard.deadlines,
            keys.shard.active,
            keys.shard.finished,
            keys.shard.results,
        )
        reply = await self._runner.script(self._submit, script_keys, (_packed(args),))
        status = reply[0].decode()
        return CommitResult(status=status, answer=reply[1] if status == "duplicate" else b"")

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
            pipe.hmget(keys.state, _FIELDS)
            pipe.hget(keys.state, ARCHIVE_FIELD)
            pipe.xrange(keys.events, min=f"({after_version}-1", max="+")
            state, archive, raw = await pipe.execute()
        return _record(match_id, state), _entries(archive, raw, after_version)

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
                pipe.hmget(self.keys(match_id).state, _FIELDS)
            states = await pipe.execute()
        records = [_record(match_id, state) for match_id, state in zip(ids, states, strict=True)]
        return [r for r in records if r is not None]

    async def memory_usage(self, match_id: str) -> int:
        """Bytes Redis uses for the match's own keys (state, events, idempotency)."""
        keys = self.keys(match_id)
        total = 0
        for key in (keys.state, keys.events, keys.idempotency):
            total += int(await self.redis.memory_usage(key, samples=0) or 0)
        return total


def _packed(values: Sequence[bytes | str | int]) -> bytes:
    """One script argument holding many: "<length>:<bytes>" per value (submit.lua unpacks it)."""
    parts: list[bytes] = []
    for value in values:
        raw = value if isinstance(value, bytes) else str(value).encode()
        parts += (b"%d:" % len(raw), raw)
    return b"".join(parts)


def _member(match_id: str, deadline: SeatDeadline) -> str:
    return deadline_member(match_id, deadline.seat, deadline.view_version)


def _record(match_id: str, values: list[bytes | None]) -> MatchRecord | None:
    meta, version, state, seat_versions, to_act, deadlines, status, outcome, updated_ms, decisions = values
    if meta is None or version is None or state is None:
        return None
    return MatchRecord(
        match_id=match_id,
        meta=_meta.decode(meta),
        version=int(version),
        state=state,
        seat_versions=_ints.decode(seat_versions or b"\x90"),
        to_act=_ints.decode(to_act or b"\x90"),
        deadlines=_deadlines.decode(deadlines or b"\x90"),
        status=(status or b"active").decode(),
        outcome=_outcome.decode(outcome) if outcome else None,
        updated_ms=int(updated_ms or 0),
        decisions=_decisions.decode(decisions) if decisions else [],
    )


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
    )
