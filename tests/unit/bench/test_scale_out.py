"""The scale-out table's arithmetic: counters read before and after a phase, turned into per-move figures."""

from __future__ import annotations

import math

import pytest

from bench.bot_platform import PlatformShape
from bench.scale_out import Played, Reading, parse_shapes, phase_between, table_lines


def test_shapes_are_workers_by_replicas() -> None:
    assert parse_shapes("1x1, 2x1,1X2") == [(1, 1), (2, 1), (1, 2)]


@pytest.mark.parametrize("wrong", ["2", "0x1", "1x0", "ax2", "2x2x2", ""])
def test_a_shape_that_is_not_two_counts_of_at_least_one_is_refused(wrong: str) -> None:
    with pytest.raises(ValueError, match="WORKERSxREPLICAS"):
        parse_shapes(wrong)


def _phase() -> tuple[Reading, Reading, Played]:
    before = Reading(
        cpu={"games": 10.0, "worker": 5.0, "redis": 1.0, "broker": 0.5, "machine": 100.0},
        commands={"redis": 1_000, "broker": 200},
        bench_reads=40,
        load=3.0,
    )
    # 20 s, 400 moves: games 2 s, worker 1 s, redis 0.4 s, broker 0.2 s; the machine's two cores 30 s busy.
    after = Reading(
        cpu={"games": 12.0, "worker": 6.0, "redis": 1.4, "broker": 0.7, "machine": 130.0},
        commands={"redis": 9_000, "broker": 1_000},
        bench_reads=440,
        load=5.0,
    )
    played = Played(matches=100, seconds=20.0, moves=400, match_bytes=1024.0, counted={"games": 2}, cores=2)
    return before, after, played


def test_a_phase_is_the_counters_differences_per_move() -> None:
    before, after, played = _phase()
    phase = phase_between(before, after, PlatformShape(workers=2, replicas=1), played)
    assert (phase.workers, phase.replicas) == (2, 1)
    assert phase.moves_per_second == 20.0
    assert phase.cpu_ms_per_move("games") == pytest.approx(5.0)
    assert phase.cpu_ms_per_move("worker") == pytest.approx(2.5)
    assert phase.cpu_ms_per_move("broker") == pytest.approx(0.5)
    # every process and both servers, the machine's own busy time aside
    assert phase.cpu_ms_per_move() == pytest.approx(5.0 + 2.5 + 1.0 + 0.5)
    assert "machine" not in phase.cpu
    assert phase.busy_percent == pytest.approx(75.0)
    assert phase.load == (3.0, 5.0)


def test_the_benchs_own_feed_reads_are_not_the_platforms_commands() -> None:
    before, after, played = _phase()
    phase = phase_between(before, after, PlatformShape(), played)
    assert phase.commands == {"redis": 8_000 - 400, "broker": 800}
    assert phase.commands_per_move("redis") == pytest.approx(19.0)
    assert phase.commands_per_move("broker") == pytest.approx(2.0)


def test_a_phase_without_moves_has_no_cost_per_move() -> None:
    before, after, played = _phase()
    phase = phase_between(before, after, PlatformShape(), Played(100, 20.0, 0, 0.0, {}, 2))
    assert math.isnan(phase.cpu_ms_per_move()) and math.isnan(phase.commands_per_move("redis"))
    assert played.moves == 400


def test_the_table_has_a_row_per_shape_in_both_parts() -> None:
    before, after, played = _phase()
    phases = [phase_between(before, after, PlatformShape(w, r), played) for w, r in ((1, 1), (2, 2))]
    lines = table_lines(phases)
    assert lines[1].split()[:5] == ["1", "1", "20", "9.00", "19.0"]
    assert lines[2].split()[:5] == ["2", "2", "20", "9.00", "19.0"]
    assert lines[4].split() == ["shape", "games", "worker", "redis", "broker"]
    assert lines[5].split() == ["1x1", "5.00", "2.50", "1.00", "0.50"]
    assert lines[6].split()[0] == "2x2"
