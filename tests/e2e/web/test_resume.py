"""Coming back to a seat: a reload rejoins it; another browser of the same guest resumes it from the lobby page."""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.web.pages import queue, register

if TYPE_CHECKING:  # imported at run time by pytest_plugins below, which must come first
    from tests.e2e.web.fixtures import RunningGateway

pytestmark = pytest.mark.e2e
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]


def take_one_action(page: Page) -> None:
    """Clicks the first legal action and waits until the match has moved on."""
    button = page.locator("[data-testid=action]:not([disabled])").first
    button.wait_for()
    before = page.get_by_test_id("match").get_attribute("data-version") or "0"
    button.click()
    expect(page.get_by_test_id("match")).not_to_have_attribute("data-version", before)


def test_a_reload_rejoins_the_seat_and_another_browser_resumes_it(
    page: Page, browser: Browser, gateway: RunningGateway
) -> None:
    register(page, "Returner")
    queue(page, "zoo", "beginner", seats=2)
    expect(page).to_have_url(re.compile(r"#/match/zoo/"))
    match_id = page.url.rsplit("/", 1)[1]
    take_one_action(page)

    page.reload()  # the seat token was kept: the same seat, its choices again
    expect(page.get_by_text("seat 1")).to_be_visible()
    take_one_action(page)

    # The same guest in a browser with no seat token: the lobby page lists the match, ResumeSeat gives a new token.
    player = page.evaluate("localStorage.getItem('menagerie.player')")
    other = browser.new_context(base_url=gateway.url, viewport={"width": 1400, "height": 1000})
    try:
        elsewhere = other.new_page()
        elsewhere.goto("/")
        elsewhere.evaluate("player => localStorage.setItem('menagerie.player', player)", player)
        elsewhere.goto("/")
        mine = elsewhere.get_by_test_id("my-matches")
        expect(mine).to_contain_text("zoo")
        mine.get_by_role("link", name="Resume").click()
        expect(elsewhere).to_have_url(re.compile(rf"#/match/zoo/{match_id}"))
        expect(elsewhere.get_by_text("seat 1")).to_be_visible()
        take_one_action(elsewhere)  # the fresh seat token plays (the rest of the match is test_play's business)
    finally:
        other.close()


def test_leave_match_hands_the_seat_to_a_bot_at_once_and_the_lists_show_live_matches_only(page: Page) -> None:
    register(page, "Leaver")
    queue(page, "zoo", "beginner", seats=2)
    expect(page).to_have_url(re.compile(r"#/match/zoo/"))
    match_id = page.url.rsplit("/", 1)[1]
    page.locator("[data-testid=action]:not([disabled])").first.wait_for()  # the seat must decide now
    page.get_by_test_id("leave").click()
    # A functional bound, not a benchmark: the turn timer is 60 s, so a move within 2 s is the left seat's bot.
    expect(page.locator(".notice")).to_contain_text("A bot plays your seat while you are away", timeout=2000)
    # Every person left: the match is abandoned, "Watch a match" leaves it out at once; "Your matches" marks the
    # seat as the bot's while the bots play it out, then (finished) no longer lists it.
    page.goto("/")
    expect(page.get_by_test_id("live-matches")).to_be_visible()
    watched = page.get_by_test_id("live-matches").locator(f"a[href$='{match_id}']")
    mine = page.locator("[data-testid=my-matches] li", has=page.locator(f"a[href$='{match_id}']"))
    if mine.count():
        expect(mine).to_contain_text("a bot plays your seat")
    expect(watched).to_have_count(0)
    deadline = time.monotonic() + 60
    while mine.count():
        assert time.monotonic() < deadline, "the bots did not play the abandoned match out in 60 s"
        page.wait_for_timeout(1000)
        page.reload()
        expect(page.get_by_test_id("live-matches")).to_be_visible()
    expect(watched).to_have_count(0)
