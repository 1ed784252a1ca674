"""A seat whose choices could not be listed for a moment gets them: the page asks again.

Nothing else would ask: the choices are listed when a new view comes, and while the match waits
for this seat no new view comes. The failures are made in the browser's network (the real
gateway and game service answer every other call), as a game service restarting would answer.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, Route, expect

from tests.e2e.web.pages import open_seat
from tests.support.game_client import GameClient

if TYPE_CHECKING:  # imported at run time by pytest_plugins below, which must come first
    from tests.support.minimatch import RunningMinimatch

pytestmark = pytest.mark.e2e
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]

FAILURES = 2
# How a Connect server answers a call while its backend is unavailable.
UNAVAILABLE = json.dumps({"code": "unavailable", "message": "the game service is restarting"})


def test_the_seat_s_choices_are_listed_again_after_a_listing_failed(
    page: Page, minimatch: RunningMinimatch, service_token: str
) -> None:
    beasts = GameClient("beasts", minimatch.games["beasts"])
    try:  # two human seats, no bot: nothing moves until the seat to act does
        match = beasts.create(service_token, mode="capture", seats=2)
        seat = beasts.summary(match.match_id, service_token).to_act[0]
    finally:
        beasts.close()
    failed: list[str] = []

    def fail_the_first_listings(route: Route) -> None:
        if len(failed) < FAILURES:
            failed.append(route.request.url)
            route.fulfill(status=503, content_type="application/json", body=UNAVAILABLE)
        else:
            route.continue_()

    page.route(re.compile(r"/ListLegalActions$"), fail_the_first_listings)
    open_seat(page, "beasts", match, seat, "Patient")

    expect(page.get_by_test_id("listing-retry")).to_contain_text("Unavailable: the game service is restarting")
    page.locator("[data-testid=action]:not([disabled])").first.wait_for()
    expect(page.get_by_test_id("listing-retry")).to_have_count(0)
    expect(page.get_by_test_id("error")).to_have_count(0)
    assert len(failed) == FAILURES
