"""The procedure is the contract's: no engine pushes, pops or reads its two stacks by hand.

Every game's engine modules are scanned: an attribute `.decisions` or `.flow` may be
written only as a field of a struct being built (`State(decisions=[...])` when a state is
rebuilt from a view) or read from the view's public procedure record (`procedure.flow`);
everything else goes through menagerie.rules.procedure (ask, interrupt, settle, decided,
replace, restart, clear, then, advance, pending), a seat's decision included (`decided`,
never the decision's own `done` and `settled`).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
ENGINES = sorted(ROOT.glob("services/*/menagerie/*/engine"))
STACKS = {"decisions", "flow"}
# A pending decision's own bookkeeping, which `decided` does (and settles the decision when it is done).
BOOKKEEPING = {"done", "settled"}
# Names whose `.decisions` / `.flow` are not a match's stacks: the view's public procedure record.
RECORDS = {"procedure"}


def stack_uses(source: str) -> list[tuple[int, str]]:
    """(line, expression) of every `.decisions` / `.flow` attribute, and every `.done()` / `.settled()` call."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in BOOKKEEPING:
            found.append((node.lineno, ast.unparse(node)))
        if isinstance(node, ast.Attribute) and node.attr in STACKS:
            base = node.value
            if isinstance(base, ast.Name) and base.id in RECORDS:
                continue
            found.append((node.lineno, ast.unparse(node)))
    return sorted(found)


def test_the_scan_finds_a_hand_pushed_decision() -> None:
    """The check can fail: a push, a pop, a read of the top and a reset are all found; a keyword is not."""
    source = (
        "state.decisions.append(d)\n"
        "state.decisions.pop()\n"
        "top = state.decisions[-1]\n"
        "state.flow = []\n"
        "State(decisions=[], flow=[])\n"
        "procedure.flow\n"
        "top.done(seat)\n"
    )
    assert [line for line, _ in stack_uses(source)] == [1, 2, 3, 4, 7]


def test_every_game_has_an_engine_package() -> None:
    """The scan below covers the four games (a moved package would silently escape it)."""
    assert {path.parent.name for path in ENGINES} >= {"beasts", "pursuit", "snitch", "zoo"}


@pytest.mark.parametrize("engine", ENGINES, ids=lambda path: path.parent.name)
def test_no_engine_touches_the_procedures_stacks(engine: Path) -> None:
    """menagerie.rules.procedure keeps `state.decisions` and `state.flow`; engines call it."""
    offences = [
        f"{module.relative_to(ROOT)}:{line}: {expression}"
        for module in sorted(engine.rglob("*.py"))
        for line, expression in stack_uses(module.read_text())
    ]
    assert not offences, "use the contract's procedure instead:\n" + "\n".join(offences)
