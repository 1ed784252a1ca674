"""The generic board (issue 31, item 4): what a game without a board of its own gets in the browser.

It is drawn from the generic service every game service serves (menagerie.generic.v1.Game,
under /games/<game>/ at the gateway): the prompt's title and text, whose turn it is, the view's
public fields as a tree, and the engine's labels as the choices. Every game here ships a
board, so the page is asked for the generic one (?board=generic): on a Zoo match, and on a
Pursuit match for a choice that is a set (the dice to keep), which the generic board finds from
the actions' JSON alone and draws as parts to toggle.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.web.pages import pursuit_keep_choice, register
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


def test_the_generic_board_draws_a_set_choice_as_parts_to_toggle(
    page: Page, minimatch: RunningMinimatch, service_token: str, screenshots: Path
) -> None:
    bar = pursuit_keep_choice(page, minimatch.games["pursuit"], service_token, "Plain", board="generic")
    expect(page.get_by_test_id("dice")).to_have_count(0)  # not Pursuit's own board
    # The rerolls left the list: their fields (the faces kept, the teal die kept or not) are the parts.
    expect(page.get_by_test_id("action").filter(has_text=re.compile(r"^(Keep |Roll all)"))).to_have_count(0)
    parts = page.get_by_test_id("generic-parts").locator("[data-part]")
    expect(parts.first).to_be_visible()
    black = parts.filter(has_text="keep: ")
    assert black.count() >= 1, parts.all_inner_texts()
    confirm = bar.get_by_test_id("set-confirm")
    expect(confirm).to_contain_text("Roll all")  # nothing picked: the engine's "roll them all again"
    black.first.click()
    expect(black.first).to_have_attribute("aria-checked", "true")
    face = black.first.inner_text().removeprefix("keep: ")
    expect(confirm).to_be_enabled()
    expect(confirm).to_contain_text("Keep")
    page.screenshot(path=str(screenshots / "choices-generic.png"))
    rolls = page.get_by_test_id("events").locator("li").filter(has_text=" rolled (roll ")
    rolled_before = rolls.count()
    confirm.click()
    # The engine kept exactly the one die picked and rolled the others again.
    expect(rolls).to_have_count(rolled_before + 1, timeout=60_000)
    event = rolls.last.inner_text()
    assert event.count("(kept)") == 1, event
    assert re.search(rf"{re.escape(face)}[^,]*\(kept\)", event, re.IGNORECASE), (face, event)
