"""A game card's table options reach the lobby: the turn timer, the bot level and budget, the game's options by name."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from menagerie.common.v1 import common_pb2
from tests.e2e.web.pages import register
from tests.support.game_client import GameClient

if TYPE_CHECKING:  # imported at run time by pytest_plugins below, which must come first
    from tests.support.minimatch import RunningMinimatch

pytestmark = pytest.mark.e2e
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]


def test_the_timer_bot_and_options_chosen_on_the_card_are_the_matchs(
    page: Page, minimatch: RunningMinimatch, service_token: str
) -> None:
    register(page, "Organiser")
    card = page.get_by_test_id("game-snitch")
    card.get_by_test_id("mode").select_option("basic")
    # The game's options read as the engine describes them, not by their ids (house_0).
    expect(card.get_by_test_id("option-label-house_0")).to_contain_text("The House Seat 1 coaches")
    expect(card.get_by_test_id("option-label-house_1")).to_contain_text("The House Seat 2 coaches")
    assert "house_0" not in card.inner_text()
    card.get_by_test_id("option-house_1").select_option("ravenclaw")
    card.get_by_test_id("turn-timer").select_option("300")
    expect(card.get_by_test_id("bot-budget")).to_have_count(0)  # only a searching bot has a budget
    card.get_by_test_id("bot-level").select_option("mcts")
    card.get_by_test_id("bot-budget").select_option("2")
    card.get_by_test_id("table-bots").click()
    expect(page).to_have_url(re.compile(r"#/match/snitch/"), timeout=30_000)
    match_id = page.url.rsplit("/", 1)[-1]

    snitch = GameClient("snitch", minimatch.games["snitch"])
    summary = snitch.summary(match_id, service_token)
    snitch.close()
    assert summary.config.turn_timer_seconds == 300
    assert summary.config.bot_budget_seconds == 2
    assert summary.config.options["house_1"] == "ravenclaw"
    bots = [s for s in summary.seats if s.kind == common_pb2.SEAT_KIND_BOT]
    assert [s.bot_level for s in bots] == ["mcts"]
    # The page counts the seat's timer down from five minutes, not the default minute.
    countdown = page.get_by_test_id("countdown")
    expect(countdown).to_contain_text(re.compile(r"turn timer: \d+ s"), timeout=30_000)
    left = int(re.findall(r"turn timer: (\d+) s", countdown.inner_text())[0])
    assert 60 < left <= 300


def test_a_card_shows_each_bot_level_by_rating_and_says_where_luck_decides(page: Page) -> None:
    """Issue 33: the card lists the mode's bot levels as rated ("Bot · about 21") and Beasts capture's note on luck."""
    register(page, "Chooser")
    card = page.get_by_test_id("game-beasts")
    card.get_by_test_id("mode").select_option("capture")
    expect(card.get_by_test_id("bot-ratings")).to_contain_text(re.compile(r"mcts 1 s: Bot · about -?\d+"))
    expect(card.get_by_test_id("bot-ratings")).to_contain_text(re.compile(r"random: Bot · about -?\d+"))
    expect(card.get_by_test_id("bot-levels-note")).to_contain_text(
        re.compile(r"A game of luck: the random bot, which picks any legal move, won \d+ of its \d+ ladder matches")
    )
    assert "nearest" in card.get_by_test_id("bot-level").locator("option").all_inner_texts()[-1]
    card.get_by_test_id("mode").select_option("training")
    expect(card.get_by_test_id("bot-ratings")).to_contain_text("Bot · about")
    expect(card.get_by_test_id("bot-levels-note")).to_have_count(0)
