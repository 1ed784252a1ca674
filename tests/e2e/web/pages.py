"""What a person does on the web app, as Playwright steps (register, queue, play, read the results)."""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

# A seat a person reads about by number ("Seat 2", "Bot 2 (greedy)"): counted from 1 everywhere.
SEAT_NUMBER = re.compile(r"\b(?:seat|bot) (\d+)\b", re.IGNORECASE)


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


# A legal action's button: in the action list, or drawn on the board as a card (Snitch's Build Your Team;
# its undo is left out, so clicking the first choice again and again always moves on).
CHOICES = ", ".join(
    f"[data-testid={test_id}]:not([disabled])" for test_id in ("action", "confirm-team", "offer", "flag")
)


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
        enabled = page.locator(CHOICES)
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


def check_one_seat_numbering(page: Page, seats: int, labels: str, player: str) -> None:
    """The page's seat labels (test id `labels`) name the seats as the engine's text does, numbered 1..seats.

    The board shows the bots by the names the lobby gave them ("Bot 2 (greedy)"), the engine's
    final prompt names the winner by one of the board's names, the results table uses them
    too, the page's own seat badge counts from 1, and no seat number on the page is 0 or
    beyond the table.
    """
    board = " ".join(page.get_by_test_id(labels).all_inner_texts())
    bots = set(re.findall(r"Bot \d+ \(\w+\)", board))
    assert bots and player in board, board
    prompt = page.get_by_test_id("prompt").inner_text()
    assert "everyone ties" in prompt or any(name in prompt for name in [player, *bots]), (prompt, board)
    results = page.get_by_test_id("outcome").inner_text()
    assert all(name in results for name in [player, *bots]), results
    badge = page.get_by_test_id("seat-badge").inner_text()
    assert re.fullmatch(rf"Seat [1-{seats}] · {player}", badge), badge
    shown = [int(n) for n in SEAT_NUMBER.findall(page.locator("body").inner_text())]
    assert shown and all(1 <= n <= seats for n in shown), shown
