"""What the store keeps about a match, as typed records (msgpack on the wire)."""

from __future__ import annotations

import msgspec

from menagerie.rules.contract import Outcome

ACTIVE = "active"
FINISHED = "finished"


class SeatMeta(msgspec.Struct, frozen=True):
    """Who sits in a seat."""

    seat: int
    player_id: str
    display_name: str
    bot: bool = False
    bot_level: str = ""


class MatchMeta(msgspec.Struct, frozen=True):
    """What never changes about a match once it is created."""

    game: str
    mode: str
    options: dict[str, str]
    turn_timer_seconds: int
    seats: list[SeatMeta]
    seed: int
    created_ms: int


class SeatDeadline(msgspec.Struct, frozen=True, array_like=True):
    """When a seat's pending decision times out."""

    seat: int
    view_version: int
    deadline_ms: int


class MatchRecord(msgspec.Struct):
    """The snapshot of a match: its state after replaying every accepted action."""

    match_id: str
    meta: MatchMeta
    version: int
    state: bytes
    seat_versions: list[int]
    to_act: list[int]
    deadlines: list[SeatDeadline]
    status: str
    outcome: Outcome | None
    updated_ms: int

    @property
    def finished(self) -> bool:
        """True once the match has an outcome."""
        return self.status == FINISHED

    def deadline_of(self, seat: int) -> SeatDeadline | None:
        """The pending deadline of `seat`, if it must act."""
        for deadline in self.deadlines:
            if deadline.seat == seat:
                return deadline
        return None


class StoredEntry(msgspec.Struct, frozen=True):
    """One entry of a match's event stream: an accepted action (or the setup) and its events.

    The events stay msgpack bytes here: only the game's host knows their types.
    """

    version: int
    seat: int | None
    action: bytes
    events: bytes
    time_ms: int
    timeout_decision: bool = False
