"""Inbound binding: protobuf requests (already decoded by the bootstrap's interceptor) as the host's terms.

Only translation: no check refuses anything here, so the host keeps the order of checks
(menagerie.shared.games.host). The one thing that can fail, decoding a submitted action
into the engine's struct, is handed to the host to call when its turn comes (Move).
"""

from __future__ import annotations

from typing import Any

from menagerie.common.v1 import common_pb2, matches_pb2
from menagerie.shared.games.messages import Messages
from menagerie.shared.games.terms import MatchRequest, Move, PageRequest, ReplayRequest, SeatKind, SeatRequest
from menagerie.shared.store import ACTIVE, FINISHED

_SEAT_KINDS = {common_pb2.SEAT_KIND_UNSPECIFIED: SeatKind.UNSPECIFIED, common_pb2.SEAT_KIND_BOT: SeatKind.BOT}
_STATUSES = {common_pb2.MATCH_STATUS_ACTIVE: ACTIVE, common_pb2.MATCH_STATUS_FINISHED: FINISHED}
_CACHE_ENTRIES = 8192  # decoded actions kept per game


def match_request(request: matches_pb2.CreateMatchRequest) -> MatchRequest:
    """CreateMatchRequest as the host's MatchRequest."""
    config = request.config
    return MatchRequest(
        game=config.game,
        mode=config.mode,
        seats=[seat_request(seat) for seat in request.seats],
        options=dict(config.options),
        turn_timer_seconds=config.turn_timer_seconds,
        bot_budget_seconds=config.bot_budget_seconds,
        match_id=request.match_id,
        seed=request.seed if request.HasField("seed") else None,
    )


def seat_request(seat: common_pb2.SeatInfo) -> SeatRequest:
    """A SeatInfo of a new match as the host's SeatRequest."""
    return SeatRequest(
        seat=seat.seat,
        kind=_SEAT_KINDS.get(seat.kind, SeatKind.HUMAN),  # enums are open: an unknown number plays as HUMAN
        player_id=seat.player_id,
        display_name=seat.display_name,
        bot_level=seat.bot_level,
    )


def page_request(request: matches_pb2.ListMatchesRequest) -> PageRequest:
    """ListMatchesRequest as the host's PageRequest (UNSPECIFIED status: every match)."""
    return PageRequest(request.page_size, request.page_token, _STATUSES.get(request.status), request.live_only)


def replay_request(request: matches_pb2.GetReplayRequest) -> ReplayRequest:
    """GetReplayRequest as the host's ReplayRequest (no seat: a spectator's views)."""
    seat = request.seat if request.HasField("seat") else None
    return ReplayRequest(request.match_id, seat, request.from_version, request.page_size, not request.without_views)


class Inbound:
    """One game's requests: its SubmitActionRequest's action as the engine's action type."""

    def __init__(self, messages: Messages) -> None:
        self.messages = messages
        # An action message's engine struct, by its bytes; emptied when full (cheaper than an LRU).
        self._actions: dict[bytes, Any] = {}

    def move(self, request: Any) -> Move:
        """A SubmitActionRequest as the host's Move; its action is decoded when the host asks."""
        serialized = request.action.SerializeToString(deterministic=True)
        return Move(
            match_id=request.match_id,
            idempotency_key=request.idempotency_key,
            expected_version=request.expected_version,
            action_key=serialized,
            decode_action=lambda: self._action(request.action, serialized),
        )

    def _action(self, message: Any, serialized: bytes) -> Any:
        """The engine struct of an action message (InvalidArgument when malformed); decoded once per distinct action.

        Actions are frozen structs, so one decoded value serves every request that sends the same bytes.
        """
        action = self._actions.get(serialized)
        if action is None:
            action = self.messages.action_value(message)
            if len(self._actions) >= _CACHE_ENTRIES:
                self._actions.clear()
            self._actions[serialized] = action
        return action
