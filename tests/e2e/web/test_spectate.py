"""Spectators and leaving: a page follows a match live from the lobby's list, with the bots' estimate of each
seat's chances growing as it goes; closing a queued page cancels it."""

from __future__ import annotations

import random
import re
import time
from typing import TYPE_CHECKING

import grpc
import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tests.e2e.web.pages import finished, register
from tests.support.game_client import GameClient

if TYPE_CHECKING:  # imported at run time by pytest_plugins below, which must come first
    from tests.e2e.web.fixtures import RunningGateway
    from tests.support.minimatch import RunningMinimatch

pytestmark = pytest.mark.e2e
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]


def page_version(page: Page) -> int:
    """The match version of the view the page shows."""
    return int(page.get_by_test_id("match").get_attribute("data-version") or 0)


def test_a_spectator_page_follows_a_match_with_bots_live(
    page: Page, minimatch: RunningMinimatch, service_token: str
) -> None:
    # One seat played here over gRPC at our own pace, two greedy bots: every move shows on the page as it happens.
    zoo = GameClient("zoo", minimatch.games["zoo"])
    match = zoo.create(service_token, mode="beginner", seats=3, bots=(1, 2), bot_level="greedy")
    token, rng = match.tokens[0], random.Random(3)
    try:
        register(page, "Watcher")
        watch = page.locator(f"a[data-testid=watch][href$='{match.match_id}']")
        expect(watch).to_be_visible(timeout=15_000)  # the lobby page lists the live matches every 5 s
        watch.click()
        expect(page).to_have_url(re.compile(rf"#/watch/zoo/{match.match_id}"))
        expect(page.get_by_text("spectator")).to_be_visible()
        expect(page.get_by_test_id("zoo-row")).to_have_count(3)
        expect(page.get_by_test_id("actions")).to_have_count(0)  # a spectator has nothing to click
        followed = 0
        deadline = time.monotonic() + 120
        while True:
            assert time.monotonic() < deadline, "the match did not end"
            legal = zoo.legal(match.match_id, token)
            if not legal.actions:
                if zoo.view(match.match_id, token).view.prompt.kind == "finished":
                    break
                time.sleep(0.1)
                continue
            try:
                reply = zoo.submit(match.match_id, token, rng.choice(list(legal.actions)), legal.view_version)
            except grpc.RpcError as error:
                if error.code() != grpc.StatusCode.ABORTED:  # ABORTED: the bots moved first, choose again
                    raise
                continue
            if followed < 5:  # the page shows this very move, live (no reload)
                expect(page.get_by_test_id("match")).to_have_attribute(
                    "data-version", re.compile(r"\d+"), timeout=10_000
                )
                wait_until = time.monotonic() + 10
                while page_version(page) < reply.version:
                    assert time.monotonic() < wait_until, f"the page stayed at {page_version(page)} < {reply.version}"
                    page.wait_for_timeout(50)
                followed += 1
        assert followed == 5
        expect(page.get_by_test_id("outcome")).to_contain_text("Match over", timeout=15_000)
        assert finished(page)
        assert int(page.get_by_test_id("match").get_attribute("data-events") or 0) > 20
    finally:
        zoo.close()


def chart_steps(page: Page) -> int:
    """How many estimated steps the spectator's live chart shows (0: no chart yet)."""
    chart = page.get_by_test_id("live-chart")
    return int(chart.get_attribute("data-steps") or 0) if chart.count() else 0


def play_one(client: GameClient, match_id: str, token: str, rng: random.Random) -> None:
    """Seat 0's next decision at random, once it is its turn (the bot plays the other seat)."""
    deadline = time.monotonic() + 60
    while not (legal := client.legal(match_id, token)).actions:
        assert time.monotonic() < deadline, "seat 0 was never asked to decide"
        time.sleep(0.1)
    try:
        client.submit(match_id, token, rng.choice(list(legal.actions)), legal.view_version)
    except grpc.RpcError as error:
        if error.code() != grpc.StatusCode.ABORTED:  # ABORTED: the bot moved first, choose again next time
            raise


def test_a_spectator_sees_the_chart_of_a_live_match_grow(
    page: Page, minimatch: RunningMinimatch, service_token: str
) -> None:
    # Seat 0 played here at our pace, seat 1 a greedy bot: each move may bring the chart a step
    # (the pool estimates a watched match at most every 2 s), from a spectator's view only.
    zoo = GameClient("zoo", minimatch.games["zoo"])
    match = zoo.create(service_token, mode="beginner", seats=2, bots=(1,), bot_level="greedy")
    token, rng = match.tokens[0], random.Random(7)
    try:
        register(page, "ChartWatcher")
        page.goto(f"/#/watch/zoo/{match.match_id}")
        expect(page.get_by_text("spectator")).to_be_visible()
        expect(page.get_by_test_id("live-chart-waiting")).to_be_visible(timeout=15_000)
        seen = [0]
        deadline = time.monotonic() + 180
        while len(seen) < 3:  # the chart grew twice
            assert time.monotonic() < deadline, f"the chart showed {seen} estimated steps"
            play_one(zoo, match.match_id, token, rng)
            try:  # each move may bring the next estimate (or the 2 s between two are not over yet)
                page.wait_for_function(
                    "n => Number(document.querySelector('[data-testid=live-chart]')?.dataset.steps ?? 0) > n",
                    arg=seen[-1],
                    timeout=8_000,
                )
            except PlaywrightTimeout:
                continue
            seen.append(chart_steps(page))
        assert seen == sorted(seen) and seen[-1] >= 2
        expect(page.get_by_test_id("win-line")).to_have_count(2)  # a line per seat
        expect(page.get_by_test_id("live-chances")).to_contain_text("As a spectator sees it")
    finally:
        zoo.close()


def test_a_match_whose_public_view_tells_too_little_says_so_instead_of_a_chart(
    page: Page, minimatch: RunningMinimatch, service_token: str
) -> None:
    # Beasts' mode III has no evaluation: every live estimate is recorded without chances.
    beasts = GameClient("beasts", minimatch.games["beasts"])
    match = beasts.create(service_token, mode="advanced", seats=2, bots=(1,), bot_level="greedy")
    rng = random.Random(8)
    try:
        register(page, "ChartlessWatcher")
        page.goto(f"/#/watch/beasts/{match.match_id}")
        none = page.get_by_test_id("live-chart-none")
        expect(page.get_by_test_id("live-chart-waiting")).to_be_visible(timeout=15_000)
        deadline = time.monotonic() + 120
        while not none.is_visible():  # each move may bring an estimate (at most one every 2 s)
            assert time.monotonic() < deadline, "the page never said the match tells too little"
            play_one(beasts, match.match_id, match.tokens[0], rng)
            try:
                none.wait_for(timeout=8_000)
            except PlaywrightTimeout:
                continue
        expect(none).to_contain_text("reveals too little")
        expect(page.get_by_test_id("live-chart")).to_have_count(0)
    finally:
        beasts.close()


def test_closing_a_queued_page_cancels_its_ticket(
    browser: Browser, gateway: RunningGateway, minimatch: RunningMinimatch
) -> None:
    context = browser.new_context(base_url=gateway.url)
    page = context.new_page()
    register(page, "Leaver")
    card = page.get_by_test_id("game-zoo")
    card.get_by_test_id("seats").fill("4")
    card.locator("input[type=number]").nth(1).fill("600")  # nobody comes and no bot fills in for ten minutes
    card.get_by_test_id("queue").click()
    expect(page).to_have_url(re.compile(r"#/queue/"))
    expect(page.get_by_test_id("queue-page")).to_contain_text("waiting")
    ticket_id = page.url.rsplit("/", 1)[1]
    player_token = page.evaluate("JSON.parse(localStorage.getItem('menagerie.player')).token")
    page.close(run_before_unload=True)  # pagehide: CancelTicket with fetch keepalive
    context.close()
    with grpc.insecure_channel(minimatch.lobby) as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        metadata = (("authorization", f"Bearer {player_token}"),)
        deadline = time.monotonic() + 15
        while True:
            stream = lobby.WatchTicket(lobby_pb2.WatchTicketRequest(ticket_id=ticket_id), metadata=metadata, timeout=5)
            status = next(iter(stream)).ticket.status
            stream.cancel()
            if status == lobby_pb2.TICKET_STATUS_CANCELLED:
                break
            assert time.monotonic() < deadline, f"the ticket is still {lobby_pb2.TicketStatus.Name(status)}"
            time.sleep(0.2)
