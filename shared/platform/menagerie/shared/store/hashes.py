"""A msgspec struct kept as a Redis hash: one hash field per struct field, named as the struct names it.

The struct is the schema: the field names, their order and each value's stored form all
come from its fields, so a field added to the struct is written by every script that writes
the hash and read by every read of it, with nothing else to change (docs/architecture.md
"Match keys"). A value is stored as:

- bytes as they are; a str as UTF-8; an int in decimal (legible in redis-cli, as Redis
  would print it);
- anything else (a struct, a list) as msgpack;
- None, where the type allows it, as the empty string.
"""

from __future__ import annotations

import functools
import operator
import types
import typing
from collections.abc import Callable, Collection, Sequence
from typing import Any, Generic, TypeVar

import msgspec

S = TypeVar("S", bound=msgspec.Struct)
Encode = Callable[[Any], bytes]
Decode = Callable[[bytes], Any]

_msgpack = msgspec.msgpack.Encoder().encode
# decode(raw), as map() calls it without a Python frame per field (a read decodes one record per match).
_apply = typing.cast("Callable[[Decode, bytes | None], Any]", operator.call)


def _without_none(kind: Any) -> tuple[Any, bool]:
    """`kind` less None, and whether None was one of its choices (`X | None`)."""
    if typing.get_origin(kind) not in (types.UnionType, typing.Union):
        return kind, False
    choices = typing.get_args(kind)
    rest = tuple(c for c in choices if c is not type(None))
    if len(rest) == len(choices):
        return kind, False
    return functools.reduce(operator.or_, rest), True


def _codecs(kind: Any) -> tuple[Encode, Decode]:
    """How one field's value becomes the bytes the hash holds, and back."""
    inner, optional = _without_none(kind)
    encode: Encode
    decode: Decode
    # C callables where there is one: a record costs one call per field each way.
    if inner is bytes:
        encode, decode = bytes, bytes  # bytes(b) is b itself: no copy
    elif inner is str:
        encode, decode = str.encode, bytes.decode
    elif inner is int:
        encode, decode = b"%d".__mod__, int
    else:
        encode, decode = _msgpack, msgspec.msgpack.Decoder(inner).decode
    if not optional:
        return encode, decode
    return (
        lambda value: b"" if value is None else encode(value),
        lambda raw: decode(raw) if raw else None,
    )


def _missing(field: msgspec.structs.FieldInfo) -> Callable[[], Any] | None:
    """What a hash without this field reads as: a factory of its default; None when it has none."""
    if field.default_factory is not msgspec.NODEFAULT:
        return typing.cast("Callable[[], Any]", field.default_factory)
    if field.default is not msgspec.NODEFAULT:
        default = field.default
        return lambda: default
    if _without_none(field.type)[1]:
        return lambda: None
    return None


class FieldEncoder(typing.NamedTuple):
    """How one field of a record becomes its hash field's value."""

    position: int  # in the struct (msgspec.structs.astuple's order)
    name: str
    encode: Encode


class HashCodec(Generic[S]):
    """The struct `kind` as a Redis hash; its first fields, those named in `key`, are not stored (the key says them).

    Built once per struct: the per-field work is chosen here, so a record costs one call per field each way.
    """

    def __init__(self, kind: type[S], key: Sequence[str] = ()) -> None:
        fields = msgspec.structs.fields(kind)
        if tuple(f.name for f in fields[: len(key)]) != tuple(key):  # a record is built positionally
            raise TypeError(f"{kind.__name__}: the key's fields {key} must be its first")
        stored = fields[len(key) :]
        codecs = [_codecs(f.type) for f in stored]
        self.kind = kind
        self._key_size = len(key)
        # The hash's field names, in the struct's order (HMGET's order too).
        self.names: tuple[str, ...] = tuple(f.name for f in stored)
        self._encoders = tuple(encode for encode, _ in codecs)
        self._decoders = tuple(decode for _, decode in codecs)
        self._missing = tuple(_missing(f) for f in stored)

    def encoders(self, skip: Collection[str] = ()) -> tuple[FieldEncoder, ...]:
        """How to write each stored field not in `skip`, in the struct's order."""
        if unknown := set(skip) - set(self.names):  # a field renamed: no longer skipped unnoticed
            raise ValueError(f"{self.kind.__name__} stores no field {sorted(unknown)}")
        return tuple(
            FieldEncoder(self._key_size + i, name, encode)
            for i, (name, encode) in enumerate(zip(self.names, self._encoders, strict=True))
            if name not in skip
        )

    def encode_field(self, record: S, name: str) -> bytes:
        """One stored field of `record` as the hash holds it."""
        index = self.names.index(name)
        return self._encoders[index](getattr(record, name))

    def decode(self, values: Sequence[bytes | None], *key: Any) -> S | None:
        """The record from HMGET's reply for `names`, after the key's fields; None when a required one is missing."""
        if None not in values:  # the usual case: every field there
            return self.kind(*key, *map(_apply, self._decoders, values))
        decoded = []
        for decode, missing, raw in zip(self._decoders, self._missing, values, strict=True):
            if raw is not None:
                decoded.append(decode(raw))
            elif missing is not None:
                decoded.append(missing())
            else:
                return None
        return self.kind(*key, *decoded)
