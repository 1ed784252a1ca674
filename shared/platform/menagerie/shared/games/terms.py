"""The game host's vocabulary: what it is asked and what it answers, in engine and store types.

GameHost (menagerie.shared.games.host) takes and returns only these, engine values
(actions, views, projected events, outcomes) and match records; the binding modules
translate them from requests (menagerie.shared.games.inbound) and into replies
(menagerie.shared.games.outbound). Nothing here knows protobuf.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from menagerie.rules.contract import Label
from menagerie.shared.store import MatchRecord, StoredEntry

# ------------------------------------------------------------------------ asked


class SeatKind(StrEnum):
    """Who plays a seat asked for in a new match (UNSPECIFIED: the caller did not say)."""

    UNSPECIFIED = "unspecified"
    HUMAN = "human"
    BOT = "bot"


@dataclass(frozen=True)
class SeatRequest:
    """One seat of a new match, as asked (checked by the host)."""

    seat: int
    kind: SeatKind
    player_id: str = ""
    display_name: str = ""
    bot_level: str = ""


@dataclass(frozen=True)
class MatchRequest:
    """A new match, as asked: its configuration, seats, and optionally its id and seed."""

    game: str
    mode: str
    seats: list[SeatRequest]
    options: dict[str, str] = field(default_factory=dict)
    turn_timer_seconds: int = 0  # 0: the service's default
    bot_budget_seconds: float = 0.0  # 0: the default budget
    match_id: str = ""  # empty: the host picks one
    seed: int | None = None  # None: the host draws one


@dataclass(frozen=True)
class PageRequest:
    """A page of the game's matches: `status` ACTIVE, FINISHED or None (every match)."""

    page_size: int = 0  # 0: the default size
    page_token: str = ""
    status: str | None = None
    live_only: bool = False  # only matches neither finished nor abandoned (MatchRecord.live)


@dataclass(frozen=True)
class ReplayRequest:
    """A page of a match's replay: whose views (a seat, or None: a spectator's), from which version, how many steps."""

    match_id: str
    seat: int | None = None
    from_version: int = 0  # 0: from the setup (version 1)
    page_size: int = 0  # 0: the default size
    views: bool = True  # False: each step's entry and action alone (the bot pool's estimate task)


@dataclass(frozen=True)
class Move:
    """A submitted action as asked, before any check.

    The action is decoded only when the order of checks reaches it (after the seat and
    the idempotency key): `decode_action` gives the engine action or raises InvalidArgument.
    `action_key` is the action as sent, in a stable encoding: the idempotency fingerprint
    covers it, so one key sent again with another action is told apart.
    """

    match_id: str
    idempotency_key: str
    expected_version: int
    action_key: bytes
    decode_action: Callable[[], Any]


# ---------------------------------------------------------------------- answered


class NoticeKind(StrEnum):
    """What a turn notice on the shard feed announces."""

    CREATED = "created"
    TURN = "turn"
    FINISHED = "finished"


@dataclass(frozen=True)
class Deadline:
    """A human seat's turn timer, as every reader may see it."""

    seat: int
    seconds: int
    deadline_ms: int


@dataclass(frozen=True)
class Clock:
    """The turn timers running now, and the server's time they are read against."""

    server_time_ms: int
    deadlines: list[Deadline] = field(default_factory=list)


@dataclass(frozen=True)
class Match:
    """A match as its public summary shows it: the record and its clock."""

    record: MatchRecord
    clock: Clock


@dataclass(frozen=True)
class SeatToken:
    """A seat's credential, issued at creation."""

    seat: int
    token: str
    expires_at: int  # seconds since the epoch


@dataclass(frozen=True)
class CreatedMatch:
    """A created (or found again) match and a token per seat."""

    match: Match
    seat_tokens: list[SeatToken]


@dataclass(frozen=True)
class MatchPage:
    """A page of matches, newest first, and the token of the next page (empty: the last)."""

    matches: list[Match]
    next_page_token: str = ""


@dataclass(frozen=True)
class SeatView:
    """What one reader (a seat, or None: a spectator) may see now, its prompt in the engine's words.

    `reason`: once the match is over, why it ended with the seats named (Narrator.named), as
    every other sentence names them; the engine's outcome writes them "Seat 2" for every reader.
    """

    version: int
    view_version: int
    view: Any
    prompt: str
    clock: Clock
    reason: str = ""


@dataclass(frozen=True)
class LegalActions:
    """A seat's legal actions now, each with its label (empty when it need not act)."""

    view_version: int
    actions: list[Any]
    labels: list[Label]


@dataclass(frozen=True)
class ShownEvent:
    """One event of a stored entry as a reader may see it (already projected), with its sentence."""

    entry: StoredEntry
    event: Any
    text: str


@dataclass(frozen=True)
class TimeoutNote:
    """What a reader is told of a move the timeout bot made for `seat`."""

    seat: int
    text: str


@dataclass(frozen=True)
class WatchUpdate:
    """One message of Watch: an entry's events (or none), and the view when it is the latest."""

    version: int
    events: list[ShownEvent]
    timeout: TimeoutNote | None = None
    view: SeatView | None = None


@dataclass(frozen=True)
class ReplayStep:
    """One step of a replay: the match right after one stored entry, as the replay's reader sees it."""

    entry: StoredEntry
    view: SeatView | None  # None when the request asked for no views
    events: list[str]  # the entry's events in the engine's words for the reader (empty sentences left out)
    action: Any = None  # the entry's action, once the match is over (None: the setup, or a match in progress)
    chances: list[float] = field(default_factory=list)  # each seat's estimated chance to win; empty: none


@dataclass(frozen=True)
class Replay:
    """A page of a match's replay, the next page's first version (0: none), the seed once the match is over."""

    match: Match
    steps: list[ReplayStep]
    next_version: int
    seed: int | None
    estimated: bool  # the win estimates are stored (RecordWinEstimates)


class StoredMessages(Protocol):
    """Encodes what the store keeps for other readers: recorded answers and turn notices.

    Their bytes are the wire format readers outside this process expect (retries of a
    submit, the dispatcher and the lobby on the shard feeds), so the host has them
    written by the outbound binding rather than knowing that format itself.
    """

    def answer(self, version: int, view_version: int, entry: StoredEntry, shown: list[Any]) -> bytes:
        """The reply to a submit, as recorded for its retries: `shown` are the seat's projected events."""
        ...

    def notice(
        self, record: MatchRecord, kind: NoticeKind, seat: int | None = None, timeout_decision: bool = False
    ) -> bytes:
        """The turn notice of `record`'s version, for the shard's feed (`seat`: whose move made it)."""
        ...


class HostSettings(Protocol):
    """The service settings the host reads (GameServiceSettings has them)."""

    @property
    def default_turn_timer_seconds(self) -> int:
        """A match's turn timer when its configuration names none."""
        ...

    @property
    def seat_token_ttl_seconds(self) -> int:
        """How long a seat token issued at creation lasts."""
        ...

    @property
    def bot_turn_deadline_seconds(self) -> int:
        """How long a bot seat may take before the dispatcher asks again."""
        ...

    @property
    def match_retention_seconds(self) -> int:
        """How long a finished match is kept."""
        ...
