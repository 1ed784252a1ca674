"""The committed golden playthroughs match what the engines print now (`make golden` rewrites them)."""

from __future__ import annotations

from pathlib import Path

from tests.support import golden


def test_every_game_and_mode_has_a_golden_playthrough_that_matches(tmp_path: Path) -> None:
    fresh = {path.name: path.read_text() for path in golden.write(tmp_path)}
    committed = {path.name: path.read_text() for path in golden.GOLDEN_DIR.glob("*.txt")}
    assert fresh, "no installed game has a golden playthrough"
    assert sorted(committed) == sorted(fresh), "golden files are missing or left over: run `make golden`"
    changed = sorted(name for name in fresh if committed[name] != fresh[name])
    assert not changed, f"the engines no longer play these as recorded (review, then `make golden`): {changed}"


def test_a_playthrough_is_the_same_every_time() -> None:
    name, engine, setup = next(iter(golden.golden_matches()))
    assert golden.playthrough(engine, setup) == golden.playthrough(engine, setup), name
