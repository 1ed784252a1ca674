"""Budgets per client behind the gateway (issue 29, item 3): one client's flood leaves the others theirs.

A lobby of its own with a low call rate (RATE per second, bursts of RATE) and a small budget of
new guests per address, behind a gateway that holds the platform's token key (so it relays
each client's address with its service credential) and trusts 127.0.0.1 as a proxy: a request
from 127.0.0.1 names its client in X-Forwarded-For, one from 127.0.0.2 (another loopback source
address) is its own client whatever the header says. No game runs: ListGames and RegisterPlayer
need none.
"""

from __future__ import annotations

import http.client
import json
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.e2e.web.fixtures import RunningGateway, gateway_process
from tests.support.keys import KEYS
from tests.support.services import service_process

pytestmark = pytest.mark.e2e

LIST_GAMES = "/menagerie.lobby.v1.Lobby/ListGames"
REGISTER = "/menagerie.lobby.v1.Lobby/RegisterPlayer"
RATE = 20  # calls per second per client at the lobby, and its bursts
GUESTS_PER_MINUTE, GUEST_BURST = 1, 3
# No game service listens there: the lobby lists the game as unavailable.
GAMES = {"beasts": "127.0.0.1:1"}
OTHERS, CALLS_EACH, FLOODERS = 19, 20, 4
UNTRUSTED_SOURCE = "127.0.0.2"


@pytest.fixture(scope="module")
def budgeted(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningGateway]:
    """A gateway relaying client addresses to a lobby with small budgets."""
    with (
        service_process(
            "menagerie.lobby",
            redis_url,
            KEYS,
            MENAGERIE_GAME_ENDPOINTS=",".join(f"{game}={address}" for game, address in GAMES.items()),
            MENAGERIE_RATE_LIMIT_PER_SECOND=str(RATE),
            MENAGERIE_RATE_LIMIT_BURST=str(RATE),
            MENAGERIE_GUESTS_PER_MINUTE=str(GUESTS_PER_MINUTE),
            MENAGERIE_GUEST_BURST=str(GUEST_BURST),
        ) as lobby,
        gateway_process(
            lobby.address,
            GAMES,
            Path(tmp_path_factory.mktemp("no-app")),
            **KEYS.env("menagerie.gateway"),
            MENAGERIE_TRUSTED_PROXIES="127.0.0.1",
        ) as gateway,
    ):
        yield gateway


class Browser:
    """One keep-alive connection to the gateway, from a chosen loopback source address."""

    def __init__(self, gateway: RunningGateway, source: str = "127.0.0.1") -> None:
        url = urlsplit(gateway.url)
        assert url.hostname is not None and url.port is not None
        self.connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30, source_address=(source, 0))

    def call(self, path: str, body: dict[str, object], forwarded_for: str = "") -> tuple[int, dict[str, object]]:
        """A Connect unary call in JSON: the HTTP status and the decoded answer."""
        headers = {"Content-Type": "application/json"}
        if forwarded_for:
            headers["X-Forwarded-For"] = forwarded_for
        self.connection.request("POST", path, json.dumps(body).encode(), headers)
        reply = self.connection.getresponse()
        return reply.status, json.loads(reply.read() or b"{}")

    def close(self) -> None:
        self.connection.close()


def test_one_client_flooding_anonymous_calls_leaves_the_others_their_budget(budgeted: RunningGateway) -> None:
    stop = threading.Event()
    flooded: Counter[int] = Counter()
    others: Counter[int] = Counter()
    lock = threading.Lock()

    def flood() -> None:
        browser = Browser(budgeted)
        try:
            while not stop.is_set():
                status, _ = browser.call(LIST_GAMES, {}, "198.51.100.1")
                with lock:
                    flooded[status] += 1
        finally:
            browser.close()

    def visit(client: str) -> None:
        browser = Browser(budgeted)
        try:
            for _ in range(CALLS_EACH):
                status, _ = browser.call(LIST_GAMES, {}, client)
                with lock:
                    others[status] += 1
        finally:
            browser.close()

    flooders = [threading.Thread(target=flood) for _ in range(FLOODERS)]
    for thread in flooders:
        thread.start()
    # The flood is under way (refused already) before the others come.
    while flooded[429] == 0 and all(thread.is_alive() for thread in flooders):
        stop.wait(0.01)
    visitors = [threading.Thread(target=visit, args=(f"198.51.100.{10 + i}",)) for i in range(OTHERS)]
    for thread in visitors:
        thread.start()
    for thread in visitors:
        thread.join(120)
    stop.set()
    for thread in flooders:
        thread.join(30)
    total = sum(others.values())
    rate = others[200] / total
    print(
        f"\nflooding client: {sum(flooded.values())} calls, {flooded[429]} refused (429);"
        f" {OTHERS} other clients: {others[200]}/{total} served ({rate:.1%}), statuses {dict(others)}"
    )
    assert flooded[429] > 0, "the flooding client was held to its rate"
    assert total == OTHERS * CALLS_EACH
    assert rate >= 0.99


def guest(browser: Browser, forwarded_for: str = "") -> tuple[int, dict[str, object]]:
    return browser.call(REGISTER, {"displayName": "Guest"}, forwarded_for)


def test_new_guests_have_a_budget_per_address_and_forwarded_for_counts_only_from_a_trusted_proxy(
    budgeted: RunningGateway,
) -> None:
    # From an untrusted peer the header is ignored: every call is 127.0.0.2's, whatever it claims.
    untrusted = Browser(budgeted, UNTRUSTED_SOURCE)
    try:
        for i in range(GUEST_BURST):
            status, reply = guest(untrusted, f"203.0.113.{i}")
            assert status == 200 and reply["token"]
        status, refusal = guest(untrusted, "203.0.113.99")
    finally:
        untrusted.close()
    assert status == 429 and refusal["code"] == "resource_exhausted"
    message = str(refusal["message"])
    print(f"\nthe refusal: {message}")
    assert message.startswith(
        f"too many new guests: at most {GUESTS_PER_MINUTE} per minute (bursts of {GUEST_BURST}) per address; retry in "
    )
    assert message.endswith(" s")
    # From the trusted proxy (127.0.0.1) the header names the client: each has a budget of its own.
    proxy = Browser(budgeted)
    try:
        for _ in range(GUEST_BURST):
            assert guest(proxy, "198.51.100.200")[0] == 200
        assert guest(proxy, "198.51.100.200")[0] == 429
        assert guest(proxy, "192.0.2.1, 198.51.100.201")[0] == 200  # the client's own entry is not believed
        assert guest(proxy, "198.51.100.202")[0] == 200
        assert guest(proxy)[0] == 200  # no header: the proxy itself, a client like another
    finally:
        proxy.close()
