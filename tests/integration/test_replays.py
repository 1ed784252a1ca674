"""Replays and their win estimates (issue 30, item 11): a real game service, dispatcher and Celery worker on Redis."""

from __future__ import annotations

import random
from typing import Any

import grpc
import pytest
import redis

from menagerie.common.v1 import common_pb2, matches_pb2
from menagerie.shared.store.keys import match_keys
from tests.support.fixtures import GameClients
from tests.support.game_client import GameClient, bearer
from tests.support.probes import wait_for
from tests.support.stored_match import SHARDS

pytestmark = pytest.mark.integration


def steps_of(pages: list[Any]) -> list[Any]:
    return [step for page in pages for step in page.steps]


def view_of(client: GameClient, step: Any) -> Any:
    """The step's view as the game's own View message."""
    view = client.pb2.View()
    assert step.view.Unpack(view), step.view.type_url
    return view


@pytest.mark.usefixtures("dispatcher", "bot_worker")
def test_a_finished_bot_match_replays_every_step_with_each_seats_estimate(
    game_client: GameClients, service_token: str, redis_url: str
) -> None:
    zoo = game_client("zoo")
    match = zoo.create(service_token, mode="beginner", seats=2, bots=(0, 1), bot_level="greedy", seed=30)
    summary = zoo.finished(match.match_id, service_token)

    # The estimates are computed after the match by the pool: a bounded wait for them.
    def estimated() -> bool:
        first = zoo.replay(match.match_id, service_token, page_size=1)[0]
        return bool(first.estimates == matches_pb2.WIN_ESTIMATES_READY)

    wait_for(estimated, 60, "the match's win estimates")
    pages = zoo.replay(match.match_id, service_token, page_size=30)
    steps = steps_of(pages)
    # One step per version, the setup first; the seed and every action once the match is over.
    assert [s.version for s in steps] == list(range(1, summary.version + 1))
    assert len(pages) == -(-summary.version // 30)
    assert pages[0].seed == 30 and pages[0].match.status == common_pb2.MATCH_STATUS_FINISHED
    assert not steps[0].HasField("seat") and all(s.HasField("seat") and s.HasField("action") for s in steps[1:])
    assert all(s.events for s in steps[1:])
    # The last step's view is the one GetView gives a spectator now (the same view function).
    assert view_of(zoo, steps[-1]) == zoo.view(match.match_id, service_token).view
    # Each seat's chance in [0, 1] at every step (zoo's evaluation reads every position); the last is the result.
    assert all(len(s.win_chances) == 2 and all(0.0 <= c <= 1.0 for c in s.win_chances) for s in steps)
    winners = {r.seat for r in summary.outcome.seats if r.result == common_pb2.RESULT_WIN}
    assert [seat for seat, chance in enumerate(steps[-1].win_chances) if chance == 1.0] == sorted(winners)
    assert len({tuple(s.win_chances) for s in steps}) > 2  # the chart moves
    # Kept beside the match, for as long as the match (to the millisecond: they expire together).
    client = redis.Redis.from_url(redis_url)
    keys = match_keys(match.match_id, SHARDS)
    with client.pipeline(transaction=True) as pipe:
        pipe.pttl(keys.estimates)
        pipe.pttl(keys.state)
        estimates_ttl, state_ttl = pipe.execute()
    client.close()
    assert state_ttl > 0 and abs(estimates_ttl - state_ttl) < 1000


def test_a_live_match_replays_only_what_a_spectator_saw(game_client: GameClients, service_token: str) -> None:
    zoo = game_client("zoo")
    match = zoo.create(service_token, mode="beginner", seats=2, seed=31)
    rng = random.Random(31)
    # What a spectator saw at each version, through GetView (the view function every answer uses).
    seen = {1: zoo.view(match.match_id, service_token).view}
    for _ in range(8):
        reply = zoo.play_step(match, rng.choice)
        seen[reply.version] = zoo.view(match.match_id, service_token).view
    pages = zoo.replay(match.match_id, service_token)
    steps = steps_of(pages)
    assert {s.version: view_of(zoo, s) for s in steps} == seen
    # During the match: no seed, no actions, no estimates, and no seat's views but the caller's own.
    assert not pages[0].HasField("seed") and pages[0].estimates == matches_pb2.WIN_ESTIMATES_PENDING
    assert not any(s.HasField("action") or s.win_chances for s in steps)
    for token in (service_token, match.tokens[1]):
        with pytest.raises(grpc.RpcError) as refused:
            zoo.replay(match.match_id, token, seat=0)
        assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    own = steps_of(zoo.replay(match.match_id, match.tokens[0], seat=0))
    assert view_of(zoo, own[-1]) == zoo.view(match.match_id, match.tokens[0]).view
    # The hand a seat drafts from is its own: in its replay, never in a spectator's.
    assert any(view_of(zoo, s).hand for s in own)
    assert not any(view_of(zoo, s).hand for s in steps)
    # Only a service may store estimates, and only for a finished match.
    record = matches_pb2.RecordWinEstimatesRequest(match_id=match.match_id)
    with pytest.raises(grpc.RpcError) as refused:
        zoo.matches.RecordWinEstimates(record, metadata=bearer(match.tokens[0]))
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(grpc.RpcError) as refused:
        zoo.matches.RecordWinEstimates(record, metadata=bearer(service_token))
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
