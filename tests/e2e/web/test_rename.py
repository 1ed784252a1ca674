"""A guest renamed on the lobby page stays the same player: its matches in progress are still its own."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.web.pages import queue, register

pytestmark = pytest.mark.e2e
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]


def test_a_renamed_guest_keeps_its_matches(page: Page) -> None:
    register(page, "Before")
    player = "JSON.parse(localStorage.getItem('menagerie.player'))"
    first = page.evaluate(player)
    queue(page, "zoo", "beginner", seats=2)
    expect(page).to_have_url(re.compile(r"#/match/zoo/"))
    match_id = page.url.rsplit("/", 1)[-1]
    page.goto("/")
    page.get_by_test_id("rename").click()
    page.get_by_test_id("rename-input").fill("After")
    page.get_by_test_id("rename-save").click()
    expect(page.get_by_test_id("player-name")).to_have_text("After")
    renamed = page.evaluate(player)
    assert renamed["playerId"] == first["playerId"] and renamed["token"] != first["token"]
    page.reload()  # the lobby answers for the renamed player's token: the match is still listed
    mine = page.get_by_test_id("my-matches")
    expect(mine.locator(f"a[href='#/match/zoo/{match_id}']")).to_be_visible()
