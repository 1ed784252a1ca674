"""Snitch's re-rolls of several dice and its Dice tokens to spend in the terminal: toggles, confirmed only as one
of the server's actions.

An Intrepid Move's re-roll (Reroll: a side and its dice) and a Locked Trait's (UseTrait: dice of
the side the view's decision names) are listed once per set of dice. The terminal shows one
toggle per die of the roll instead, as the web's board does; a set of marked dice can be
confirmed only when a listed action names exactly those dice, and that action is the one
submitted. Dice tokens to spend are toggles over the tokens the spends take, alike by kind and
colour. The client re-derives nothing: it matches against the list.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest

from menagerie.cli.menu import Menu, Pick, Toggles
from menagerie.snitch.cli import SnitchUI
from menagerie.snitch.v1 import snitch_pb2
from tests.unit.cli.positions import Position, positions

UI = SnitchUI()
SEEDS = range(1, 40)
# The kinds, the mode in which random play reaches them soonest, and the toggles' title.
CASES = [("reroll", "basic", "Re-roll dice ("), ("use_trait", "advanced", "Re-roll dice with the Locked Trait")]


@cache  # each search plays matches until it finds one: once per kind
def first_position(kind: str, mode: str) -> Position:
    """The first decision, over the seeds, with several `kind` actions, one of two dice or more."""
    for seed in SEEDS:
        for position in positions("snitch", snitch_pb2, mode, 2, {}, seed):
            chosen = [getattr(a, kind) for a in position.legal.actions if a.WhichOneof("kind") == kind]
            if len(chosen) >= 2 and max(len(c.dice) for c in chosen) >= 2:
                return position
    raise AssertionError(f"no {mode} match of the seeds offers several {kind} actions")


def side_of(position: Position, kind: str, action: snitch_pb2.Action) -> int:
    """The side of the roll an action's dice are on: a Reroll's own, a Locked Trait's the decision's."""
    return action.reroll.side if kind == "reroll" else position.view.decision.roll_side


@pytest.mark.parametrize(("kind", "mode", "title"), CASES)
def test_a_reroll_of_several_dice_is_one_toggle_per_die(kind: str, mode: str, title: str) -> None:
    position = first_position(kind, mode)
    entries = UI.menu(position.view, position.legal, 10)
    toggles = next(e for e in entries if isinstance(e, Toggles) and e.label.startswith(title))
    ex = position.view.exchange
    dice: list[tuple[int, int]] = [(snitch_pb2.ROLL_SIDE_ACTION, i) for i in range(len(ex.action_roll.dice))]
    dice += [(snitch_pb2.ROLL_SIDE_REACTION, i) for i in range(len(ex.reaction_roll.dice))]
    assert len(toggles.items) == len(dice)
    of_kind = {i for i, a in enumerate(position.legal.actions) if a.WhichOneof("kind") == kind}
    assert set(toggles.combos.values()) == {i for i in of_kind if getattr(position.legal.actions[i], kind).dice}
    listed = {e.index for e in entries if isinstance(e, Pick)}
    assert not listed & set(toggles.combos.values())  # no button of its own
    # Each marked set is the action naming exactly those dice (its side, its indexes).
    for marked, index in toggles.combos.items():
        action = position.legal.actions[index]
        side = side_of(position, kind, action)
        assert marked == {dice.index((side, d)) for d in getattr(action, kind).dice}


@pytest.mark.parametrize(("kind", "mode", "title"), CASES)
def test_marking_dice_then_confirming_submits_the_action_naming_them(kind: str, mode: str, title: str) -> None:
    position = first_position(kind, mode)
    entries = UI.menu(position.view, position.legal, 10)
    number = next(n for n, e in enumerate(entries, 1) if isinstance(e, Toggles) and e.label.startswith(title))
    toggles = entries[number - 1]
    assert isinstance(toggles, Toggles)
    menu = Menu(entries, 10)
    menu.answer(str(number))
    assert "toggle by number" in menu.title()
    refused = menu.answer("c")  # nothing marked: no action names no dice
    assert refused.chosen is None and "do not allow" in refused.message
    marked, index = max(toggles.combos.items(), key=lambda pair: len(pair[0]))
    for item in sorted(marked):
        menu.answer(str(item + 1))
    assert menu.lines()[-2][2] == f"confirm: {position.legal.labels[index].text}"  # the engine's own words
    assert menu.answer("c").chosen == index


@cache
def spend_position() -> Position:
    """The first decision, over the seeds, whose choices are several ways to spend Dice tokens."""
    for seed in SEEDS:
        for position in positions("snitch", snitch_pb2, "basic", 2, {}, seed):
            kinds = [a.WhichOneof("kind") for a in position.legal.actions]
            if kinds.count("spend_tokens") >= 2:
                return position
    raise AssertionError("no basic match of the seeds offers several ways to spend Dice tokens")


def spent(action: snitch_pb2.Action) -> Counter[str]:
    """A spend's tokens by kind and colour, as the toggles' items name them."""
    colour = snitch_pb2.Colour.Name
    tokens = [f"Bonus {colour(c).removeprefix('COLOUR_').lower()} token" for c in action.spend_tokens.bonus]
    tokens += [f"Penalty {colour(c).removeprefix('COLOUR_').lower()} token" for c in action.spend_tokens.penalty]
    return Counter(tokens)


def test_dice_tokens_to_spend_are_toggles_each_set_counting_as_one_listed_spend() -> None:
    position = spend_position()
    entries = UI.menu(position.view, position.legal, 10)
    toggles = next(e for e in entries if isinstance(e, Toggles) and e.label.startswith("Spend Dice tokens"))
    spends = {i for i, a in enumerate(position.legal.actions) if a.WhichOneof("kind") == "spend_tokens"}
    assert set(toggles.combos.values()) == spends  # every spend can be built
    assert not {e.index for e in entries if isinstance(e, Pick)} & spends  # no button of its own
    for marked, index in toggles.combos.items():
        assert Counter(toggles.items[m] for m in marked) == spent(position.legal.actions[index])


def test_marking_no_token_spends_none_and_marking_the_tokens_spends_them() -> None:
    position = spend_position()
    entries = UI.menu(position.view, position.legal, 10)
    number = next(n for n, e in enumerate(entries, 1) if isinstance(e, Toggles) and e.label.startswith("Spend"))
    toggles = entries[number - 1]
    assert isinstance(toggles, Toggles)
    none = next(i for i, a in enumerate(position.legal.actions) if a.HasField("spend_tokens") and not spent(a))
    menu = Menu(entries, 10)
    menu.answer(str(number))
    assert menu.answer("c").chosen == none
    marked, index = max(toggles.combos.items(), key=lambda pair: len(pair[0]))
    menu = Menu(entries, 10)
    menu.answer(str(number))
    for item in sorted(marked):
        menu.answer(str(item + 1))
    assert menu.lines()[-2][2] == f"confirm: {position.legal.labels[index].text}"
    assert menu.answer("c").chosen == index
