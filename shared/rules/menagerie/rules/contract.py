"""The engine contract every game implements (see docs/architecture.md, "The engine contract").

An engine is pure: no I/O, no clock, no global randomness. Its state carries its own
`Rng`, so `setup(config, seed)` followed by the same actions always gives the same
state. The service host, the bots, the arena and the tests treat every game through
this surface alone.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal, Protocol

import msgspec

from menagerie.rules.errors import InvalidArgument
from menagerie.rules.text import Narrator

ResultKind = Literal["win", "loss", "draw"]


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


class Prompt(msgspec.Struct, frozen=True):
    """What is being decided now, by whom: part of every view.

    `kind` names the decision (a stable id of the game's, e.g. "move" or
    "protego_window"); `must` seats have to decide, `may` seats may (passing is a
    decision too); `actor` is the seat whose action opened the decision, when one did;
    `stack` names the decisions it interrupted, outermost first. `text` is the engine's
    sentence for it, written for the viewer by the service (`Engine.describe_prompt`);
    `title` the decision's short name ("Action Block"), the same for every viewer, so that
    no renderer keeps a copy of the game's words.
    """

    kind: str = ""
    must: list[int] = []
    may: list[int] = []
    actor: int | None = None
    stack: list[str] = []
    text: str = ""
    title: str = ""


class Label(msgspec.Struct, frozen=True):
    """How a legal action reads to a person: a sentence and a short code to type.

    `passes`: taking the action lets this chance to act go by (a pass, declining a reaction,
    ending a turn), so a client may take it by itself when it is the only choice (the engine
    still records it as the seat's move).
    """

    text: str
    code: str
    passes: bool = False


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


class Engine(Protocol):
    """The rules of one game, as pure functions over its state.

    States, actions, views and events are msgspec structs; the four `*_type` class
    attributes name them (actions and events as tagged unions), which is all the
    service needs to store them and translate them to protobuf.
    """

    info: ClassVar[GameInfo]
    state_type: ClassVar[Any]
    action_type: ClassVar[Any]
    view_type: ClassVar[Any]
    event_type: ClassVar[Any]

    def setup(self, setup: MatchSetup, seed: int) -> tuple[Any, list[Any]]:
        """A new match's state and the events of its setup (who starts, …)."""
        ...

    def to_act(self, state: Any) -> ToAct:
        """Seats that must act now, and seats that may (reaction windows)."""
        ...

    def prompt(self, state: Any) -> Prompt:
        """What is being decided now (the same for every viewer)."""
        ...

    def legal_actions(self, state: Any, seat: int) -> list[Any]:
        """Every action `seat` may take now; exactly those `apply` accepts."""
        ...

    def check(self, state: Any, seat: int, action: Any) -> None:
        """Raises IllegalAction naming the rule when `apply` would refuse the action."""
        ...

    def apply(self, state: Any, seat: int, action: Any) -> list[Any]:
        """Checks, then performs the action in place; returns what happened."""
        ...

    def perform(self, state: Any, seat: int, action: Any) -> list[Any]:
        """Performs an action known to be legal, unchecked (search and simulation)."""
        ...

    def view(self, state: Any, seat: int | None) -> Any:
        """Exactly what `seat` (None: a spectator) may know."""
        ...

    def outcome(self, state: Any) -> Outcome | None:
        """The result once the match is over, else None."""
        ...

    def determinize(self, view: Any, seat: int, seed: int) -> Any:
        """A full state consistent with `view`, hidden parts sampled from `seed`."""
        ...

    def describe_action(self, view: Any, action: Any, narrator: Narrator) -> Label:
        """The label of one of the viewer's legal actions, from its view."""
        ...

    def describe_event(self, event: Any, narrator: Narrator) -> str | None:
        """One sentence for an event as the viewer sees it (None: nothing to read)."""
        ...

    def describe_prompt(self, view: Any, narrator: Narrator) -> str:
        """One sentence for the view's prompt: what is being decided, by whom."""
        ...
