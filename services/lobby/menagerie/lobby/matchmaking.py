"""Grouping waiting tickets into tables (pure: no I/O, no clock).

Tickets of one queue agree on game, mode and options already. A group is formed around
the oldest ticket (the anchor): younger tickets join while the seat counts they accept
still overlap and no player would sit twice. A group starts

* at once when it fills the largest table everyone accepts;
* when the anchor has waited its max_wait: with the humans present if they are enough,
  otherwise — if the anchor allows bots — with bots filling the smallest table everyone
  in the group accepts (only tickets that allow bots take part in a backfilled table).

A ticket that cannot start yet leaves the younger ones free to form their own groups.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from menagerie.shared.bots import DEFAULT_BOT_BUDGET_SECONDS


@dataclass(frozen=True)
class Candidate:
    """A waiting ticket, as the planner sees it."""

    ticket_id: str
    player_id: str
    min_seats: int
    max_seats: int
    allow_bots: bool
    bot_level: str
    max_wait_ms: int
    turn_timer_seconds: int
    created_ms: int
    bot_budget_seconds: float = 0.0


@dataclass(frozen=True)
class TablePlan:
    """A table to start: the tickets seated (oldest first), and how many bots join."""

    tickets: tuple[str, ...]
    seats: int
    bots: int
    bot_level: str
    turn_timer_seconds: int
    bot_budget_seconds: float = 0.0


def _group(anchor: Candidate, others: Iterable[Candidate]) -> tuple[list[Candidate], int, int]:
    """The largest group around `anchor`, and the (min, max) table size it accepts."""
    group = [anchor]
    players = {anchor.player_id}
    low, high = anchor.min_seats, anchor.max_seats
    for ticket in others:
        if len(group) == high:
            break
        if ticket.player_id in players:
            continue
        new_low, new_high = max(low, ticket.min_seats), min(high, ticket.max_seats)
        if new_low <= new_high and len(group) < new_high:
            group.append(ticket)
            players.add(ticket.player_id)
            low, high = new_low, new_high
    return group, low, high


def _timer(group: Sequence[Candidate]) -> int:
    """The shortest turn timer anyone asked for (0 = the game's default)."""
    timers = [t.turn_timer_seconds for t in group if t.turn_timer_seconds]
    return min(timers) if timers else 0


def fitted_budget(seconds: float, timer: int) -> float:
    """A bot budget (0: the default) cut to the table's turn timer (0: the game's own) when it is longer."""
    if timer and (seconds or DEFAULT_BOT_BUDGET_SECONDS) > timer:
        return float(timer)
    return seconds


def _budget(anchor: Candidate, timer: int) -> float:
    """The anchor's bot budget, cut to the group's turn timer when another ticket asked for a shorter one."""
    return fitted_budget(anchor.bot_budget_seconds, timer)


def _plan(group: Sequence[Candidate], seats: int, anchor: Candidate) -> TablePlan:
    timer = _timer(group)
    return TablePlan(
        tickets=tuple(t.ticket_id for t in group),
        seats=seats,
        bots=seats - len(group),
        bot_level=anchor.bot_level,
        turn_timer_seconds=timer,
        bot_budget_seconds=_budget(anchor, timer),
    )


def plan_tables(candidates: Sequence[Candidate], now_ms: int) -> list[TablePlan]:
    """The tables that should start now.

    Linear in the queue when its tickets agree (a group fills from the next ones): a taken
    ticket is skipped, not removed, so a queue of thousands is planned in one sweep.
    """
    pool = sorted(candidates, key=lambda t: (t.created_ms, t.ticket_id))
    taken: set[str] = set()

    def rest_after(index: int) -> Iterable[Candidate]:
        return (pool[i] for i in range(index + 1, len(pool)) if pool[i].ticket_id not in taken)

    plans: list[TablePlan] = []
    for index, anchor in enumerate(pool):
        if anchor.ticket_id in taken:
            continue
        group, low, high = _group(anchor, rest_after(index))
        overdue = now_ms - anchor.created_ms >= anchor.max_wait_ms
        plan: TablePlan | None = None
        if len(group) == high:
            plan = _plan(group, high, anchor)
        elif overdue and len(group) >= low:
            plan = _plan(group, len(group), anchor)
        elif overdue and anchor.allow_bots:
            group, low, _ = _group(anchor, (t for t in rest_after(index) if t.allow_bots))
            plan = _plan(group, max(low, len(group)), anchor)
        if plan is not None:
            plans.append(plan)
            taken.update(plan.tickets)
    return plans
