"""What a person does on the web app, as Playwright steps (register, queue, play, read the results)."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page

from tests.support.game_client import GameClient, Match

# A seat a person reads about by number ("Seat 2", "Bot 2 (greedy)"): counted from 1 everywhere.
SEAT_NUMBER = re.compile(r"\b(?:seat|bot) (\d+)\b", re.IGNORECASE)
# How long the bots and the page may take to bring a seat's choice (a loaded 2-core machine).
CHOICE_SECONDS = 180
# A human seat's turn timer while a test looks at its choice: the longest a match allows, so
# no bot decides for the seat on a loaded machine.
TURN_TIMER = 600


def register(page: Page, name: str) -> None:
    """Opens the lobby page and registers as a guest."""
    page.goto("/")
    page.get_by_test_id("guest-name").fill(name)
    page.get_by_test_id("register").click()
    page.get_by_test_id("player-name").wait_for()


def open_seat(page: Page, game: str, match: Match, seat: int, player: str, board: str = "") -> None:
    """Registers a guest and opens the match page as `seat` (its token kept as the lobby's ticket would).

    `board`: "generic" asks for the generic board instead of the game's own.
    """
    register(page, player)
    kept = {"game": game, "matchId": match.match_id, "seat": seat, "token": match.tokens[seat]}
    page.evaluate("seats => localStorage.setItem('menagerie.seats', seats)", json.dumps({match.match_id: kept}))
    # No automatic pass: the roll a re-roll leaves is read before anything settles it.
    player_id = page.evaluate("JSON.parse(localStorage.getItem('menagerie.player')).playerId")
    page.evaluate("key => localStorage.setItem(key, 'off')", f"menagerie.autopass.{player_id}")
    page.goto(f"/#/match/{game}/{match.match_id}" + (f"?board={board}" if board else ""))
    page.get_by_test_id("match").wait_for()


def pursuit_keep_choice(page: Page, address: str, service_token: str, player: str, board: str = "") -> Locator:
    """Opens seat 0 of a new Pursuit match (a greedy bot in seat 1) and waits for its dice to keep; returns the bar."""
    pursuit = GameClient("pursuit", address)
    try:
        match = pursuit.create(
            service_token, mode="coop", seats=2, bots=(1,), bot_level="greedy", turn_timer=TURN_TIMER
        )
    finally:
        pursuit.close()
    open_seat(page, "pursuit", match, 0, player, board)
    return wait_for_set_choice(page)


def wait_for_set_choice(page: Page) -> Locator:
    """Takes the last choice offered (passing, stopping) until the seat's set choice is shown; returns its bar."""
    bar = page.get_by_test_id("set-choice")
    deadline = time.monotonic() + CHOICE_SECONDS
    while not bar.count():
        assert time.monotonic() < deadline, f"no set choice was offered in {CHOICE_SECONDS} s; {match_state(page)}"
        finished = page.get_by_test_id("match").get_attribute("data-finished") == "yes"
        assert not finished, f"the match ended before a set choice was offered; {match_state(page)}"
        try:
            page.locator("[data-testid=action]:not([disabled]), [data-testid=set-choice]").first.wait_for(timeout=2000)
            if not bar.count():
                page.locator("[data-testid=action]:not([disabled])").last.click(timeout=1000)
        except PlaywrightError:
            continue  # the bots' turn, or the view moved on under the click
    return bar


def match_state(page: Page) -> str:
    """What the match page shows, for a failure's message: version, whether it ended, events, choices, errors."""
    match = page.get_by_test_id("match")
    shown = {name: match.get_attribute(f"data-{name}") for name in ("version", "finished", "events")}
    events = page.get_by_test_id("event-log").locator("li").all_inner_texts()[-5:]
    choices = page.locator("[data-testid=action]").all_inner_texts()
    troubles = page.locator("[data-testid=error], [data-testid=listing-retry]").all_inner_texts()
    return f"the page shows {shown}, last events {events}, choices {choices}, errors {troubles}"


def queue(
    page: Page, game: str, mode: str, seats: int, wait_seconds: int = 1, options: Mapping[str, str] | None = None
) -> None:
    """Queues for a match of `game` from its card (bots allowed, greedy by default) and waits for the match page.

    `options`: the mode's options to choose on the card (the others stay at their defaults).
    """
    card = page.get_by_test_id(f"game-{game}")
    card.get_by_test_id("mode").select_option(mode)
    for name, value in (options or {}).items():  # after the mode: choosing a mode resets its options
        card.get_by_test_id(f"option-{name}").select_option(value)
    card.get_by_test_id("seats").fill(str(seats))
    assert card.get_by_test_id("bot-level").input_value() == "greedy"
    card.locator("input[type=number]").nth(1).fill(str(wait_seconds))
    card.get_by_test_id("queue").click()


# A legal action's button: in the action list, or drawn on the board as a card (Snitch's Build Your Team;
# its undo is left out, so clicking the first choice again and again always moves on).
CHOICES = ", ".join(
    f"[data-testid={test_id}]:not([disabled])" for test_id in ("action", "confirm-team", "offer", "flag")
)


def seat_token(page: Page, match_id: str) -> str:
    """The seat's token the page keeps for this match (session.ts)."""
    seats = json.loads(page.evaluate("localStorage.getItem('menagerie.seats')") or "{}")
    return str(seats[match_id]["token"])


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
