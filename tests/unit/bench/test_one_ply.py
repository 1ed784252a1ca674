"""bench/one_ply.py's bot plays what the evaluation reads best, and greedy's choice where the reading is flat."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bench.one_ply import OnePly, main
from menagerie.rules import registry
from menagerie.rules.bots import SearchBudget
from menagerie.rules.contract import MatchSetup
from menagerie.snitch.engine.model.actions import ChoosePitchCard

ENGINE = registry.engine("snitch")
BUDGET = SearchBudget(seconds=60.0, iterations=1)


def pitch_card_choice() -> tuple[Any, int, list[Any]]:
    """A seeded basic match played at random up to a seat's secret choice of its Pitch Actions card."""
    rng = random.Random(3)
    state, _ = ENGINE.setup(MatchSetup("basic", 2), 3)
    while ENGINE.outcome(state) is None:
        seat = ENGINE.to_act(state).seats()[0]
        legal = ENGINE.legal_actions(state, seat)
        if len(legal) > 1 and all(isinstance(action, ChoosePitchCard) for action in legal):
            return state, seat, legal
        ENGINE.perform(state, seat, rng.choice(legal))
    raise AssertionError("no Pitch Actions card was chosen")


def read_card(state: Any, seat: int) -> float:
    """An evaluation that reads only the seat's chosen Pitch Actions card: the higher its id, the better."""
    card = state.players[seat].pitch_card
    return 0.0 if card is None else card / 1000.0


def test_it_plays_the_action_the_evaluation_reads_best() -> None:
    state, seat, legal = pitch_card_choice()
    bot = OnePly("snitch", BUDGET, evaluate=read_card)
    chosen = bot.choose(ENGINE.view(state, seat), legal, seat, random.Random(1))
    assert chosen == max(legal, key=lambda action: action.card)
    assert bot.guided is None  # the reading told the cards apart: greedy was not asked


def test_where_the_reading_is_flat_it_plays_greedys_choice() -> None:
    state, seat, legal = pitch_card_choice()
    bot = OnePly("snitch", BUDGET, evaluate=lambda state, seat: 0.5)
    chosen = bot.choose(ENGINE.view(state, seat), legal, seat, random.Random(1))
    assert bot.guided is not None and chosen == bot.guided


def test_it_plays_matches_against_greedy_and_reports_the_wins(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--game", "snitch", "--mode", "basic", "--games", "2", "--worlds", "2"]) == 0
    printed = capsys.readouterr().out
    assert "snitch basic, the one-ply reading (2 worlds) vs greedy, seeds 3000-3001: won " in printed
    assert "/2 = " in printed


def test_a_cooperative_mode_is_refused() -> None:
    with pytest.raises(SystemExit, match="cooperative"):
        main(["--game", "pursuit", "--mode", "coop", "--games", "1"])
