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
