"""Traces (menagerie.shared.tracing): one bot move is one connected trace across the processes.

A game service, the dispatcher, a Celery worker and the gateway run as operators run them,
with traces turned on by the standard OTEL_* variables and exported by the SDK's OTLP
exporter to a small collector in the test (tests/support/otlp_collector.py). An all-bot
match is created; the first bot's move must then be one trace, each span the parent of the
next: CreateMatch (game service) → create.lua → turn notice (dispatcher) → the Celery task
(worker) → its SubmitAction call → SubmitAction (game service). The next bot's turn,
prompted by a bot's move, starts a trace of its own linked to that move's submit.lua span.
A browser's move through the gateway, answered by a bot, is one trace from the browser's
request: the gateway's request → its SubmitAction call → SubmitAction → submit.lua → turn
notice → the Celery task → its SubmitAction call → SubmitAction.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from menagerie.beasts.v1.beasts_connect import BeastsClientSync
from tests.e2e.web.fixtures import gateway_process
from tests.support.game_client import GameClient, Match
from tests.support.keys import KEYS
from tests.support.otlp_collector import Collector, ExportedSpan, otlp_collector
from tests.support.probes import wait_for
from tests.support.redis_server import database_of_its_own
from tests.support.services import bot_worker_process, dispatcher_process, game_process

pytestmark = pytest.mark.integration

GAME = "beasts"
WORKER = "bot-worker"
PLAY_TURN_SPAN = "run/menagerie.bots.play_turn"
# The first bot's move, from the match's creation: (process, span name or its method's suffix).
EXPECTED_CHAIN = [
    (GAME, "/CreateMatch"),
    (GAME, "create.lua"),
    ("dispatcher", "turn notice"),
    (WORKER, PLAY_TURN_SPAN),
    (WORKER, "/SubmitAction"),
    (GAME, "/SubmitAction"),
]
GATEWAY = "gateway"
# A browser's move that hands the turn to a bot, from the browser's request to the bot's move.
BROWSER_CHAIN = [
    (GATEWAY, "POST"),
    (GATEWAY, "/SubmitAction"),
    (GAME, "/SubmitAction"),
    (GAME, "submit.lua"),
    ("dispatcher", "turn notice"),
    (WORKER, PLAY_TURN_SPAN),
    (WORKER, "/SubmitAction"),
    (GAME, "/SubmitAction"),
]


def traces_on(collector: Collector) -> dict[str, str]:
    """The standard variables that turn traces on, exporting to `collector` at once (50 ms batches)."""
    return {
        "OTEL_EXPORTER_OTLP_ENDPOINT": f"http://{collector.address}",
        "OTEL_EXPORTER_OTLP_INSECURE": "true",
        "OTEL_BSP_SCHEDULE_DELAY": "50",
    }


def matches(span: ExportedSpan, service: str, name: str) -> bool:
    """`span` is `service`'s, named `name` (a method's "/Name" as a suffix, the gateway's "POST" as a prefix)."""
    if span.service != service:
        return False
    return span.name == name or (name.startswith("/") and span.name.endswith(name)) or span.name.startswith(f"{name} ")


def chain_to_root(spans: list[ExportedSpan], last: ExportedSpan) -> list[ExportedSpan]:
    """`last` and its ancestors, root first, as far as the parents were exported."""
    by_id = {span.span_id: span for span in spans}
    chain = [last]
    while chain[-1].parent_id in by_id:
        chain.append(by_id[chain[-1].parent_id])
    return chain[::-1]


def first_bot_move(spans: list[ExportedSpan]) -> list[ExportedSpan] | None:
    """The chain from CreateMatch down to the bot's SubmitAction served in CreateMatch's trace, once exported."""
    created = [s for s in spans if matches(s, GAME, "/CreateMatch") and not s.parent_id]
    if not created:
        return None
    trace = created[0].trace_id
    served = [s for s in spans if s.trace_id == trace and matches(s, GAME, "/SubmitAction") and s.parent_id]
    for span in served:
        chain = chain_to_root(spans, span)
        if chain[0] == created[0] and len(chain) == len(EXPECTED_CHAIN):
            return chain
    return None


def browser_move_answered(spans: list[ExportedSpan]) -> list[ExportedSpan] | None:
    """The chain from a browser's request at the gateway down to a bot's SubmitAction in its trace, once exported."""
    for root in (s for s in spans if s.service == GATEWAY and not s.parent_id):
        for span in spans:
            if span.trace_id == root.trace_id and matches(span, GAME, "/SubmitAction") and span.parent_id:
                chain = chain_to_root(spans, span)
                if chain[0] == root and len(chain) == len(BROWSER_CHAIN):
                    return chain
    return None


def play_through_gateway(client: GameClient, browser: BeastsClientSync, match: Match, collector: Collector) -> None:
    """Plays the human seat through the gateway until one of its moves is answered by a bot in the same trace."""
    rng = random.Random(1)

    def answered() -> bool:
        token = match.tokens[0]
        if browser_move_answered(collector.spans()) is not None:
            return True
        if 0 in client.summary(match.match_id, token).to_act:
            legal = client.legal(match.match_id, token)
            request = client.submit_request(match.match_id, rng.choice(legal.actions), legal.view_version)
            browser.submit_action(request, headers={"authorization": f"Bearer {token}"})
        return False

    wait_for(answered, 20, "a browser's move answered by a bot in its trace")


@pytest.fixture
def own_redis(redis_url: str) -> Iterator[str]:
    """A database of its own: no session dispatcher or worker takes this test's notices or tasks."""
    url = database_of_its_own(redis_url, 11)
    client = redis.Redis.from_url(url)
    client.flushdb()
    yield url
    client.flushdb()
    client.close()


def test_a_bot_move_is_one_connected_trace_across_the_processes(
    own_redis: str, service_token: str, tmp_path: Path
) -> None:
    with otlp_collector() as collector:
        env = traces_on(collector)
        with game_process(GAME, own_redis, KEYS, **env) as game:
            endpoints = f"{GAME}={game.address}"
            with (
                dispatcher_process(own_redis, KEYS, MENAGERIE_GAME_ENDPOINTS=endpoints, **env),
                bot_worker_process(
                    own_redis, KEYS, MENAGERIE_GAME_ENDPOINTS=endpoints, MENAGERIE_WORKER_CONCURRENCY="1", **env
                ),
                # No lobby answers there: the gateway is not ready for the lobby's calls, and needs none here.
                gateway_process("127.0.0.1:1", {GAME: game.address}, tmp_path, **env) as gateway,
                BeastsClientSync(gateway.url) as browser,
            ):
                client = GameClient(GAME, game.address)
                try:
                    client.create(service_token, mode="training", seats=2, bots=(0, 1), bot_level="random")
                    wait_for(lambda: first_bot_move(collector.spans()) is not None, 15, "the first bot move's trace")
                    chain = first_bot_move(collector.spans())
                    assert chain is not None
                    wait_for(lambda: linked_turns(collector.spans(), chain), 15, "a turn linked to the bot's move")
                    against_a_bot = client.create(service_token, mode="training", seats=2, bots=(1,))
                    play_through_gateway(client, browser, against_a_bot, collector)
                    from_browser = browser_move_answered(collector.spans())
                    assert from_browser is not None
                finally:
                    client.close()

    for found, expected in ((chain, EXPECTED_CHAIN), (from_browser, BROWSER_CHAIN)):
        assert all(matches(span, service, name) for span, (service, name) in zip(found, expected, strict=True))
        assert len({span.trace_id for span in found}) == 1
        print(f"one trace, {len(found)} spans in a chain: " + " → ".join(f"{s.service}:{s.name}" for s in found))


def linked_turns(spans: list[ExportedSpan], chain: list[ExportedSpan]) -> bool:
    """True once a turn notice that a bot's move prompted starts a new trace linked to that move's script span."""
    bot_move = chain[-1]
    scripts = {s.span_id for s in spans if s.parent_id == bot_move.span_id and s.name == "submit.lua"}
    return any(
        matches(s, "dispatcher", "turn notice") and not s.parent_id and scripts.intersection(s.links) for s in spans
    )
