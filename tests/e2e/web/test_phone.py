"""The web app on a phone (390×844, touch) and on a desktop (1280×800): every page fits the screen's width,
a match shows its prompt and a choice in the first screen, a tap makes a move, and the board zooms (issue 30, item 8).

Under `make screenshots` each page is saved as docs/screenshots/<page>-<size>.png.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from tests.e2e.web.pages import register

if TYPE_CHECKING:  # imported at run time by pytest_plugins below, which must come first
    from tests.e2e.web.fixtures import RunningGateway

pytestmark = pytest.mark.e2e
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]

SIZES: dict[str, ViewportSize] = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
# A match of each game against greedy bots: (game, mode).
GAMES = [("zoo", "beginner"), ("pursuit", "coop"), ("beasts", "capture"), ("snitch", "basic")]
ZOOM_STEP = 1.25  # components/ZoomPan.tsx's STEP


@pytest.fixture(params=list(SIZES))
def size(request: pytest.FixtureRequest) -> str:
    """The screen's name: desktop or phone."""
    return str(request.param)


@pytest.fixture
def screen(browser: Browser, gateway: RunningGateway, size: str) -> Iterator[Page]:
    """A fresh browser context of that size; the phone's is a touch screen that lays pages out as a phone does."""
    phone = size == "phone"
    context = browser.new_context(
        base_url=gateway.url, viewport=SIZES[size], is_mobile=phone, has_touch=phone, device_scale_factor=1
    )
    context.set_default_timeout(30_000)
    try:
        yield context.new_page()
    finally:
        context.close()


def assert_no_horizontal_overflow(page: Page) -> None:
    """Nothing on the page is wider than the screen: no sideways scrolling.

    Measured against the screen's width, not window.innerWidth: a mobile browser widens its viewport
    (zooms out) to hold a page that overflows, and innerWidth grows with it (429 px for 390 px).
    """
    screen_width = page.viewport_size["width"] if page.viewport_size else 0
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= screen_width, f"the page is {width} px wide on a {screen_width} px screen"


def assert_in_first_screen(page: Page, element: Locator) -> None:
    """`element` is wholly on the screen while the page is scrolled to its top."""
    assert page.evaluate("() => window.scrollY") == 0
    box = element.bounding_box()
    height = page.viewport_size["height"] if page.viewport_size else 0
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (box, height)


def test_the_lobby_rules_and_leaderboard_fit_the_screen(screen: Page, size: str, screenshots: Path) -> None:
    register(screen, "Pocket")
    cards = screen.locator("article.game-card")
    expect(cards).to_have_count(len(GAMES))
    width = SIZES[size]["width"]
    for card in cards.all():
        box = card.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box  # no card clipped
    if size == "phone":  # one column: each card below the one before
        tops = [box["y"] for box in (card.bounding_box() for card in cards.all()) if box]
        assert tops == sorted(tops) and len(set(tops)) == len(tops), tops
    assert_no_horizontal_overflow(screen)
    screen.screenshot(path=str(screenshots / f"lobby-{size}.png"), full_page=True)

    # The queue page: a private table for friends waits (for nobody here) until it is left.
    screen.get_by_test_id("game-zoo").get_by_test_id("table").click()
    expect(screen.get_by_test_id("queue-page")).to_contain_text("waiting")
    expect(screen.get_by_test_id("join-code")).not_to_be_empty()
    assert_no_horizontal_overflow(screen)
    screen.screenshot(path=str(screenshots / f"queue-{size}.png"))
    screen.get_by_test_id("cancel-ticket").click()
    expect(screen).to_have_url(re.compile(r"#/$"))

    screen.goto("/#/rules/beasts/advanced")
    expect(screen.get_by_test_id("rules-section").first).to_be_visible()
    assert_no_horizontal_overflow(screen)
    screen.screenshot(path=str(screenshots / f"rules-{size}.png"))

    screen.goto("/#/leaderboard/zoo")
    expect(screen.get_by_test_id("leaderboard")).to_be_visible()
    assert_no_horizontal_overflow(screen)
    screen.screenshot(path=str(screenshots / f"leaderboard-{size}.png"))


@pytest.mark.parametrize(("game", "mode"), GAMES)
def test_a_match_fits_the_screen_zooms_and_takes_a_tap(
    screen: Page, size: str, game: str, mode: str, screenshots: Path
) -> None:
    register(screen, "Thumbs")
    # A private table with a greedy bot, not the queue: no other test's player can take the second seat.
    card = screen.get_by_test_id(f"game-{game}")
    card.get_by_test_id("mode").select_option(mode)
    card.get_by_test_id("seats").fill("2")
    card.get_by_test_id("table-bots").click()
    expect(screen).to_have_url(re.compile(rf"#/match/{game}/"))
    choice = screen.locator("[data-testid=action]:not([disabled])").first
    choice.wait_for()
    screen.evaluate("() => window.scrollTo(0, 0)")
    assert_in_first_screen(screen, screen.get_by_test_id("prompt"))
    assert_in_first_screen(screen, choice)
    assert_no_horizontal_overflow(screen)
    screen.screenshot(path=str(screenshots / f"match-{game}-{size}.png"))

    check_zoom_and_pan(screen)
    check_pinch_or_wheel(screen, size)

    # A move by tapping (a click on the desktop) on the first screen, without scrolling: the game accepts it.
    screen.evaluate("() => window.scrollTo(0, 0)")
    choice.wait_for()
    with screen.expect_response(lambda reply: reply.url.endswith("/SubmitAction")) as submitted:
        if size == "phone":
            choice.tap()
        else:
            choice.click()
    assert submitted.value.ok, submitted.value.text()
    screen.get_by_test_id("leave").click()  # a bot plays the seat out: the match does not linger
    # The bots may finish a short match before the page redraws (then there is no seat to take back).
    taken_back = screen.get_by_test_id("leave").filter(has_text="Take my seat back")
    expect(taken_back.or_(screen.get_by_role("heading", name="Match over"))).to_be_visible()


def check_zoom_and_pan(page: Page) -> None:
    """+ scales the board by ZOOM_STEP, a drag moves it, − scales it back down, and "fit" restores its first size."""
    window = page.get_by_test_id("zoom-window")
    content = page.get_by_test_id("zoom-content")
    expect(window).to_have_attribute("data-scale", "1.000")
    expect(page.get_by_test_id("zoom-fit")).to_be_disabled()
    fitted = content.bounding_box()
    assert fitted is not None and fitted["width"] > 0
    page.get_by_test_id("zoom-in").click()
    expect(window).to_have_attribute("data-scale", f"{ZOOM_STEP:.3f}")
    zoomed = content.bounding_box()
    assert zoomed is not None and zoomed["width"] == pytest.approx(fitted["width"] * ZOOM_STEP, rel=0.01)

    # A drag inside the window moves the board by as much as the pointer moved.
    seen = window.bounding_box()
    assert seen is not None
    x, y = seen["x"] + seen["width"] / 2, seen["y"] + min(seen["height"], 300) / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 40, y, steps=5)
    page.mouse.up()
    dragged = content.bounding_box()
    assert dragged is not None and dragged["x"] == pytest.approx(zoomed["x"] - 40, abs=1)

    page.get_by_test_id("zoom-out").click()
    page.get_by_test_id("zoom-out").click()
    expect(window).to_have_attribute("data-scale", f"{1 / ZOOM_STEP:.3f}")
    page.get_by_test_id("zoom-fit").click()
    expect(window).to_have_attribute("data-scale", "1.000")
    restored = content.bounding_box()  # its height and top may have changed since: a bot's move redraws the page
    assert restored is not None and (restored["x"], restored["width"]) == (fitted["x"], fitted["width"])


def check_pinch_or_wheel(page: Page, size: str) -> None:
    """On the phone two fingers spread apart zoom the board (not the page); on the desktop ctrl+wheel does."""
    window = page.get_by_test_id("zoom-window")
    seen = window.bounding_box()
    assert seen is not None
    x, y = seen["x"] + seen["width"] / 2, seen["y"] + min(seen["height"], 300) / 2
    if size == "phone":
        # Playwright has no two-finger gesture: the DevTools protocol's touch events are the fingers.
        cdp = page.context.new_cdp_session(page)
        for kind, spread in [("touchStart", 40), *(("touchMove", d) for d in range(45, 85, 5)), ("touchEnd", 0)]:
            fingers = [{"x": x - spread, "y": y, "id": 1}, {"x": x + spread, "y": y, "id": 2}] if spread else []
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": fingers})
        expect(window).to_have_attribute("data-scale", "2.000")  # the fingers twice as far apart
        assert page.evaluate("() => window.visualViewport.scale") == 1  # the page itself did not zoom
    else:
        page.mouse.move(x, y)
        page.keyboard.down("Control")
        page.mouse.wheel(0, -200)
        page.keyboard.up("Control")
        expect(window).not_to_have_attribute("data-scale", "1.000")
        assert float(window.get_attribute("data-scale") or 0) > 1
    page.get_by_test_id("zoom-fit").click()
    expect(window).to_have_attribute("data-scale", "1.000")
