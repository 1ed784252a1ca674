"""Grouping waiting tickets into tables (the pure planner)."""

from __future__ import annotations

from menagerie.lobby.matchmaking import Candidate, TablePlan, plan_tables


def ticket(
    n: int,
    low: int = 3,
    high: int = 3,
    bots: bool = True,
    wait_ms: int = 10_000,
    created: int | None = None,
    player: str | None = None,
    timer: int = 0,
) -> Candidate:
    return Candidate(
        ticket_id=f"t{n}",
        player_id=player or f"p{n}",
        min_seats=low,
        max_seats=high,
        allow_bots=bots,
        bot_level="random",
        max_wait_ms=wait_ms,
        turn_timer_seconds=timer,
        created_ms=created if created is not None else n,
    )


def test_a_full_table_starts_at_once() -> None:
    plans = plan_tables([ticket(1), ticket(2), ticket(3)], now_ms=100)
    assert plans == [TablePlan(("t1", "t2", "t3"), seats=3, bots=0, bot_level="random", turn_timer_seconds=0)]


def test_tables_are_not_started_before_max_wait_unless_full() -> None:
    assert plan_tables([ticket(1), ticket(2)], now_ms=5_000) == []


def test_after_max_wait_bots_fill_the_empty_seats() -> None:
    plans = plan_tables([ticket(1, wait_ms=1_000), ticket(2)], now_ms=1_001)
    assert plans == [TablePlan(("t1", "t2"), seats=3, bots=1, bot_level="random", turn_timer_seconds=0)]


def test_after_max_wait_enough_humans_start_without_bots() -> None:
    plans = plan_tables([ticket(1, low=2, high=4, wait_ms=1_000), ticket(2, low=2, high=4)], now_ms=1_001)
    assert plans[0].seats == 2 and plans[0].bots == 0


def test_a_ticket_that_refuses_bots_waits_and_is_not_backfilled() -> None:
    assert plan_tables([ticket(1, bots=False, wait_ms=1_000)], now_ms=50_000) == []
    plans = plan_tables([ticket(1, wait_ms=1_000), ticket(2, bots=False)], now_ms=1_001)
    assert plans == [TablePlan(("t1",), seats=3, bots=2, bot_level="random", turn_timer_seconds=0)]


def test_seat_ranges_must_overlap() -> None:
    plans = plan_tables([ticket(1, 2, 2), ticket(2, 4, 4), ticket(3, 2, 3)], now_ms=100)
    assert [p.tickets for p in plans] == [("t1", "t3")]


def test_a_player_never_takes_two_seats_of_one_table() -> None:
    plans = plan_tables([ticket(1, 2, 2, player="ann"), ticket(2, 2, 2, player="ann"), ticket(3, 2, 2)], now_ms=100)
    assert [p.tickets for p in plans] == [("t1", "t3")]


def test_several_tables_start_in_one_pass_oldest_first() -> None:
    tickets = [ticket(n, 2, 2) for n in range(1, 8)]
    plans = plan_tables(tickets, now_ms=100)
    assert [p.tickets for p in plans] == [("t1", "t2"), ("t3", "t4"), ("t5", "t6")]


def test_a_younger_overdue_ticket_is_served_even_when_the_oldest_must_wait() -> None:
    plans = plan_tables([ticket(1, 4, 4, bots=False, created=0), ticket(2, 2, 2, wait_ms=500, created=10)], now_ms=600)
    assert [(p.tickets, p.bots) for p in plans] == [(("t2",), 1)]


def test_the_shortest_turn_timer_asked_for_applies() -> None:
    plans = plan_tables([ticket(1, timer=0), ticket(2, timer=60), ticket(3, timer=30)], now_ms=100)
    assert plans[0].turn_timer_seconds == 30
