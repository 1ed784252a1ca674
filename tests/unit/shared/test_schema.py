"""Each word an engine may send has its enum value in the game's proto (menagerie.shared.schema)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Literal

import msgspec
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool
from google.protobuf.descriptor import Descriptor, FieldDescriptor

from menagerie.rules.registry import game_ids
from menagerie.shared.games.binding import GameBinding, GameBindingError, binding
from menagerie.shared.schema import enum_problems
from tests.unit.shared.test_game_binding import fake_modules

OPTIONAL, REPEATED = FieldDescriptor.LABEL_OPTIONAL, FieldDescriptor.LABEL_REPEATED
ENUM, MESSAGE, STRING = FieldDescriptor.TYPE_ENUM, FieldDescriptor.TYPE_MESSAGE, FieldDescriptor.TYPE_STRING


def toy_proto() -> dict[str, Descriptor]:
    """A proto with an enum Colour (only COLOUR_RED) used plainly, repeated, as a map's value and inside a oneof."""
    file = descriptor_pb2.FileDescriptorProto(name="menagerie/toy_schema.proto", package="toy.v1", syntax="proto3")
    colour = file.enum_type.add(name="Colour")
    colour.value.add(name="COLOUR_UNSPECIFIED", number=0)
    colour.value.add(name="COLOUR_RED", number=1)
    piece = file.message_type.add(name="Piece")
    piece.field.add(name="colour", number=1, label=OPTIONAL, type=ENUM, type_name=".toy.v1.Colour")
    piece.field.add(name="trail", number=2, label=REPEATED, type=ENUM, type_name=".toy.v1.Colour")
    piece.field.add(name="by_name", number=3, label=REPEATED, type=MESSAGE, type_name=".toy.v1.Piece.ByNameEntry")
    piece.field.add(name="name", number=4, label=OPTIONAL, type=STRING)
    entry = piece.nested_type.add(name="ByNameEntry")
    entry.options.map_entry = True
    entry.field.add(name="key", number=1, label=OPTIONAL, type=STRING)
    entry.field.add(name="value", number=2, label=OPTIONAL, type=ENUM, type_name=".toy.v1.Colour")
    action = file.message_type.add(name="Action")
    action.oneof_decl.add(name="kind")
    action.field.add(name="paint", number=1, label=OPTIONAL, type=MESSAGE, type_name=".toy.v1.Piece", oneof_index=0)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return {name: pool.FindMessageTypeByName(f"toy.v1.{name}") for name in ("Piece", "Action")}


class Piece(msgspec.Struct, tag="paint"):
    colour: Literal["red", "mauve"]
    trail: list[Literal["red", "teal"]]
    by_name: dict[str, Literal["red", "ochre"] | None]
    name: Literal["not", "an", "enum"] = "not"  # a string field takes any word


class Paint(msgspec.Struct, tag="paint"):
    colour: Literal["red"]
    trail: list[Literal["red"]]
    by_name: dict[str, Literal["red"]]


def test_every_installed_game_has_an_enum_value_for_each_word_its_engine_may_send() -> None:
    for game in game_ids():
        assert binding(game).word_problems() == [], game


def test_a_word_without_its_enum_value_is_named_wherever_it_is() -> None:
    proto = toy_proto()
    missing = [
        "toy.v1.Piece.colour: the engine's 'mauve' has no Colour value",
        "toy.v1.Piece.trail: the engine's 'teal' has no Colour value",
        "toy.v1.Piece.ByNameEntry.value: the engine's 'ochre' has no Colour value",
    ]
    assert enum_problems(Piece, proto["Piece"]) == missing
    assert enum_problems(Piece | None, proto["Action"]) == missing  # a tagged struct through its `oneof kind`
    assert enum_problems(Paint, proto["Piece"]) == []


def test_a_game_whose_proto_lacks_a_word_of_its_engine_stops_at_start_naming_it() -> None:
    pb2, pb2_grpc = fake_modules()
    pb2.View = type("View", (), {"DESCRIPTOR": toy_proto()["Piece"]})  # type: ignore[attr-defined]
    engine = SimpleNamespace(view_type=Piece, action_type=Paint, event_type=Paint)
    with pytest.raises(GameBindingError, match=r"toy\.v1\.Piece\.colour: the engine's 'mauve' has no Colour value"):
        GameBinding(engine, pb2, pb2_grpc, "Fake")  # type: ignore[arg-type]
