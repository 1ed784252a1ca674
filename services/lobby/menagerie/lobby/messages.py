"""The lobby's records in their protobuf form."""

from __future__ import annotations

from menagerie.lobby.records import CANCELLED, CLAIMED, EXPIRED, SEATED, WAITING, Ticket
from menagerie.lobby.v1 import lobby_pb2

_STATUS = {
    WAITING: lobby_pb2.TICKET_STATUS_WAITING,
    CLAIMED: lobby_pb2.TICKET_STATUS_WAITING,
    SEATED: lobby_pb2.TICKET_STATUS_SEATED,
    CANCELLED: lobby_pb2.TICKET_STATUS_CANCELLED,
    EXPIRED: lobby_pb2.TICKET_STATUS_EXPIRED,
}


def ticket_message(ticket: Ticket) -> lobby_pb2.Ticket:
    """The protobuf form of a ticket (seating included: only owners ever receive it)."""
    spec = ticket.spec
    message = lobby_pb2.Ticket(
        ticket_id=spec.ticket_id,
        status=_STATUS[ticket.status],
        game=spec.game,
        mode=spec.mode,
        options=spec.options,
        min_seats=spec.min_seats,
        max_seats=spec.max_seats,
        allow_bots=spec.allow_bots,
        bot_level=spec.bot_level,
        max_wait_seconds=spec.max_wait_ms // 1000,
        turn_timer_seconds=spec.turn_timer_seconds,
        table_id=spec.table_id,
        bot_budget_seconds=spec.bot_budget_seconds,
    )
    message.created_at.FromMilliseconds(spec.created_ms)
    if ticket.seating is not None:
        seating = ticket.seating
        message.seating.CopyFrom(
            lobby_pb2.Seating(
                match_id=seating.match_id,
                seat=seating.seat,
                seat_token=seating.seat_token,
                game_endpoint=seating.game_endpoint,
                seats=seating.seats,
                bots=seating.bots,
            )
        )
    return message
