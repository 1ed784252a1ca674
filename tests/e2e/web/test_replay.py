"""A finished match's replay in the browser (issue 30, item 11): its timeline, its board, and the bots' chart."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.web.pages import register
from tests.e2e.web.test_phone import SIZES, assert_no_horizontal_overflow
from tests.support.game_client import GameClient

if TYPE_CHECKING:  # imported at run time by pytest_plugins below, which must come first
    from tests.e2e.web.fixtures import RunningGateway
    from tests.support.minimatch import RunningMinimatch

pytestmark = pytest.mark.e2e
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]


@pytest.fixture(scope="module")
def finished_match(minimatch: RunningMinimatch, service_token: str) -> tuple[str, int]:
    """A Fantasy Zoo match two greedy bots played to the end: its id and last version."""
    zoo = GameClient("zoo", minimatch.games["zoo"])
    try:
        match = zoo.create(service_token, mode="beginner", seats=2, bots=(0, 1), bot_level="greedy", seed=5)
        return match.match_id, zoo.finished(match.match_id, service_token).version
    finally:
        zoo.close()


def shown_step(page: Page) -> int:
    """The match version of the step the replay shows."""
    return int(page.get_by_test_id("replay").get_attribute("data-step") or 0)


def test_a_finished_match_replays_with_its_timeline_and_chart(
    page: Page, finished_match: tuple[str, int], screenshots: Path
) -> None:
    match_id, version = finished_match
    register(page, "Viewer")
    # The lobby lists the matches that ended lately (every test's: any of them), each with its replay.
    page.get_by_test_id("recent-replays").get_by_test_id("replay").first.click()
    expect(page).to_have_url(re.compile(r"#/replay/\w+/\w+$"))
    expect(page.get_by_test_id("timeline")).to_be_visible()
    # The finished match's page links to its replay.
    page.goto(f"/#/watch/zoo/{match_id}")
    page.get_by_test_id("replay-link").click()
    expect(page).to_have_url(re.compile(rf"#/replay/zoo/{match_id}$"))
    replay = page.get_by_test_id("replay")
    expect(replay).to_have_attribute("data-steps", str(version))
    expect(replay).to_have_attribute("data-step", str(version))  # it opens at the end
    expect(page.get_by_test_id("zoo-row")).to_have_count(2)  # the game's own board
    # The bots' estimates arrive once the pool has computed them (the page asks again until then).
    expect(page.get_by_test_id("win-line")).to_have_count(2, timeout=60_000)
    expect(page.get_by_test_id("step-chances")).to_contain_text("100%")  # the last step is the result
    # Scrub the timeline back to the setup, then step forward with the keyboard.
    timeline = page.get_by_test_id("timeline")
    timeline.fill("0")
    expect(replay).to_have_attribute("data-step", "1")
    expect(page.get_by_test_id("step-label")).to_contain_text("the setup")
    timeline.press("ArrowRight")
    expect(replay).to_have_attribute("data-step", "2")
    expect(page.get_by_test_id("step-events").locator("li")).not_to_have_count(0)
    # The biggest swings are marked on the chart and listed; each jumps to its step.
    expect(page.get_by_test_id("swing-mark").first).to_be_visible()
    swing = page.get_by_test_id("swing").first
    target = int(re.findall(r"step (\d+)", swing.inner_text())[0])
    swing.click()
    expect(replay).to_have_attribute("data-step", str(target))
    # The address names the step: shared or reloaded, the replay opens there.
    expect(page).to_have_url(re.compile(rf"#/replay/zoo/{match_id}\?step={target}$"))
    page.reload()
    expect(page.get_by_test_id("replay")).to_have_attribute("data-step", str(target))
    expect(page.get_by_test_id("win-chart")).to_be_visible()
    assert shown_step(page) == target
    page.set_viewport_size(SIZES["desktop"])  # the size of every page's desktop screenshot
    page.screenshot(path=str(screenshots / "replay-desktop.png"), full_page=True)


@pytest.fixture
def phone(browser: Browser, gateway: RunningGateway) -> Iterator[Page]:
    """A phone's screen (390×844, touch), as tests/e2e/web/test_phone.py's."""
    context = browser.new_context(
        base_url=gateway.url, viewport=SIZES["phone"], is_mobile=True, has_touch=True, device_scale_factor=1
    )
    context.set_default_timeout(30_000)
    try:
        yield context.new_page()
    finally:
        context.close()


def test_a_replay_fits_a_phone(phone: Page, finished_match: tuple[str, int], screenshots: Path) -> None:
    match_id, version = finished_match
    register(phone, "Pocket")
    phone.goto(f"/#/replay/zoo/{match_id}?step={version // 2}")
    expect(phone.get_by_test_id("replay")).to_have_attribute("data-step", str(version // 2))
    expect(phone.get_by_test_id("win-chart")).to_be_visible(timeout=60_000)
    expect(phone.get_by_test_id("timeline")).to_be_in_viewport()
    assert_no_horizontal_overflow(phone)
    phone.screenshot(path=str(screenshots / "replay-phone.png"), full_page=True)
