"""Pursuit's keep-dice choice in the terminal: per-die toggles, confirmed only as one of the server's actions.

ListLegalActions lists one Reroll per distinct keep (up to 32 of them). The terminal
shows one toggle per rolled die instead; a set of marked dice can be confirmed only
when a legal Reroll keeps exactly those faces (and the teal die or not), and that
action is the one submitted. The client re-derives nothing: it matches against the list.
"""

from __future__ import annotations

from collections import Counter

from menagerie.cli.menu import Menu, Pick, Toggles
from menagerie.pursuit.cli import PursuitUI
from menagerie.pursuit.v1 import pursuit_pb2
from tests.unit.cli.positions import Position, positions

UI = PursuitUI()


def rolling(seed: int) -> list[Position]:
    """Decisions with several Rerolls to choose from, in a seeded match."""
    found = []
    for position in positions("pursuit", pursuit_pb2, "coop", 2, {"difficulty": "easy"}, seed):
        kinds = Counter(a.WhichOneof("kind") for a in position.legal.actions)
        if kinds["reroll"] >= 2:
            found.append(position)
    return found


def kept_faces(view: pursuit_pb2.View, marked: frozenset[int]) -> tuple[list[pursuit_pb2.Face.ValueType], bool]:
    black = sorted(view.dice[i].face for i in marked if view.dice[i].color != pursuit_pb2.COLOR_TEAL)
    return black, any(view.dice[i].color == pursuit_pb2.COLOR_TEAL for i in marked)


def test_keep_dice_is_one_toggle_per_die_instead_of_every_combination() -> None:
    checked = 0
    for position in rolling(11)[:12]:
        entries = UI.menu(position.view, position.legal, 10)
        toggles = next(e for e in entries if isinstance(e, Toggles))
        rerolls = {i for i, a in enumerate(position.legal.actions) if a.WhichOneof("kind") == "reroll"}
        assert len(toggles.items) == len(position.view.dice)
        assert {e.index for e in entries if isinstance(e, Pick)} == set(range(len(position.legal.actions))) - rerolls
        # Every marked set maps to the legal Reroll keeping exactly those dice; every Reroll is reachable.
        for marked, index in toggles.combos.items():
            reroll = position.legal.actions[index].reroll
            black, teal = kept_faces(position.view, marked)
            assert (sorted(reroll.keep), reroll.keep_teal) == (black, teal)
        assert set(toggles.combos.values()) == rerolls
        # Keeping every die rolls nothing again: not a choice the server lists, so it cannot be confirmed.
        assert frozenset(range(len(position.view.dice))) not in toggles.combos
        checked += 1
    assert checked >= 3


def test_toggling_dice_then_confirming_submits_the_matching_legal_action() -> None:
    position = rolling(12)[0]
    menu = Menu(UI.menu(position.view, position.legal, 10), 10)
    assert menu.answer("k").chosen is None  # the toggles' code opens them
    assert "toggle by number" in menu.title()
    for die in range(1, len(position.view.dice) + 1):
        menu.answer(str(die))
    assert "not a choice the rules allow" in menu.lines()[-2][2]
    refused = menu.answer("c")
    assert refused.chosen is None and "do not allow" in refused.message
    menu.answer("1")  # unmark the first die: now one die is rolled again
    marked = frozenset(range(1, len(position.view.dice)))
    confirm_line = menu.lines()[-2][2]
    index = menu.answer("c").chosen
    assert index is not None
    reroll = position.legal.actions[index].reroll
    assert (sorted(reroll.keep), reroll.keep_teal) == kept_faces(position.view, marked)
    assert confirm_line == f"confirm: {position.legal.labels[index].text}"  # the engine's own words
