"""Outbound binding: the game host's results (menagerie.shared.games.terms) as protobuf replies.

Only translation: every view and event handed here was made the reader's by the host
(engine.view, menagerie.rules.events.project), so nothing here decides what anyone sees.
It also writes what the store keeps for other readers (StoredMessages): a submit's answer
and the turn notice, byte for byte as their protobuf messages serialize.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import msgspec

from menagerie.common.v1 import common_pb2, matches_pb2
from menagerie.rules.contract import GameInfo
from menagerie.rules.decisions import ENGINE_RULES
from menagerie.rules.text import name_mentions
from menagerie.shared import codec
from menagerie.shared.games.binding import GameBinding
from menagerie.shared.games.howto import HowTo
from menagerie.shared.games.readings import Reading
from menagerie.shared.games.terms import (
    Clock,
    CreatedMatch,
    LegalActions,
    Match,
    MatchPage,
    NoticeKind,
    Replay,
    SeatView,
    ShownEvent,
    WatchUpdate,
)
from menagerie.shared.store import ACTIVE, FINISHED, DecisionCount, MatchMeta, MatchRecord, SeatMeta, StoredEntry

_STATUS_NAMES = {ACTIVE: common_pb2.MATCH_STATUS_ACTIVE, FINISHED: common_pb2.MATCH_STATUS_FINISHED}
_NOTICE_KINDS = {
    NoticeKind.CREATED: common_pb2.MATCH_EVENT_KIND_CREATED,
    NoticeKind.TURN: common_pb2.MATCH_EVENT_KIND_TURN,
    NoticeKind.FINISHED: common_pb2.MATCH_EVENT_KIND_FINISHED,
}
_CACHE_ENTRIES = 8192  # per hot-path cache of an Outbound


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


def describe_game(info: GameInfo) -> matches_pb2.DescribeGameResponse:
    """DescribeGame's reply: the game's modes, seat counts and options."""
    return codec.to_message(matches_pb2.DescribeGameResponse, info)


def rules(info: GameInfo, how_to: HowTo, readings: Sequence[Reading], mode: str) -> matches_pb2.GetRulesResponse:
    """GetRules's reply: the how-to's sections about `mode` (a mode, or every one) and RULES.md's readings."""
    if mode:
        info.mode(mode)  # InvalidArgument naming the modes there are
    response = matches_pb2.GetRulesResponse(game=info.game, title=how_to.title, mode=mode)
    for section in how_to.for_mode(mode):
        response.sections.add(anchor=section.anchor, heading=section.heading, text=section.text, rules=section.rules)
    # Every rule a refusal may name: the how-to's and the shared engine's own.
    named = dict.fromkeys([*(rule for section in how_to.sections for rule in section.rules), *ENGINE_RULES])
    for reading in readings:
        response.readings.add(
            anchor=reading.anchor,
            anchors=reading.anchors,
            heading=reading.heading,
            text=reading.text,
            rules=reading.reads(named),
        )
    return response


def live_chances(match: Match, chances: dict[int, list[float]]) -> matches_pb2.GetLiveWinChancesResponse:
    """GetLiveWinChances's reply: the match, and its live estimates by version."""
    response = matches_pb2.GetLiveWinChancesResponse(match=summary(match))
    for version in sorted(chances):
        response.steps.add(version=version, chances=chances[version])
    return response


def created(match: CreatedMatch) -> matches_pb2.CreateMatchResponse:
    """CreateMatch's reply: the match's summary and a token per seat."""
    response = matches_pb2.CreateMatchResponse(match=summary(match.match))
    for seat in match.seat_tokens:
        credential = response.seat_tokens.add(seat=seat.seat, token=seat.token)
        credential.expires_at.FromSeconds(seat.expires_at)
    return response


def got(match: Match) -> matches_pb2.GetMatchResponse:
    """GetMatch's reply."""
    return matches_pb2.GetMatchResponse(match=summary(match))


def page(matches: MatchPage) -> matches_pb2.ListMatchesResponse:
    """ListMatches's reply."""
    response = matches_pb2.ListMatchesResponse(matches=[summary(m) for m in matches.matches])
    response.next_page_token = matches.next_page_token
    return response


def summary(match: Match) -> common_pb2.MatchSummary:
    """A match's public summary."""
    record = match.record
    meta = record.meta
    out = common_pb2.MatchSummary(
        match_id=record.match_id,
        config=common_pb2.MatchConfig(
            game=meta.game,
            mode=meta.mode,
            options=meta.options,
            turn_timer_seconds=meta.turn_timer_seconds,
            bot_budget_seconds=meta.bot_budget_seconds,
        ),
        seats=[seat_info(s) for s in meta.seats],
        status=_STATUS_NAMES[record.status],
        version=record.version,
        to_act=record.to_act,
        clock=clock(match.clock),
        decisions=seat_decisions(record.decision_counts()),
        away=record.away,
    )
    if record.outcome is not None:
        out.outcome.CopyFrom(codec.to_message(common_pb2.Outcome, record.outcome))
        # Named as the seats' views name it (the engine writes "Seat 2" for every reader).
        out.outcome.reason = name_mentions(record.outcome.reason, {s.seat: s.display_name for s in meta.seats})
    out.created_at.FromMilliseconds(meta.created_ms)
    out.updated_at.FromMilliseconds(record.updated_ms)
    return out


def seat_info(seat: SeatMeta) -> common_pb2.SeatInfo:
    """Who sits in a seat, as SeatInfo."""
    kind = common_pb2.SEAT_KIND_BOT if seat.bot else common_pb2.SEAT_KIND_HUMAN
    return common_pb2.SeatInfo(
        seat=seat.seat,
        player_id=seat.player_id,
        display_name=seat.display_name,
        kind=kind,
        bot_level=seat.bot_level,
    )


def clock(value: Clock) -> common_pb2.DecisionClock:
    """The turn timers running now, as DecisionClock."""
    out = common_pb2.DecisionClock()
    out.server_time.FromMilliseconds(value.server_time_ms)
    for deadline in value.deadlines:
        entry = out.deadlines.add(seat=deadline.seat, seconds=deadline.seconds)
        entry.deadline.FromMilliseconds(deadline.deadline_ms)
    return out


def seat_decisions(counts: Sequence[DecisionCount]) -> list[common_pb2.SeatDecisions]:
    """How each seat's decisions were made, as SeatDecisions."""
    return [
        common_pb2.SeatDecisions(seat=seat, by_player=count.by_player, by_timeout=count.by_timeout)
        for seat, count in enumerate(counts)
    ]


class Outbound:
    """One game's replies (its View, Event and *Response messages) and the messages the store keeps."""

    def __init__(self, binding: GameBinding, stored: GameBinding | None = None) -> None:
        self.pb = binding.pb2
        self.messages = binding.messages
        # The binding whose SubmitActionResponse the store keeps, when it is another's (the
        # generic service of a game with its own proto): answers are read in its terms.
        self._stored = stored if stored is not None and stored.pb2 is not binding.pb2 else None
        # Actions are small frozen values: their messages are built once and copied after.
        self._action_message = functools.lru_cache(maxsize=4096)(self.messages.action)
        # Hot-path caches, keyed by bytes and bounded (cleared when full): a projected event's
        # message body, a match's constant turn-notice part.
        self._event_bodies: dict[bytes, bytes] = {}
        self._notice_bases: dict[str, tuple[MatchMeta, bytes]] = {}
        self._encode = msgspec.msgpack.Encoder().encode

    # ------------------------------------------------------------------ replies

    def view(self, seat_view: SeatView) -> Any:
        """The reader's view as the game's View message, its prompt in the engine's words, its outcome's seats named."""
        message = self.messages.view(seat_view.view)
        message.prompt.text = seat_view.prompt
        if seat_view.reason:
            message.outcome.reason = seat_view.reason
        return message

    def get_view(self, seat_view: SeatView) -> Any:
        """GetView's reply."""
        return self.pb.GetViewResponse(
            version=seat_view.version,
            view_version=seat_view.view_version,
            view=self.view(seat_view),
            clock=clock(seat_view.clock),
        )

    def legal_actions(self, legal: LegalActions) -> Any:
        """ListLegalActions's reply."""
        response = self.pb.ListLegalActionsResponse(view_version=legal.view_version)
        response.actions.extend(self._action_message(a) for a in legal.actions)
        for label in legal.labels:
            response.labels.add(text=label.text, code=label.code, passes=label.passes)
        return response

    def submitted(self, answer: bytes) -> Any:
        """SubmitAction's reply: the answer recorded for the key (written by `answer`)."""
        if self._stored is None:
            return self.pb.SubmitActionResponse.FromString(answer)
        # Recorded by the game's own service: its events are read back into this service's messages.
        kept = self._stored.pb2.SubmitActionResponse.FromString(answer)
        response = self.pb.SubmitActionResponse(version=kept.version, view_version=kept.view_version)
        for event in kept.events:
            kind = event.WhichOneof(codec.TAG)
            fields = msgspec.json.encode(codec.plain(getattr(event, kind))).decode()
            response.events.add(header=event.header, kind=kind, fields_json=fields)
        return response

    def watch_update(self, update: WatchUpdate) -> Any:
        """One Watch message: the entry's events, the timeout note, and the view when it is the latest."""
        response = self.pb.WatchResponse(version=update.version, events=[self._event(e) for e in update.events])
        if update.timeout is not None:
            response.timeout.CopyFrom(common_pb2.TimeoutDecision(seat=update.timeout.seat, text=update.timeout.text))
        if update.view is not None:
            response.view.CopyFrom(self.view(update.view))
            response.view_version = update.view.view_version
            response.clock.CopyFrom(clock(update.view.clock))
        return response

    def replay(self, replay: Replay) -> matches_pb2.GetReplayResponse:
        """GetReplay's reply: each step's view (and, once the match is over, action) as this binding's messages."""
        response = matches_pb2.GetReplayResponse(
            match=summary(replay.match),
            next_version=replay.next_version,
            estimates=matches_pb2.WIN_ESTIMATES_READY if replay.estimated else matches_pb2.WIN_ESTIMATES_PENDING,
        )
        if replay.seed is not None:
            response.seed = replay.seed
        for step in replay.steps:
            out = response.steps.add(version=step.entry.version, events=step.events, win_chances=step.chances)
            if step.entry.seat is not None:
                out.seat = step.entry.seat
            if step.view is not None:
                out.view.Pack(self.view(step.view))
            if step.action is not None:
                out.action.Pack(self.messages.action(step.action))
        return response

    def _event(self, shown: ShownEvent) -> Any:
        """An event as Event, its header from the stored entry, its text the engine's sentence."""
        message = self.messages.event(shown.event)
        header = message.header
        header.text = shown.text
        entry = shown.entry
        header.version = entry.version
        if entry.seat is not None:
            header.seat = entry.seat
        header.timeout_decision = entry.timeout_decision
        header.time.FromMilliseconds(entry.time_ms)
        return message

    # ------------------------------------------------- what the store keeps (StoredMessages)

    def answer(self, version: int, view_version: int, entry: StoredEntry, shown: list[Any]) -> bytes:
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
        for event in shown:
            body = head + self._event_body(event)
            out.append(b"\x1a" + _varint(len(body)) + body)  # SubmitActionResponse.events = 3
        return b"".join(out)

    def _event_body(self, shown: Any) -> bytes:
        """The Event message of a projected event, without its header, serialized (cached by its msgpack)."""
        key = self._encode(shown)
        body = self._event_bodies.get(key)
        if body is None:
            body = self.messages.event(shown).SerializeToString()
            _bounded_put(self._event_bodies, key, body)
        return body

    def notice(
        self, record: MatchRecord, kind: NoticeKind, seat: int | None = None, timeout_decision: bool = False
    ) -> bytes:
        """The turn notice (MatchEvent) of `record`'s version, serialized for the shard's feed."""
        notice = common_pb2.MatchEvent(
            version=record.version,
            kind=_NOTICE_KINDS[kind],
            to_act=record.to_act,
            to_act_versions=[record.seat_versions[s] for s in record.to_act],
            timeout_decision=timeout_decision,
        )
        if seat is not None:
            notice.seat = seat
        # The seats their players left, beside the table's bots (in the per-match part): the dispatcher sends a bot.
        meta = record.meta
        notice.bots.extend(
            common_pb2.BotSeat(seat=s, level=meta.stand_in_level, budget_seconds=meta.bot_budget_seconds)
            for s in record.away
        )
        if record.outcome is not None:
            notice.outcome.CopyFrom(codec.to_message(common_pb2.Outcome, record.outcome))
            # The ratings read them: a seat mostly played by the timeout bot is left unrated.
            notice.decisions.extend(seat_decisions(record.decision_counts()))
        if kind is not NoticeKind.TURN:
            notice.seats.extend(seat_info(s) for s in record.meta.seats)
        notice.time.FromMilliseconds(record.updated_ms)
        # Two serialized messages of one type, joined, read as one with both sets of fields.
        return self._notice_base(record.match_id, record.meta) + notice.SerializeToString()

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
