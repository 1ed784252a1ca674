"""A private table for friends from the page: one creates it, the other joins with its id and code, both sit down."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.web.pages import register

if TYPE_CHECKING:  # imported at run time by pytest_plugins below, which must come first
    from tests.e2e.web.fixtures import RunningGateway

pytestmark = pytest.mark.e2e
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]


def test_a_friend_joins_a_private_table_with_its_id_and_code(
    page: Page, browser: Browser, gateway: RunningGateway
) -> None:
    register(page, "Host")
    card = page.get_by_test_id("game-zoo")
    card.get_by_test_id("seats").fill("2")
    card.get_by_test_id("table").click()
    invite = page.get_by_test_id("table-invite")
    expect(invite).to_be_visible()
    table_id = invite.locator("code").first.inner_text()
    code = page.get_by_test_id("join-code").inner_text()
    assert table_id and code

    friend_context = browser.new_context(base_url=gateway.url, viewport={"width": 1400, "height": 1000})
    try:
        friend = friend_context.new_page()
        register(friend, "Friend")
        theirs = friend.get_by_test_id("game-zoo")
        theirs.get_by_placeholder("table id").fill(table_id)
        theirs.get_by_placeholder("join code").fill(code)
        theirs.get_by_role("button", name="Join a table").click()
        # The table is full: both pages go to the same match, each to its own seat.
        expect(friend).to_have_url(re.compile(r"#/match/zoo/"))
        expect(page).to_have_url(re.compile(r"#/match/zoo/"))
        assert friend.url.rsplit("/", 1)[1] == page.url.rsplit("/", 1)[1]
        expect(page.get_by_text("seat 1")).to_be_visible()
        expect(friend.get_by_text("seat 2")).to_be_visible()
        for player in (page, friend):  # simultaneous drafting: each has a pick to make
            expect(player.get_by_test_id("action").first).to_be_visible()
            expect(player.get_by_test_id("zoo-row")).to_have_count(2)
            expect(player.get_by_test_id("zoo-row").first).to_contain_text("Host")
    finally:
        friend_context.close()
