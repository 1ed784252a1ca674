"""The generic board (issue 31, item 4): what a game without a board of its own gets in the browser.

It is drawn from the generic service every game service serves (menagerie.generic.v1.Game,
under /games/<game>/ at the gateway): the prompt's title and text, whose turn it is, the view's
public fields as a tree, and the engine's labels as the choices. Every game here ships a
board, so the page is asked for the generic one (?board=generic) on a Zoo match.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.web.pages import register
from tests.support.game_client import GameClient

if TYPE_CHECKING:  # imported at run time by pytest_plugins below, which must come first
    from tests.support.minimatch import RunningMinimatch

pytestmark = pytest.mark.e2e
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]

CLICKS = 3


def test_the_generic_board_draws_a_match_from_its_view_and_plays_the_engines_choices(
    page: Page, minimatch: RunningMinimatch, service_token: str
) -> None:
    zoo = GameClient("zoo", minimatch.games["zoo"])
    match = zoo.create(service_token, mode="beginner", seats=2, bots=(1,), bot_level="random")
    player = zoo.summary(match.match_id, service_token).seats[0].display_name
    zoo.close()
    register(page, "Plain")
    seat = {"game": "zoo", "matchId": match.match_id, "seat": 0, "token": match.tokens[0]}
    page.evaluate("seats => localStorage.setItem('menagerie.seats', seats)", json.dumps({match.match_id: seat}))
    page.goto(f"/#/match/zoo/{match.match_id}?board=generic")

    board = page.get_by_test_id("generic-board")
    expect(board).to_be_visible()
    expect(page.get_by_test_id("zoo-row")).to_have_count(0)  # not Zoo's own board
    # The engine's words: the decision's title and sentence, and the view's own fields.
    expect(page.get_by_test_id("prompt")).to_contain_text("Drafting:")
    expect(board.locator("[data-field=round]")).to_be_visible()
    expect(board.get_by_test_id("to-act")).to_contain_text(player)
    # The choices are the engine's labels; each click is a move the generic service takes.
    for _ in range(CLICKS):
        version = page.get_by_test_id("match").get_attribute("data-version") or "0"
        page.locator("[data-testid=action]:not([disabled])").first.click()
        expect(page.get_by_test_id("match")).not_to_have_attribute("data-version", version)
