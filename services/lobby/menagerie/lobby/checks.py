"""What the lobby checks of a request before it writes anything: who calls, names, bot levels, timers."""

from __future__ import annotations

import re

from menagerie.rules.errors import InvalidArgument, PermissionDenied
from menagerie.shared.bots import BOT_LEVELS, DEFAULT_BOT_LEVEL
from menagerie.shared.tokens import Principal, TokenKind

MAX_WAIT_DEFAULT = 30
MAX_WAIT_LIMIT = 600
TURN_TIMER_LIMIT = 24 * 3600
MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def player_of(principal: Principal) -> Principal:
    """The caller as a player, or PermissionDenied for a seat or service token."""
    if principal.kind is not TokenKind.PLAYER:
        raise PermissionDenied("this call needs a player token (RegisterPlayer gives one)")
    return principal


def checked_display_name(requested: str) -> str:
    """A player's display name: 1–32 printable characters, spaces around it dropped."""
    name = requested.strip()
    if not 1 <= len(name) <= 32 or not name.isprintable():
        raise InvalidArgument("display_name must be 1–32 printable characters")
    return name


def checked_bot_level(level: str) -> str:
    """The ticket's bot level (the default when none is named), or InvalidArgument."""
    level = level or DEFAULT_BOT_LEVEL
    if level not in BOT_LEVELS:
        raise InvalidArgument(f"bot_level must be one of {', '.join(BOT_LEVELS)}, not {level!r}")
    return level


def checked_turn_timer(seconds: int) -> int:
    """The table's turn timer in seconds (0: none), or InvalidArgument past a day."""
    if seconds > TURN_TIMER_LIMIT:
        raise InvalidArgument(f"turn_timer_seconds must be at most {TURN_TIMER_LIMIT}")
    return seconds


def duration(seconds: int) -> str:
    """'24 h', '30 min' or '90 s'."""
    if seconds % 3600 == 0:
        return f"{seconds // 3600} h"
    if seconds % 60 == 0:
        return f"{seconds // 60} min"
    return f"{seconds} s"
