"""Hidden zones, declared in a game's state type.

A state marks what some viewers cannot see, in its type:

    class Player(msgspec.Struct):
        hand: Annotated[list[int], Hidden("cards", owner_sees=True)] = []

    class State(msgspec.Struct):
        players: Annotated[list[Player], BySeat()]        # players[i] belongs to seat i
        deck: Annotated[list[int], Hidden("cards")]        # nobody sees its order
        tokens: Annotated[list[str | None], Hidden("tokens", face_up="face_up")]

Things hidden from a viewer in the same `pool` (cards, tokens, goals) are
interchangeable as far as that viewer can tell. `permute_hidden` shuffles each pool
among its hidden places: a view, a prompt or a public event that changes under it
leaks hidden information (the property tests' check), and it turns any state
consistent with a view into a random one (the skeleton of `determinize`).

`None` is never hidden: an empty place is visible as empty. The match's `Rng` is
hidden from everyone (it holds every future roll): `permute_hidden` reseeds it.
"""

from __future__ import annotations

import enum
import typing
from functools import cache
from typing import Any, TypeVar

import msgspec

from menagerie.rules.rng import Rng

T = TypeVar("T")


class Hidden:
    """Field metadata: the field (a list, or one value) is hidden.

    pool: what the hidden things are; a viewer cannot tell them apart within a pool.
    owner_sees: the seat that owns the enclosing struct (see BySeat) sees it.
    face_up: the name of a sibling list[bool]; element i is visible where it is True.
    revealed: the name of a sibling bool; the whole field is visible once it is True.
    except_last: the last n elements are visible (e.g. a pile whose top shows).
    per_seat: each seat's things form a pool of their own (a Coach's cards are of its own
        deck, never interchangeable with the rival's); needs an owner (see BySeat).
    """

    __slots__ = ("except_last", "face_up", "owner_sees", "per_seat", "pool", "revealed")

    def __init__(
        self,
        pool: str,
        *,
        owner_sees: bool = False,
        face_up: str | None = None,
        revealed: str | None = None,
        except_last: int = 0,
        per_seat: bool = False,
    ) -> None:
        self.pool = pool
        self.per_seat = per_seat
        self.owner_sees = owner_sees
        self.face_up = face_up
        self.revealed = revealed
        self.except_last = except_last

    def __repr__(self) -> str:
        return f"Hidden({self.pool!r})"


class BySeat:
    """Field metadata: a list whose element i belongs to seat i (players, hands)."""

    __slots__ = ()


class _FieldPlan(msgspec.Struct, frozen=True):
    name: str
    hidden: Hidden | None
    by_seat: bool


@cache
def _plan(struct_type: type) -> tuple[_FieldPlan, ...]:
    """The fields of a struct type that hide something or may contain hidden things.

    A field whose type cannot hold a Hidden field or an Rng (an int, a list of strings, a
    struct without any) is left out: walking a state then visits only what may hide, which
    keeps `determinize` cheap enough for search.
    """
    hints = typing.get_type_hints(struct_type, include_extras=True)
    plan = []
    for info in msgspec.structs.fields(struct_type):
        hint = hints.get(info.name)
        metadata = getattr(hint, "__metadata__", ())
        hidden = next((m for m in metadata if isinstance(m, Hidden)), None)
        by_seat = any(isinstance(m, BySeat) for m in metadata)
        if hidden is not None or _may_hide(hint, frozenset()):
            plan.append(_FieldPlan(info.name, hidden, by_seat))
    return tuple(plan)


def _may_hide(hint: Any, seen: frozenset[type]) -> bool:
    """Whether a value of type `hint` may contain a Hidden field or an Rng (unknown types: yes)."""
    if hint is None or hint is type(None) or hint in (int, float, str, bool, bytes):
        return False
    origin = typing.get_origin(hint)
    if origin is typing.Annotated:
        metadata = hint.__metadata__
        return any(isinstance(m, Hidden) for m in metadata) or _may_hide(typing.get_args(hint)[0], seen)
    if origin is typing.Literal:
        return False
    if origin is not None:
        return any(_may_hide(arg, seen) for arg in typing.get_args(hint) if arg is not Ellipsis)
    if isinstance(hint, type) and issubclass(hint, Rng):
        return True
    if isinstance(hint, type) and issubclass(hint, msgspec.Struct):
        if hint in seen:
            return False  # a recursive struct: its other fields decide
        hints = typing.get_type_hints(hint, include_extras=True)
        return any(_may_hide(hints.get(f.name), seen | {hint}) for f in msgspec.structs.fields(hint))
    # An enum holds nothing; any other type (Any, a type variable) may.
    return not (isinstance(hint, type) and issubclass(hint, enum.Enum))


# A place where a hidden thing lies: a list and an index, or a struct and a field name.
Place = tuple[Any, int | str]


def hidden_places(state: Any, viewer: int | None) -> dict[str, list[Place]]:
    """Every place holding something `viewer` cannot see, grouped by pool."""
    places: dict[str, list[Place]] = {}
    _walk(state, viewer, None, places)
    return places


RNG_POOL = "rng"


def _walk(value: Any, viewer: int | None, owner: int | None, places: dict[str, list[Place]]) -> None:
    if isinstance(value, msgspec.Struct):
        for field in _plan(type(value)):
            item = getattr(value, field.name)
            if isinstance(item, Rng):
                places.setdefault(RNG_POOL, []).append((value, field.name))
            elif field.hidden is not None:
                _collect(value, field.name, item, field.hidden, viewer, owner, places)
            elif field.by_seat:
                for seat, element in enumerate(item):
                    _walk(element, viewer, seat, places)
            else:
                _walk(item, viewer, owner, places)
    elif isinstance(value, list):
        for element in value:
            if isinstance(element, msgspec.Struct):
                _walk(element, viewer, owner, places)


def _collect(
    parent: Any,
    name: str,
    item: Any,
    hidden: Hidden,
    viewer: int | None,
    owner: int | None,
    places: dict[str, list[Place]],
) -> None:
    if hidden.owner_sees and owner is not None and owner == viewer:
        return
    if hidden.revealed is not None and getattr(parent, hidden.revealed):
        return
    pool_name = f"{hidden.pool}@{owner}" if hidden.per_seat and owner is not None else hidden.pool
    pool = places.setdefault(pool_name, [])
    if not isinstance(item, list):
        if item is not None:
            pool.append((parent, name))
        return
    face_up = getattr(parent, hidden.face_up) if hidden.face_up else None
    for index in range(len(item) - hidden.except_last):
        if item[index] is not None and not (face_up is not None and face_up[index]):
            pool.append((item, index))


def _get(place: Place) -> Any:
    container, key = place
    return container[key] if isinstance(key, int) else getattr(container, key)


def _set(place: Place, value: Any) -> None:
    container, key = place
    if isinstance(key, int):
        container[key] = value
    else:
        setattr(container, key, value)


def permute_hidden(state: T, viewer: int | None, rng: Rng, reseed: bool = True) -> T:
    """Shuffles, in place, everything `viewer` cannot see among its pool's hidden places.

    The match Rng is reseeded too unless `reseed` is False (a test that replays the
    same future dice on a twin with other hidden cards keeps it).
    """
    for pool, places in hidden_places(state, viewer).items():
        if pool == RNG_POOL:
            if reseed:
                for place in places:
                    _set(place, Rng(rng.below(1 << 63), 0))
            continue
        values = [_get(place) for place in places]
        rng.shuffle(values)
        for place, value in zip(places, values, strict=True):
            _set(place, value)
    return state


def canonical_hidden(state: T, viewer: int | None) -> T:
    """Puts, in place, everything `viewer` cannot see in one order among its pool's hidden places, and zeroes the Rng.

    Each pool's hidden values are sorted by their msgpack encoding: two states that `viewer` cannot
    tell apart (one a `permute_hidden` of the other) become the same state, so whatever is drawn from
    it afterwards (a `permute_hidden` with a given generator) depends on nothing `viewer` cannot see.
    """
    for pool, places in hidden_places(state, viewer).items():
        if pool == RNG_POOL:
            for place in places:
                _set(place, Rng(0, 0))
            continue
        values = sorted((_get(place) for place in places), key=msgspec.msgpack.encode)
        for place, value in zip(places, values, strict=True):
            _set(place, value)
    return state
