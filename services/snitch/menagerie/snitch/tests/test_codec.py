"""The Snitch proto fits the engine's types: the generic codec carries every action, event and view both ways.

The codec maps msgspec structs to protobuf messages by field name (menagerie.shared.codec),
so the proto must mirror the engine's types exactly: each struct field a proto field of
a matching kind, each tagged union a `oneof kind` whose members are the tags. The first
tests check that shape from the types themselves (a new engine field without its proto
field fails here, naming both); the others send a sample of every action and event kind,
and whatever seeded matches produce, through protobuf and back.
"""

from __future__ import annotations

import random
import re
import typing
from collections.abc import Iterator
from typing import Any

import msgspec
import msgspec.inspect as mi
import pytest
from google.protobuf.descriptor import Descriptor, FieldDescriptor

from menagerie.rules.contract import MatchSetup
from menagerie.rules.errors import InvalidArgument
from menagerie.rules.events import project
from menagerie.shared import codec
from menagerie.shared.games.binding import GameBinding, binding
from menagerie.snitch.engine import SnitchEngine
from menagerie.snitch.engine.model import Action, Event, SnitchState, SnitchView
from menagerie.snitch.v1 import snitch_pb2

ENGINE = SnitchEngine()
ACTION_TYPES: dict[str, type[Any]] = {t.__struct_config__.tag: t for t in typing.get_args(Action)}
EVENT_TYPES: dict[str, type[Any]] = {t.kind_name(): t for t in typing.get_args(Event)}
ZONES = [zone.id for zone in ENGINE.pitch.zones]

INTS = {
    FieldDescriptor.CPPTYPE_INT32,
    FieldDescriptor.CPPTYPE_UINT32,
    FieldDescriptor.CPPTYPE_INT64,
    FieldDescriptor.CPPTYPE_UINT64,
}
UNSIGNED = {FieldDescriptor.CPPTYPE_UINT32, FieldDescriptor.CPPTYPE_UINT64}


# ----------------------------------------------------------------------------- the proto's shape


def enum_strings(field: FieldDescriptor) -> set[str]:
    """The engine strings an enum field carries (the codec's naming: COLOUR_ORANGE carries "orange")."""
    enum = field.enum_type
    assert enum is not None
    prefix = re.sub(r"(?<!^)(?=[A-Z])", "_", enum.name).upper() + "_"
    return {value.name.removeprefix(prefix).lower() for value in enum.values if value.number != 0}


def tag_of(info: Any) -> str | None:
    """The tag of a struct tagged by `kind` (the codec's tagged union), else None."""
    if isinstance(info, mi.StructType) and info.tag_field == codec.TAG:
        return str(info.tag)
    return None


def misfits(info: Any, field: FieldDescriptor, where: str, repeated: bool = False) -> list[str]:
    """What is wrong with `field` carrying a value of type `info` (msgspec.inspect), as readable lines."""
    if isinstance(info, mi.UnionType):
        rest = [t for t in info.types if not isinstance(t, mi.NoneType)]
        tagged = {str(t.tag): t.cls for t in rest if isinstance(t, mi.StructType) and tag_of(t) is not None}
        if len(rest) > 1 and len(tagged) == len(rest):
            # A tagged union: a message that is a `oneof kind`, one member per tag.
            if field.is_repeated and not repeated:
                return [f"{where}: a single value, but its proto field is `repeated`"]
            if field.type != FieldDescriptor.TYPE_MESSAGE or field.message_type is None:
                return [f"{where}: a tagged union, so a `oneof {codec.TAG}` message, not proto type {field.type}"]
            return union_misfits(tagged, field.message_type)
        if len(rest) != 1:
            return [f"{where}: a union of {len(rest)} types has no protobuf form"]
        inner = rest[0]
        nullable = len(rest) < len(info.types)
        if nullable and not isinstance(inner, (mi.ListType, mi.VarTupleType)) and not field.has_presence:
            return [f"{where}: may be None, so its proto field needs presence (`optional` or a message)"]
        return misfits(inner, field, where, repeated)
    if isinstance(info, (mi.ListType, mi.VarTupleType)):
        if repeated or not field.is_repeated:
            return [f"{where}: a list, so its proto field must be `repeated` (of single values)"]
        return misfits(info.item_type, field, where, repeated=True)
    if field.is_repeated and not repeated:
        return [f"{where}: a single value, but its proto field is `repeated`"]
    if isinstance(info, mi.IntType):
        return [] if field.cpp_type in INTS else [f"{where}: an int, not proto type {field.type}"]
    if isinstance(info, mi.BoolType):
        return [] if field.type == FieldDescriptor.TYPE_BOOL else [f"{where}: a bool, not proto type {field.type}"]
    if isinstance(info, mi.FloatType):
        return [] if field.cpp_type == FieldDescriptor.CPPTYPE_DOUBLE else [f"{where}: a float, not {field.type}"]
    if isinstance(info, mi.StrType):
        return [] if field.type == FieldDescriptor.TYPE_STRING else [f"{where}: a str, not proto type {field.type}"]
    if isinstance(info, mi.LiteralType):
        if field.type == FieldDescriptor.TYPE_STRING:
            return []
        if field.type != FieldDescriptor.TYPE_ENUM:
            return [f"{where}: one of {info.values}, so a string or an enum, not proto type {field.type}"]
        missing = sorted(set(map(str, info.values)) - enum_strings(field))
        return (
            [f"{where}: enum {field.enum_type and field.enum_type.name} lacks values for {missing}"] if missing else []
        )
    if isinstance(info, mi.StructType):
        if field.type != FieldDescriptor.TYPE_MESSAGE:
            return [f"{where}: a {info.cls.__name__}, so a message, not proto type {field.type}"]
        tag = tag_of(info)
        if tag is not None and field.message_type is not None and codec.TAG in field.message_type.oneofs_by_name:
            # One member of a tagged union, carried by the union's message (its `kind` says which).
            oneof = field.message_type.oneofs_by_name[codec.TAG]
            member = next((f for f in oneof.fields if f.name == tag), None)
            if member is None:
                return [f"{where}: {field.message_type.full_name} has no oneof member {tag!r}"]
            return struct_misfits(info, member.message_type, where)
        return struct_misfits(info, field.message_type, where)
    return [f"{where}: no protobuf form for {info}"]


def struct_misfits(info: Any, descriptor: Descriptor | None, where: str, extra: tuple[str, ...] = ()) -> list[str]:
    """What keeps `descriptor` from carrying the struct `info` field by field (and back)."""
    if descriptor is None:
        return [f"{where}: no message type"]
    problems = []
    own = {f.name for f in info.fields}
    for f in info.fields:
        field = descriptor.fields_by_name.get(f.name)
        if field is None:
            problems.append(f"{where}.{f.name}: {descriptor.full_name} has no field {f.name!r}")
        else:
            problems += misfits(f.type, field, f"{where}.{f.name}")
    for name in descriptor.fields_by_name:
        if name not in own and name not in extra:
            problems.append(f"{where}: {descriptor.full_name}.{name} is no field of {info.cls.__name__}")
    return problems


def union_misfits(types: dict[str, type[Any]], descriptor: Descriptor, extra: tuple[str, ...] = ()) -> list[str]:
    """What keeps a message's `oneof kind` from carrying the tagged union `types` (tag -> struct)."""
    oneof = descriptor.oneofs_by_name.get(codec.TAG)
    if oneof is None:
        return [f"{descriptor.full_name} has no `oneof {codec.TAG}`"]
    members = {field.name: field for field in oneof.fields}
    problems = [f"{descriptor.full_name}: no oneof member {tag!r}" for tag in types if tag not in members]
    problems += [
        f"{descriptor.full_name}.{name} is no {descriptor.name} of the engine" for name in members if name not in types
    ]
    for tag, cls in types.items():
        if tag in members:
            # The tag is the oneof member's name (msgspec lists no field for it).
            problems += struct_misfits(mi.type_info(cls), members[tag].message_type, tag)
    outside = [f.name for f in descriptor.fields if f.containing_oneof is None and f.name not in extra]
    problems += [f"{descriptor.full_name}.{name} is outside the oneof" for name in outside]
    return problems


def test_the_game_binds_by_convention() -> None:
    bound = binding("snitch")
    assert isinstance(bound, GameBinding)
    assert bound.service_name == "menagerie.snitch.v1.Snitch"
    assert bound.pb2 is snitch_pb2
    assert bound.engine.info.game == "snitch"
    assert type(bound.engine).view_type is SnitchView


def test_every_action_kind_is_a_oneof_member_of_the_same_shape() -> None:
    assert union_misfits(ACTION_TYPES, snitch_pb2.Action.DESCRIPTOR) == []


def test_every_event_kind_is_a_oneof_member_of_the_same_shape() -> None:
    assert union_misfits(EVENT_TYPES, snitch_pb2.Event.DESCRIPTOR, extra=("header",)) == []


def test_the_view_message_has_the_views_shape() -> None:
    assert struct_misfits(mi.type_info(SnitchView), snitch_pb2.View.DESCRIPTOR, "View") == []


def test_the_shape_check_names_what_does_not_fit() -> None:
    class Stray(msgspec.Struct, frozen=True, tag_field="kind", tag="place_bludger"):
        zone: int
        speed: float | None = None

    problems = union_misfits({"place_bludger": Stray, "fly": Stray}, snitch_pb2.Action.DESCRIPTOR)
    assert "menagerie.snitch.v1.Action: no oneof member 'fly'" in problems
    assert "place_bludger.zone: an int, not proto type 9" in problems  # 9: TYPE_STRING
    assert "place_bludger.speed: menagerie.snitch.v1.PlaceBludger has no field 'speed'" in problems
    assert "menagerie.snitch.v1.Action.move is no Action of the engine" in problems


# ------------------------------------------------------------------------------- round trips


def sample(info: Any, variant: int, optional: bool) -> Any:
    """Plain data of type `info`: `variant` picks among literal values, `optional` fills nullable fields."""
    if isinstance(info, mi.UnionType):
        rest = [t for t in info.types if not isinstance(t, mi.NoneType)]
        return sample(rest[0], variant, optional) if optional or len(rest) == len(info.types) else None
    if isinstance(info, (mi.ListType, mi.VarTupleType)):
        return [sample(info.item_type, variant + i, optional) for i in range(2)]
    if isinstance(info, mi.IntType):
        return 1 + variant % 3
    if isinstance(info, mi.BoolType):
        return variant % 2 == 0
    if isinstance(info, mi.FloatType):
        return 1.5
    if isinstance(info, mi.StrType):
        return ZONES[variant % len(ZONES)]
    if isinstance(info, mi.LiteralType):
        return info.values[variant % len(info.values)]
    if isinstance(info, mi.StructType):
        return {f.name: sample(f.type, variant, optional) for f in info.fields}
    raise TypeError(info)


def samples(cls: type[Any]) -> Iterator[Any]:
    """Instances of `cls`: every literal value of every field at least once, nullable fields set and unset."""
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    literals = [len(f.type.values) for f in info.fields if isinstance(f.type, mi.LiteralType)]
    for variant in range(max([2, *literals])):
        for optional in (True, False):
            yield msgspec.convert(sample(info, variant, optional), cls)


def event_message(event: Any) -> snitch_pb2.Event:
    """The event as the service sends it (GameHost._events, without the header)."""
    fields = msgspec.to_builtins(event)
    return codec.fill_oneof(snitch_pb2.Event(), fields.pop(codec.TAG), fields)


def event_back(message: snitch_pb2.Event) -> Any:
    """The engine event a client reads from a message: the oneof member, decoded as its struct."""
    kind = message.WhichOneof("kind")
    assert kind is not None
    return codec.from_message(getattr(message, kind), EVENT_TYPES[kind])


def plain(value: Any) -> Any:
    """Builtins without the unset: protobuf has no None for a list (a blanked private list reads as [])."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items() if v is not None and v != []}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


# Event fields whose default is not protobuf's zero would be lost on the wire (GameEvent
# omits defaults); the engine gives such fields no default, so there are none.
KNOWN_LOSSES: dict[str, dict[str, Any]] = {}


def assert_event_round_trips(event: Any, tolerate_known: bool = False) -> None:
    back = event_back(event_message(event))
    if (
        tolerate_known
        and event.kind in KNOWN_LOSSES
        and msgspec.structs.replace(back, **KNOWN_LOSSES[event.kind]) == back
    ):
        back = msgspec.structs.replace(back, **{f: getattr(event, f) for f in KNOWN_LOSSES[event.kind]})
    assert plain(msgspec.to_builtins(back)) == plain(msgspec.to_builtins(event)), event
    if not any(getattr(event, f) is None for f in event.__struct_fields__):
        assert back == event


@pytest.mark.parametrize("kind", sorted(ACTION_TYPES))
def test_every_action_kind_round_trips(kind: str) -> None:
    for action in samples(ACTION_TYPES[kind]):
        message = codec.tagged_to_message(snitch_pb2.Action, action)
        assert message.WhichOneof("kind") == kind
        assert codec.decode_tagged(message, Action, "action") == action


@pytest.mark.parametrize(
    "kind",
    [
        pytest.param(kind, marks=pytest.mark.xfail(reason=f"{kind}: a default other than 0 is lost", strict=True))
        if kind in KNOWN_LOSSES
        else kind
        for kind in sorted(EVENT_TYPES)
    ],
)
def test_every_event_kind_round_trips_for_every_reader(kind: str) -> None:
    for event in samples(EVENT_TYPES[kind]):
        for viewer in (None, 0, 1):
            assert_event_round_trips(project(event, viewer))


def test_an_action_without_its_enum_is_refused_naming_the_field() -> None:
    unset = snitch_pb2.Action(react=snitch_pb2.React(player=3))
    with pytest.raises(InvalidArgument, match=r"action\.react: Object missing required field `reaction`"):
        codec.decode_tagged(unset, Action, "action")
    with pytest.raises(InvalidArgument, match="action is empty: set one of place_bludger, deploy_player"):
        codec.decode_tagged(snitch_pb2.Action(), Action, "action")


def play_through_protobuf(setup: MatchSetup, seed: int, actions: set[str], events: set[str]) -> None:
    """One seeded match of random legal actions: every action, every event (as each reader sees it) and a
    sample of views go through protobuf and back unchanged; the kinds met are added to `actions` and `events`."""
    state, happened = ENGINE.setup(setup, seed)
    rng = random.Random(seed)
    for step in range(5_000):
        for event in happened:
            events.add(event.kind)
            for viewer in (None, 0, 1):
                assert_event_round_trips(project(event, viewer), tolerate_known=True)
        if step % 7 == 0 or ENGINE.outcome(state) is not None:
            for viewer in (None, 0, 1):
                view = ENGINE.view(state, viewer)
                assert codec.from_message(codec.to_message(snitch_pb2.View, view), SnitchView) == view
        if ENGINE.outcome(state) is not None:
            break
        seat = rng.choice(ENGINE.to_act(state).seats())
        legal = ENGINE.legal_actions(state, seat)
        for action in legal:
            actions.add(str(action.__struct_config__.tag))
            message = codec.tagged_to_message(snitch_pb2.Action, action)
            assert codec.decode_tagged(message, Action, "action") == action
        happened = ENGINE.apply(state, seat, rng.choice(legal))
    assert ENGINE.outcome(state) is not None, f"{setup.mode} seed {seed}: no end in 5,000 actions"


def test_seeded_matches_survive_protobuf_throughout() -> None:
    """Every legal action, every event (as each reader sees it) and a sample of views, in 12 seeded matches."""
    actions: set[str] = set()
    events: set[str] = set()
    for seed in range(12):
        house = ["gryffindor", "slytherin", "ravenclaw", "hufflepuff"]
        options = {"house_0": house[seed % 4], "house_1": house[(seed + 1) % 4]}
        play_through_protobuf(MatchSetup("basic", 2, options), seed, actions, events)
    # The matches reach most kinds (the samples above cover every one).
    assert len(actions) >= len(ACTION_TYPES) // 2 and len(events) >= len(EVENT_TYPES) // 2


# What an "advanced" match with Spectators on always meets: its Team building, Flags and Stand.
ADVANCED_ACTIONS = {"pick_for_team", "drop_from_team", "confirm_team", "choose_flag", "play_spectator"}
ADVANCED_EVENTS = {"team_changed", "team_confirmed", "team_revealed", "flag_chosen", "spectator_played"}


def test_seeded_advanced_matches_survive_protobuf_throughout() -> None:
    """The same in mode "advanced" with Spectators on: drafts (private until both are formed), Flags, the Stand."""
    actions: set[str] = set()
    events: set[str] = set()
    fundings = ["0", "5", "10", "15"]
    for seed in range(6):
        options = {"funding": fundings[seed % len(fundings)], "spectators": "on"}
        play_through_protobuf(MatchSetup("advanced", 2, options), seed, actions, events)
    assert not ADVANCED_ACTIONS - actions, ADVANCED_ACTIONS - actions
    assert not ADVANCED_EVENTS - events, ADVANCED_EVENTS - events


@pytest.mark.parametrize(
    "setup", [MatchSetup("basic", 2), MatchSetup("advanced", 2, {"spectators": "on"})], ids=["basic", "advanced"]
)
def test_a_finished_state_survives_storage_byte_for_byte(setup: MatchSetup) -> None:
    """What the store keeps (msgpack) decodes and encodes again to the same bytes, as a replay compares them."""
    state, _ = ENGINE.setup(setup, 11)
    rng = random.Random(1)
    while ENGINE.outcome(state) is None:
        seat = rng.choice(ENGINE.to_act(state).seats())
        ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    stored = msgspec.msgpack.encode(state)
    assert msgspec.msgpack.encode(msgspec.msgpack.decode(stored, type=SnitchState)) == stored
