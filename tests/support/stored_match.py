"""What the store keeps of a match, read straight from Redis."""

from __future__ import annotations

from typing import Any

import msgspec
import redis

from menagerie.rules.contract import MatchSetup
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
    for _, fields in stream_entries(client, keys.events, first="2-1"):  # entry 1 is the setup
        engine.apply(state, int(fields[b"seat"]), actions.decode(fields[b"action"]))
    stored = msgspec.msgpack.decode(hash_field(client, keys.state, "state"), type=state_type)
    return msgspec.msgpack.encode(state), msgspec.msgpack.encode(stored)
