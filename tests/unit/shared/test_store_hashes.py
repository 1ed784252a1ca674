"""MatchRecord's codec (menagerie.shared.store.hashes): its hash fields are the struct's, both ways."""

from __future__ import annotations

import msgspec
import pytest

from menagerie.rules.contract import Outcome, SeatResult
from menagerie.shared.store import DecisionCount, MatchMeta, MatchRecord, SeatDeadline, SeatMeta
from menagerie.shared.store.hashes import HashCodec
from menagerie.shared.store.scripts import RecordPairs, lua_pairs, lua_string

CODEC = HashCodec(MatchRecord, key=("match_id",))
META = MatchMeta("g", "m", {"o": "1"}, 30, [SeatMeta(0, "p0", "A"), SeatMeta(1, "p1", "B", bot=True)], 7, 1_000)


def record(**changes: object) -> MatchRecord:
    """A record at version 3 with every field set."""
    base = MatchRecord(
        match_id="m1",
        meta=META,
        version=3,
        state=b"\x00state\xff",
        seat_versions=[3, 2],
        to_act=[1],
        deadlines=[SeatDeadline(1, 2, 45_000)],
        status="active",
        outcome=None,
        updated_ms=1_764_800_000_123,
        decisions=[DecisionCount(1, 0), DecisionCount(0, 1)],
    )
    return msgspec.structs.replace(base, **changes)


def stored(original: MatchRecord, skip: tuple[str, ...] = ()) -> dict[str, bytes]:
    """What the hash holds of `original`: its fields, less `skip`, through the codec's encoders."""
    values = msgspec.structs.astuple(original)
    return {e.name: e.encode(values[e.position]) for e in CODEC.encoders(skip)}


def hmget(fields: dict[str, bytes]) -> list[bytes | None]:
    """HMGET's reply for the codec's names from a hash holding `fields`."""
    return [fields.get(name) for name in CODEC.names]


def test_the_hash_fields_are_the_struct_fields_in_its_order_less_the_key() -> None:
    assert CODEC.names == MatchRecord.__struct_fields__[1:]
    assert list(stored(record())) == list(CODEC.names)
    assert list(stored(record(), skip=("meta",))) == list(CODEC.names[1:])
    with pytest.raises(ValueError, match="stores no field"):
        CODEC.encoders(skip=("match_id",))  # the key's: never stored


def test_values_are_stored_as_the_hash_held_them_before_the_codec() -> None:
    """bytes as they are, str as UTF-8, int in decimal, None as '', the rest msgpack: the stored layout."""
    finished = record(status="finished", outcome=Outcome([SeatResult(0, "win"), SeatResult(1, "loss")], "done"))
    hash_fields = stored(finished)
    assert hash_fields["state"] == b"\x00state\xff"
    assert (hash_fields["version"], hash_fields["status"], hash_fields["updated_ms"]) == (
        b"3",
        b"finished",
        b"1764800000123",
    )
    assert hash_fields["meta"] == msgspec.msgpack.encode(META)
    assert hash_fields["decisions"] == msgspec.msgpack.encode(finished.decisions)
    assert hash_fields["outcome"] == msgspec.msgpack.encode(finished.outcome)
    assert stored(record())["outcome"] == b""


def test_a_record_reads_back_as_it_was_written() -> None:
    for original in (record(), record(outcome=Outcome([SeatResult(0, "draw")], "even"), status="finished")):
        assert CODEC.decode(hmget(stored(original)), "m1") == original


def test_a_missing_field_reads_as_its_default_or_the_record_is_missing() -> None:
    fields = stored(record())
    del fields["decisions"]  # written before the counts existed: the struct's default
    assert CODEC.decode(hmget(fields), "m1") == record(decisions=[])
    del fields["outcome"]  # may be None: missing reads as None
    assert CODEC.decode(hmget(fields), "m1") == record(decisions=[])
    del fields["version"]  # required: no record
    assert CODEC.decode(hmget(fields), "m1") is None
    assert CODEC.decode([None] * len(CODEC.names), "m1") is None


def test_lua_strings_carry_any_bytes_as_msgpack_str() -> None:
    """Redis's cmsgpack reads str, not bin: each length's header, and the bytes unchanged."""
    for size, head in ((0, b"\xa0"), (31, b"\xbf"), (32, b"\xd9\x20"), (255, b"\xd9\xff"), (256, b"\xda\x01\x00")):
        raw = bytes(range(256))[:size]
        packed = msgspec.msgpack.encode(lua_string(raw))
        assert packed == head + raw
    big = b"\xff" * 70_000
    assert msgspec.msgpack.encode(lua_string(big)) == b"\xdb" + (70_000).to_bytes(4, "big") + big


def read_strings(packed: bytes) -> list[bytes]:
    """A msgpack array of str, read as cmsgpack reads it: each str's bytes as they are (UTF-8 or not)."""
    head, pos = packed[0], 1
    if head == 0xDC:
        count, pos = int.from_bytes(packed[1:3], "big"), 3
    else:
        assert head & 0xF0 == 0x90
        count = head & 0x0F
    out = []
    for _ in range(count):
        kind = packed[pos]
        if kind & 0xE0 == 0xA0:
            size, pos = kind & 0x1F, pos + 1
        else:
            width = {0xD9: 1, 0xDA: 2, 0xDB: 4}[kind]
            size, pos = int.from_bytes(packed[pos + 1 : pos + 1 + width], "big"), pos + 1 + width
        out.append(packed[pos : pos + size])
        pos += size
    assert pos == len(packed)
    return out


def test_a_scripts_pairs_are_the_hash_fields_as_one_msgpack_array_of_str() -> None:
    """RecordPairs (the hot path's one pass) packs what lua_pairs packs from the codec's fields."""
    original = record(state=b"\xff" * 300)  # a str8 and a str16 header among the fixstr ones
    for skip in ((), ("meta",)):
        packed = bytes(RecordPairs(CODEC, skip)(original))
        assert packed == bytes(lua_pairs(list(stored(original, skip).items())))
        flat = read_strings(packed)
        expected = stored(original, skip)
        assert dict(zip(flat[::2], flat[1::2], strict=True)) == {k.encode(): v for k, v in expected.items()}
