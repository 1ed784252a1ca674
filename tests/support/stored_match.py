"""What the store keeps of a match, read straight from Redis."""

from __future__ import annotations

from typing import Any, cast

import msgspec
import redis

from menagerie.rules.contract import MatchSetup
from menagerie.shared.store import StoredEntry, read_archive
from menagerie.shared.store.keys import match_keys
from menagerie.shared.store.records import MatchMeta
from tests.support.redis_server import hash_field, stream_entries

SHARDS = 16  # the services under test run with the default shard count


def replayed_and_stored_state(
    client: redis.Redis, match_id: str, engine: Any, action_type: Any, state_type: type[Any]
) -> tuple[bytes, bytes]:
    """The state rebuilt from the match's seed and its stored actions, and the state the store holds.

    Both as msgpack bytes, so a test compares them exactly.
    """
    keys = match_keys(match_id, SHARDS)
    meta = msgspec.msgpack.decode(hash_field(client, keys.state, "meta"), type=MatchMeta)
    state, _ = engine.setup(MatchSetup(meta.mode, len(meta.seats), meta.options), meta.seed)
    actions = msgspec.msgpack.Decoder(action_type)
    for seat, action in stored_moves(client, match_id):
        engine.apply(state, seat, actions.decode(action))
    stored = msgspec.msgpack.decode(hash_field(client, keys.state, "state"), type=state_type)
    return msgspec.msgpack.encode(state), msgspec.msgpack.encode(stored)


def stored_entries(client: redis.Redis, match_id: str) -> list[StoredEntry]:
    """Every stored entry after the setup (entry 1): the stream's, or the archive's once the match is compacted."""
    keys = match_keys(match_id, SHARDS)
    archive = client.hget(keys.state, "archive")
    if archive:
        return [e for e in read_archive(cast("bytes", archive)).entries if e.version > 1]
    out = []
    for entry_id, fields in stream_entries(client, keys.events, first="2-1"):
        seat = fields[b"seat"]
        out.append(
            StoredEntry(
                version=int(entry_id.split(b"-")[0]),
                seat=int(seat) if seat else None,
                action=fields[b"action"],
                events=fields[b"events"],
                time_ms=int(fields[b"time"]),
                timeout_decision=fields.get(b"auto") == b"1",
                away_decision=fields.get(b"away") == b"1",
            )
        )
    return out


def stored_moves(client: redis.Redis, match_id: str) -> list[tuple[int, bytes]]:
    """(seat, msgpack action) of every accepted move, in order."""
    return [(e.seat, e.action) for e in stored_entries(client, match_id) if e.seat is not None]


def idempotency_fields(client: redis.Redis, match_id: str) -> list[str]:
    """The idempotency hash's fields ("<seat>:<key>"), or the archive's once the match is compacted."""
    keys = match_keys(match_id, SHARDS)
    archive = client.hget(keys.state, "archive")
    if archive:
        return list(read_archive(cast("bytes", archive)).answers)
    return [k.decode() for k in cast("list[bytes]", client.hkeys(keys.idempotency))]
