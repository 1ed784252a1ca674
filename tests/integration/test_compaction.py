"""A finished match is compacted (MatchStore.compact) and every read still finds all of it.

Its event stream and recorded answers become one compressed record in the state hash;
Watch from version 0, a retried last move, GetMatch, ListMatches and a replay of the
stored actions must read the same match as before.
"""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
import redis

from menagerie.common.v1 import common_pb2, matches_pb2
from menagerie.shared.games.binding import binding
from menagerie.shared.store.keys import match_keys
from tests.support.fixtures import GameClients
from tests.support.game_client import GameClient, bearer
from tests.support.stored_match import SHARDS, replayed_and_stored_state

pytestmark = pytest.mark.integration


def watched(client: GameClient, match_id: str, token: str) -> list[tuple[int, list[str], bool]]:
    """Every Watch response from version 0 to the end: (version, its events' text and version, has a view)."""
    out = []
    request = client.pb2.WatchRequest(match_id=match_id, from_version=0)
    for response in client.stub.Watch(request, metadata=bearer(token), timeout=60):
        texts = [f"{e.header.version}:{e.header.text}" for e in response.events]
        out.append((response.version, texts, response.HasField("view")))
    return out


# The platform's own test game, and the one whose events weigh most (compaction is generic).
@pytest.mark.parametrize("game", ["beasts", "zoo"])
def test_a_finished_match_is_compacted_and_reads_the_same(
    game: str, game_client: GameClients, service_token: str, redis_url: str
) -> None:
    client = game_client(game)
    bound = binding(game)
    mode = bound.info.modes[0]
    match = client.create(service_token, mode=mode.mode, seats=max(2, mode.min_seats), seed=5)
    token = match.tokens[0]
    rng = random.Random(3)
    live: list[tuple[int, list[str], bool]] = []
    watcher: threading.Thread | None = None
    last: tuple[str, Any, Any] | None = None
    while summary := client.summary(match.match_id, token):
        if not summary.to_act:
            break
        if watcher is None and summary.version >= 5:
            # A live watcher from version 0, parked while the match ends and is compacted.
            watcher = threading.Thread(target=lambda: live.extend(watched(client, match.match_id, token)))
            watcher.start()
        seat_token = match.tokens[summary.to_act[0]]
        legal = client.legal(match.match_id, seat_token)
        request = client.submit_request(match.match_id, rng.choice(legal.actions), legal.view_version)
        last = (seat_token, request, client.stub.SubmitAction(request, metadata=bearer(seat_token)))
    assert watcher is not None and last is not None
    watcher.join(60)
    assert summary.status == common_pb2.MATCH_STATUS_FINISHED

    keys = match_keys(match.match_id, SHARDS)
    store = redis.Redis.from_url(redis_url)
    try:
        assert store.hexists(keys.state, "archive"), "the finished match was not compacted"
        assert store.xlen(keys.events) == 1 and not store.exists(keys.idempotency)
        assert store.ttl(keys.state) > 0 and store.ttl(keys.events) > 0  # it still expires
        replayed, stored = replayed_and_stored_state(
            store, match.match_id, bound.engine, bound.engine.action_type, bound.engine.state_type
        )
        assert replayed == stored
    finally:
        store.close()

    # Watch from 0 replays the whole match as the live watcher saw it (it met the entries in batches).
    replay = watched(client, match.match_id, token)
    assert [v for v, _, _ in replay] == list(range(1, summary.version + 1))
    assert [t for _, texts, _ in replay for t in texts] == [t for _, texts, _ in live for t in texts]
    assert replay[-1][2] and live[-1][2], "the last response carries the final view"
    # The last move retried with its key: its first answer, from the archive.
    seat_token, request, answer = last
    assert client.stub.SubmitAction(request, metadata=bearer(seat_token)) == answer
    # The answer's events are Watch's for that seat, without their text.
    seat = next(s for s, t in match.tokens.items() if t == seat_token)
    final = list(
        client.stub.Watch(
            client.pb2.WatchRequest(match_id=match.match_id, from_version=answer.version - 1),
            metadata=bearer(match.tokens[seat]),
            timeout=60,
        )
    )[-1]
    for event in final.events:
        event.header.text = ""
    assert list(final.events) == list(answer.events) and answer.events
    # Listed and described as before.
    listed = client.matches.ListMatches(
        matches_pb2.ListMatchesRequest(status=common_pb2.MATCH_STATUS_FINISHED, page_size=100),
        metadata=bearer(service_token),
    )
    assert match.match_id in [m.match_id for m in listed.matches]
    assert client.summary(match.match_id, token).outcome == summary.outcome
