"""The rules page: opened from a game card and from the match page; a refusal names its rule and links to the
section that explains it and to the RULES.md reading of it (issue 30, items 5 and 12)."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, Route, expect

from tests.e2e.web.pages import register
from tests.support.game_client import GameClient

if TYPE_CHECKING:  # imported at run time by pytest_plugins below, which must come first
    from tests.support.minimatch import RunningMinimatch

pytestmark = pytest.mark.e2e
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]


def test_the_rules_page_opens_from_a_game_card(page: Page) -> None:
    register(page, "Reader")
    card = page.get_by_test_id("game-beasts")
    card.get_by_test_id("mode").select_option("advanced")
    card.get_by_test_id("rules-link").click()
    expect(page).to_have_url(re.compile(r"#/rules/beasts/advanced$"))
    expect(page.get_by_test_id("rules-title")).to_contain_text("FANTASTIC BEASTS")
    sections = page.get_by_test_id("rules-section")
    anchors = [sections.nth(i).get_attribute("data-anchor") for i in range(sections.count())]
    assert {"setup", "a-turn", "how-to-win", "table-options"} <= set(anchors), anchors
    expect(page.locator("#rules-a-turn h3")).to_have_text("A turn (mode advanced)")  # this mode's turn only
    expect(page.locator("#rules-a-turn")).to_contain_text("Fighting Salemers")


def test_a_refusal_links_to_the_section_of_its_rule(
    page: Page, minimatch: RunningMinimatch, service_token: str
) -> None:
    zoo = GameClient("zoo", minimatch.games["zoo"])
    match = zoo.create(service_token, mode="beginner", seats=2, bots=(1,), bot_level="greedy", turn_timer=120)
    zoo.close()
    register(page, "Stubborn")
    seat = {"game": "zoo", "matchId": match.match_id, "seat": 0, "token": match.tokens[0]}
    page.evaluate("seats => localStorage.setItem('menagerie.seats', seats)", json.dumps({match.match_id: seat}))
    page.goto(f"/#/match/zoo/{match.match_id}")
    rules = page.get_by_test_id("match-rules-link")
    expect(rules).to_have_attribute("href", "#/rules/zoo/beginner")

    # The page offers only legal picks; the request is changed on its way to pick a card not in the hand.
    def pick_a_card_not_in_hand(route: Route) -> None:
        body = json.loads(route.request.post_data or "{}")
        body["action"] = {"pick": {"card": 999}}
        route.continue_(post_data=json.dumps(body))

    page.route("**/menagerie.zoo.v1.Zoo/SubmitAction", pick_a_card_not_in_hand)
    page.get_by_test_id("action").first.click()
    error = page.get_by_test_id("error")
    expect(error).to_contain_text("Drafting: card 999 is not in the hand in front of you")
    link = page.get_by_test_id("refusal-rule")
    expect(link).to_have_attribute("href", "#/rules/zoo/beginner?section=a-round&rule=Drafting")
    with page.context.expect_page() as opened:
        link.click()
    rules_page = opened.value
    section = rules_page.locator("#rules-a-round")
    expect(section).to_have_class(re.compile(r"\bchosen\b"))
    expect(section).to_be_in_viewport()
    expect(section.get_by_test_id("rules-refused")).to_have_text("Drafting")
    rules_page.close()

    # How the rule is read: the RULES.md section under the rule's anchor, opened and scrolled to.
    expect(page.get_by_test_id("refusal-rule-name")).to_have_text("Drafting")
    reading = page.get_by_test_id("refusal-reading")
    expect(reading).to_have_attribute(
        "href", "#/rules/zoo/beginner?reading=rule-turn-structure-and-simultaneity&rule=Drafting"
    )
    with page.context.expect_page() as opened:
        reading.click()
    rules_page = opened.value
    chosen = rules_page.locator("#rule-turn-structure-and-simultaneity")
    expect(chosen).to_have_attribute("open", "")
    expect(chosen).to_have_class(re.compile(r"\bchosen\b"))
    expect(chosen).to_be_in_viewport()
    expect(chosen.locator("#rule-drafting")).to_have_count(1)  # the rule's own anchor, as in RULES.md
    expect(chosen).to_contain_text("Turn structure and simultaneity")
    expect(chosen.get_by_test_id("reading-refused")).to_have_text("Drafting")
    expect(rules_page.get_by_test_id("rules-reading")).to_have_count(6)  # every section of the zoo's RULES.md
    rules_page.close()
