"""What a person does on the web app, as Playwright steps (register, queue, play, read the results)."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page


def register(page: Page, name: str) -> None:
    """Opens the lobby page and registers as a guest."""
    page.goto("/")
    page.get_by_test_id("guest-name").fill(name)
    page.get_by_test_id("register").click()
    page.get_by_test_id("player-name").wait_for()


def queue(page: Page, game: str, mode: str, seats: int, wait_seconds: int = 1) -> None:
    """Queues for a match of `game` from its card (bots allowed, greedy by default) and waits for the match page."""
    card = page.get_by_test_id(f"game-{game}")
    card.get_by_test_id("mode").select_option(mode)
    card.get_by_test_id("seats").fill(str(seats))
    assert card.get_by_test_id("bot-level").input_value() == "greedy"
    card.locator("input[type=number]").nth(1).fill(str(wait_seconds))
    card.get_by_test_id("queue").click()


def finished(page: Page) -> bool:
    """True once the match page shows the results."""
    return page.get_by_test_id("match").get_attribute("data-finished") == "yes"


def play_to_end(
    page: Page, timeout: float, screenshot: Path | None = None, shoot_after: int = 3, last: bool = False
) -> int:
    """Clicks the first (or `last`) legal action shown until the match is over; returns the clicks.

    Which one is a test's pace, not a strategy: the last of Pursuit's list is usually passing or
    stopping, which brings the end sooner.

    With `screenshot`, saves the page once a move is offered on the board (a clickable element)
    after `shoot_after` clicks, or at the end if none was.
    """
    page.get_by_test_id("match").wait_for()
    deadline = time.monotonic() + timeout
    clicks = 0
    shot = screenshot is None
    while not finished(page):
        assert time.monotonic() < deadline, f"the match did not end in {timeout:.0f} s ({clicks} clicks)"
        enabled = page.locator("[data-testid=action]:not([disabled])")
        button = enabled.last if last else enabled.first
        try:
            button.wait_for(timeout=1000)
            if not shot and clicks >= shoot_after and page.locator("[data-target]").count() > 0:
                assert screenshot is not None
                page.screenshot(path=str(screenshot))
                shot = True
            button.click(timeout=1000)
            clicks += 1
        except PlaywrightError:
            continue  # no choice right now (the bots' turn), or the view moved on under the click
    if not shot:
        assert screenshot is not None
        page.screenshot(path=str(screenshot))
    return clicks
