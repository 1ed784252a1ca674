"""The generic life of a match: create, view, list legal actions, submit, watch.

This is where the platform's concurrency rules live (docs/architecture.md "Versions and concurrency").
A submit follows the order of checks — token and seat, idempotency key, the action's
shape, the view version, the rules — then commits through the store's one Lua script.
When another move landed in between, the host reloads and tries again, as long as that
move did not concern the caller (its view version is unchanged); otherwise the caller
gets ABORTED.
"""

from __future__ import annotations

import functools
import hashlib
import re
import secrets
import time
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
import structlog
from google.protobuf.message import Message
from redis.exceptions import RedisError

from menagerie.common.v1 import common_pb2, matches_pb2
from menagerie.rules.contract import MatchSetup, Outcome
from menagerie.rules.errors import (
    Aborted,
    AlreadyExists,
    IllegalAction,
    InvalidArgument,
    MenagerieError,
    NotFound,
    PermissionDenied,
    Unavailable,
)
from menagerie.rules.events import next_view_versions, project
from menagerie.rules.text import Narrator
from menagerie.shared import codec
from menagerie.shared.bots import BOT_LEVELS, DEFAULT_BOT_LEVEL, checked_budget
from menagerie.shared.games.binding import GameBinding
from menagerie.shared.games.snapshots import SnapshotCache
from menagerie.shared.settings import GameServiceSettings
from menagerie.shared.store import (
    ACTIVE,
    FINISHED,
    Commit,
    DecisionCount,
    MatchMeta,
    MatchRecord,
    MatchStore,
    NewMatch,
    SeatDeadline,
    SeatMeta,
    StoredEntry,
)
from menagerie.shared.tokens import Principal, TokenSigner
from menagerie.shared.wakeups import StreamWakeups

log = structlog.get_logger(__name__)

SUBMIT_ATTEMPTS = 32
# A parked Watch reads again this often even if no wake-up came (a safety net, not the path).
WATCH_POLL_MS = 10_000
_MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_PAGE_TOKEN = re.compile(r"([0-9]{1,15}):([A-Za-z0-9_-]{1,64})")
_STATUS_NAMES = {ACTIVE: common_pb2.MATCH_STATUS_ACTIVE, FINISHED: common_pb2.MATCH_STATUS_FINISHED}


def _checked_match_id(match_id: str) -> str:
    if not match_id:
        raise InvalidArgument("match_id is required")
    if not _MATCH_ID.fullmatch(match_id):
        raise InvalidArgument("match_id must be 1–64 letters, digits, '-' or '_'")
    return match_id


_CACHE_ENTRIES = 8192  # per hot-path cache of GameHost


def _bounded_put(cache: dict[Any, Any], key: Any, value: Any) -> None:
    """Adds to a cache that is emptied when full: simpler and cheaper than an LRU on the hot path."""
    if len(cache) >= _CACHE_ENTRIES:
        cache.clear()
    cache[key] = value


def _varint(value: int) -> bytes:
    """A protobuf base-128 varint (a length prefix)."""
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


class _LostRace(Exception):
    """Another move landed between reading the snapshot and committing."""


# A recorded answer starts with this byte (no SubmitActionResponse does: field tags are
# never 0), then the fingerprint of the request it answered, then the response itself.
_ANSWER_MARK = b"\x00"
_FINGERPRINT_BYTES = 16


@dataclass(frozen=True)
class _IdempotencyKey:
    """A submit's key, where its answer is recorded, and what the request it names asked."""

    key: str
    field: str  # the idempotency hash's field: "<seat>:<key>"
    fingerprint: bytes  # of the expected version and the action: the same key must ask the same
    action: bytes  # the action message, serialized deterministically (the key of the decoded actions' cache)

    @classmethod
    def of(cls, seat: int, request: Any) -> _IdempotencyKey:
        """The key of a SubmitActionRequest made for `seat` (InvalidArgument when missing or too long)."""
        key = request.idempotency_key
        if not key or len(key) > 128:
            raise InvalidArgument("idempotency_key is required: 1–128 characters, unique per intended action")
        action = request.action.SerializeToString(deterministic=True)
        digest = hashlib.blake2b(digest_size=_FINGERPRINT_BYTES)
        digest.update(request.expected_version.to_bytes(8, "big"))
        digest.update(action)
        return cls(key, f"{seat}:{key}", digest.digest(), action)

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


class GameHost:
    """Serves one game's matches from the store; the servicers only translate."""

    def __init__(
        self,
        binding: GameBinding,
        store: MatchStore,
        signer: TokenSigner,
        settings: GameServiceSettings,
        wakeups: StreamWakeups,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.binding = binding
        self.wakeups = wakeups
        self.engine = binding.engine
        self.pb = binding.pb2
        self.store = store
        self.signer = signer
        self.settings = settings
        self.clock = clock
        self._state = msgspec.msgpack.Decoder(self.engine.state_type)
        # Actions are small frozen values: their messages are built once and copied after.
        self._action_message = functools.lru_cache(maxsize=4096)(
            functools.partial(codec.tagged_to_message, self.pb.Action)
        )
        self._snapshots = SnapshotCache()
        # Hot-path caches, keyed by bytes and bounded (cleared when full): an action message's
        # engine struct, a projected event's message body, a match's constant turn-notice part.
        self._actions: dict[bytes, Any] = {}
        self._event_bodies: dict[bytes, bytes] = {}
        self._notice_bases: dict[str, tuple[MatchMeta, bytes]] = {}
        self._encode = msgspec.msgpack.Encoder().encode
        self._events_decoder = msgspec.msgpack.Decoder(list[self.engine.event_type])  # type: ignore[name-defined]

    def _now_ms(self) -> int:
        return int(self.clock() * 1000)

    async def _record(self, match_id: str) -> MatchRecord:
        record, _ = await self.store.load(match_id)
        if record is None or record.meta.game != self.binding.info.game:
            raise NotFound(f"no {self.binding.info.game} match {match_id}")
        self._snapshots.put(record)
        return record

    # ------------------------------------------------------------------ Matches

    def describe_game(self) -> matches_pb2.DescribeGameResponse:
        """The game's modes, seat counts and options."""
        return codec.to_message(matches_pb2.DescribeGameResponse, self.binding.info)

    async def create_match(
        self, principal: Principal, request: matches_pb2.CreateMatchRequest
    ) -> matches_pb2.CreateMatchResponse:
        """Creates a match (or returns the one with the same id and configuration)."""
        principal.require_service()
        info = self.binding.info
        config = request.config
        if config.game != info.game:
            raise InvalidArgument(f"this service runs {info.game!r}, not {config.game!r}")
        seats = self._checked_seats(request.seats)
        options = info.validate(MatchSetup(config.mode, len(seats), dict(config.options)))
        timer = config.turn_timer_seconds or self.settings.default_turn_timer_seconds
        if timer > 24 * 3600:
            raise InvalidArgument("turn_timer_seconds must be at most 86400")
        budget = checked_budget(config.bot_budget_seconds, timer)  # the timer as resolved: the default counts
        match_id = _checked_match_id(request.match_id) if request.match_id else uuid.uuid4().hex
        seed = request.seed if request.HasField("seed") else secrets.randbits(64)
        now = self._now_ms()
        meta = MatchMeta(info.game, config.mode, options, timer, seats, seed, now, budget)
        state, events = self.engine.setup(MatchSetup(config.mode, len(seats), options), seed)
        to_act = list(self.engine.to_act(state).seats())
        seat_versions = [1] * len(seats)
        deadlines = self._deadlines(meta, to_act, seat_versions, [], now)
        outcome = self.engine.outcome(state)
        kind = common_pb2.MATCH_EVENT_KIND_FINISHED if outcome else common_pb2.MATCH_EVENT_KIND_CREATED
        created = MatchRecord(
            match_id=match_id,
            meta=meta,
            version=1,
            state=self._encode(state),
            seat_versions=seat_versions,
            to_act=to_act,
            deadlines=deadlines,
            status=FINISHED if outcome else ACTIVE,
            outcome=outcome,
            updated_ms=now,
            decisions=[DecisionCount()] * len(seats),
        )
        new = NewMatch(
            record=created,
            setup=StoredEntry(1, None, b"", self._encode(events), now),
            notice=self._notice(match_id, meta, 1, kind, to_act, seat_versions, outcome, now),
        )
        if await self.store.create(new):
            # What was just written, as a read would find it (a bot's move since is not this call's to report).
            record = created
            self._snapshots.put(record)
        else:
            record = await self._record(match_id)
            existing = record.meta
            if (
                existing.mode,
                existing.options,
                existing.seats,
                existing.turn_timer_seconds,
                existing.bot_budget_seconds,
            ) != (meta.mode, meta.options, meta.seats, meta.turn_timer_seconds, meta.bot_budget_seconds):
                raise AlreadyExists(f"match {match_id} exists with another configuration")
        response = matches_pb2.CreateMatchResponse(match=self._summary(record))
        ttl = self.settings.seat_token_ttl_seconds
        for seat in record.meta.seats:
            token, expires = self.signer.issue_seat(match_id, seat.seat, seat.player_id, seat.display_name, ttl)
            credential = response.seat_tokens.add(seat=seat.seat, token=token)
            credential.expires_at.FromSeconds(expires)
        return response

    def _checked_seats(self, seats: Sequence[common_pb2.SeatInfo]) -> list[SeatMeta]:
        if not seats:
            raise InvalidArgument("seats are required: one SeatInfo per seat")
        out = []
        for index, seat in enumerate(sorted(seats, key=lambda s: s.seat)):
            if seat.seat != index:
                raise InvalidArgument(f"seats must be numbered 0..{len(seats) - 1}, each once")
            if seat.kind == common_pb2.SEAT_KIND_UNSPECIFIED:
                raise InvalidArgument(f"seat {index}: kind must be HUMAN or BOT")
            bot = seat.kind == common_pb2.SEAT_KIND_BOT
            level = seat.bot_level or DEFAULT_BOT_LEVEL
            if bot and level not in BOT_LEVELS:
                raise InvalidArgument(f"seat {index}: bot_level must be one of {', '.join(BOT_LEVELS)}")
            if not bot and not seat.player_id:
                raise InvalidArgument(f"seat {index}: a human seat needs a player_id")
            if len(seat.display_name) > 64 or len(seat.player_id) > 128:
                raise InvalidArgument(f"seat {index}: display_name ≤ 64 and player_id ≤ 128 characters")
            out.append(
                SeatMeta(
                    seat=index,
                    player_id=seat.player_id or f"bot-{index}",
                    display_name=seat.display_name or (f"Bot {index}" if bot else f"Seat {index}"),
                    bot=bot,
                    bot_level=level if bot else "",
                )
            )
        return out

    async def get_match(self, request: matches_pb2.GetMatchRequest) -> matches_pb2.GetMatchResponse:
        """A match's public summary."""
        record = await self._record(_checked_match_id(request.match_id))
        return matches_pb2.GetMatchResponse(match=self._summary(record))

    async def list_matches(self, request: matches_pb2.ListMatchesRequest) -> matches_pb2.ListMatchesResponse:
        """Matches of this game, newest first, a page at a time."""
        size = request.page_size or 20
        if size > 100:
            raise InvalidArgument("page_size must be at most 100")
        before: tuple[int, str] | None = None
        if request.page_token:
            token = _PAGE_TOKEN.fullmatch(request.page_token)
            if token is None:
                raise InvalidArgument("page_token is not one this service issued")
            before = (int(token[1]), token[2])
        status = {common_pb2.MATCH_STATUS_ACTIVE: ACTIVE, common_pb2.MATCH_STATUS_FINISHED: FINISHED}.get(
            request.status
        )
        records = await self.store.list_records(status, size + 1, before)
        records = [r for r in records if r.meta.game == self.binding.info.game]
        response = matches_pb2.ListMatchesResponse(matches=[self._summary(r) for r in records[:size]])
        if len(records) > size:
            last = records[size - 1]
            response.next_page_token = f"{last.meta.created_ms}:{last.match_id}"
        return response

    def _summary(self, record: MatchRecord) -> common_pb2.MatchSummary:
        meta = record.meta
        summary = common_pb2.MatchSummary(
            match_id=record.match_id,
            config=common_pb2.MatchConfig(
                game=meta.game,
                mode=meta.mode,
                options=meta.options,
                turn_timer_seconds=meta.turn_timer_seconds,
                bot_budget_seconds=meta.bot_budget_seconds,
            ),
            seats=[self._seat_info(s) for s in meta.seats],
            status=_STATUS_NAMES[record.status],
            version=record.version,
            to_act=record.to_act,
            clock=self._clock(record),
            decisions=self._decisions(record.decision_counts()),
        )
        if record.outcome is not None:
            summary.outcome.CopyFrom(codec.to_message(common_pb2.Outcome, record.outcome))
        summary.created_at.FromMilliseconds(meta.created_ms)
        summary.updated_at.FromMilliseconds(record.updated_ms)
        return summary

    @staticmethod
    def _seat_info(seat: SeatMeta) -> common_pb2.SeatInfo:
        kind = common_pb2.SEAT_KIND_BOT if seat.bot else common_pb2.SEAT_KIND_HUMAN
        return common_pb2.SeatInfo(
            seat=seat.seat,
            player_id=seat.player_id,
            display_name=seat.display_name,
            kind=kind,
            bot_level=seat.bot_level,
        )

    # ---------------------------------------------------------------- game verbs

    async def get_view(self, principal: Principal, request: Any) -> Any:
        """The caller's view (its seat's, or a spectator's) and the version to submit with."""
        match_id = _checked_match_id(request.match_id)
        viewer = principal.viewer_in(match_id)
        record = await self._record(match_id)
        if viewer is not None:
            self._check_seat_exists(record, viewer)
        return self.pb.GetViewResponse(
            version=record.version,
            view_version=self._view_version(record, viewer),
            view=self._view_message(record, self._state.decode(record.state), viewer),
            clock=self._clock(record),
        )

    def _clock(self, record: MatchRecord) -> common_pb2.DecisionClock:
        """The turn timers of the human seats to act now, the same for every reader.

        Only seats of to_act appear, which every summary and view already shows; a seat's
        deadline restarts when its view version moves, which follows from the public
        events (the seats they concern) and to_act, so the clock tells nobody anything new.
        Bot seats' deadlines are the platform's recovery timer, not a turn timer: left out.
        """
        clock = common_pb2.DecisionClock()
        clock.server_time.FromMilliseconds(self._now_ms())
        if record.finished:
            return clock
        public = set(record.to_act)
        for deadline in record.deadlines:
            if deadline.seat not in public or record.meta.seats[deadline.seat].bot:
                continue
            entry = clock.deadlines.add(seat=deadline.seat, seconds=record.meta.turn_timer_seconds)
            entry.deadline.FromMilliseconds(deadline.deadline_ms)
        return clock

    @staticmethod
    def _decisions(counts: Sequence[DecisionCount]) -> list[common_pb2.SeatDecisions]:
        return [
            common_pb2.SeatDecisions(seat=seat, by_player=count.by_player, by_timeout=count.by_timeout)
            for seat, count in enumerate(counts)
        ]

    def _narrator(self, meta: MatchMeta, viewer: int | None) -> Narrator:
        """Writes the engine's sentences for `viewer`, naming the other seats by display name."""
        return Narrator(viewer, [seat.display_name for seat in meta.seats])

    def _view_message(self, record: MatchRecord, state: Any, viewer: int | None) -> Any:
        """The view of `viewer` as protobuf, its prompt in the engine's words for that reader."""
        view = self.engine.view(state, viewer)
        message = codec.to_message(self.pb.View, view)
        message.prompt.text = self.engine.describe_prompt(view, self._narrator(record.meta, viewer))
        return message

    async def list_legal_actions(self, principal: Principal, request: Any) -> Any:
        """Every action the caller's seat may take now (empty when it need not act)."""
        match_id = _checked_match_id(request.match_id)
        seat = principal.seat_in(match_id)
        record = await self._record(match_id)
        self._check_seat_exists(record, seat)
        state = self._state.decode(record.state)
        actions = [] if record.finished else self.engine.legal_actions(state, seat)
        response = self.pb.ListLegalActionsResponse(view_version=record.seat_versions[seat])
        response.actions.extend(self._action_message(a) for a in actions)
        if actions:
            view = self.engine.view(state, seat)
            narrator = self._narrator(record.meta, seat)
            for action in actions:
                label = self.engine.describe_action(view, action, narrator)
                response.labels.add(text=label.text, code=label.code)
        return response

    async def submit_action(self, principal: Principal, request: Any) -> Any:
        """Applies one action for the caller's seat, exactly once per idempotency key.

        The first attempt may start from the snapshot this process last saw: the Lua
        script's version check protects the write, and any refusal found on a cached
        snapshot is checked again on a fresh one before the caller hears of it.
        """
        match_id = _checked_match_id(request.match_id)
        seat = principal.seat_in(match_id)
        idempotency = _IdempotencyKey.of(seat, request)
        for _ in range(SUBMIT_ATTEMPTS):
            cached = self._snapshots.get(match_id)
            if cached is not None:
                try:
                    return await self._try_submit(principal, request, seat, idempotency, cached)
                except (MenagerieError, _LostRace):
                    self._snapshots.forget(match_id)
                    continue
            record, answer = await self.store.load(match_id, idempotency.field)
            if record is None or record.meta.game != self.binding.info.game:
                raise NotFound(f"no {self.binding.info.game} match {match_id}")
            self._snapshots.put(record)
            self._check_seat_exists(record, seat)
            if answer is not None:
                return self.pb.SubmitActionResponse.FromString(idempotency.recorded_answer(answer))
            try:
                return await self._try_submit(principal, request, seat, idempotency, record)
            except _LostRace:
                continue
        raise Unavailable("the match is too busy right now; try again")

    async def _try_submit(
        self, principal: Principal, request: Any, seat: int, idempotency: _IdempotencyKey, record: MatchRecord
    ) -> Any:
        """Checks and commits the action on `record`; raises _LostRace when another move landed first."""
        self._check_seat_exists(record, seat)
        action = self._action(request.action, idempotency.action)
        now = self._now_ms()
        timeout_decision = self._check_bot_turn(principal, record, seat, now)
        current = record.seat_versions[seat]
        if request.expected_version != current:
            raise Aborted(
                f"your view is at version {request.expected_version} but seat {seat}'s view moved on to "
                f"version {current}; fetch the view and decide again"
            )
        if record.finished:
            raise IllegalAction("End of the game", "the match is over")
        state = self._state.decode(record.state)
        # The seat's view before the move, on a state of its own (apply changes `state` in place).
        before = self.engine.view(self._state.decode(record.state), seat) if timeout_decision else None
        events = self.engine.apply(state, seat, action)
        label = ""
        if before is not None:
            label = self.engine.describe_action(before, action, self._narrator(record.meta, seat)).text
        commit, response = self._prepare_commit(
            record, state, seat, action, events, idempotency, now, timeout_decision, label
        )
        result = await self.store.commit(commit)
        if result.status == "ok":
            self._snapshots.put(commit.applied)
            if commit.applied.finished:
                await self._compact(record.match_id, record.version + 1)
            return response
        if result.status == "duplicate":
            return self.pb.SubmitActionResponse.FromString(idempotency.recorded_answer(result.answer))
        if result.status == "missing":
            raise NotFound(f"no {self.binding.info.game} match {record.match_id}")
        raise _LostRace()

    def _action(self, message: Any, serialized: bytes) -> Any:
        """The engine struct of an action message (InvalidArgument when malformed); decoded once per distinct action.

        Actions are frozen structs, so one decoded value serves every request that sends the same bytes.
        """
        action = self._actions.get(serialized)
        if action is None:
            action = codec.decode_tagged(message, self.engine.action_type, "action")
            _bounded_put(self._actions, serialized, action)
        return action

    async def _compact(self, match_id: str, version: int) -> None:
        """Packs the match that just finished (MatchStore.compact); a failure leaves it whole, still readable."""
        try:
            await self.store.compact(match_id, version)
        except RedisError:
            log.warning("could not compact a finished match", match_id=match_id, exc_info=True)

    def _check_seat_exists(self, record: MatchRecord, seat: int) -> None:
        if not 0 <= seat < len(record.meta.seats):
            raise PermissionDenied(f"match {record.match_id} has no seat {seat}")

    def _check_bot_turn(self, principal: Principal, record: MatchRecord, seat: int, now_ms: int) -> bool:
        """True when a bot decides for a human seat whose timer ran out; refuses it earlier."""
        if not principal.bot or record.meta.seats[seat].bot:
            return False
        deadline = record.deadline_of(seat)
        if deadline is None or deadline.deadline_ms > now_ms:
            raise PermissionDenied(f"seat {seat} is played by a human whose turn timer has not run out")
        return True

    def _prepare_commit(
        self,
        record: MatchRecord,
        state: Any,
        seat: int,
        action: Any,
        events: list[Any],
        idempotency: _IdempotencyKey,
        now: int,
        timeout_decision: bool,
        timeout_label: str = "",
    ) -> tuple[Commit, Any]:
        meta = record.meta
        version = record.version + 1
        to_act = list(self.engine.to_act(state).seats())
        seat_versions = next_view_versions(record.seat_versions, version, seat, events, record.to_act, to_act)
        outcome = self.engine.outcome(state)
        deadlines = [] if outcome else self._deadlines(meta, to_act, seat_versions, record.deadlines, now)
        decisions = record.decision_counts()
        decisions[seat] = decisions[seat].after(timeout_decision)
        entry = StoredEntry(
            version, seat, self._encode(action), self._encode(events), now, timeout_decision, timeout_label
        )
        # Without the events' text: the answer is stored for retries, and Watch brings the words.
        answer = self._answer(version, seat_versions[seat], entry, events, seat)
        response = self.pb.SubmitActionResponse.FromString(answer)
        kind = common_pb2.MATCH_EVENT_KIND_FINISHED if outcome else common_pb2.MATCH_EVENT_KIND_TURN
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
        commit = Commit(
            loaded=record,
            applied=applied,
            entry=entry,
            idempotency_field=idempotency.field,
            answer=idempotency.record(answer),
            notice=self._notice(
                record.match_id,
                meta,
                version,
                kind,
                to_act,
                seat_versions,
                outcome,
                now,
                decisions=decisions,
                seat=seat,
                timeout_decision=timeout_decision,
            ),
            retention_seconds=self.settings.match_retention_seconds,
        )
        return commit, response

    def _answer(self, version: int, view_version: int, entry: StoredEntry, events: list[Any], seat: int) -> bytes:
        """SubmitActionResponse's bytes, as SerializeToString writes them: its fields, then each event.

        An event is its header (the same for every event of the move) then its body, the
        projected event's message (cached: the same bodies recur all match long).
        """
        header = common_pb2.EventHeader(version=entry.version, timeout_decision=entry.timeout_decision)
        if entry.seat is not None:
            header.seat = entry.seat
        header.time.FromMilliseconds(entry.time_ms)
        head = header.SerializeToString()
        head = b"\x0a" + _varint(len(head)) + head  # Event.header = 1
        out = [self.pb.SubmitActionResponse(version=version, view_version=view_version).SerializeToString()]
        for event in events:
            body = head + self._event_body(project(event, seat))
            out.append(b"\x1a" + _varint(len(body)) + body)  # SubmitActionResponse.events = 3
        return b"".join(out)

    def _event_body(self, shown: Any) -> bytes:
        """The Event message of a projected event, without its header, serialized (cached by its msgpack)."""
        key = self._encode(shown)
        body = self._event_bodies.get(key)
        if body is None:
            fields = msgspec.to_builtins(shown)
            body = codec.fill_oneof(self.pb.Event(), fields.pop(codec.TAG), fields).SerializeToString()
            _bounded_put(self._event_bodies, key, body)
        return body

    def _deadlines(
        self,
        meta: MatchMeta,
        to_act: Sequence[int],
        seat_versions: Sequence[int],
        previous: Sequence[SeatDeadline],
        now: int,
    ) -> list[SeatDeadline]:
        """A deadline per seat to act; a seat still facing the same decision keeps its deadline."""
        kept = {d.seat: d for d in previous if d.view_version == seat_versions[d.seat]}
        out = []
        for seat in to_act:
            if seat in kept:
                out.append(kept[seat])
                continue
            seconds = self.settings.bot_turn_deadline_seconds if meta.seats[seat].bot else meta.turn_timer_seconds
            out.append(SeatDeadline(seat, seat_versions[seat], now + seconds * 1000))
        return out

    def _notice(
        self,
        match_id: str,
        meta: MatchMeta,
        version: int,
        kind: int,
        to_act: Sequence[int],
        seat_versions: Sequence[int],
        outcome: Outcome | None,
        now: int,
        decisions: Sequence[DecisionCount] = (),
        seat: int | None = None,
        timeout_decision: bool = False,
    ) -> bytes:
        notice = common_pb2.MatchEvent(
            version=version,
            kind=kind,  # type: ignore[arg-type]
            to_act=to_act,
            to_act_versions=[seat_versions[s] for s in to_act],
            timeout_decision=timeout_decision,
        )
        if seat is not None:
            notice.seat = seat
        if outcome is not None:
            notice.outcome.CopyFrom(codec.to_message(common_pb2.Outcome, outcome))
            # The ratings read them: a seat mostly played by the timeout bot is left unrated.
            counts = list(decisions) or [DecisionCount()] * len(meta.seats)
            notice.decisions.extend(self._decisions(counts))
        if kind != common_pb2.MATCH_EVENT_KIND_TURN:
            notice.seats.extend(self._seat_info(s) for s in meta.seats)
        notice.time.FromMilliseconds(now)
        # Two serialized messages of one type, joined, read as one with both sets of fields.
        return self._notice_base(match_id, meta) + notice.SerializeToString()

    def _notice_base(self, match_id: str, meta: MatchMeta) -> bytes:
        """The turn notice's fields that never change in a match, serialized once per match."""
        known = self._notice_bases.get(match_id)
        # Checked against the meta: a refused CreateMatch may have asked another one for the same id.
        if known is not None and known[0] == meta:
            return known[1]
        base = common_pb2.MatchEvent(
            match_id=match_id,
            game=meta.game,
            bots=[
                common_pb2.BotSeat(seat=s.seat, level=s.bot_level, budget_seconds=meta.bot_budget_seconds)
                for s in meta.seats
                if s.bot
            ],
            mode=meta.mode,
        ).SerializeToString()
        _bounded_put(self._notice_bases, match_id, (meta, base))
        return base

    @staticmethod
    def _view_version(record: MatchRecord, viewer: int | None) -> int:
        if viewer is None or viewer >= len(record.seat_versions):
            return record.version
        return record.seat_versions[viewer]

    def _events(
        self, meta: MatchMeta, entry: StoredEntry, events: list[Any], viewer: int | None, text: bool = True
    ) -> list[Message]:
        """The entry's events as `viewer` may see them (the one redaction, project), with their text if asked."""
        out = []
        narrator = self._narrator(meta, viewer)
        for event in events:
            shown = project(event, viewer)
            fields = msgspec.to_builtins(shown)
            message = codec.fill_oneof(self.pb.Event(), fields.pop(codec.TAG), fields)
            header = message.header
            if text:
                header.text = self.engine.describe_event(shown, narrator) or ""
            header.version = entry.version
            if entry.seat is not None:
                header.seat = entry.seat
            header.timeout_decision = entry.timeout_decision
            header.time.FromMilliseconds(entry.time_ms)
            out.append(message)
        return out

    async def watch(self, principal: Principal, request: Any) -> AsyncIterator[Any]:
        """Entries after from_version, then each new one; the latest carries the view.

        Between moves the stream waits on the process's one stream reader (StreamWakeups),
        holding no Redis connection; every WATCH_POLL_MS it reads again even unwoken.
        """
        match_id = _checked_match_id(request.match_id)
        viewer = principal.viewer_in(match_id)
        last = request.from_version
        first = True
        with self.wakeups.follow(self.store.keys(match_id).events, f"{last}-1") as follower:
            while True:
                follower.clear()
                record, entries = await self.store.snapshot(match_id, last)
                if record is None or record.meta.game != self.binding.info.game:
                    raise NotFound(f"no {self.binding.info.game} match {match_id}")
                if viewer is not None:
                    self._check_seat_exists(record, viewer)
                if last > record.version:
                    raise InvalidArgument(f"from_version {last} is ahead of the match (version {record.version})")
                if entries or first:
                    for entry in entries:
                        events = self._events(record.meta, entry, self._events_decoder.decode(entry.events), viewer)
                        yield self._watch_response(record, entry.version, events, viewer, entry)
                    if not entries:
                        yield self._watch_response(record, record.version, [], viewer)
                    last = record.version
                first = False
                if record.finished:
                    return
                await follower.wait(WATCH_POLL_MS / 1000)

    def _watch_response(
        self,
        record: MatchRecord,
        version: int,
        events: list[Message],
        viewer: int | None,
        entry: StoredEntry | None = None,
    ) -> Any:
        response = self.pb.WatchResponse(version=version, events=events)
        if entry is not None and entry.timeout_decision and entry.seat is not None:
            response.timeout.CopyFrom(self._timeout_note(record.meta, entry.seat, entry.timeout_label, viewer))
        if version == record.version:
            response.view.CopyFrom(self._view_message(record, self._state.decode(record.state), viewer))
            response.view_version = self._view_version(record, viewer)
            response.clock.CopyFrom(self._clock(record))
        return response

    def _timeout_note(self, meta: MatchMeta, seat: int, label: str, viewer: int | None) -> common_pb2.TimeoutDecision:
        """What a reader is told of a move the timeout bot made for `seat`.

        The action's label is the seat's own words and may name a card only that seat may
        see, so only the seat reads it; the others learn what is public from the events.
        """
        if viewer == seat:
            chosen = f"a bot chose: {label.rstrip('.')}." if label else "a bot decided for you."
            text = f"Your turn timer ran out; {chosen}"
        else:
            name = self._narrator(meta, viewer).name(seat)
            text = f"{name}'s turn timer ran out; a bot decided for them."
        return common_pb2.TimeoutDecision(seat=seat, text=text)
