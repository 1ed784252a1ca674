"""Typed events whose hidden parts are declared in the type.

An event is a frozen msgspec struct tagged by `kind` (its protobuf oneof member). A
field that only some seats may see is annotated with `SeenBy("<field>")`, naming the
field that holds the seat (or seats) allowed to see it:

    class CardDrawn(GameEvent, tag="card_drawn"):
        seat: int
        card: Annotated[InsightCard | None, SeenBy("seat")] = None

`project(event, viewer)` blanks every field the viewer may not see; it is the only
redaction of events, and every outbound path (replies, Watch, replays, spectators,
bots) goes through it. `concerns` names the field holding the only seat whose view
the event changes (None: it may change everyone's), which drives view versions.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any, ClassVar, TypeVar

import msgspec

E = TypeVar("E", bound="GameEvent")


class SeenBy:
    """Field metadata: only the seat(s) held in field `owner` see this field."""

    __slots__ = ("owner",)

    def __init__(self, owner: str) -> None:
        self.owner = owner

    def __repr__(self) -> str:
        return f"SeenBy({self.owner!r})"


class GameEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind", omit_defaults=True):
    """Something that happened in a match; subclasses are a game's event kinds."""

    # The field holding the only seat whose view this event changes; None: anyone's.
    concerns: ClassVar[str | None] = None
    # True for an event that makes public something the state hid (a token turned face
    # up, secret goals shown): what follows it may rightly depend on what it showed.
    reveals: ClassVar[bool] = False

    @classmethod
    def kind_name(cls) -> str:
        """The event's tag, which is also its protobuf oneof member."""
        return str(cls.__struct_config__.tag)

    @property
    def kind(self) -> str:
        """This event's tag ("die_rolled")."""
        return self.kind_name()


class PrivateField(msgspec.Struct, frozen=True):
    """A field of an event type that only its owner seat(s) see, and its blank value."""

    name: str
    owner: str
    blank: Any


@cache
def private_fields(event_type: type[GameEvent]) -> tuple[PrivateField, ...]:
    """The fields of `event_type` declared with SeenBy; each must have a default to blank it with."""
    hints = typing.get_type_hints(event_type, include_extras=True)
    out = []
    for info in msgspec.structs.fields(event_type):
        hint = hints.get(info.name)
        for meta in getattr(hint, "__metadata__", ()):
            if isinstance(meta, SeenBy):
                if info.default is msgspec.NODEFAULT:
                    raise TypeError(f"{event_type.__name__}.{info.name} is private, so it needs a default to blank it")
                out.append(PrivateField(info.name, meta.owner, info.default))
    return tuple(out)


def sees(owner: Any, viewer: int | None) -> bool:
    """True when `viewer` is the owner seat, or one of the owner seats."""
    if viewer is None or owner is None:
        return False
    if isinstance(owner, int):
        return bool(owner == viewer)
    return viewer in owner


def project(event: E, viewer: int | None) -> E:
    """`event` as `viewer` (a seat, or None for a spectator) may see it."""
    hidden = {
        field.name: field.blank
        for field in private_fields(type(event))
        if not sees(getattr(event, field.owner), viewer)
    }
    return msgspec.structs.replace(event, **hidden) if hidden else event


def seats_affected(events: Iterable[GameEvent], seats: int) -> set[int]:
    """The seats whose view changes through `events`."""
    affected: set[int] = set()
    for event in events:
        owner_field = type(event).concerns
        if owner_field is None:
            return set(range(seats))
        owner = getattr(event, owner_field)
        affected.update([owner] if isinstance(owner, int) else owner)
    return affected


def next_view_versions(
    versions: Sequence[int],
    version: int,
    actor: int,
    events: Sequence[GameEvent],
    to_act_before: Sequence[int],
    to_act_after: Sequence[int],
) -> list[int]:
    """Each seat's view version once an action by `actor` made the match `version`.

    A seat's view version moves when the action concerns it: the actor itself, the seats
    its events affect, and the seats that start or stop having to act. Others keep
    theirs, so their own decisions made meanwhile still land (docs/architecture.md "Versions and concurrency").
    """
    changed = seats_affected(events, len(versions)) | {actor} | (set(to_act_before) ^ set(to_act_after))
    return [version if s in changed else v for s, v in enumerate(versions)]
