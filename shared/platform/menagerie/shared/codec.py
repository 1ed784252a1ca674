"""Translation between protobuf messages and the engines' plain data.

Engines speak msgspec structs; the API speaks typed protobuf messages. The two are
kept in step by naming: a proto field has the name of the struct field it carries,
an enum value `COLOUR_RED` carries the engine string "red", and a `oneof kind`
carries a tagged union whose tag is the oneof field's name. One generic translator
then serves every game, and a mismatch fails loudly in the tests.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, TypeVar

import msgspec
from google.protobuf.descriptor import EnumDescriptor, FieldDescriptor
from google.protobuf.message import Message

from menagerie.rules.errors import InvalidArgument

M = TypeVar("M", bound=Message)
# The name of the oneof that carries a tagged union, and of the tag field of the structs.
TAG = "kind"
T = TypeVar("T")

_TYPE_MESSAGE = FieldDescriptor.TYPE_MESSAGE
_TYPE_ENUM = FieldDescriptor.TYPE_ENUM


def _upper_snake(camel: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", camel).upper()


@cache
def enum_numbers(enum: EnumDescriptor) -> dict[str, int]:  # descriptors are immutable and hashable
    """Engine string -> enum number, e.g. "red" -> COLOUR_RED's number."""
    prefix = _upper_snake(enum.name) + "_"
    return {v.name.removeprefix(prefix).lower(): v.number for v in enum.values if v.number != 0}


@cache
def _enum_names(enum: EnumDescriptor) -> dict[int, str]:
    """Enum number -> engine string (the zero value is absent: it means "unset")."""
    return {number: name for name, number in enum_numbers(enum).items()}


def is_map(field: Any) -> bool:
    """True for a map<K, V> field (a repeated message of a map-entry type)."""
    return field.message_type is not None and field.message_type.GetOptions().map_entry


def _enum_value(field: Any, value: Any) -> int:
    if isinstance(value, int):
        return value
    try:
        return enum_numbers(field.enum_type)[value]
    except KeyError:
        raise ValueError(f"{field.full_name}: no enum value for {value!r}") from None


Setter = Callable[[Message, Any], None]


def _setter(field: Any) -> Setter:
    """How to store plain data into one field, decided once per field."""
    name = field.name
    if is_map(field):
        value_field = field.message_type.fields_by_name["value"]
        if value_field.type == _TYPE_MESSAGE:

            def set_message_map(message: Message, value: Any) -> None:
                target = getattr(message, name)
                for k, v in value.items():
                    fill(target[k], v)

            return set_message_map
        if value_field.type == _TYPE_ENUM:
            return lambda message, value: getattr(message, name).update(
                {k: _enum_value(value_field, v) for k, v in value.items()}
            )
        return lambda message, value: getattr(message, name).update(value)
    if field.is_repeated:
        if field.type == _TYPE_MESSAGE:

            def set_messages(message: Message, value: Any) -> None:
                target = getattr(message, name)
                for item in value:
                    fill(target.add(), item)

            return set_messages
        if field.type == _TYPE_ENUM:
            return lambda message, value: getattr(message, name).extend(_enum_value(field, v) for v in value)
        return lambda message, value: getattr(message, name).extend(value)
    if field.type == _TYPE_MESSAGE:

        def set_message(message: Message, value: Any) -> None:
            sub = getattr(message, name)
            sub.SetInParent()
            fill(sub, value)

        return set_message
    if field.type == _TYPE_ENUM:
        return lambda message, value: setattr(message, name, _enum_value(field, value))
    return lambda message, value: setattr(message, name, value)


@cache
def _plan(descriptor: Any) -> dict[str, Setter]:
    """The setters of every field of a message type (built once per type)."""
    return {field.name: _setter(field) for field in descriptor.fields}


@cache
def _is_tagged_union(descriptor: Any) -> bool:
    """True for a message that is only a `oneof kind` (the form of an engine's tagged union)."""
    oneof = descriptor.oneofs_by_name.get(TAG)
    return oneof is not None and len(oneof.fields) == len(descriptor.fields)


def fill(message: M, data: Mapping[str, Any]) -> M:
    """Sets the fields of `message` from plain data (dicts, lists, str, int, float, bool).

    A tagged union ({"kind": "plain", "gain": …}) fills a message that is a `oneof kind`.
    """
    if TAG in data and _is_tagged_union(message.DESCRIPTOR):
        return fill_oneof(message, data[TAG], {k: v for k, v in data.items() if k != TAG})
    plan = _plan(message.DESCRIPTOR)
    for key, value in data.items():
        if value is None:
            continue
        setter = plan.get(key)
        if setter is None:
            raise ValueError(f"{message.DESCRIPTOR.full_name} has no field {key!r}")
        setter(message, value)
    return message


def to_message(cls: type[M], value: Any) -> M:
    """A new `cls` message holding `value` (a struct, or plain data)."""
    data = value if isinstance(value, Mapping) else msgspec.to_builtins(value)
    return fill(cls(), data)


def fill_oneof(message: M, kind: str, body: Mapping[str, Any]) -> M:
    """Sets the oneof member `kind` of `message` to `body` (possibly empty)."""
    sub = getattr(message, kind)
    sub.SetInParent()
    fill(sub, body)
    return message


def tagged_to_message(cls: type[M], value: Any) -> M:
    """A message whose `oneof kind` holds a tagged struct (tag = oneof member name)."""
    data = dict(msgspec.to_builtins(value))
    kind = data.pop(TAG)
    return fill_oneof(cls(), kind, data)


def _plain(message: Message, descriptor: Any) -> dict[str, Any]:
    """Plain data of a message: enums as engine strings.

    An unset optional field or sub-message is None; an unset enum is omitted (so a
    struct's default applies, or its absence is reported as a missing field).
    """
    if _is_tagged_union(descriptor):
        kind = message.WhichOneof(TAG)
        if kind is None:
            return {}
        sub = getattr(message, kind)
        return {TAG: kind, **_plain(sub, sub.DESCRIPTOR)}
    out: dict[str, Any] = {}
    for field in descriptor.fields:
        if field.has_presence and not field.is_repeated and not message.HasField(field.name):
            out[field.name] = None
            continue
        value = getattr(message, field.name)
        if is_map(field):
            value_field = field.message_type.fields_by_name["value"]
            if value_field.type == _TYPE_MESSAGE:
                out[field.name] = {k: _plain(v, value_field.message_type) for k, v in value.items()}
            else:
                out[field.name] = dict(value)
        elif field.is_repeated:
            if field.type == _TYPE_MESSAGE:
                out[field.name] = [_plain(v, field.message_type) for v in value]
            elif field.type == _TYPE_ENUM:
                out[field.name] = [_enum_names(field.enum_type).get(v) for v in value]
            else:
                out[field.name] = list(value)
        elif field.type == _TYPE_MESSAGE:
            out[field.name] = _plain(value, field.message_type)
        elif field.type == _TYPE_ENUM:
            name = _enum_names(field.enum_type).get(value)
            if name is not None:
                out[field.name] = name
        else:
            out[field.name] = value
    return out


def plain(message: Message) -> dict[str, Any]:
    """A message as plain data, by field name (enums as engine strings, unset optional fields None)."""
    return _plain(message, message.DESCRIPTOR)


def from_message(message: Message, type_: type[T]) -> T:
    """An engine struct (or other msgspec type) from a message, by field name."""
    return msgspec.convert(_plain(message, message.DESCRIPTOR), type_)


def decode_tagged(message: Message, union: Any, what: str) -> Any:
    """The engine struct in `message`'s `oneof kind`, or InvalidArgument saying what is wrong."""
    kind = message.WhichOneof(TAG)
    if kind is None:
        choices = ", ".join(f.name for f in message.DESCRIPTOR.oneofs_by_name[TAG].fields)
        raise InvalidArgument(f"{what} is empty: set one of {choices}")
    try:
        return msgspec.convert(_plain(message, message.DESCRIPTOR), union)
    except msgspec.ValidationError as exc:
        raise InvalidArgument(f"{what}.{kind}: {exc}") from None
