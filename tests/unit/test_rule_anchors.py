"""Every rule a refusal may name has its reading in the game's RULES.md, under a stable anchor (issue 30, item 12).

A refusal names its rule ("Movement: space 40 is not within 3 steps"); its ErrorInfo reason is
the rule's id (MOVEMENT) and the rules page links to the RULES.md section under the anchor made
from it (`rule-movement`). Here: each rule an engine can name (its rulebook's, the Refusal(...)
names in its engine, the shared engine's own) has that anchor; anchors are unique in a file;
every section has a line of anchors (so every reading can be linked); the file the package
ships is the one at the game's root.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from menagerie.cli.games import GAMES
from menagerie.rules.decisions import ENGINE_RULES
from menagerie.rules.errors import rule_anchor
from menagerie.shared.games.readings import load, parse
from tests.unit.test_howto_refusals import refusable

ROOT = Path(__file__).resolve().parents[2]
ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
SECTION = re.compile(r"^#{2,3} ")


def sections_outside_code(markdown: str) -> int:
    """How many `##` and `###` headings the file has outside code blocks."""
    count, fenced = 0, False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and SECTION.match(line):
            count += 1
    return count


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_rule_a_refusal_names_has_its_anchor(game: str) -> None:
    text = (ROOT / "services" / game / "RULES.md").read_text(encoding="utf-8")
    anchors = ANCHOR.findall(text)
    assert len(anchors) == len(set(anchors)), sorted({a for a in anchors if anchors.count(a) > 1})
    missing = {rule: rule_anchor(rule) for rule in refusable(game) | set(ENGINE_RULES)}
    assert {rule for rule, anchor in missing.items() if anchor not in anchors} == set()
    readings = load(game)
    assert len(readings) == sections_outside_code(text)  # every section is under a line of anchors
    assert [a for r in readings for a in r.anchors] == anchors
    assert all(r.heading and r.text for r in readings)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_package_ships_the_games_rules(game: str) -> None:
    shipped = ROOT / "services" / game / "menagerie" / game / "RULES.md"
    assert shipped.resolve() == (ROOT / "services" / game / "RULES.md").resolve()
    assert load(game) == parse(shipped.read_text(encoding="utf-8"))


def test_anchors_come_from_the_rules_ids() -> None:
    assert rule_anchor("Turn order") == "rule-turn-order"
    assert rule_anchor("Keeper's Kick-Off") == "rule-keeper-s-kick-off"
    readings = parse(
        "# Title\n\nintro\n\n"
        '<a id="rule-the-board"></a><a id="rule-movement"></a>\n\n## The board (`data/board.toml`)\n\n- a\n\n'
        "#### a part\n\nb\n\n"
        '<a id="rule-turn-order"></a>\n\n### Turn order\n\nc\n'
    )
    assert [(r.anchor, r.heading, r.text) for r in readings] == [
        ("rule-the-board", "The board (data/board.toml)", "- a\n\n#### a part\n\nb"),
        ("rule-turn-order", "Turn order", "c"),
    ]
    assert readings[0].reads(["Movement", "Turn order"]) == ["Movement"]
