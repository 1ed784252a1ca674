"""Tickets as the lobby stores them."""

from __future__ import annotations

import msgspec

WAITING = "waiting"
CLAIMED = "claimed"
SEATED = "seated"
CANCELLED = "cancelled"
EXPIRED = "expired"
FINAL = (SEATED, CANCELLED, EXPIRED)


class TicketSpec(msgspec.Struct, frozen=True):
    """What a player asked for; never changes once the ticket exists."""

    ticket_id: str
    player_id: str
    display_name: str
    game: str
    mode: str
    options: dict[str, str]
    min_seats: int
    max_seats: int
    allow_bots: bool
    bot_level: str
    max_wait_ms: int
    turn_timer_seconds: int
    created_ms: int
    table_id: str = ""
    # The seat a private-table ticket takes.
    table_seat: int = -1
    # A searching bot's time per decision (0 = the default, 1 s); checked against the turn timer.
    bot_budget_seconds: float = 0.0


class Seating(msgspec.Struct, frozen=True):
    """Where a seated ticket plays."""

    match_id: str
    seat: int
    seat_token: str
    game_endpoint: str
    seats: int
    bots: int
    seated_ms: int


class Ticket(msgspec.Struct, frozen=True):
    """A ticket and what has become of it."""

    spec: TicketSpec
    status: str
    seating: Seating | None = None


class Claim(msgspec.Struct, frozen=True):
    """Tickets claimed for one match, before the match exists."""

    match_id: str
    game: str
    mode: str
    options: dict[str, str]
    # Seat by seat: a ticket id for a human, "" for a bot.
    seats: list[str]
    bot_level: str
    turn_timer_seconds: int
    claimed_ms: int
    bot_budget_seconds: float = 0.0
