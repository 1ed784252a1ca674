"""Every game and mode the lobby lists, played to the end from the page against greedy bots (issue 30, "done when").

The cases come from the installed games' own list of modes (the lobby lists the same, checked
below), so a new game or mode is played here as it lands; a mode with a variant rule that is
switched off by default (Beasts Mode II's spell cards) is also played with it switched on.
A person's seat clicks the first choice the page offers (the last in Beasts and Pursuit, which
ends them sooner), on the board or in the action list, until the results show; the cases keep
"pass automatically" on (the default) and turn it off first in turn; `make test-extended` plays
each mode the other way too (in `make test`, both ways would double the file's minutes).

Then the page is checked against the match as the game service tells it:
* one seat numbering: the results and every line of the event log name the seats by the
  display names GetMatch gives them ("Bot 2 (greedy)" is seat index 1's), never "Seat 0"
  nor a number that disagrees;
* the event log: line for line the events of the match's replay for the seat (GetReplay), so
  every pass the engine recorded is there in its words;
* the passes: the match is replayed from its seed and recorded actions (GetReplay, as the
  bots' estimate task does) to count the seat's decisions whose one legal action passes; with
  the setting on the page took every one of them itself and the test clicked none, with it off
  the page took none and the test clicked each; every pass the seat made is in the record.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from menagerie.common.v1 import common_pb2
from menagerie.rules import registry
from menagerie.rules.contract import ModeInfo
from menagerie.rules.text import Narrator
from tests.e2e.web.pages import queue, register, seat_token
from tests.support.game_client import GameClient

if TYPE_CHECKING:  # imported at run time by pytest_plugins below, which must come first
    from tests.support.minimatch import RunningMinimatch

pytestmark = pytest.mark.e2e
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]

PLAYER = "Walker"
# An option whose values switch a variant rule off and on: each is also played switched on.
SWITCHES = ({"false", "true"}, {"off", "on"})
# Games whose last listed choice brings the end sooner: Pursuit's is usually passing or stopping, Beasts'
# ending the turn (which also meets more spell windows where passing is all a seat can do).
LAST_CHOICE = {"pursuit", "beasts"}
# Options that keep a match short, where a mode has them.
SHORT = {"difficulty": "easy"}
MATCH_SECONDS = 240
# A click is a submit, a Watch update and a new listing: seconds on a loaded machine.
MOVE_SECONDS = 60


@dataclass(frozen=True)
class Case:
    """One match to play: a game's mode, the options chosen on its card, and the player's auto-pass setting."""

    game: str
    mode: ModeInfo
    options: dict[str, str] = field(default_factory=dict)
    auto_pass: bool = True
    variant: bool = False  # a variant rule switched on: the mode's own case again, with that rule
    other_setting: bool = False  # the mode's own case again, with auto-pass the other way

    @property
    def repeat(self) -> bool:
        """A repeat of a mode's own case, played by `make test-extended` (marker extended)."""
        return self.variant or self.other_setting

    @property
    def id(self) -> str:
        chosen = "".join(f"-{name}={value}" for name, value in self.options.items())
        return f"{self.game}-{self.mode.mode}{chosen}-autopass-{'on' if self.auto_pass else 'off'}"


def switched_on(mode: ModeInfo) -> dict[str, str]:
    """The mode's variant rules (options of SWITCHES) each at the value that is not its default."""
    return {
        option.name: next(value for value in option.allowed_values if value != option.default_value)
        for option in mode.options
        if set(option.allowed_values) in SWITCHES
    }


def every_case() -> Iterator[Case]:
    """Each installed game's modes (and each with its variants on, if it has any), auto-pass on and off in turn."""
    played = []
    for game in registry.game_ids():
        for mode in registry.engine(game).info.modes:
            short = {o.name: SHORT[o.name] for o in mode.options if SHORT.get(o.name) in o.allowed_values}
            played.append((game, mode, short, False))
            if variants := switched_on(mode):
                played.append((game, mode, {**short, **variants}, True))
    for index, (game, mode, options, variant) in enumerate(played):
        auto_pass = index % 2 == 0
        yield Case(game, mode, options, auto_pass=auto_pass, variant=variant)
        if not variant:  # the mode with the other setting: make test-extended plays it
            yield Case(game, mode, options, auto_pass=not auto_pass, other_setting=True)


CASES = list(every_case())

# Every choice the page offers the seat: in the action list, drawn on the board as a card (Snitch's Build
# Your Team; its undo left out, so taking the first choice again and again always moves on), or a set
# choice's Confirm, enabled with nothing picked where a listed action takes no part (spending no Snitch
# Dice tokens: a decision whose every choice is in its set bar).
OFFERED = ", ".join(
    f"[data-testid={test_id}]" for test_id in ("set-confirm", "action", "confirm-team", "offer", "flag")
)
# One move of the player, in one turn of the page's own thread (so the page cannot change under it): the
# first (or last) enabled choice is clicked, unless the only choice is a pass and the page passes by itself.
# What it did, and how many moves the page had had answered when it clicked.
PLAY_ONE = (
    """([autoPass, last]) => {
  const match = document.querySelector('[data-testid=match]');
  if (!match) return ['loading', ''];
  if (match.dataset.finished === 'yes') return ['finished', ''];
  const offered = [...document.querySelectorAll('"""
    + OFFERED
    + """')];
  const enabled = offered.filter((button) => !button.disabled);
  if (!enabled.length) return ['none', ''];
  const onlyAPass = offered.length === 1 && offered[0].dataset.passes === 'yes';
  if (onlyAPass && autoPass) return ['waiting', ''];
  const button = last ? enabled[enabled.length - 1] : enabled[0];
  const answered = match.dataset.answered;
  button.click();
  return [onlyAPass ? 'only-a-pass' : button.dataset.passes === 'yes' ? 'pass' : 'choice', answered];
}"""
)
# After a click: the game service answered it (taken, or refused with the page telling why). Not a new
# version: another seat's move brings one too, while this click's move may still be refused as stale.
ANSWERED = """(before) => document.querySelector('[data-testid=match]').dataset.answered !== before"""


@dataclass
class Clicks:
    """What the player clicked and the game service took: every choice, the passes, the decisions that were one pass."""

    choices: int = 0
    passes: int = 0
    only_a_pass: int = 0
    refused: list[str] = field(default_factory=list)  # why the game service refused a click (not counted above)


def play_to_end(page: Page, auto_pass: bool, last: bool) -> Clicks:
    """Clicks the first (or `last`) choice offered until the results show; with `auto_pass`, never a lone pass."""
    page.get_by_test_id("match").wait_for()
    deadline = time.monotonic() + MATCH_SECONDS
    clicks = Clicks()
    while True:
        assert time.monotonic() < deadline, f"the match did not end in {MATCH_SECONDS} s ({clicks})"
        did, answered = page.evaluate(PLAY_ONE, [auto_pass, last])
        if did == "finished":
            return clicks
        if did in ("loading", "none", "waiting"):
            page.wait_for_timeout(100)  # the bots' turn, or the page passes by itself
            continue
        try:
            page.wait_for_function(ANSWERED, arg=answered, timeout=MOVE_SECONDS * 1000)
        except PlaywrightError:
            raise AssertionError(f"a click on {did!r} was not answered: {describe(page)}") from None
        if page.get_by_test_id("error").count():  # the match moved on under the click: the page offers the new choices
            clicks.refused.append(" ".join(page.get_by_test_id("error").all_inner_texts()))
            continue
        clicks.choices += 1
        clicks.passes += did in ("pass", "only-a-pass")
        clicks.only_a_pass += did == "only-a-pass"


def describe(page: Page) -> str:
    """What the match page shows now: its version, prompt, error and choices (for a failure's message)."""
    parts = ["prompt", "error", "actions"]
    shown = {part: page.get_by_test_id(part).all_inner_texts() for part in parts}
    return f"version {page.get_by_test_id('match').get_attribute('data-version')}, {shown}"


@dataclass
class Record:
    """A seat's decisions as the game service recorded them: its passes, and those where it could only pass."""

    passes: int = 0
    only_a_pass: int = 0


def replayed(client: GameClient, match_id: str, token: str, seat: int) -> Record:
    """`seat`'s passes in the finished match, its engine's record (GameClient.replayed)."""
    engine = client.binding.engine
    narrator = Narrator(seat)
    record = Record()
    for acting, action, state in client.replayed(match_id, token):
        if acting == seat:  # each action's label says whether it passes, as ListLegalActions's do
            view = engine.view(state, seat)
            offered = [
                engine.describe_action(view, legal, narrator).passes for legal in engine.legal_actions(state, seat)
            ]
            record.passes += engine.describe_action(view, action, narrator).passes
            record.only_a_pass += offered == [True]
    return record


# A seat a reader is told about by number: "Seat 2", "Bot 2 (greedy)", "Player 2" (any case).
NUMBERED = re.compile(r"\b(seat|bot|player) (\d+)\b", re.IGNORECASE)


def check_one_seat_numbering(page: Page, summary: common_pb2.MatchSummary, seat: int) -> None:
    """The results and every event name the seats by GetMatch's display names; any number on the page is 1-based."""
    names = {s.seat: s.display_name for s in summary.seats}
    outcome = page.get_by_test_id("outcome")
    assert sorted(outcome.locator("tbody tr td:nth-child(2)").all_inner_texts()) == sorted(names.values())
    badge = page.get_by_test_id("seat-badge").inner_text()
    assert badge == f"Seat {seat + 1} · {names[seat]}", badge
    lines = [
        outcome.locator("p").inner_text(),
        summary.outcome.reason,  # GetMatch's words for the results
        *page.get_by_test_id("event-log").locator("li").all_inner_texts(),
    ]
    for line in lines:
        for mention in NUMBERED.finditer(line):
            number = int(mention.group(2))
            # Every seat has a display name ("Bot 2 (greedy)" is a bot's): a seat is named by it, never by a number.
            assert any(line[mention.start() :].startswith(name) for name in names.values()), (line, names)
            assert names[number - 1].startswith(mention.group(0)), (line, names)
    body = page.locator("body").inner_text()
    shown = [int(number) for _, number in NUMBERED.findall(body)]
    assert all(1 <= number <= len(names) for number in shown), shown


def check_passes(case: Case, clicks: Clicks, auto_passed: int, before_off: int, record: Record) -> None:
    """Each decision whose only choice passed was taken by the page (setting on) or by a click (off); all recorded.

    `before_off`: what the page passed by itself before the setting was turned off (a lone pass
    can come before the test reaches the checkbox; none with the setting kept on).
    """
    if case.auto_pass:
        assert clicks.only_a_pass == 0
        assert auto_passed == record.only_a_pass, (auto_passed, record)
    else:
        assert auto_passed == before_off, "the page passed by itself with the setting off"
        assert clicks.only_a_pass + before_off == record.only_a_pass, (clicks, before_off, record)
    assert record.passes == clicks.passes + auto_passed, (clicks, auto_passed, record)


def test_the_lobby_lists_every_mode_played_here(page: Page) -> None:
    register(page, PLAYER)
    listed = set()
    for card in page.locator("article.game-card").all():
        game = (card.get_attribute("data-testid") or "").removeprefix("game-")
        listed |= {
            (game, value)
            for value in card.get_by_test_id("mode")
            .locator("option")
            .evaluate_all("(options) => options.map((o) => o.value)")
        }
    assert listed == {(case.game, case.mode.mode) for case in CASES}


@pytest.mark.long
@pytest.mark.parametrize(
    "case",
    # A mode with a variant rule switched on, or with auto-pass the other way, repeats the mode's own
    # case: `make test-extended` plays it.
    [pytest.param(case, marks=[pytest.mark.extended] if case.repeat else []) for case in CASES],
    ids=[case.id for case in CASES],
)
def test_every_mode_is_played_to_the_end_with_one_seat_numbering(
    page: Page, minimatch: RunningMinimatch, case: Case
) -> None:
    register(page, PLAYER)
    page.get_by_test_id(f"game-{case.game}").get_by_test_id("turn-timer").select_option("600")  # never runs out
    seats = min(max(2, case.mode.min_seats), case.mode.max_seats)
    queue(page, case.game, case.mode.mode, seats=seats, options=case.options)
    expect(page).to_have_url(re.compile(rf"#/match/{case.game}/"))
    setting = page.get_by_test_id("auto-pass")
    expect(setting).to_be_checked()  # on by default
    if not case.auto_pass:
        setting.uncheck()
    before_off = 0 if case.auto_pass else auto_passed(page)

    clicks = play_to_end(page, case.auto_pass, last=case.game in LAST_CHOICE)

    expect(page.get_by_test_id("outcome")).to_contain_text("Match over")
    match_id = page.url.rsplit("/", 1)[-1]
    token = seat_token(page, match_id)
    client = GameClient(case.game, minimatch.games[case.game])
    try:
        summary = client.summary(match_id, token)
        seat = next(s.seat for s in summary.seats if s.display_name == PLAYER)
        assert summary.config.mode == case.mode.mode and dict(summary.config.options).items() >= case.options.items()
        check_one_seat_numbering(page, summary, seat)
        # The log is the match's record as the seat reads it: every step's events (the passes' among them), in order.
        steps = [step for replay in client.replay(match_id, token, seat=seat) for step in replay.steps]
        assert page.get_by_test_id("event-log").locator("li").all_inner_texts() == [
            text for step in steps for text in step.events
        ]
        record = replayed(client, match_id, token, seat)
    finally:
        client.close()
    print(f"{case.id}: {clicks}, auto-passed {auto_passed(page)} ({before_off} before off), recorded {record}")
    check_passes(case, clicks, auto_passed(page), before_off, record)


def auto_passed(page: Page) -> int:
    """How many decisions the page has passed by itself since it opened."""
    return int(page.get_by_test_id("match").get_attribute("data-auto-passed") or 0)
