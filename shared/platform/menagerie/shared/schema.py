"""A game's engine types against its proto, word by word: each engine word has its enum value.

The codec (menagerie.shared.codec) maps enums by naming alone, derived from the proto's
descriptors: the engine string "advanced" of a `Mode` field is the enum value
MODE_ADVANCED. Nothing per game is written for it, so nothing per game can drift, except
the two declarations themselves: a `Literal` word the engine may send whose enum value the
proto lacks. That is found here, by walking the engine's msgspec types beside the message
descriptors (struct fields by name, tagged unions by their `oneof kind`), when a game's
binding is made (menagerie.shared.games.binding) rather than when a match first sends it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec.inspect as mi
from google.protobuf.descriptor import Descriptor, FieldDescriptor

from menagerie.shared.codec import TAG, enum_numbers, is_map

# The msgspec types that hold one kind of item (a list, a set, a tuple of any length).
_COLLECTIONS = (mi.ListType, mi.SetType, mi.FrozenSetType, mi.VarTupleType)


def _members(info: mi.Type) -> Iterator[mi.Type]:
    """The types `info` may be: the members of a union (Optional included) and the items of a collection."""
    if isinstance(info, mi.UnionType):
        for member in info.types:
            yield from _members(member)
    elif isinstance(info, _COLLECTIONS):
        yield from _members(info.item_type)
    elif isinstance(info, mi.TupleType):
        for item in info.item_types:
            yield from _members(item)
    else:
        yield info


def _words(info: mi.Type) -> set[str]:
    """Every string a field of type `info` may hold by its `Literal`s (empty: a plain str or no words)."""
    return {
        value
        for member in _members(info)
        if isinstance(member, mi.LiteralType)
        for value in member.values
        if isinstance(value, str)
    }


class _Walk:
    """One walk of an engine type beside a message type, collecting the words the proto lacks."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self._seen: set[tuple[type, str]] = set()  # (struct, message) pairs walked: types may recurse

    def message(self, info: mi.Type, descriptor: Descriptor) -> None:
        """Each struct `info` may be, against `descriptor` (a tagged one through the message's `oneof kind`)."""
        tagged = TAG in descriptor.oneofs_by_name
        for member in _members(info):
            if not isinstance(member, mi.StructType):
                continue
            target: Descriptor | None = descriptor
            if tagged and member.tag is not None:
                oneof = descriptor.fields_by_name.get(str(member.tag))
                target = oneof.message_type if oneof is not None else None
            if target is not None:
                self.struct(member, target)

    def struct(self, struct: mi.StructType, descriptor: Descriptor) -> None:
        """The struct's fields against the message's fields of the same names."""
        if (struct.cls, descriptor.full_name) in self._seen:
            return
        self._seen.add((struct.cls, descriptor.full_name))
        for field in struct.fields:
            proto = descriptor.fields_by_name.get(field.encode_name)
            if proto is not None:
                self.field(field.type, proto)

    def field(self, info: mi.Type, proto: Any) -> None:  # a FieldDescriptor, its parts typed Optional by the stubs
        """One field: its words against an enum, or its structs against a message (a map by its values)."""
        if is_map(proto):
            value = proto.message_type.fields_by_name["value"]
            for member in _members(info):
                if isinstance(member, mi.DictType):
                    self.field(member.value_type, value)
        elif proto.type == FieldDescriptor.TYPE_ENUM:
            known = enum_numbers(proto.enum_type)
            for word in sorted(_words(info) - set(known)):
                self.problems.append(f"{proto.full_name}: the engine's {word!r} has no {proto.enum_type.name} value")
        elif proto.type == FieldDescriptor.TYPE_MESSAGE:
            self.message(info, proto.message_type)


def enum_problems(engine_type: Any, descriptor: Descriptor) -> list[str]:
    """Every engine word of `engine_type` that an enum field of `descriptor` (recursively) cannot carry."""
    walk = _Walk()
    walk.message(mi.type_info(engine_type), descriptor)
    return walk.problems
