"""What a match writes to the store: its creation, and each move's commit with its recorded answer.

The records are engine and store values; the two messages the store keeps for readers
outside this process (a submit's answer, the turn notice) are encoded by the
StoredMessages the host was given (the outbound binding, in a game service).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from menagerie.rules.contract import Engine, Outcome
from menagerie.rules.errors import InvalidArgument
from menagerie.rules.events import next_view_versions, project
from menagerie.shared.games.terms import HostSettings, Move, NoticeKind, StoredMessages
from menagerie.shared.store import (
    ACTIVE,
    FINISHED,
    Commit,
    DecisionCount,
    MatchMeta,
    MatchRecord,
    NewMatch,
    SeatChange,
    SeatDeadline,
    StoredEntry,
)

# A recorded answer starts with this byte (no SubmitActionResponse does: field tags are
# never 0), then the fingerprint of the request it answered, then the response itself.
_ANSWER_MARK = b"\x00"
_FINGERPRINT_BYTES = 16
MAX_IDEMPOTENCY_KEY = 128


@dataclass(frozen=True)
class IdempotencyKey:
    """A submit's key, where its answer is recorded, and what the request it names asked."""

    key: str
    field: str  # the idempotency hash's field: "<seat>:<key>"
    fingerprint: bytes  # of the expected version and the action: the same key must ask the same

    @classmethod
    def of(cls, seat: int, move: Move) -> IdempotencyKey:
        """The key of a move made for `seat` (InvalidArgument when missing or too long)."""
        key = move.idempotency_key
        if not key or len(key) > MAX_IDEMPOTENCY_KEY:
            raise InvalidArgument("idempotency_key is required: 1–128 characters, unique per intended action")
        digest = hashlib.blake2b(digest_size=_FINGERPRINT_BYTES)
        digest.update(move.expected_version.to_bytes(8, "big"))
        digest.update(move.action_key)
        return cls(key, f"{seat}:{key}", digest.digest())

    def record(self, answer: bytes) -> bytes:
        """What the store keeps for this key: the answer, marked with the request's fingerprint."""
        return _ANSWER_MARK + self.fingerprint + answer

    def recorded_answer(self, stored: bytes) -> bytes:
        """The answer recorded for this key; InvalidArgument if it answered a different request."""
        if stored[:1] != _ANSWER_MARK:
            return stored  # recorded before answers carried fingerprints
        if stored[1 : 1 + _FINGERPRINT_BYTES] != self.fingerprint:
            raise InvalidArgument(
                f"idempotency_key {self.key!r} was already used for a different move (another action or "
                "expected_version); use a new key for a new move"
            )
        return stored[1 + _FINGERPRINT_BYTES :]


@dataclass(frozen=True)
class Played:
    """A move the engine accepted, before it is committed."""

    seat: int
    action: Any
    events: list[Any]
    timeout_decision: bool = False
    timeout_label: str = ""  # the action's label in the seat's words, for a timeout (or away) decision
    away_decision: bool = False  # a bot decided for a seat its player left


class MatchWriter:
    """Builds what the store writes for one game's matches: a new match, a move's commit."""

    def __init__(self, engine: Engine, settings: HostSettings, messages: StoredMessages) -> None:
        self.engine = engine
        self.settings = settings
        self.messages = messages
        self._encode = msgspec.msgpack.Encoder().encode

    def new_match(self, match_id: str, meta: MatchMeta, state: Any, events: list[Any], now: int) -> NewMatch:
        """A match at version 1: its record, its setup entry and its notice (CREATED, or FINISHED at once)."""
        seats = len(meta.seats)
        to_act = list(self.engine.to_act(state).seats())
        seat_versions = [1] * seats
        outcome = self.engine.outcome(state)
        decisions = [DecisionCount()] * seats
        record = MatchRecord(
            match_id=match_id,
            meta=meta,
            version=1,
            state=self._encode(state),
            seat_versions=seat_versions,
            to_act=to_act,
            deadlines=[],
            status=FINISHED if outcome else ACTIVE,
            outcome=outcome,
            updated_ms=now,
            decisions=decisions,
        )
        record.deadlines = self.deadlines(record, to_act, seat_versions, [], now)
        kind = NoticeKind.FINISHED if outcome else NoticeKind.CREATED
        return NewMatch(
            record=record,
            setup=StoredEntry(1, None, b"", self._encode(events), now),
            notice=self.messages.notice(record, kind),
        )

    def commit(
        self, record: MatchRecord, state: Any, played: Played, idempotency: IdempotencyKey, now: int
    ) -> tuple[Commit, bytes]:
        """The commit of a move played on `record` (`state` is after it) and the answer the seat is given."""
        seat = played.seat
        version = record.version + 1
        to_act = list(self.engine.to_act(state).seats())
        seat_versions = next_view_versions(record.seat_versions, version, seat, played.events, record.to_act, to_act)
        outcome: Outcome | None = self.engine.outcome(state)
        deadlines = [] if outcome else self.deadlines(record, to_act, seat_versions, record.deadlines, now)
        decisions = record.decision_counts()
        decisions[seat] = decisions[seat].after(played.timeout_decision)
        entry = StoredEntry(
            version,
            seat,
            self._encode(played.action),
            self._encode(played.events),
            now,
            played.timeout_decision,
            played.timeout_label,
            played.away_decision,
        )
        # The seat's own projection, without the events' text: the answer is stored for
        # retries, and Watch brings the words.
        shown = [project(event, seat) for event in played.events]
        answer = self.messages.answer(version, seat_versions[seat], entry, shown)
        # Only what a move changes is named: any other field of the record is carried over.
        applied = msgspec.structs.replace(
            record,
            version=version,
            state=self._encode(state),
            seat_versions=seat_versions,
            to_act=to_act,
            deadlines=deadlines,
            status=FINISHED if outcome is not None else record.status,
            outcome=outcome,
            updated_ms=now,
            decisions=decisions,
        )
        kind = NoticeKind.FINISHED if outcome else NoticeKind.TURN
        notice = self.messages.notice(applied, kind, seat=seat, timeout_decision=played.timeout_decision)
        commit = Commit(
            loaded=record,
            applied=applied,
            entry=entry,
            idempotency_field=idempotency.field,
            answer=idempotency.record(answer),
            notice=notice,
            retention_seconds=self.settings.match_retention_seconds,
        )
        return commit, answer

    def seat_change(self, record: MatchRecord, seat: int, away: bool, now: int) -> SeatChange:
        """What a leave (`away`) or a return of `seat` writes: the seat's deadline starts again as a bot's or
        the player's, and a turn notice tells the dispatcher the seat's bot (if it must act now)."""
        left = sorted({*record.away, seat}) if away else [s for s in record.away if s != seat]
        changed = msgspec.structs.replace(record, away=left, seating=record.seating + 1)
        others = [d for d in record.deadlines if d.seat != seat]
        deadlines = self.deadlines(changed, record.to_act, record.seat_versions, others, now)
        applied = msgspec.structs.replace(changed, deadlines=deadlines)
        return SeatChange(record, applied, self.messages.notice(applied, NoticeKind.TURN))

    def deadlines(
        self,
        record: MatchRecord,
        to_act: Sequence[int],
        seat_versions: Sequence[int],
        previous: Sequence[SeatDeadline],
        now: int,
    ) -> list[SeatDeadline]:
        """A deadline per seat to act; a seat still facing the same decision keeps its deadline.

        A seat a bot plays (a bot's, or one its player left) gets the bot's recovery timer, a person's the turn timer.
        """
        meta = record.meta
        kept = {d.seat: d for d in previous if d.view_version == seat_versions[d.seat]}
        out = []
        for seat in to_act:
            if seat in kept:
                out.append(kept[seat])
                continue
            bot = record.played_by_bot(seat)
            seconds = self.settings.bot_turn_deadline_seconds if bot else meta.turn_timer_seconds
            out.append(SeatDeadline(seat, seat_versions[seat], now + seconds * 1000))
        return out
