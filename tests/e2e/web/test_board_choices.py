"""Choices made on the board (issue 30, items 4b and 4c), in a real browser through the gateway.

A choice that is a set (Pursuit's dice to keep, Snitch's dice to re-roll and Dice tokens to spend)
is built by toggling the dice or tokens on the board, then confirmed in its bar: Confirm is enabled
only when exactly one legal action takes the parts picked, and it submits that one. Clicking the
board narrows the choices in every game with a board that names them (Zoo's cards here; Beasts'
spaces are in test_boards.py).
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import grpc
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.web.pages import (
    CHOICE_SECONDS,
    TURN_TIMER,
    open_seat,
    pursuit_keep_choice,
    queue,
    register,
)
from tests.support.game_client import GameClient, Match

if TYPE_CHECKING:  # imported at run time by pytest_plugins below, which must come first
    from tests.support.minimatch import RunningMinimatch

pytestmark = pytest.mark.e2e
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]

# Snitch matches the search for a re-roll of several dice may play, and actions per match.
SNITCH_SEEDS = range(1, 31)
SNITCH_STEPS = 600
T = TypeVar("T")


def test_pursuit_keeps_the_dice_picked_on_the_board(
    page: Page, minimatch: RunningMinimatch, service_token: str, screenshots: Path
) -> None:
    bar = pursuit_keep_choice(page, minimatch.games["pursuit"], service_token, "Keeper")
    # The subset buttons are gone: the dice are toggles on the board, and the list keeps the rest.
    expect(page.get_by_test_id("action").filter(has_text=re.compile(r"^(Keep |Roll all)"))).to_have_count(0)
    dice = page.get_by_test_id("dice").locator("[data-part]")
    count = dice.count()
    assert count >= 3, count
    if page.get_by_test_id("set-clear").count():
        page.get_by_test_id("set-clear").click()  # the dice kept so far start picked
    confirm = bar.get_by_test_id("set-confirm")
    expect(confirm).to_contain_text("Roll all")  # nothing picked: the engine's "roll them all again"
    # Every die kept rolls nothing again: no legal action keeps them all, so Confirm is disabled.
    for i in range(count):
        dice.nth(i).click()
    expect(page.locator("[data-testid=dice] [data-part][aria-checked=true]")).to_have_count(count)
    expect(confirm).to_be_disabled()
    expect(bar.get_by_test_id("set-why")).to_be_visible()
    page.get_by_test_id("set-clear").click()
    expect(page.locator("[data-part][aria-checked=true]")).to_have_count(0)
    # Keep the first and the last die: one by the keyboard (Space), one by a click.
    dice.first.focus()
    dice.first.press("Space")
    dice.last.click()
    expect(dice.first).to_have_attribute("aria-checked", "true")
    picked = Counter([dice.first.get_attribute("data-face"), dice.last.get_attribute("data-face")])
    expect(bar.get_by_test_id("set-picked")).not_to_contain_text("nothing yet")
    expect(confirm).to_be_enabled()
    expect(confirm).to_contain_text("Keep")
    page.screenshot(path=str(screenshots / "choices-pursuit.png"))
    rolled_before = page.get_by_test_id("events").locator("li").filter(has_text=" rolled (roll ").count()
    confirm.click()
    # The engine rolled the others again: its event names exactly two dice kept, and the view keeps those faces.
    rolls = page.get_by_test_id("events").locator("li").filter(has_text=" rolled (roll ")
    expect(rolls).to_have_count(rolled_before + 1, timeout=60_000)
    event = rolls.last.inner_text()
    assert event.count("(kept)") == 2, event
    kept_dice = page.get_by_test_id("dice").locator(".die[data-kept=yes]")
    expect(kept_dice).to_have_count(2)
    assert Counter(d.get_attribute("data-face") for d in kept_dice.all()) == picked, (event, picked)


@dataclass
class SetPosition:
    """A Snitch match waiting for `seat`'s set choice: the widest option's side, dice and label."""

    match: Match
    seat: int
    side: str
    dice: list[int]
    label: str


def widest_option(client: GameClient, match: Match, seat: int, kind: str) -> SetPosition | None:
    """The `kind` action of the most dice (two or more) among the seat's several of that kind, if it has them."""
    legal = client.legal(match.match_id, match.tokens[seat])
    found = [(a, label) for a, label in zip(legal.actions, legal.labels, strict=True) if a.WhichOneof("kind") == kind]
    if len(found) < 2:
        return None
    action, label = max(found, key=lambda pair: len(getattr(pair[0], kind).dice))
    dice = list(getattr(action, kind).dice)
    if len(dice) < 2:
        return None
    # A Reroll names its side; a Locked Trait re-rolls the side the view's decision names.
    side = (
        action.reroll.side
        if kind == "reroll"
        else client.view(match.match_id, match.tokens[seat]).view.decision.roll_side
    )
    name = client.pb2.RollSide.Name(side).removeprefix("ROLL_SIDE_").lower()
    return SetPosition(match, seat, name, dice, label.text)


def play_until(client: GameClient, service_token: str, mode: str, found: Callable[[Match, int], T | None]) -> T:
    """Snitch matches (both seats human) played with random legal actions until `found(match, seat)` finds something."""
    for seed in SNITCH_SEEDS:
        match = client.create(service_token, mode=mode, seats=2, seed=seed, turn_timer=TURN_TIMER)
        rng = random.Random(seed)
        for _ in range(SNITCH_STEPS):
            summary = client.summary(match.match_id, service_token)
            if not summary.to_act:
                break
            seat = summary.to_act[0]
            position = found(match, seat)
            if position is not None:
                return position
            legal = client.legal(match.match_id, match.tokens[seat])
            try:
                client.submit(match.match_id, match.tokens[seat], rng.choice(legal.actions), legal.view_version)
            except grpc.RpcError as error:
                if error.code() != grpc.StatusCode.RESOURCE_EXHAUSTED:
                    raise
                time.sleep(0.05)  # the caller's call budget: wait as told
    raise AssertionError(f"no Snitch {mode} match of the seeds tried offered the choice sought")


def snitch_set_position(client: GameClient, service_token: str, mode: str, kind: str) -> SetPosition:
    """A Snitch match played at random until a seat has a set choice of `kind`."""
    return play_until(client, service_token, mode, lambda match, seat: widest_option(client, match, seat, kind))


def rerolled_by(client: GameClient, match: Match, seat: int, side: str) -> set[int]:
    """The dice of that side of the roll under way that `seat` has re-rolled (the view's own record)."""
    exchange = client.view(match.match_id, match.tokens[seat]).view.exchange
    rolled = exchange.action_roll if side == "action" else exchange.reaction_roll
    return {i for i, die in enumerate(rolled.dice) if seat in die.rerolled_by}


@pytest.mark.parametrize(
    ("mode", "kind", "title"),
    [("basic", "reroll", "Dice to re-roll"), ("advanced", "use_trait", "Dice the Locked Trait re-rolls")],
)
def test_snitch_rerolls_the_dice_picked_on_the_board(
    page: Page, minimatch: RunningMinimatch, service_token: str, screenshots: Path, mode: str, kind: str, title: str
) -> None:
    snitch = GameClient("snitch", minimatch.games["snitch"])
    try:
        at = snitch_set_position(snitch, service_token, mode, kind)
        open_seat(page, "snitch", at.match, at.seat, "Chaser")
        bar = page.get_by_test_id("set-choice").filter(has_text=title)
        expect(bar).to_be_visible()
        expect(page.get_by_test_id("action").filter(has_text=at.label)).to_have_count(0)  # not a button of its own
        confirm = bar.get_by_test_id("set-confirm")
        expect(confirm).to_be_disabled()  # nothing picked yet
        before = rerolled_by(snitch, at.match, at.seat, at.side)
        roll = page.get_by_test_id("snitch-roll")
        for die in at.dice:
            roll.locator(f"[data-die='die:{at.side}:{die}']").click()
        expect(confirm).to_have_text(f"Confirm: {at.label}")
        page.screenshot(path=str(screenshots / f"choices-snitch-{kind}.png"))
        version = int(page.get_by_test_id("match").get_attribute("data-version") or 0)
        confirm.click()
        said = re.compile(rf"re-rolls? {at.side} {len(at.dice)} dice")
        expect(page.get_by_test_id("events")).to_contain_text(said, timeout=60_000)
        # Exactly the dice picked were rolled again by this seat (each die keeps who re-rolled it).
        assert snitch.view(at.match.match_id, at.match.tokens[at.seat]).version > version
        assert rerolled_by(snitch, at.match, at.seat, at.side) - before == set(at.dice)
    finally:
        snitch.close()


@dataclass
class SpendPosition:
    """A Snitch match waiting for `seat` to spend Dice tokens: its widest spend's tokens ("bonus:orange") and label."""

    match: Match
    seat: int
    tokens: list[str]
    label: str


def widest_spend(client: GameClient, match: Match, seat: int) -> SpendPosition | None:
    """The seat's spend of the most tokens, when it may spend Dice tokens in several ways."""
    legal = client.legal(match.match_id, match.tokens[seat])
    spends = [
        (a.spend_tokens, label.text)
        for a, label in zip(legal.actions, legal.labels, strict=True)
        if a.WhichOneof("kind") == "spend_tokens"
    ]
    if len(spends) < 2:
        return None
    widest, label = max(spends, key=lambda pair: len(pair[0].bonus) + len(pair[0].penalty))
    colour = client.pb2.Colour.Name
    tokens = [f"bonus:{colour(c).removeprefix('COLOUR_').lower()}" for c in widest.bonus]
    tokens += [f"penalty:{colour(c).removeprefix('COLOUR_').lower()}" for c in widest.penalty]
    return SpendPosition(match, seat, tokens, label)


def test_snitch_spends_the_dice_tokens_picked_on_the_board(
    page: Page, minimatch: RunningMinimatch, service_token: str, screenshots: Path
) -> None:
    snitch = GameClient("snitch", minimatch.games["snitch"])
    try:
        at = play_until(snitch, service_token, "basic", lambda match, seat: widest_spend(snitch, match, seat))
        match, seat, tokens, label = at.match, at.seat, at.tokens, at.label
        open_seat(page, "snitch", match, seat, "Keeper")
        bar = page.get_by_test_id("set-choice").filter(has_text="Dice tokens to spend")
        expect(bar).to_be_visible()
        expect(page.get_by_test_id("action").filter(has_text=label)).to_have_count(0)  # not a button of its own
        confirm = bar.get_by_test_id("set-confirm")
        tray = page.get_by_test_id("snitch-tokens")
        for n, token in enumerate(tokens):  # the n-th of its kind and colour, as the tray draws them
            tray.locator(f"[data-token='token:{token}:{tokens[:n].count(token)}']").click()
        expect(confirm).to_have_text(f"Confirm: {label}")
        page.screenshot(path=str(screenshots / "choices-snitch-tokens.png"))
        confirm.click()
        # The engine's event names the seat's spend: each token picked, by colour and kind.
        spent = page.get_by_test_id("events").locator("li").filter(has_text="Dice tokens:").last
        expect(spent).to_be_visible(timeout=60_000)
        said = spent.inner_text()
        for token in tokens:
            kind, colour = token.split(":")
            assert f"{colour} {kind.capitalize()}" in said, (said, tokens)
    finally:
        snitch.close()


def test_clicking_a_zoo_card_narrows_the_choices_to_that_card(page: Page) -> None:
    register(page, "Narrower")
    queue(page, "zoo", "beginner", seats=2)
    expect(page).to_have_url(re.compile(r"#/match/zoo/"))
    card = page.locator(".zoo-card[data-target]").first
    card.wait_for(timeout=CHOICE_SECONDS * 1000)
    every = page.get_by_test_id("action").count()
    key = card.get_attribute("data-target")
    card.click()
    shown = page.get_by_test_id("action")
    expect(page.get_by_text(f"show all {every}")).to_be_visible()
    assert 1 <= shown.count() < every or every == 1, (shown.count(), every)
    assert {b.get_attribute("data-target") for b in shown.all()} == {key}
    expect(card).to_have_class(re.compile(r"\bchosen\b"))
    page.get_by_text(f"show all {every}").click()
    expect(shown).to_have_count(every)
