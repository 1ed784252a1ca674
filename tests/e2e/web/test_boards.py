"""The boards of Beasts and Snitch in a real browser (Zoo's and Pursuit's are in test_play.py); their screenshots."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from menagerie.snitch.engine.pitch import PITCH_LINEUP
from menagerie.snitch.engine.wording import bludger_name, player_code, player_name
from tests.e2e.web.pages import play_to_end, queue, register

pytestmark = pytest.mark.e2e
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]


def test_the_beasts_map_draws_its_streets_and_blue_circles_and_takes_moves(page: Page, screenshots: Path) -> None:
    register(page, "Newt")
    queue(page, "beasts", "capture", seats=2)
    expect(page).to_have_url(re.compile(r"#/match/beasts/"))
    board = page.get_by_test_id("beasts-map")
    expect(board).to_be_visible()
    spaces = board.locator("g.space").count()
    assert spaces > 20
    assert board.locator("line.street").count() >= spaces - 1  # a connected map
    assert board.locator("circle.blue-circle").count() >= 1
    # A move is offered on the map itself: clicking a space narrows the choices to the moves that go there.
    target = board.locator("g.space[data-target]").first
    for _ in range(20):  # roll (and whatever comes before a move) until a move is offered
        page.locator("[data-testid=action]:not([disabled]), g.space[data-target]").first.wait_for()
        if target.count():
            break
        page.locator("[data-testid=action]:not([disabled])").first.click()
    target.wait_for()
    space = (target.get_attribute("data-target") or "").removeprefix("space:")
    target.click()
    labels = page.get_by_test_id("action").all_inner_texts()
    assert labels and all(re.search(rf"\b{space}\b", label) for label in labels), (space, labels)
    page.get_by_test_id("action").first.click()
    play_to_end(page, timeout=120, screenshot=screenshots / "beasts.png", shoot_after=0)
    expect(page.get_by_test_id("outcome")).to_contain_text("Match over")


def test_the_snitch_pitch_and_race_are_drawn_and_take_the_engines_choices(page: Page, screenshots: Path) -> None:
    register(page, "Seeker")
    queue(page, "snitch", "basic", seats=2)
    expect(page).to_have_url(re.compile(r"#/match/snitch/"))
    pitch = page.get_by_test_id("snitch-pitch")
    expect(pitch).to_be_visible()
    assert pitch.locator(".zone").count() >= 6
    expect(page.get_by_test_id("snitch-race")).to_be_visible()
    for _ in range(8):
        button = page.locator("[data-testid=action]:not([disabled])").first
        button.wait_for()
        assert button.inner_text().strip()  # the engine's label
        before = page.get_by_test_id("match").get_attribute("data-version")
        button.click()
        expect(page.get_by_test_id("match")).not_to_have_attribute("data-version", before or "0")
    page.get_by_test_id("action").first.wait_for()
    page.screenshot(path=str(screenshots / "snitch.png"))
    check_snitch_names(page)


def check_snitch_names(page: Page) -> None:
    """The pitch names its Players and Bludgers as the engine's text does: what a chip shows and names is the
    engine's code and name for that Player, and every Player or Bludger the page's actions and events name is on it."""
    engine_names = {(player_code(i), player_name(i)) for i in range(len(PITCH_LINEUP))}
    chips = page.get_by_test_id("snitch-pitch").locator(".chip")
    drawn = {(chip.inner_text().strip("●").strip(), chip.get_attribute("data-label")) for chip in chips.all()}
    assert drawn == engine_names, drawn
    bludgers = page.get_by_test_id("snitch-pitch").locator(".bludger[data-label]")
    on_pitch = {name for name, _ in drawn} | {label for _, label in drawn}
    on_pitch |= {b.get_attribute("data-label") for b in bludgers.all()}
    assert on_pitch >= {bludger_name(0), bludger_name(1)}, on_pitch  # both Bludgers are placed at Kick-Off
    text = " ".join(page.get_by_test_id("events").all_inner_texts() + page.get_by_test_id("action").all_inner_texts())
    named = set(re.findall(r"\b(?:Beater|Chaser|Bludger) \d\b|\bKeeper\b", text))
    assert named and named <= on_pitch, (named, on_pitch)
