"""The Fantasy Zoo service against a real Redis: simultaneous picks, hidden hands, bad input."""

from __future__ import annotations

import random

import grpc
import pytest
import redis

from menagerie.shared.tokens import TokenSigner
from menagerie.zoo.engine import Action, ZooEngine, ZooState
from menagerie.zoo.v1 import zoo_pb2
from tests.support.fixtures import GameClients
from tests.support.game_client import GameClient, Match, bearer
from tests.support.stored_match import replayed_and_stored_state

pytestmark = pytest.mark.integration


@pytest.fixture
def zoo(game_client: GameClients) -> GameClient:
    return game_client("zoo")


def pick_all_at_once(zoo: GameClient, match: Match) -> list[str]:
    """Every seat submits a pick at the same moment; returns each call's outcome."""
    requests = []
    for token in match.tokens.values():
        legal = zoo.legal(match.match_id, token)
        requests.append((token, zoo.submit_request(match.match_id, legal.actions[0], legal.view_version)))
    futures = [zoo.stub.SubmitAction.future(request, metadata=bearer(token)) for token, request in requests]
    outcomes = []
    for future in futures:
        try:
            future.result()
            outcomes.append("ok")
        except grpc.RpcError as error:
            outcomes.append(error.code().name)
    return outcomes


def test_four_seats_picking_at_the_same_moment_all_land(zoo: GameClient, service_token: str) -> None:
    match = zoo.create(service_token, mode="advanced", seats=4)
    for expected_pick in (1, 2, 3):
        view = zoo.view(match.match_id, match.tokens[0]).view
        assert (view.prompt.kind, view.pick) == ("drafting", expected_pick)
        assert pick_all_at_once(zoo, match) == ["ok"] * 4
    view = zoo.view(match.match_id, match.tokens[0]).view
    assert view.prompt.kind == "construction"
    assert [z.picked for z in view.zoos] == [4, 4, 4, 4]


def test_each_seat_sees_only_its_own_hand(zoo: GameClient, service_token: str, signer: TokenSigner) -> None:
    match = zoo.create(service_token, mode="beginner", seats=3, seed=4)
    hands = {seat: {c.id for c in zoo.view(match.match_id, t).view.hand} for seat, t in match.tokens.items()}
    assert all(len(h) == 4 for h in hands.values()) and not (hands[0] & hands[1])
    for seat, token in match.tokens.items():
        view = zoo.view(match.match_id, token).view
        seen = {c.id for c in view.hand} | {c.id for c in view.picks}
        assert seen == hands[seat]
        for response in zoo.stub.Watch(
            zoo_pb2.WatchRequest(match_id=match.match_id), metadata=bearer(token), timeout=10
        ):
            for event in response.events:
                if event.WhichOneof("kind") == "cards_dealt":
                    dealt = {c.id for c in event.cards_dealt.cards}
                    assert dealt == (hands[seat] if event.cards_dealt.seat == seat else set())
            if response.HasField("view"):
                break
    spectator, _ = signer.issue_player("fan", "Fan", 600)
    view = zoo.view(match.match_id, spectator).view
    assert not view.hand and not view.picks and [z.hand_size for z in view.zoos] == [4, 4, 4]


def test_illegal_picks_name_the_rule_and_change_nothing(zoo: GameClient, service_token: str) -> None:
    match = zoo.create(service_token, mode="advanced", seats=2, seed=8)
    mine = zoo.legal(match.match_id, match.tokens[0])
    theirs = zoo.view(match.match_id, match.tokens[1]).view.hand[0].id
    before = zoo.summary(match.match_id, service_token).version
    with pytest.raises(grpc.RpcError) as refused:
        zoo.submit(match.match_id, match.tokens[0], zoo_pb2.Action(pick=zoo_pb2.Pick(card=theirs)), mine.view_version)
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert refused.value.details() == f"Drafting: card {theirs} is not in the hand in front of you"
    reply = zoo.submit(match.match_id, match.tokens[0], mine.actions[0], mine.view_version)
    with pytest.raises(grpc.RpcError) as twice:
        zoo.submit(match.match_id, match.tokens[0], mine.actions[1], reply.view_version)
    assert "you have picked this pass already" in (twice.value.details() or "")
    with pytest.raises(grpc.RpcError) as stale:
        zoo.submit(match.match_id, match.tokens[0], mine.actions[1], mine.view_version)
    assert stale.value.code() == grpc.StatusCode.ABORTED
    with pytest.raises(grpc.RpcError) as malformed:
        zoo.submit(match.match_id, match.tokens[0], zoo_pb2.Action(build=zoo_pb2.Build(card=3)), reply.view_version)
    assert malformed.value.code() == grpc.StatusCode.INVALID_ARGUMENT  # no end given
    assert zoo.summary(match.match_id, service_token).version == before + 1


def test_a_whole_advanced_match_through_the_service_replays_from_its_actions(
    zoo: GameClient, service_token: str, redis_url: str
) -> None:
    match = zoo.create(service_token, mode="advanced", seats=4)
    summary = zoo.play_to_end(match, random.Random(2))
    assert len(summary.outcome.seats) == 4 and summary.outcome.reason
    client = redis.Redis.from_url(redis_url)
    replayed, stored = replayed_and_stored_state(client, match.match_id, ZooEngine(), Action, ZooState)
    assert replayed == stored
    client.close()
