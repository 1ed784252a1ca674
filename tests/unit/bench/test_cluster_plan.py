"""The cluster plan's arithmetic: pods, Redis masters and the broker's load from per-move costs."""

from __future__ import annotations

import dataclasses

import pytest

from bench.cluster_plan import GIB, Assumptions, MoveCosts, plan, pods, report_lines

COSTS = MoveCosts(
    cpu_ms={"games": 1.5, "worker": 1.2, "dispatcher": 0.6, "lobby": 0.1, "redis": 0.1, "broker": 0.05},
    redis_commands=10.0,
    broker_commands=2.0,
    match_bytes=16 * 1024,
)


def test_pods_are_whole_used_to_their_share_and_never_fewer_than_the_least() -> None:
    assert pods(3.0, 0.6, 2) == 5
    assert pods(3.1, 0.6, 2) == 6
    assert pods(0.1, 0.6, 2) == 2
    assert pods(0.0, 0.5, 1) == 1


def test_the_assumptions_give_the_rates() -> None:
    given = Assumptions()
    assert given.moves_per_second == 10_000
    assert given.bot_share == pytest.approx(2 / 3)
    assert given.matches_ending_per_second == pytest.approx(100_000 / 600)


def test_each_component_is_sized_from_its_cost_per_move_at_its_rate() -> None:
    given = Assumptions(matches=12_000, think_seconds=10.0, seats=3, people=1, pod_busy=0.5, min_pods=2)
    result = plan(COSTS, given)
    needs = {n.component: n for n in result.needs}
    # 1,200 moves/s, 800 of them the bots'
    assert needs["game services"].cores == pytest.approx(1.8) and needs["game services"].pods == 4
    assert needs["bot workers"].cores == pytest.approx(0.96) and needs["bot workers"].pods == 2
    assert needs["dispatchers"].cores == pytest.approx(0.72) and needs["dispatchers"].pods == 2
    # 12,000 / 600 s = 20 matches end a second, one person each; 400 calls (their moves) and 1,200 updates
    assert needs["lobby"].cores == pytest.approx(20 * given.lobby_ms_per_seated / 1000)
    assert needs["gateway"].cores == pytest.approx(1_600 * given.gateway_ms_per_call / 1000)
    assert result.redis_ops == pytest.approx(12_000)
    assert result.redis_cores == pytest.approx(0.12) and result.masters_for_cpu == 1
    assert result.broker_ops == pytest.approx(1_600)
    assert result.broker_cores == pytest.approx(0.04)


def test_redis_memory_counts_the_matches_in_play_and_the_finished_ones_kept() -> None:
    given = Assumptions(matches=6_000, retention_days=1.0, finished_match_bytes=1024, redis_memory_gib=1.0)
    result = plan(COSTS, given)
    assert result.playing_bytes == pytest.approx(6_000 * 16 * 1024)
    finished = 6_000 / 600 * 86_400  # ten matches end a second, kept a day
    assert result.finished_bytes == pytest.approx(finished * 1024)
    assert result.masters_for_memory == 1
    bigger = plan(COSTS, dataclasses.replace(given, retention_days=30.0))
    assert bigger.finished_bytes > 24 * GIB and bigger.masters_for_memory == bigger.masters == 25


def test_the_report_states_the_assumptions_and_a_row_per_component() -> None:
    lines = report_lines(COSTS, Assumptions())
    text = "\n".join(lines)
    assert "100,000 matches in play" in text and "not measured" in text
    for component in ("game services", "bot workers", "dispatchers", "lobby", "gateway"):
        assert any(line.strip().startswith(component) for line in lines), component
    assert "Redis Cluster:" in text and "Celery's broker:" in text
    shorter = [plan(COSTS, dataclasses.replace(Assumptions(), retention_days=days)).masters for days in (1, 0)]
    assert f"finished matches kept 1 day: {shorter[0]} masters; none kept in Redis: {shorter[1]})" in text
    assert shorter[0] > shorter[1]
