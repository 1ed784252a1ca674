"""The engine contract every game implements (see DESIGN.md, "The engine contract").

An engine is pure: no I/O, no clock, no global randomness. Its state carries its own
`Rng`, so `setup(config, seed)` followed by the same actions always gives the same
state. The service adapter, the bots and the tests treat every game through this
surface alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

import msgspec

from menagerie.shared.errors import InvalidArgument

ResultKind = Literal["win", "loss", "draw"]


class Event(msgspec.Struct, frozen=True, omit_defaults=True):
    """Something that happened in a match.

    `public` is what every viewer sees; `private[seat]` adds fields only that seat
    sees (a drawn card). `affects` lists the seats whose view — what they know or may
    do — the event changes; None means every seat. The view-version rule of
    DESIGN.md is built on it.
    """

    kind: str
    public: dict[str, Any] = {}
    private: dict[int, dict[str, Any]] = {}
    affects: tuple[int, ...] | None = None


def project_event(event: Event, viewer: int | None) -> dict[str, Any]:
    """The fields of `event` that `viewer` (a seat, or None for a spectator) may see.

    This is the only redaction of events: replies, Watch, replays, spectators and
    bots all go through it.
    """
    extra = event.private.get(viewer) if viewer is not None else None
    if extra:
        return {**event.public, **extra}
    return event.public


def seats_affected(events: Sequence[Event], seats: int) -> set[int]:
    """The seats whose view changes through `events`."""
    affected: set[int] = set()
    for event in events:
        if event.affects is None:
            return set(range(seats))
        affected.update(event.affects)
    return affected


def next_view_versions(
    versions: Sequence[int],
    version: int,
    actor: int,
    events: Sequence[Event],
    to_act_before: Sequence[int],
    to_act_after: Sequence[int],
) -> list[int]:
    """Each seat's view version once an action by `actor` made the match `version`.

    A seat's view version moves when the action concerns it: the actor itself, the seats
    its events affect, and the seats that start or stop having to act. Others keep
    theirs, so their own decisions made meanwhile still land (DESIGN.md "Concurrency").
    """
    changed = seats_affected(events, len(versions)) | {actor} | (set(to_act_before) ^ set(to_act_after))
    return [version if s in changed else v for s, v in enumerate(versions)]


class SeatResult(msgspec.Struct, frozen=True):
    """One seat's result in a finished match."""

    seat: int
    result: ResultKind
    score: float = 0.0
    rank: int = 1


class Outcome(msgspec.Struct, frozen=True):
    """A finished match's result: one entry per seat, and why it ended."""

    seats: list[SeatResult]
    reason: str

    def winners(self) -> list[int]:
        """Seats that won."""
        return [s.seat for s in self.seats if s.result == "win"]


class ToAct(msgspec.Struct, frozen=True):
    """Who acts now: seats that must act, and seats that may (a reaction window)."""

    must: tuple[int, ...] = ()
    may: tuple[int, ...] = ()

    def seats(self) -> tuple[int, ...]:
        """Every seat that must or may act, in seat order."""
        return tuple(sorted({*self.must, *self.may}))


class MatchSetup(msgspec.Struct, frozen=True):
    """The engine-level configuration of a match."""

    mode: str
    seats: int
    options: dict[str, str] = {}


class OptionInfo(msgspec.Struct, frozen=True):
    """An option a mode accepts, with its allowed values."""

    name: str
    description: str
    allowed_values: tuple[str, ...]
    default_value: str


class ModeInfo(msgspec.Struct, frozen=True):
    """One playable mode of a game."""

    mode: str
    title: str
    min_seats: int
    max_seats: int
    options: tuple[OptionInfo, ...] = ()
    cooperative: bool = False


class GameInfo(msgspec.Struct, frozen=True):
    """What a game offers: its id, title and modes."""

    game: str
    title: str
    modes: tuple[ModeInfo, ...]

    def mode(self, mode: str) -> ModeInfo:
        """The mode called `mode`, or InvalidArgument naming the ones that exist."""
        for info in self.modes:
            if info.mode == mode:
                return info
        known = ", ".join(m.mode for m in self.modes)
        raise InvalidArgument(f"{self.game} has no mode {mode!r}; modes: {known}")

    def validate(self, setup: MatchSetup) -> dict[str, str]:
        """Checks mode, seat count and options; returns the options with defaults filled in."""
        info = self.mode(setup.mode)
        if not info.min_seats <= setup.seats <= info.max_seats:
            raise InvalidArgument(
                f"{self.game} {info.mode} is played by {info.min_seats}–{info.max_seats} seats, not {setup.seats}"
            )
        allowed = {o.name: o for o in info.options}
        for name, value in setup.options.items():
            option = allowed.get(name)
            if option is None:
                known = ", ".join(allowed) or "none"
                raise InvalidArgument(f"{self.game} {info.mode} has no option {name!r}; options: {known}")
            if value not in option.allowed_values:
                raise InvalidArgument(f"option {name} must be one of {', '.join(option.allowed_values)}, not {value!r}")
        return {o.name: setup.options.get(o.name, o.default_value) for o in info.options}


StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")
ViewT = TypeVar("ViewT")


class Engine(Protocol, Generic[StateT, ActionT, ViewT]):
    """The rules of one game, as pure functions over its state."""

    info: ClassVar[GameInfo]
    state_type: ClassVar[type[Any]]
    action_type: ClassVar[Any]
    view_type: ClassVar[type[Any]]

    def setup(self, setup: MatchSetup, seed: int) -> tuple[StateT, list[Event]]:
        """A new match's state and the events of its setup (who starts, …)."""
        ...

    def to_act(self, state: StateT) -> ToAct:
        """Seats that must act now, and seats that may (reaction windows)."""
        ...

    def legal_actions(self, state: StateT, seat: int) -> list[ActionT]:
        """Every action `seat` may take now; exactly those `apply` accepts."""
        ...

    def check(self, state: StateT, seat: int, action: ActionT) -> None:
        """Raises IllegalAction naming the rule when `apply` would refuse the action."""
        ...

    def apply(self, state: StateT, seat: int, action: ActionT) -> list[Event]:
        """Validates, then performs the action in place; returns what happened."""
        ...

    def view(self, state: StateT, seat: int | None) -> ViewT:
        """Exactly what `seat` (None: a spectator) may know."""
        ...

    def outcome(self, state: StateT) -> Outcome | None:
        """The result once the match is over, else None."""
        ...

    def determinize(self, view: ViewT, seat: int, seed: int) -> StateT:
        """A full state consistent with `view`, hidden parts sampled from `seed`."""
        ...


def state_codec(state_type: type[Any]) -> tuple[msgspec.msgpack.Encoder, msgspec.msgpack.Decoder[Any]]:
    """The (encoder, decoder) pair that stores a game's state."""
    return msgspec.msgpack.Encoder(), msgspec.msgpack.Decoder(state_type)


def clone(state: Any, decoder: msgspec.msgpack.Decoder[Any] | None = None) -> Any:
    """A deep copy of a state made of msgspec structs."""
    decoder = decoder or msgspec.msgpack.Decoder(type(state))
    return decoder.decode(msgspec.msgpack.encode(state))
