"""`make bench-scale` runs end to end: a tiny run of bench/scale.py prints every section.

The figures themselves are the bench's business (never asserted here); this only keeps the
bench from rotting: it starts every service, plays bot matches, and measures each step.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from menagerie.shared.lifetime import die_with_parent

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.extended  # the bench runs in `make test-extended`, beside its scale-out shapes
def test_a_small_bench_scale_run_prints_every_step_and_section() -> None:
    argv = [sys.executable, "-m", "bench.scale", "--steps", "2,4", "--seconds", "2", "--tickets", "20"]
    done = subprocess.run(
        die_with_parent([*argv, "--game", "beasts"]), cwd=ROOT, capture_output=True, text=True, timeout=240, check=False
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out = done.stdout
    assert "== Concurrent bot matches (random bots, games beasts" in out
    rows = [line.split() for line in out.splitlines() if line.strip().startswith(("2 ", "4 "))]
    # each step appears in the three tables (figures, CPU per second, CPU per move)
    assert [row[0] for row in rows] == ["2", "4"] * 3, out
    moves_per_second = [float(row[1]) for row in rows[:2]]
    assert all(m > 0 for m in moves_per_second), f"the bots made no move:\n{out}"
    assert "probe SubmitAction p50 highest / lowest step" in out
    assert "Matchmaking: 2-seat Fantastic Beasts" in out and "queued at once: seated/s" in out


# The scale-out shapes start the platform four times over: `make test-extended` (the small run above is make test's).
@pytest.mark.extended
@pytest.mark.long
def test_the_scale_out_path_counts_every_process_of_a_two_by_two_platform() -> None:
    """`--scale-out 2x2`: two bot workers and two replicas of the game's service, every one of them counted."""
    argv = [sys.executable, "-m", "bench.scale", "--scale-out", "2x2", "--steps", "6", "--seconds", "2"]
    done = subprocess.run(
        die_with_parent([*argv, "--game", "beasts"]), cwd=ROOT, capture_output=True, text=True, timeout=240, check=False
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    out = done.stdout
    assert "2x2: measured; processes counted: games 2, dispatcher 1, worker 2, lobby 1, redis servers 2" in out, out
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split()[:3] == ["workers", "replicas", "moves/s"])
    row = lines[header + 1].split()
    assert row[:2] == ["2", "2"], out
    assert float(row[2]) > 0, f"the bots made no move:\n{out}"
    kinds = lines[header + 3].split()
    assert kinds == ["shape", "games", "dispatcher", "worker", "lobby", "redis", "broker"], out
    assert lines[header + 4].split()[0] == "2x2", out
    assert "== A cluster for 100,000 concurrent matches, from the 2x2 costs" in out
    for component in ("game services", "bot workers", "dispatchers", "lobby", "gateway", "Redis Cluster:"):
        assert f"  {component}" in out, component
