"""Every rule a game's refusal may name is explained by a section of its how-to (issue 30, item 5).

The web links a refusal ("Turn order: it is Seat 2's turn") to the section of the rules page
that explains its rule, by the howto.toml's [refusals] table. Here the rules an engine can
name — its rulebook's rule names and the Refusal(...) names written in its engine — are each
in that table under a section the how-to has, and a section's text is the terminal's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from menagerie.cli.games import GAMES
from menagerie.rules.registry import engine
from menagerie.shared.games.howto import anchor_of, load, parse

ROOT = Path(__file__).resolve().parents[2]
REFUSAL = re.compile(r'Refusal\(\s*"([^"]+)"')


def refusable(game: str) -> set[str]:
    """The rule names the game's engine may refuse with."""
    named = {rule.name for rule in engine(game).rules.values()}
    for source in (ROOT / "services" / game / "menagerie" / game / "engine").rglob("*.py"):
        named |= set(REFUSAL.findall(source.read_text(encoding="utf-8")))
    return named


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_refusal_names_a_rule_a_section_explains(game: str) -> None:
    how_to = load(game)
    explained = {rule for section in how_to.sections for rule in section.rules}
    assert refusable(game) <= explained, sorted(refusable(game) - explained)
    text = GAMES[game].how_to_play()
    assert how_to.title == text.strip().splitlines()[0].strip()


def test_sections_anchors_and_modes() -> None:
    how_to = parse(
        {
            "text": "\nTITLE\n\nSetup\n  a\n  b\n\nA turn (mode x)\n  c\n\nClosing words\nover two lines\n",
            "refusals": {"A turn": ["Turn order"]},
            "modes": {"A turn (mode x)": ["x"]},
        }
    )
    assert how_to.title == "TITLE"
    assert [(s.anchor, s.heading, s.text) for s in how_to.sections] == [
        ("setup", "Setup", "a\nb"),
        ("a-turn", "A turn (mode x)", "c"),
        ("note-3", "", "Closing words\nover two lines"),
    ]
    assert how_to.sections[1].rules == ("Turn order",) and how_to.sections[1].modes == ("x",)
    assert [s.anchor for s in how_to.for_mode("y")] == ["setup", "note-3"]
    assert anchor_of("How to win: all together") == "how-to-win"
    assert load("no_such_game").sections == ()
