"""Pass automatically when passing is the only choice: on by default, per player, the pass still the seat's move.

Pursuit asks every seat in each reaction window (play a card or pass); a seat with no card to
play there has one legal action, which the engine marks as a pass (ActionLabel.passes). With the
setting on, the page submits it without a click; turned off (kept per player), the pass waits
for a click like any choice.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.e2e.web.pages import finished, queue, register

pytestmark = pytest.mark.e2e
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]

ONLY_A_PASS = "[data-testid=actions]:has([data-testid=action][data-passes=yes]):not(:has([data-passes=no]))"


def auto_passed(page: Page) -> int:
    return int(page.get_by_test_id("match").get_attribute("data-auto-passed") or 0)


# Clicks the first enabled choice that is not a pass, unless the page has passed by itself since
# the test last looked: checked and clicked in one turn of the page's own thread, so a click can
# never land just after an automatic pass (it would clear the pass's notice before it is read).
CLICK_UNLESS_PASSED = """([passed]) => {
  const match = document.querySelector('[data-testid=match]');
  if (!match || Number(match.dataset.autoPassed || 0) !== passed) return false;
  const button = document.querySelector('[data-testid=action][data-passes=no]:not([disabled])');
  if (!button) return false;
  button.click();
  return true;
}"""


def click_a_choice_that_does_not_pass(page: Page, passed: int = 0) -> None:
    """Moves the match on: the first enabled choice that is not a pass, while the page has passed `passed` times."""
    try:
        clicked = page.evaluate(CLICK_UNLESS_PASSED, [passed])
    except PlaywrightError:
        clicked = False  # the page was re-rendering
    page.wait_for_timeout(100 if clicked else 200)  # the bots' turn, or the page just passed by itself


def test_a_pass_only_decision_is_passed_without_a_click_unless_the_player_turns_it_off(page: Page) -> None:
    register(page, "Passer")
    page.get_by_test_id("game-pursuit").get_by_test_id("option-difficulty").select_option("easy")
    queue(page, "pursuit", "coop", seats=2)
    expect(page).to_have_url(re.compile(r"#/match/pursuit/"))
    setting = page.get_by_test_id("auto-pass")
    expect(setting).to_be_checked()  # on by default

    deadline = time.monotonic() + 180
    while auto_passed(page) == 0:
        assert not finished(page) and time.monotonic() < deadline, "no pass-only decision came"
        click_a_choice_that_does_not_pass(page)
    expect(page.get_by_text(re.compile(r"^Passed automatically: "))).to_be_visible()
    expect(page.get_by_test_id("events")).to_contain_text("You passed")  # the engine recorded the seat's pass

    setting.uncheck()
    player_id = page.evaluate("JSON.parse(localStorage.getItem('menagerie.player')).playerId")
    assert page.evaluate(f"localStorage.getItem('menagerie.autopass.{player_id}')") == "off"
    page.reload()
    expect(page.get_by_test_id("auto-pass")).not_to_be_checked()  # kept for this player
    passed = auto_passed(page)
    only_a_pass = page.locator(ONLY_A_PASS)
    while not only_a_pass.count():
        assert not finished(page) and time.monotonic() < deadline, "no pass-only decision came with the setting off"
        click_a_choice_that_does_not_pass(page, passed)
    # The pass waits for the player: still offered after the page has had every chance to submit it.
    page.wait_for_timeout(1500)
    expect(only_a_pass).to_have_count(1)
    assert auto_passed(page) == passed
    log = page.get_by_test_id("event-log").locator("li", has_text="You passed")
    before = log.count()
    only_a_pass.get_by_test_id("action").click()
    expect(log).to_have_count(before + 1)  # the player's click passed
