"""The arena on every core (issue 33): the same results whatever --jobs, a JSONL line per match, resume,
`menagerie arena report`, and worker processes that stop with the arena however it stops."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import msgspec
import pytest

from menagerie.arena import local, pool, records
from menagerie.arena.main import main
from menagerie.rules.bots import SearchBudget
from menagerie.rules.contract import Outcome, SeatResult
from menagerie.rules.errors import InvalidArgument
from menagerie.search.mcts import MctsPolicy
from menagerie.shared.lifetime import processes

# Zoo beginner, greedy against random: a match takes a fraction of a second.
RUN = ["--game", "zoo", "--mode", "beginner", "--bots", "greedy,random", "--games", "6", "--seed", "11"]


def _lines(path: Path) -> list[records.Line]:
    return records.read(path)


def _decided(path: Path) -> list[records.GameRecord]:
    """The file's matches by index, without their decision times (the one thing a rerun changes)."""
    games = sorted(records.games_of(_lines(path)), key=lambda r: r.index)
    return [msgspec.structs.replace(record, times={}) for record in games]


def test_the_same_run_gives_the_same_records_whatever_the_jobs(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert main([*RUN, "--jobs", "1", "--out", str(one)]) == 0
    assert main([*RUN, "--jobs", "2", "--out", str(two)]) == 0
    assert _lines(one)[0] == _lines(two)[0]  # the same header
    assert _decided(one) == _decided(two)
    assert [r.index for r in _decided(one)] == list(range(6))


def test_each_line_holds_what_the_tables_need(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    assert main([*RUN, "--jobs", "1", "--out", str(out)]) == 0
    header, *games = _lines(out)
    assert isinstance(header, records.RunHeader)
    assert (header.levels, header.seed, header.setting.game, header.setting.mode) == (
        ("greedy", "random"),
        11,
        "zoo",
        "beginner",
    )
    assert header.setting.budget is None  # no level searches
    assert [g.seed for g in games if isinstance(g, records.GameRecord)] == [11 + g for g in range(6)]
    for game in records.games_of(games):
        assert game.setting == header.setting and (game.first, game.second) == ("greedy", "random")
        assert game.levels == (("greedy", "random") if game.index % 2 == 0 else ("random", "greedy"))
        assert game.winners == tuple(game.outcome.winners())
        assert sum(t.decisions for t in game.times.values()) == game.actions > 0
        for times in game.times.values():
            assert len(times.ms) == times.decisions
            assert times.p50_ms <= times.p99_ms <= times.max_ms == max(times.ms)


def test_a_resumed_run_plays_only_the_matches_its_file_lacks(tmp_path: Path) -> None:
    plan = local.make_plan("zoo", "beginner", ["greedy", "random"], games=6, seed=11)
    full, cut = tmp_path / "full.jsonl", tmp_path / "cut.jsonl"
    pool.run(plan, out=full)
    kept = full.read_bytes().splitlines(keepends=True)[:4]  # the header and 3 matches
    # ...and half of the next line, as a run killed while writing it leaves it.
    cut.write_bytes(b"".join(kept) + full.read_bytes().splitlines()[4][:50])
    started: list[tuple[int, int]] = []
    played: list[int] = []
    pool.run(
        plan,
        jobs=2,
        out=cut,
        on_start=lambda done, total: started.append((done, total)),
        on_record=lambda r: played.append(r.index),
    )
    assert started == [(3, 6)]
    assert sorted(played) == [r.index for r in _decided(full)][3:]
    assert cut.read_bytes().startswith(b"".join(kept))  # the matches it held, untouched
    assert _decided(cut) == _decided(full)
    # A larger --games extends the run: only the new matches are played.
    played.clear()
    pool.run(
        local.make_plan("zoo", "beginner", ["greedy", "random"], games=8, seed=11),
        out=cut,
        on_record=lambda r: played.append(r.index),
    )
    assert played == [6, 7]


def test_a_file_of_another_run_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run.jsonl"
    assert main([*RUN, "--games", "1", "--jobs", "1", "--out", str(out)]) == 0
    before = out.read_bytes()
    capsys.readouterr()
    assert main([*RUN, "--games", "1", "--jobs", "1", "--seed", "12", "--out", str(out)]) == 2
    said = capsys.readouterr().out
    assert "holds another run" in said and "seed 11" in said and "seed 12" in said
    assert out.read_bytes() == before
    (tmp_path / "notes.log").write_text("hello\n")
    assert main([*RUN, "--jobs", "1", "--out", str(tmp_path / "notes.log")]) == 2
    assert "is not a line of an arena run" in capsys.readouterr().out


def _rows(text: str) -> list[list[str]]:
    """The cells of every table row printed."""
    return [[cell.strip() for cell in line.split("│")[1:-1]] for line in text.splitlines() if line.startswith("│")]


def _wilson_by_hand(wins: int, games: int) -> str:
    """The 95% Wilson score interval, written out: (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n)."""
    z, p, n = 1.959963984540054, wins / games, games
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{max(0.0, centre - half):.1%}–{min(1.0, centre + half):.1%}"


def test_the_report_counts_wins_with_wilson_intervals_by_seat_and_length(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ten matches written by hand: greedy wins 7 (its 5 in Seat 1, 2 of 5 in Seat 2); 5 of 10 actions, 5 of 30."""
    plan = local.make_plan("zoo", "beginner", ["greedy", "random"], games=10, seed=0)
    setting = records.setting_of(plan)
    lines = [records.encode(records.header_of(plan))]
    for match in plan.matches():
        greedy = match.levels.index("greedy")
        won = greedy == 0 or match.index in (1, 3)
        winner = greedy if won else 1 - greedy
        outcome = Outcome([SeatResult(s, "win" if s == winner else "loss") for s in range(2)], "made up")
        actions = 10 if match.index < 5 else 30
        lines.append(
            records.encode(
                records.GameRecord(
                    setting,
                    match.index,
                    "greedy",
                    "random",
                    match.levels,
                    match.seed,
                    (winner,),
                    actions,
                    outcome,
                    {"greedy": records.level_times([0.001] * actions)},
                )
            )
        )
    out = tmp_path / "made.jsonl"
    out.write_bytes(b"".join(lines))
    assert main(["report", str(out), str(out)]) == 0  # the same file twice: each match counted once
    said = capsys.readouterr().out
    assert _wilson_by_hand(7, 10) == "39.7%–89.2%"
    assert "zoo beginner negative_values=multiply, 2 seats: 10 matches" in said
    rows = _rows(said)
    assert ["greedy vs random", "7/10", "70.0%", "39.7%–89.2%", "3", "0", "0", "20.0"] in rows
    assert ["greedy vs random", "Seat 1", "5/5", "100.0%", _wilson_by_hand(5, 5), "0"] in rows
    assert ["greedy vs random", "Seat 2", "2/5", "40.0%", _wilson_by_hand(2, 5), "3"] in rows
    # Lengths: the quartiles of five 10s and five 30s are 10, 10 and 30.
    assert ["greedy vs random", "≤ 10 actions", "5", "5/5", "100.0%", _wilson_by_hand(5, 5)] in rows
    assert ["greedy vs random", "11–30 actions", "5", "2/5", "40.0%", _wilson_by_hand(2, 5)] in rows
    assert "10 matches found more than once were counted once" in said


def test_the_report_holds_each_searching_level_to_its_budget_plus_ten_percent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 33: p99 ≤ budget + 10%. Each level plays two matches of 100 decisions; mcts@0.2's slowest 3%
    take 0.215 s (its p99): PASS; mcts@0.1's 0.15 s: MISS; greedy has no budget to hold."""
    plan = local.make_plan("zoo", "beginner", ["mcts@0.2", "mcts@0.1", "greedy"], games=1, seed=0)
    setting = records.setting_of(plan)
    assert setting.budget is not None, "a run whose levels search names its budget"
    times = {
        "mcts@0.2": [0.2] * 97 + [0.215] * 3,
        "mcts@0.1": [0.1] * 97 + [0.15] * 3,
        "greedy": [0.5] * 100,
    }
    lines = [records.encode(records.header_of(plan))]
    for match in plan.matches():
        outcome = Outcome([SeatResult(0, "win"), SeatResult(1, "loss")], "made up")
        spent = {level: records.level_times(times[level]) for level in match.levels}
        record = records.GameRecord(
            setting, match.index, match.first, match.second, match.levels, match.seed, (0,), 100, outcome, spent
        )
        lines.append(records.encode(record))
    out = tmp_path / "budgets.jsonl"
    out.write_bytes(b"".join(lines))
    assert main(["report", str(out)]) == 0
    rows = {row[0]: row for row in _rows(capsys.readouterr().out) if len(row) == 8}
    assert rows["mcts@0.2"][4:] == ["215.000", "215.000", "220", "PASS"]
    assert rows["mcts@0.1"][4:] == ["150.000", "150.000", "110", "MISS"]
    assert rows["greedy"][6:] == ["–", "–"]


def test_a_level_at_a_budget_of_its_own() -> None:
    run = SearchBudget(seconds=1.0, iterations=50)
    assert local.split_level("mcts@0.25", run) == ("mcts", SearchBudget(seconds=0.25, iterations=50))
    assert local.split_level("mcts", run) == ("mcts", run)
    assert local.split_level("greedy", run) == ("greedy", None)
    for wrong in ("greedy@1", "mcts@", "mcts@-1", "mcts@fast"):
        with pytest.raises(InvalidArgument):
            local.split_level(wrong, run)
    policy = local.make_policy("zoo", "mcts@0.25", run)
    assert isinstance(policy, MctsPolicy) and policy.budget == SearchBudget(seconds=0.25, iterations=50)


# ------------------------------------------------------------------ stopping


def _members(group: int) -> list[int]:
    """The live processes of a process group."""
    return [pid for pid, of in processes() if of == group]


def _ignores_sigint(pid: int) -> bool:
    """Whether `pid` ignores SIGINT: a worker does once its initializer (which ties it first) has run."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    mask = next(line.split()[1] for line in status.splitlines() if line.startswith("SigIgn:"))
    return bool(int(mask, 16) & (1 << (signal.SIGINT - 1)))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGKILL])
def test_workers_stop_with_the_arena(tmp_path: Path, stop: signal.Signals) -> None:
    """Ctrl-C (SIGINT to the whole group) stops the run cleanly, keeping its file; SIGKILL takes the workers too."""
    out = tmp_path / "slow.jsonl"
    # A search of 2,000 iterations a decision: no match ends before the arena is stopped.
    argv = ["--game", "zoo", "--bots", "mcts,greedy", "--iterations", "2000", "--games", "8", "--jobs", "2"]
    # SIGINT as an interactive shell leaves it (a test run started in the background would ignore it).
    code = "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler);"
    code += f" from menagerie.arena.main import main; sys.exit(main({[*argv, '--out', str(out)]!r}))"
    arena = subprocess.Popen(
        [sys.executable, "-c", code], start_new_session=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + 120
        while sum(_ignores_sigint(pid) for pid in _members(arena.pid) if pid != arena.pid) < 2:
            assert arena.poll() is None and time.monotonic() < deadline, "the workers did not start"
            time.sleep(0.1)
        if stop == signal.SIGINT:
            os.killpg(arena.pid, signal.SIGINT)
            stdout, _ = arena.communicate(timeout=60)
            assert arena.returncode == 130
            assert "stopped: 0 of 8 matches played" in stdout and "the same command resumes the run" in stdout
            assert isinstance(_lines(out)[0], records.RunHeader)
        else:
            os.kill(arena.pid, signal.SIGKILL)
            arena.communicate(timeout=60)
        while _members(arena.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _members(arena.pid) == []
    finally:
        for pid in _members(arena.pid):
            os.kill(pid, signal.SIGKILL)
        arena.communicate(timeout=10)
