"""`menagerie rules GAME`: every installed game has a short how-to-play in its plugin package.

The text is the game package's data (howto.toml in its package, beside its cli), so an installed CLI
finds it. It names every mode and table option the engine offers, fits 80 columns,
and ends with the pointer to the decisions we authored (services/<game>/RULES.md).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from menagerie.cli.games import GAMES
from menagerie.rules.registry import engine

ROOT = Path(__file__).resolve().parents[3]
MENAGERIE = str(Path(sys.executable).parent / "menagerie")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_a_short_how_to_play(game: str) -> None:
    text = GAMES[game].how_to_play()
    lines = text.strip().splitlines()
    assert 15 <= len(lines) <= 60, "short: a screen or two"
    assert all(len(line) <= 80 for line in lines)
    for heading in ("Setup", "How to win", "Table options"):
        assert any(line.startswith(heading) for line in lines), heading
    info = engine(game).info
    for mode in info.modes:
        assert mode.mode in text, f"mode {mode.mode} is named"
        for option in mode.options:
            assert option.name in text, f"option {option.name} is named"
            assert all(value in text for value in option.allowed_values), option.name
    assert lines[-1].endswith(f"services/{game}/RULES.md")
    assert (ROOT / "services" / game / "RULES.md").is_file()


def test_the_command_prints_it() -> None:
    done = subprocess.run([MENAGERIE, "rules", "zoo"], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("FANTASY ZOO — how to play")
    assert "services/zoo/RULES.md" in done.stdout
    unknown = subprocess.run([MENAGERIE, "rules", "chess"], capture_output=True, text=True, timeout=60, check=False)
    assert unknown.returncode == 1 and "no how-to-play of 'chess'" in unknown.stdout
