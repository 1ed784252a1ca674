"""The match page keeps every event in a log that scrolls and follows the newest; the app has a favicon."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.web.pages import queue, register

pytestmark = pytest.mark.e2e
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]

# The page used to show only the last 12 events.
OLD_CAP = 12


def test_every_event_is_in_a_scrolling_log_that_follows_the_newest(page: Page) -> None:
    register(page, "Chronicler")
    queue(page, "zoo", "beginner", seats=2)
    expect(page).to_have_url(re.compile(r"#/match/zoo/"))
    match = page.get_by_test_id("match")
    for _ in range(120):
        if int(match.get_attribute("data-events") or 0) > 3 * OLD_CAP:
            break
        enabled = page.locator("[data-testid=action]:not([disabled])")
        if enabled.count():
            enabled.first.click()
        page.wait_for_timeout(250)
    events = int(match.get_attribute("data-events") or 0)
    assert events > 3 * OLD_CAP
    log = page.get_by_test_id("event-log")
    expect(log.locator("li")).to_have_count(int(match.get_attribute("data-events") or 0))
    expect(page.get_by_test_id("events")).to_contain_text(f"({match.get_attribute('data-events')})")
    overflow = log.evaluate("el => [el.scrollHeight, el.clientHeight, el.scrollTop]")
    assert overflow[0] > overflow[1], "the log scrolls rather than growing the page"
    assert overflow[0] - overflow[1] - overflow[2] <= 24, "it follows the newest event"
    # Scrolled up, the first event is there to read.
    log.evaluate("el => { el.scrollTop = 0; el.dispatchEvent(new Event('scroll')); }")
    expect(log.locator("li").first).to_be_in_viewport()


def test_the_favicon_is_served(page: Page) -> None:
    reply = page.request.get("/favicon.ico")
    assert reply.status == 200
    assert reply.body()[:4] == b"\x00\x00\x01\x00"  # an ICO file
    page.goto("/")
    assert page.locator("link[rel=icon]").get_attribute("href") == "/favicon.ico"
