"""A person plays Zoo and Pursuit to the end in a real browser, against greedy bots, through the gateway."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.web.pages import check_one_seat_numbering, play_to_end, queue, register

pytestmark = pytest.mark.e2e
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]


def test_a_zoo_match_is_played_to_the_end_from_the_page(page: Page, screenshots: Path) -> None:
    register(page, "Keeper")
    queue(page, "zoo", "beginner", seats=2)
    expect(page).to_have_url(re.compile(r"#/match/zoo/"))
    expect(page.get_by_test_id("zoo-row")).to_have_count(2)
    expect(page.get_by_test_id("countdown")).to_contain_text("Your turn timer")
    clicks = play_to_end(page, timeout=240, screenshot=screenshots / "zoo.png", shoot_after=20)
    assert clicks >= 10  # five rounds of drafting at least
    outcome = page.get_by_test_id("outcome")
    expect(outcome).to_contain_text("Match over")
    expect(outcome.locator("tbody tr")).to_have_count(2)
    expect(outcome).to_contain_text("Keeper")
    expect(page.get_by_test_id("events").locator("li").first).to_be_visible()
    check_one_seat_numbering(page, seats=2, labels="zoo-row", player="Keeper")
    # The results reach the game's leaderboard (the lobby rates finished matches in the background).
    page.goto("/#/leaderboard/zoo")
    for _ in range(30):
        if page.get_by_test_id("leaderboard").get_by_text("Keeper").count():
            break
        page.wait_for_timeout(500)
        page.reload()
    expect(page.get_by_test_id("leaderboard")).to_contain_text("Keeper")


def test_a_pursuit_match_is_played_to_the_end_from_the_page(page: Page, screenshots: Path) -> None:
    register(page, "Tracker")
    page.get_by_test_id("game-pursuit").get_by_test_id("option-difficulty").select_option("easy")  # the mode's option
    queue(page, "pursuit", "coop", seats=2)
    expect(page).to_have_url(re.compile(r"#/match/pursuit/"))
    expect(page.get_by_test_id("beast-track")).to_be_visible()
    expect(page.get_by_test_id("difficulty")).to_have_text("easy")
    clicks = play_to_end(page, timeout=240, screenshot=screenshots / "pursuit.png", shoot_after=6, last=True)
    assert clicks > 0
    outcome = page.get_by_test_id("outcome")
    expect(outcome.locator("tbody tr")).to_have_count(2)
    # Co-op: both seats share the result.
    results = outcome.locator("tbody tr td:nth-child(3)").all_inner_texts()
    assert len(set(results)) == 1 and results[0] in ("win", "loss"), results
