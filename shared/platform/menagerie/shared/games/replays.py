"""A match's replays and win estimates: its steps rebuilt from the seed and the stored actions, as a reader sees each.

This is GameHost's replay job (menagerie.shared.games.host creates a MatchReplays and hands
GetReplay, RecordWinEstimates and GetLiveWinChances to it): a page of a match's steps, and the
win estimates kept beside a match (a finished match's, for its replay's chart; the live ones
of a match in progress). It sees through the host's own functions (ReplayHost), never copies of
them: what a seat may see of a state is the host's `sees` (engine.view), of an entry's events the
host's `shown_events` (menagerie.rules.events.project).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any, Protocol

import msgspec

from menagerie.rules.contract import Engine, MatchSetup
from menagerie.rules.errors import FailedPrecondition, InvalidArgument, NotFound, PermissionDenied
from menagerie.shared.games.checks import check_seat_exists, checked_match_id
from menagerie.shared.games.narration import narrator_for, reason_for
from menagerie.shared.games.terms import Clock, Match, Replay, ReplayRequest, ReplayStep, SeatView, ShownEvent
from menagerie.shared.store import MatchMeta, MatchRecord, MatchStore, StoredEntry, WinEstimates
from menagerie.shared.tokens import Principal

# A replay's page: the steps rebuilt and sent at most (each carries a whole view).
REPLAY_PAGE_SIZE = 50
REPLAY_MAX_PAGE_SIZE = 200
REPLAY_YIELD_EVERY = 16  # steps replayed between two turns of the event loop


class ReplayHost(Protocol):
    """What MatchReplays uses of its GameHost: the one seeing function, event redaction, records and the clock."""

    def sees(self, state: Any, viewer: int | None) -> Any:
        """What `viewer` (a seat, or None for a spectator) may see of `state`."""

    def shown_events(self, meta: MatchMeta, entry: StoredEntry, viewer: int | None) -> list[ShownEvent]:
        """The entry's events as `viewer` may see them."""

    async def load_record(self, match_id: str) -> MatchRecord:
        """The match's record, or NotFound."""

    def summary(self, record: MatchRecord) -> Match:
        """The match's public summary."""

    def not_found(self, match_id: str) -> NotFound:
        """The error that says this game has no such match."""

    def now_ms(self) -> int:
        """The host's clock, in milliseconds."""


class MatchReplays:
    """One game's replays and win estimates, for its GameHost: what a reader sees is decided by the host's functions."""

    def __init__(self, engine: Engine, store: MatchStore, host: ReplayHost) -> None:
        self.engine = engine
        self.game = engine.info.game
        self.store = store
        # The GameHost itself: its `sees` and `shown_events` are the one view and the one
        # redaction of every outbound path, so a replay shows what any other answer would.
        self.host = host
        self._action_decoder = msgspec.msgpack.Decoder(engine.action_type)
        self._view_decoder = msgspec.msgpack.Decoder(engine.view_type)
        self._encode = msgspec.msgpack.Encoder().encode

    async def replay(self, principal: Principal, request: ReplayRequest) -> Replay:
        """A page of the match's steps as the reader sees each: rebuilt from the seed and the stored actions.

        Every view is the host's `sees`'s and every event `project`'s, as in any other answer. During the
        match the reader is a spectator, or the caller's own seat; once it is over, any seat, and
        each step also carries its action (everything may be revealed then).
        """
        match_id = checked_match_id(request.match_id)
        record, entries = await self.store.snapshot(match_id, 0)
        if record is None or record.meta.game != self.game:
            raise self.host.not_found(match_id)
        viewer = request.seat
        if viewer is not None:
            check_seat_exists(record, viewer)
            if not record.finished and principal.viewer_in(match_id) != viewer:
                raise PermissionDenied("a seat's views are shown to others only once the match is over")
        first, size = max(request.from_version, 1), request.page_size or REPLAY_PAGE_SIZE
        if size > REPLAY_MAX_PAGE_SIZE:
            raise InvalidArgument(f"page_size must be at most {REPLAY_MAX_PAGE_SIZE}")
        estimates = await self.store.win_estimates(match_id) if record.finished else None
        chances = estimates.chances if estimates is not None else {}
        window = range(first, first + size)
        if request.views:
            steps = await self._replay_steps(record, entries, viewer, window, chances)
        else:  # no views to rebuild: the stored entries say the rest
            steps = [
                ReplayStep(entry, None, [], self._replay_action(record, entry), chances.get(entry.version, []))
                for entry in entries
                if entry.version in window
            ]
        last = entries[-1].version if entries else 0
        following = first + size if first + size <= last else 0
        seed = record.meta.seed if record.finished else None
        return Replay(self.host.summary(record), steps, following, seed, estimates is not None)

    async def _replay_steps(
        self,
        record: MatchRecord,
        entries: list[StoredEntry],
        viewer: int | None,
        window: range,
        chances: dict[int, list[float]],
    ) -> list[ReplayStep]:
        """The steps of `window` (versions) as `viewer` sees them, the match replayed up to the last of them.

        A long match takes a good part of a second to replay: the loop lets the process's other calls
        run every REPLAY_YIELD_EVERY steps.
        """
        steps = []
        for entry, state in self._replayed(record, entries):
            if entry.version >= window.stop:
                break
            if entry.version % REPLAY_YIELD_EVERY == 0:
                await asyncio.sleep(0)
            if entry.version in window:
                steps.append(self._replay_step(record, entry, state, viewer, chances.get(entry.version, [])))
        return steps

    def _replayed(self, record: MatchRecord, entries: list[StoredEntry]) -> Iterator[tuple[StoredEntry, Any]]:
        """Each stored entry with the match's state right after it: the setup's, then each action applied in turn."""
        meta = record.meta
        state, _ = self.engine.setup(MatchSetup(meta.mode, len(meta.seats), meta.options), meta.seed)
        for entry in entries:
            if entry.seat is not None:  # the setup's entry has no seat and no action
                self.engine.apply(state, entry.seat, self._action_decoder.decode(entry.action))
            yield entry, state

    def _replay_step(
        self, record: MatchRecord, entry: StoredEntry, state: Any, viewer: int | None, chances: list[float]
    ) -> ReplayStep:
        """One step of a replay as `viewer` sees it; its view copied, since the state goes on changing."""
        view = self._view_decoder.decode(self._encode(self.host.sees(state, viewer)))
        narrator = narrator_for(record.meta, viewer)
        prompt = self.engine.describe_prompt(view, narrator)
        clock = Clock(self.host.now_ms())
        seen = SeatView(entry.version, entry.version, view, prompt, clock, reason_for(view, narrator))
        events = [shown.text for shown in self.host.shown_events(record.meta, entry, viewer) if shown.text]
        return ReplayStep(entry, seen, events, self._replay_action(record, entry), chances)

    def _replay_action(self, record: MatchRecord, entry: StoredEntry) -> Any:
        """The entry's action once the match is over (None before, and for the setup)."""
        return self._action_decoder.decode(entry.action) if record.finished and entry.seat is not None else None

    async def record_win_estimates(
        self, principal: Principal, match_id: str, chances: dict[int, list[float]], live: bool = False
    ) -> None:
        """Keeps a match's win estimates (the bot pool's estimate tasks): each step's chance per seat.

        A finished match's are kept with it; `live` ones, of a match in progress from spectators'
        views (an empty list: no estimate there), a while for GetLiveWinChances. A service
        credential, or a bot's seat token of the match: the bot pool's keys sign nothing else.
        """
        match_id = checked_match_id(match_id)
        if not (principal.bot and principal.match_id == match_id):
            principal.require_service()
        record = await self.host.load_record(match_id)
        if not (record.finished or live):
            raise FailedPrecondition("win estimates are kept for finished matches only")
        seats = len(record.meta.seats)
        for version, values in chances.items():
            if not 1 <= version <= record.version:
                raise InvalidArgument(f"step {version} is not one of the match's (1 to {record.version})")
            if (len(values) != seats and not (live and not values)) or not all(0.0 <= v <= 1.0 for v in values):
                raise InvalidArgument(f"step {version}: give one chance in [0, 1] per seat ({seats})")
        if live:
            await self.store.record_live(record.match_id, chances)
        elif not await self.store.record_win_estimates(record.match_id, WinEstimates(chances)):
            raise self.host.not_found(record.match_id)

    async def live_win_chances(self, principal: Principal, match_id: str) -> tuple[Match, dict[int, list[float]]]:
        """The match and its live estimates so far; asking marks it watched, so the bot pool estimates it as it goes.

        Any valid token: the estimates come from spectators' views, which anyone may see.
        """
        match_id = checked_match_id(match_id)
        record = await self.host.load_record(match_id)
        return self.host.summary(record), await self.store.watch_live(record.match_id)
