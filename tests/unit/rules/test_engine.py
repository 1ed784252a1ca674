"""The RulesEngine base: to_act, prompts, legal actions and refusals come from the decision stack."""

from __future__ import annotations

import pytest

from menagerie.rules.contract import MatchSetup, Prompt, ToAct
from menagerie.rules.errors import IllegalAction
from tests.unit.rules.toy import Add, Pass, Shout, Toy

TOY = Toy()


def test_the_top_decision_says_who_acts_and_what_they_may_do() -> None:
    state, _ = TOY.setup(MatchSetup("plain", 3), 1)
    assert TOY.to_act(state) == ToAct(must=(0,))
    assert TOY.prompt(state) == Prompt(kind="add", must=[0])
    assert TOY.legal_actions(state, 0) == [Add(1), Add(2)]
    assert TOY.legal_actions(state, 1) == []


def test_a_pushed_window_interrupts_and_popping_it_returns_to_the_decision_below() -> None:
    state, _ = TOY.setup(MatchSetup("plain", 3), 1)
    TOY.apply(state, 0, Add(2))
    assert TOY.to_act(state) == ToAct(may=(1, 2))
    assert TOY.prompt(state) == Prompt(kind="shout_window", may=[1, 2], actor=0, stack=["add"])
    assert TOY.legal_actions(state, 1) == [Shout(), Pass()]
    TOY.apply(state, 1, Pass())
    assert TOY.to_act(state) == ToAct(may=(2,))
    TOY.apply(state, 2, Pass())
    assert TOY.prompt(state) == Prompt(kind="add", must=[1])


def test_refusals_follow_one_order_and_name_the_rule() -> None:
    state, _ = TOY.setup(MatchSetup("plain", 2), 1)
    with pytest.raises(IllegalAction, match="Seats: there is no Seat 6"):
        TOY.check(state, 5, Add(1))
    with pytest.raises(IllegalAction, match="Turn order: seat 1 waits"):
        TOY.check(state, 1, Add(1))
    with pytest.raises(IllegalAction, match="Shouting: shout only right after someone adds"):
        TOY.check(state, 0, Shout())
    with pytest.raises(IllegalAction, match="Adding: add 1 or 2"):
        TOY.check(state, 0, Add(3))
    TOY.apply(state, 0, Add(1))
    TOY.apply(state, 1, Shout())
    with pytest.raises(IllegalAction, match="End of the game: the match is over"):
        TOY.check(state, 0, Add(1))
    assert TOY.to_act(state) == ToAct()
    assert TOY.prompt(state) == Prompt(kind="finished")


def test_every_listed_action_passes_check_and_perform_matches_apply() -> None:
    state, _ = TOY.setup(MatchSetup("plain", 2), 1)
    twin, _ = TOY.setup(MatchSetup("plain", 2), 1)
    for action in TOY.legal_actions(state, 0):
        TOY.check(state, 0, action)
    assert TOY.apply(state, 0, Add(2)) == TOY.perform(twin, 0, Add(2))
    assert state == twin
