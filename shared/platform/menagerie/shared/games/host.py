"""The generic life of a match: create, view, list legal actions, submit, change seats, watch.

This is where the platform's concurrency rules live (docs/architecture.md "Versions and concurrency").
A submit follows the order of checks — token and seat, idempotency key, the action's
shape, the view version, the rules — then commits through the store's one Lua script.
When another move landed in between, the host reloads and tries again, as long as that
move did not concern the caller (its view version is unchanged); otherwise the caller
gets ABORTED.

The host speaks engine and store types only (menagerie.shared.games.terms): the binding
modules translate requests into its calls (inbound) and its results into replies
(outbound). Every view and event it hands out is already the reader's: engine.view and
menagerie.rules.events.project, called here and nowhere else on the way out (`sees` and
`shown_events`; `sees` also writes what a bot seat that must act needs to decide: BotTurn,
beside the match).

Replays and win estimates are a job of their own (menagerie.shared.games.replays): the host
creates a MatchReplays, which sees through the host's `sees` and `shown_events`, and hands
it GetReplay, RecordWinEstimates and GetLiveWinChances. The seats' names and an ended match's
reason, in the reader's words, are menagerie.shared.games.narration's, for both.
"""

from __future__ import annotations

import re
import secrets
import time
import uuid
from collections.abc import AsyncGenerator, Callable
from typing import Any

import msgspec
import structlog
from redis.exceptions import RedisError

from menagerie.rules.bots import policy_for
from menagerie.rules.contract import Engine, GameInfo, MatchSetup
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
from menagerie.rules.events import project
from menagerie.shared.bots import BotTurn, checked_budget
from menagerie.shared.games.checks import check_bot_turn, check_seat_exists, checked_match_id, checked_seats
from menagerie.shared.games.moves import IdempotencyKey, MatchWriter, Played
from menagerie.shared.games.narration import narrator_for, reason_for
from menagerie.shared.games.replays import MatchReplays
from menagerie.shared.games.snapshots import SnapshotCache
from menagerie.shared.games.terms import (
    Clock,
    CreatedMatch,
    Deadline,
    HostSettings,
    LegalActions,
    Match,
    MatchPage,
    MatchRequest,
    Move,
    PageRequest,
    Replay,
    ReplayRequest,
    SeatToken,
    SeatView,
    ShownEvent,
    StoredMessages,
    TimeoutNote,
    WatchUpdate,
)
from menagerie.shared.store import MatchMeta, MatchRecord, MatchStore, StoredEntry
from menagerie.shared.tokens import Principal, TokenSigner
from menagerie.shared.wakeups import StreamWakeups

log = structlog.get_logger(__name__)

SUBMIT_ATTEMPTS = 32
# A parked Watch reads again this often even if no wake-up came (a safety net, not the path).
WATCH_POLL_MS = 10_000
_PAGE_TOKEN = re.compile(r"([0-9]{1,15}):([A-Za-z0-9_-]{1,64})")


class _LostRace(Exception):
    """Another move landed between reading the snapshot and committing."""


class GameHost:
    """Serves one game's matches from the store, in engine and store types; the servicers only translate."""

    def __init__(
        self,
        engine: Engine,
        store: MatchStore,
        signer: TokenSigner,
        settings: HostSettings,
        wakeups: StreamWakeups,
        messages: StoredMessages,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.engine = engine
        self.game = engine.info.game
        self.store = store
        self.signer = signer
        self.settings = settings
        self.wakeups = wakeups
        self.clock = clock
        self.writer = MatchWriter(engine, settings, messages)
        self._state = msgspec.msgpack.Decoder(engine.state_type)
        self._events_decoder = msgspec.msgpack.Decoder(list[engine.event_type])  # type: ignore[name-defined]
        self._snapshots = SnapshotCache()
        self._encode = msgspec.msgpack.Encoder().encode
        self._levels_reading_view: dict[str, bool] = {}
        # Replays and win estimates (replays.py), seeing through this host's own `sees` and `shown_events`.
        self.replays = MatchReplays(engine, store, self)

    def now_ms(self) -> int:
        """The host's clock, in milliseconds."""
        return int(self.clock() * 1000)

    def not_found(self, match_id: str) -> NotFound:
        """The error that says this game has no such match."""
        return NotFound(f"no {self.game} match {match_id}")

    async def load_record(self, match_id: str) -> MatchRecord:
        """The match's record (its snapshot kept for the next read), or NotFound."""
        record, _ = await self.store.load(match_id)
        if record is None or record.meta.game != self.game:
            raise self.not_found(match_id)
        self._snapshots.put(record)
        return record

    # ------------------------------------------------------------------ Matches

    @property
    def info(self) -> GameInfo:
        """The game's modes, seat counts and options."""
        info: GameInfo = self.engine.info
        return info

    async def create_match(self, principal: Principal, request: MatchRequest) -> CreatedMatch:
        """Creates a match (or returns the one with the same id and configuration)."""
        principal.require_service()
        info = self.info
        if request.game != info.game:
            raise InvalidArgument(f"this service runs {info.game!r}, not {request.game!r}")
        seats = checked_seats(request.seats)
        options = info.validate(MatchSetup(request.mode, len(seats), dict(request.options)))
        timer = request.turn_timer_seconds or self.settings.default_turn_timer_seconds
        if timer > 24 * 3600:
            raise InvalidArgument("turn_timer_seconds must be at most 86400")
        budget = checked_budget(request.bot_budget_seconds, timer)  # the timer as resolved: the default counts
        match_id = checked_match_id(request.match_id) if request.match_id else uuid.uuid4().hex
        seed = request.seed if request.seed is not None else secrets.randbits(64)
        now = self.now_ms()
        meta = MatchMeta(info.game, request.mode, options, timer, seats, seed, now, budget)
        state, events = self.engine.setup(MatchSetup(request.mode, len(seats), options), seed)
        new = self.writer.new_match(match_id, meta, state, events, now)
        new.bot_turns = self._bot_turns(new.record, state)
        if await self.store.create(new):
            # What was just written, as a read would find it (a bot's move since is not this call's to report).
            record = new.record
            self._snapshots.put(record)
        else:
            record = await self.load_record(match_id)
            existing = record.meta
            if (
                existing.mode,
                existing.options,
                existing.seats,
                existing.turn_timer_seconds,
                existing.bot_budget_seconds,
            ) != (meta.mode, meta.options, meta.seats, meta.turn_timer_seconds, meta.bot_budget_seconds):
                raise AlreadyExists(f"match {match_id} exists with another configuration")
        ttl = self.settings.seat_token_ttl_seconds
        tokens = []
        for seat in record.meta.seats:
            token, expires = self.signer.issue_seat(match_id, seat.seat, seat.player_id, seat.display_name, ttl)
            tokens.append(SeatToken(seat.seat, token, expires))
        return CreatedMatch(self.summary(record), tokens)

    async def get_match(self, match_id: str) -> Match:
        """A match's public summary."""
        return self.summary(await self.load_record(checked_match_id(match_id)))

    async def list_matches(self, request: PageRequest) -> MatchPage:
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
        records = await self.store.list_records(request.status, size + 1, before)
        records = [r for r in records if r.meta.game == self.game]
        # Filtered after the page is cut: the next page starts after the last match read, listed or not.
        page = [self.summary(r) for r in records[:size] if r.live or not request.live_only]
        if len(records) > size:
            last = records[size - 1]
            return MatchPage(page, f"{last.meta.created_ms}:{last.match_id}")
        return MatchPage(page)

    def summary(self, record: MatchRecord) -> Match:
        return Match(record, self._clock(record))

    def _clock(self, record: MatchRecord) -> Clock:
        """The turn timers of the human seats to act now, the same for every reader.

        Only seats of to_act appear, which every summary and view already shows; a seat's
        deadline restarts when its view version moves, which follows from the public
        events (the seats they concern) and to_act, so the clock tells nobody anything new.
        Bot seats' deadlines are the platform's recovery timer, not a turn timer: left out.
        """
        now = self.now_ms()
        if record.finished:
            return Clock(now)
        public = set(record.to_act)
        seconds = record.meta.turn_timer_seconds
        deadlines = [
            Deadline(d.seat, seconds, d.deadline_ms)
            for d in record.deadlines
            if d.seat in public and not record.meta.seats[d.seat].bot
        ]
        return Clock(now, deadlines)

    # ---------------------------------------------------------------- game verbs

    async def get_view(self, principal: Principal, match_id: str) -> SeatView:
        """The caller's view (its seat's, or a spectator's) and the version to submit with."""
        match_id = checked_match_id(match_id)
        viewer = principal.viewer_in(match_id)
        record = await self.load_record(match_id)
        if viewer is not None:
            check_seat_exists(record, viewer)
        return self._seat_view(record, viewer)

    def sees(self, state: Any, viewer: int | None) -> Any:
        """What `viewer` (a seat, or None for a spectator) may see of `state`: every view handed out is this one."""
        return self.engine.view(state, viewer)

    def _bot_turns(self, record: MatchRecord, state: Any) -> dict[int, bytes]:
        """What each seat a bot plays needs to decide, when it must act in `record` (`state` decoded).

        The seat's legal actions and, when its level reads it, its view (`sees`): what
        ListLegalActions and GetView give that seat, so that its bot submits without asking.
        """
        turns = {}
        for seat in record.to_act:
            level = _bot_level(record, seat)
            if level is None:
                continue
            view = self.sees(state, seat) if self._reads_view(level) else None
            actions = self.engine.legal_actions(state, seat)
            turns[seat] = self._encode(BotTurn(record.seat_versions[seat], actions, view))
        return turns

    def _reads_view(self, level: str) -> bool:
        """Whether a bot of `level` decides from the seat's view (random only needs the legal actions)."""
        reads = self._levels_reading_view.get(level)
        if reads is None:
            try:
                reads = policy_for(self.game, level).needs_view
            except (KeyError, ImportError):  # a level this process cannot make: its bot gets everything
                reads = True
            self._levels_reading_view[level] = reads
        return reads

    def _seat_view(self, record: MatchRecord, viewer: int | None) -> SeatView:
        """What `viewer` may see of the match now (engine.view), its prompt in the engine's words for that reader."""
        view = self.sees(self._state.decode(record.state), viewer)
        narrator = narrator_for(record.meta, viewer)
        prompt = self.engine.describe_prompt(view, narrator)
        clock = self._clock(record)
        return SeatView(record.version, _view_version(record, viewer), view, prompt, clock, reason_for(view, narrator))

    async def list_legal_actions(self, principal: Principal, match_id: str) -> LegalActions:
        """Every action the caller's seat may take now (empty when it need not act)."""
        match_id = checked_match_id(match_id)
        seat = principal.seat_in(match_id)
        record = await self.load_record(match_id)
        check_seat_exists(record, seat)
        state = self._state.decode(record.state)
        actions = [] if record.finished else self.engine.legal_actions(state, seat)
        labels = []
        if actions:
            view = self.sees(state, seat)
            narrator = narrator_for(record.meta, seat)
            labels = [self.engine.describe_action(view, action, narrator) for action in actions]
        return LegalActions(record.seat_versions[seat], actions, labels)

    async def submit_action(self, principal: Principal, move: Move) -> bytes:
        """Applies one action for the caller's seat, exactly once per idempotency key.

        Returns the answer as recorded (StoredMessages.answer): every retry of the key gets
        the same bytes. The first attempt may start from the snapshot this process last saw:
        the Lua script's version check protects the write, and any refusal found on a cached
        snapshot is checked again on a fresh one before the caller hears of it.
        """
        match_id = checked_match_id(move.match_id)
        seat = principal.seat_in(match_id)
        idempotency = IdempotencyKey.of(seat, move)
        for _ in range(SUBMIT_ATTEMPTS):
            cached = self._snapshots.get(match_id)
            if cached is not None:
                try:
                    return await self._try_submit(principal, move, seat, idempotency, cached)
                except (MenagerieError, _LostRace):
                    self._snapshots.forget(match_id)
                    continue
            record, answer = await self.store.load(match_id, idempotency.field)
            if record is None or record.meta.game != self.game:
                raise self.not_found(match_id)
            self._snapshots.put(record)
            check_seat_exists(record, seat)
            if answer is not None:
                return idempotency.recorded_answer(answer)
            try:
                return await self._try_submit(principal, move, seat, idempotency, record)
            except _LostRace:
                continue
        raise Unavailable("the match is too busy right now; try again")

    async def _try_submit(
        self, principal: Principal, move: Move, seat: int, idempotency: IdempotencyKey, record: MatchRecord
    ) -> bytes:
        """Checks and commits the action on `record`; raises _LostRace when another move landed first."""
        check_seat_exists(record, seat)
        action = move.decode_action()
        now = self.now_ms()
        # A bot plays a seat its player left as soon as a decision is due; a person's only once its timer ran out.
        away_decision = principal.bot and seat in record.away
        timeout_decision = not away_decision and check_bot_turn(principal, record, seat, now)
        current = record.seat_versions[seat]
        if move.expected_version != current:
            raise Aborted(
                f"your view is at version {move.expected_version} but your seat's view moved on to "
                f"version {current}; fetch the view and decide again"
            )
        if record.finished:
            raise IllegalAction("End of the game", "the match is over")
        state = self._state.decode(record.state)
        # The seat's view before the move, on a state of its own (apply changes `state` in place).
        before = self.sees(self._state.decode(record.state), seat) if timeout_decision or away_decision else None
        try:
            events = self.engine.apply(state, seat, action)
        except IllegalAction as refused:
            # The rules write a refusal once for every reader ("Seat 2"); the player reads the seats' names.
            raise IllegalAction(refused.rule, narrator_for(record.meta, seat).named(refused.detail)) from None
        label = ""
        if before is not None:
            label = self.engine.describe_action(before, action, narrator_for(record.meta, seat)).text
        played = Played(seat, action, events, timeout_decision, label, away_decision)
        commit, answer = self.writer.commit(record, state, played, idempotency, now)
        commit.bot_turns = self._bot_turns(commit.applied, state)
        result = await self.store.commit(commit)
        if result.status == "ok":
            self._snapshots.put(commit.applied)
            if commit.applied.finished:
                await self._compact(record.match_id, record.version + 1)
            return answer
        if result.status == "duplicate":
            return idempotency.recorded_answer(result.answer)
        if result.status == "missing":
            raise self.not_found(record.match_id)
        raise _LostRace()

    async def change_seat(self, principal: Principal, match_id: str, away: bool) -> Match:
        """The caller leaves its seat to a bot (`away`) or returns to it; the match's summary after.

        Nothing changes when the match is over or the seat is already so. A leave sends the
        seat's bot at once when the seat must act (the turn notice); a bot move under way
        when the player returns lands first or meets the seating check (submit.lua), never both.
        """
        match_id = checked_match_id(match_id)
        if principal.bot:
            raise PermissionDenied("a bot's token cannot leave or return to a seat")
        seat = principal.seat_in(match_id)
        for _ in range(SUBMIT_ATTEMPTS):
            record = await self.load_record(match_id)
            check_seat_exists(record, seat)
            if record.meta.seats[seat].bot:
                raise PermissionDenied(f"seat {seat} is a bot's: nobody leaves or returns to it")
            if record.finished or (seat in record.away) == away:
                return self.summary(record)
            change = self.writer.seat_change(record, seat, away, self.now_ms())
            if await self.store.change_seating(change):
                self._snapshots.put(change.applied)
                log.info("seat left" if away else "seat taken back", match=match_id, seat=seat)
                return self.summary(change.applied)
        raise Unavailable("the match is too busy right now; try again")

    async def replay(self, principal: Principal, request: ReplayRequest) -> Replay:
        """A page of the match's steps as the reader sees each (MatchReplays.replay)."""
        return await self.replays.replay(principal, request)

    async def record_win_estimates(
        self, principal: Principal, match_id: str, chances: dict[int, list[float]], live: bool = False
    ) -> None:
        """Keeps a match's win estimates, finished or `live` (MatchReplays.record_win_estimates)."""
        await self.replays.record_win_estimates(principal, match_id, chances, live)

    async def live_win_chances(self, principal: Principal, match_id: str) -> tuple[Match, dict[int, list[float]]]:
        """The match and its live estimates so far (MatchReplays.live_win_chances)."""
        return await self.replays.live_win_chances(principal, match_id)

    async def _compact(self, match_id: str, version: int) -> None:
        """Packs the match that just finished (MatchStore.compact); a failure leaves it whole, still readable."""
        try:
            await self.store.compact(match_id, version)
        except RedisError:
            log.warning("could not compact a finished match", match_id=match_id, exc_info=True)

    async def watch(self, principal: Principal, match_id: str, from_version: int) -> AsyncGenerator[WatchUpdate, None]:
        """Entries after from_version, then each new one; the latest carries the view.

        Between moves the stream waits on the process's one stream reader (StreamWakeups),
        holding no Redis connection; every WATCH_POLL_MS it reads again even unwoken.
        """
        match_id = checked_match_id(match_id)
        viewer = principal.viewer_in(match_id)
        last = from_version
        first = True
        with self.wakeups.follow(self.store.keys(match_id).events, f"{last}-1") as follower:
            while True:
                follower.clear()
                record, entries = await self.store.snapshot(match_id, last)
                if record is None or record.meta.game != self.game:
                    raise self.not_found(match_id)
                if viewer is not None:
                    check_seat_exists(record, viewer)
                if last > record.version:
                    raise InvalidArgument(f"from_version {last} is ahead of the match (version {record.version})")
                if entries or first:
                    for entry in entries:
                        yield self._entry_update(record, entry, viewer)
                    if not entries:
                        yield WatchUpdate(record.version, [], view=self._seat_view(record, viewer))
                    last = record.version
                first = False
                if record.finished:
                    return
                await follower.wait(WATCH_POLL_MS / 1000)

    def _entry_update(self, record: MatchRecord, entry: StoredEntry, viewer: int | None) -> WatchUpdate:
        """One stored entry as `viewer` may read it; with the view when it is the match's latest."""
        events = self.shown_events(record.meta, entry, viewer)
        timeout = None
        if (entry.timeout_decision or entry.away_decision) and entry.seat is not None:
            timeout = _timeout_note(record.meta, entry, viewer)
        view = self._seat_view(record, viewer) if entry.version == record.version else None
        return WatchUpdate(entry.version, events, timeout, view)

    def shown_events(self, meta: MatchMeta, entry: StoredEntry, viewer: int | None) -> list[ShownEvent]:
        """The entry's events as `viewer` may see them (the one redaction, project), with their text."""
        narrator = narrator_for(meta, viewer)
        out = []
        for event in self._events_decoder.decode(entry.events):
            shown = project(event, viewer)
            out.append(ShownEvent(entry, shown, self.engine.describe_event(shown, narrator) or ""))
        return out


def _view_version(record: MatchRecord, viewer: int | None) -> int:
    if viewer is None or viewer >= len(record.seat_versions):
        return record.version
    return record.seat_versions[viewer]


def _bot_level(record: MatchRecord, seat: int) -> str | None:
    """The level of the bot that plays `seat` (a bot's seat, or one its player left); None for a player's."""
    if record.meta.seats[seat].bot:
        return record.meta.seats[seat].bot_level
    return record.meta.stand_in_level if seat in record.away else None


def _timeout_note(meta: MatchMeta, entry: StoredEntry, viewer: int | None) -> TimeoutNote:
    """What a reader is told of a move a bot made for a human seat: its timer ran out, or its player left.

    The action's label is the seat's own words and may name a card only that seat may
    see, so only the seat reads it; the others learn what is public from the events.
    """
    seat, label = entry.seat or 0, entry.timeout_label
    if entry.away_decision:
        if viewer == seat:
            chosen = f"it chose: {label.rstrip('.')}." if label else "it decided."
            return TimeoutNote(seat, f"A bot plays your seat while you are away; {chosen}")
        return TimeoutNote(seat, f"{narrator_for(meta, viewer).name(seat)} left; a bot plays for them.")
    if viewer == seat:
        chosen = f"a bot chose: {label.rstrip('.')}." if label else "a bot decided for you."
        text = f"Your turn timer ran out; {chosen}"
    else:
        name = narrator_for(meta, viewer).name(seat)
        text = f"{name}'s turn timer ran out; a bot decided for them."
    return TimeoutNote(seat, text)
