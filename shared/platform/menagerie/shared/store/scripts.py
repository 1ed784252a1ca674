"""The match scripts' arguments: one msgpack struct per script, read by name in Lua.

A script gets one argument, the struct encoded once, and decodes it with Redis's
`cmsgpack.unpack` into a table with the struct's field names (`args.record`, …);
tests/integration/test_store.py checks every script reads exactly its struct's fields.
The state hash's fields travel as one flat list of (field, value) pairs, packed by
`RecordPairs` with MatchRecord's codec (menagerie.shared.store.hashes); the scripts hand it
to HSET whole, naming none of its fields.

Every value a script hands on to Redis is a string: Lua's numbers are doubles, printed in
14 digits when concatenated. Binary values go as msgpack *str* (see `lua_string`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from importlib import resources
from typing import Generic

import msgspec

from menagerie.shared.store.hashes import HashCodec, S

encode = msgspec.msgpack.Encoder().encode
# A fixstr header per length below 32: most values (versions, small lists) are that short.
_FIXSTR = [bytes((0xA0 | n,)) for n in range(32)]
_NAMES: dict[str, bytes] = {}  # a field name as a msgpack str: the same few names all along


def _str_head(n: int) -> bytes:
    """The header of a msgpack str of n bytes."""
    if n < 32:
        return _FIXSTR[n]
    if n < 0x100:
        return b"\xd9" + n.to_bytes(1, "big")
    if n < 0x10000:
        return b"\xda" + n.to_bytes(2, "big")
    return b"\xdb" + n.to_bytes(4, "big")


def lua_string(raw: bytes) -> msgspec.Raw:
    """`raw` as a msgpack str of any bytes: Redis's cmsgpack (7.0) rejects msgpack's bin types."""
    return msgspec.Raw(_str_head(len(raw)) + raw)


def lua_pairs(pairs: Sequence[tuple[str, bytes]]) -> msgspec.Raw:
    """(field, value) pairs as one flat msgpack array of str, as HSET and XADD take them (`unpack(args.record)`).

    Written out here in one join (not one Raw per value for msgspec to copy in): a move sends two such lists.
    """
    parts = [_array_head(2 * len(pairs))]
    extend, names = parts.extend, _NAMES
    for name, value in pairs:
        size = len(value)
        extend(
            (
                names[name] if name in names else _name(name),
                _FIXSTR[size] if size < 32 else _str_head(size),
                value,
            )
        )
    return msgspec.Raw(b"".join(parts))


def _name(name: str) -> bytes:
    """A field name as a msgpack str, kept for the next time."""
    raw = name.encode()
    _NAMES[name] = packed = _str_head(len(raw)) + raw
    return packed


def _array_head(n: int) -> bytes:
    """The header of a msgpack array of n items."""
    if n < 16:
        return bytes((0x90 | n,))
    return b"\xdc" + n.to_bytes(2, "big") if n < 0x10000 else b"\xdd" + n.to_bytes(4, "big")


class RecordPairs(Generic[S]):
    """A record's hash fields (those of `codec`, less `skip`) as `lua_pairs` packs them, in one pass.

    A move writes one on its hot path: encoding each value and packing it in the same loop
    saves a list of pairs and a second loop over it.
    """

    def __init__(self, codec: HashCodec[S], skip: Collection[str] = ()) -> None:
        encoders = codec.encoders(skip)
        self._head = _array_head(2 * len(encoders))
        self._fields = tuple((e.position, _name(e.name), e.encode) for e in encoders)

    def __call__(self, record: S) -> msgspec.Raw:
        """The pairs of `record`."""
        values = msgspec.structs.astuple(record)
        parts = [self._head]
        extend = parts.extend
        for position, name, encode in self._fields:
            raw = encode(values[position])
            size = len(raw)
            extend((name, _FIXSTR[size] if size < 32 else _str_head(size), raw))
        return msgspec.Raw(b"".join(parts))


def source(name: str) -> str:
    """The text of the store's Lua script `name` (e.g. "submit.lua")."""
    return (resources.files("menagerie.shared.store") / "lua" / name).read_text()


class CreateArgs(msgspec.Struct, omit_defaults=True):
    """create.lua's argument: a new match at version 1."""

    match_id: str
    created_ms: str  # its score in the shard's active index
    record: msgspec.Raw  # RecordPairs: the state hash, every field of MatchRecord
    entry: msgspec.Raw  # lua_pairs: the event stream's entry 1-1, the setup's events
    deadlines_added: list[str]  # score, member, score, member … of the shard's deadlines set
    notice: msgspec.Raw  # the turn notice (MatchEvent), on the shard's turn feed
    feed_maxlen: str
    finished: bool  # over at its creation: the notice goes on the results feed too
    bot_turns: msgspec.Raw  # lua_pairs: (seat, BotTurn) of each bot seat to act, for the bot turns hash
    # The create.lua span's context, beside the notice on the turn feed; left out ("") when traces are off.
    traceparent: str = ""


class SubmitArgs(msgspec.Struct, omit_defaults=True):
    """submit.lua's argument: one accepted move."""

    match_id: str
    loaded_version: str  # the move was decided on this version: any other stored one is a conflict
    loaded_seating: str  # and this seating (MatchRecord.seating): a leave or return since is a conflict too
    idempotency_field: str
    answer: msgspec.Raw  # the first answer, kept under idempotency_field
    record: msgspec.Raw  # RecordPairs: the state hash, MatchRecord's fields less what a move never changes
    entry_id: str  # "<new version>-1"
    entry: msgspec.Raw  # lua_pairs: the event stream's entry for the move
    deadlines_removed: list[str]  # members of the shard's deadlines set
    deadlines_added: list[str]  # score, member, score, member …
    notice: msgspec.Raw  # the turn notice (MatchEvent)
    bot_turns: msgspec.Raw  # lua_pairs: (seat, BotTurn) of each bot seat to act, replacing the hash's
    feed_maxlen: str
    feed_min_id: str  # the feeds keep entries from this id on (their age bound)
    # When the move ends the match: its keys expire after retention_s, it moves from the active
    # index to the finished one (scored created_ms, which drops matches scored below
    # finished_min_ms) and the notice goes on the results feed too.
    finished: bool
    retention_s: str
    created_ms: str
    finished_min_ms: str
    live_every_ms: str  # a watched match's notice asks for a live estimate at most this often
    # The submit.lua span's context, beside the notice on the turn feed; left out ("") when traces are off.
    traceparent: str = ""


class SeatArgs(msgspec.Struct):
    """seat.lua's argument: a player leaves a seat to a bot, or returns to it."""

    loaded_version: str  # decided on this version and seating: any other stored one is a conflict
    loaded_seating: str
    record: msgspec.Raw  # lua_pairs: the state hash's away, seating and deadlines fields
    deadlines_removed: list[str]  # members of the shard's deadlines set
    deadlines_added: list[str]  # score, member, score, member …
    notice: msgspec.Raw  # the turn notice (MatchEvent)
    feed_maxlen: str
