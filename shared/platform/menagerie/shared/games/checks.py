"""The game host's checks of what it is asked: match ids, new seats, a seat's place, a bot's right to decide.

Each raises the platform's own errors (menagerie.rules.errors), which the service's
interceptor turns into status codes.
"""

from __future__ import annotations

import re

from menagerie.rules.errors import InvalidArgument, PermissionDenied
from menagerie.rules.text import seat_name
from menagerie.shared.bots import BOT_LEVELS, DEFAULT_BOT_LEVEL
from menagerie.shared.games.terms import SeatKind, SeatRequest
from menagerie.shared.store import MatchRecord, SeatMeta
from menagerie.shared.tokens import Principal

_MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def checked_match_id(match_id: str) -> str:
    """`match_id` once it is one this service could have issued (InvalidArgument otherwise)."""
    if not match_id:
        raise InvalidArgument("match_id is required")
    if not _MATCH_ID.fullmatch(match_id):
        raise InvalidArgument("match_id must be 1–64 letters, digits, '-' or '_'")
    return match_id


def checked_seats(seats: list[SeatRequest]) -> list[SeatMeta]:
    """The seats of a new match as stored, once each is well formed (InvalidArgument naming the first that is not)."""
    if not seats:
        raise InvalidArgument("seats are required: one SeatInfo per seat")
    out = []
    for index, seat in enumerate(sorted(seats, key=lambda s: s.seat)):
        if seat.seat != index:
            raise InvalidArgument(f"seats must be numbered 0..{len(seats) - 1}, each once")
        if seat.kind is SeatKind.UNSPECIFIED:
            raise InvalidArgument(f"seat {index}: kind must be HUMAN or BOT")
        bot = seat.kind is SeatKind.BOT
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
                display_name=seat_name(index, seat.display_name, level if bot else ""),
                bot=bot,
                bot_level=level if bot else "",
            )
        )
    return out


def check_seat_exists(record: MatchRecord, seat: int) -> None:
    """PermissionDenied unless the match has the seat the caller's token names."""
    if not 0 <= seat < len(record.meta.seats):
        raise PermissionDenied(f"match {record.match_id} has no seat {seat}")


def check_bot_turn(principal: Principal, record: MatchRecord, seat: int, now_ms: int) -> bool:
    """True when a bot decides for a human seat whose timer ran out; refuses it earlier."""
    if not principal.bot or record.meta.seats[seat].bot:
        return False
    deadline = record.deadline_of(seat)
    if deadline is None or deadline.deadline_ms > now_ms:
        raise PermissionDenied(f"seat {seat} is played by a human whose turn timer has not run out")
    return True
