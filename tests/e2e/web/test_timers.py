"""A turn timer running out on the page: the countdown, the timeout bot's move told, the choices of the new view."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.web.pages import register
from tests.support.game_client import GameClient

if TYPE_CHECKING:  # imported at run time by pytest_plugins below, which must come first
    from tests.support.minimatch import RunningMinimatch

pytestmark = pytest.mark.e2e
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]


def test_a_timed_out_turn_is_told_and_the_choices_come_from_the_new_view(
    page: Page, minimatch: RunningMinimatch, service_token: str
) -> None:
    # Seat 0 is the page's, with a 3-second timer and nobody clicking; seat 1 a greedy bot.
    zoo = GameClient("zoo", minimatch.games["zoo"])
    match = zoo.create(service_token, mode="beginner", seats=2, bots=(1,), bot_level="greedy", turn_timer=3)
    zoo.close()
    register(page, "Sleeper")
    seat = {"game": "zoo", "matchId": match.match_id, "seat": 0, "token": match.tokens[0]}
    page.evaluate("seats => localStorage.setItem('menagerie.seats', seats)", json.dumps({match.match_id: seat}))
    page.goto(f"/#/match/zoo/{match.match_id}")
    expect(page.get_by_test_id("countdown")).to_contain_text("Your turn timer")
    expect(page.get_by_test_id("action").first).to_be_visible()
    offered = set(page.get_by_test_id("action").all_inner_texts())  # picks from the hand dealt
    version = int(page.get_by_test_id("match").get_attribute("data-version") or 0)
    # The timer runs out: a bot picks for the seat, the page says so and offers the next pick's choices.
    expect(page.get_by_text(re.compile(r"Your turn timer ran out; a bot chose"))).to_be_visible(timeout=20_000)
    expect(page.get_by_test_id("match")).not_to_have_attribute("data-version", str(version))
    # No stale menu: once both have picked, the hands pass and every choice names a card of the new hand.
    for _ in range(100):
        now = set(page.get_by_test_id("action").all_inner_texts())
        if now and not now & offered:
            break
        page.wait_for_timeout(100)
    assert now and not now & offered, (offered, now)
