"""What the store keeps about a match, as typed records (msgpack on the wire)."""

from __future__ import annotations

import msgspec

from menagerie.rules.contract import Outcome
from menagerie.shared.bots import DEFAULT_BOT_LEVEL

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
    # A searching bot's time per decision (MatchConfig.bot_budget_seconds); 0 = the default, 1 s.
    bot_budget_seconds: float = 0.0

    @property
    def stand_in_level(self) -> str:
        """The level of the bot that plays a seat its player left: the table's bots' level, else greedy."""
        return next((seat.bot_level for seat in self.seats if seat.bot), DEFAULT_BOT_LEVEL)


class SeatDeadline(msgspec.Struct, frozen=True, array_like=True):
    """When a seat's pending decision times out."""

    seat: int
    view_version: int
    deadline_ms: int


class DecisionCount(msgspec.Struct, frozen=True, array_like=True):
    """How one seat's decisions were made: by its own holder, or by the timeout bot."""

    by_player: int = 0
    by_timeout: int = 0

    def after(self, timeout_decision: bool) -> DecisionCount:
        """The count once one more decision is made (by the timeout bot or not)."""
        if timeout_decision:
            return DecisionCount(self.by_player, self.by_timeout + 1)
        return DecisionCount(self.by_player + 1, self.by_timeout)


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
    # One per seat once a move was made (a record written before the counts existed has none).
    decisions: list[DecisionCount] = msgspec.field(default_factory=list)
    # Human seats whose player left (GameHost.leave_seat): a bot plays them until the player returns.
    away: list[int] = msgspec.field(default_factory=list)
    # Bumped by every leave and return: a move decided before one of them is a conflict (submit.lua).
    seating: int = 0

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

    def played_by_bot(self, seat: int) -> bool:
        """True when a bot plays `seat`: a bot's seat, or a human seat its player left."""
        return self.meta.seats[seat].bot or seat in self.away

    @property
    def abandoned(self) -> bool:
        """True once every human seat was left (bots play the match out); never for a match without humans."""
        humans = [seat.seat for seat in self.meta.seats if not seat.bot]
        return bool(humans) and all(seat in self.away for seat in humans)

    @property
    def live(self) -> bool:
        """True while the match is worth listing: not finished, and not abandoned."""
        return not self.finished and not self.abandoned

    def decision_counts(self) -> list[DecisionCount]:
        """One count per seat (zeros for seats not counted yet)."""
        seats = len(self.meta.seats)
        return [*self.decisions[:seats], *([DecisionCount()] * (seats - len(self.decisions)))]


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
    # For a timeout (or away) decision: the engine's label of the action, in the words of the seat it
    # was made for (only that seat reads it: it may name a card the others may not see).
    timeout_label: str = ""
    # True when a bot decided for a human seat its player left (GameHost.leave_seat).
    away_decision: bool = False


class Archive(msgspec.Struct, array_like=True):
    """A finished match's event stream and recorded answers, packed once (MatchStore.compact)."""

    entries: list[StoredEntry]
    # Idempotency field -> recorded answer, as the idempotency hash held them.
    answers: dict[str, bytes]


class WinEstimates(msgspec.Struct, frozen=True, array_like=True):
    """A finished match's win estimates, as the bot pool computed them (RecordWinEstimates).

    `chances` maps a step's version to each seat's chance to win after it, by seat; a step
    without an estimate (the game's evaluation has none there) is not in it.
    """

    chances: dict[int, list[float]]
