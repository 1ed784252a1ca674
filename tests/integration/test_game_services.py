"""Every installed game, served by `menagerie-game`: health, reflection and DescribeGame, found by convention."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from menagerie.common.v1 import matches_pb2, matches_pb2_grpc
from menagerie.generic.v1 import generic_pb2, generic_pb2_grpc
from menagerie.rules.text import name_mentions
from menagerie.shared.games.binding import binding
from menagerie.shared.tokens import TokenSigner
from tests.support.game_client import GameClient, bearer
from tests.support.services import ServiceProcess

pytestmark = pytest.mark.integration

MATCHES = "menagerie.common.v1.Matches"


def test_a_game_service_serves_its_own_service_and_matches(game_service: ServiceProcess) -> None:
    game = game_service.argv[0]
    bound = binding(game)
    with grpc.insecure_channel(game_service.address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        for service in ("", bound.service_name, MATCHES):
            reply = health.Check(health_pb2.HealthCheckRequest(service=service))  # type: ignore[attr-defined]
            assert reply.status == health_pb2.HealthCheckResponse.SERVING, service
        # typeshed types the reflection stub's methods as Incomplete.
        request = reflection_pb2.ServerReflectionRequest(list_services="")
        replies = reflection_pb2_grpc.ServerReflectionStub(channel).ServerReflectionInfo(iter([request]))  # type: ignore[operator]
        names = {s.name for reply in replies for s in reply.list_services_response.service}
        described = matches_pb2_grpc.MatchesStub(channel).DescribeGame(matches_pb2.DescribeGameRequest())
    assert {bound.service_name, MATCHES} <= names
    assert described.game == game
    assert [m.mode for m in described.modes] == [m.mode for m in bound.info.modes]


def test_a_seat_token_for_a_seat_the_match_lacks_is_permission_denied_everywhere(
    game_service: ServiceProcess, signer: TokenSigner, service_token: str
) -> None:
    """A validly signed token for seat 7 of a 2-seat match gets PERMISSION_DENIED from every verb, never INTERNAL."""
    game = game_service.argv[0]
    client = GameClient(game, game_service.address)
    try:
        mode = binding(game).info.modes[0]
        match = client.create(service_token, mode=mode.mode, seats=max(2, mode.min_seats))
        token, _ = signer.issue_seat(match.match_id, 7, "intruder", "Intruder", 60)
        pb2 = client.pb2
        calls: dict[str, Callable[[], object]] = {
            "GetView": lambda: client.view(match.match_id, token),
            "ListLegalActions": lambda: client.legal(match.match_id, token),
            "SubmitAction": lambda: client.submit(match.match_id, token, pb2.Action(), 1),
            "Watch": lambda: next(
                iter(client.stub.Watch(pb2.WatchRequest(match_id=match.match_id), metadata=bearer(token), timeout=10))
            ),
        }
        for verb, call in calls.items():
            with pytest.raises(grpc.RpcError) as refused:
                call()
            assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED, (verb, refused.value.details())
            assert "has no seat 7" in (refused.value.details() or ""), verb
    finally:
        client.close()


def test_the_engines_words_reach_clients(game_service: ServiceProcess, service_token: str) -> None:
    """Labels and codes with the legal actions, a sentence per event on Watch, the prompt's sentence in views."""
    game = game_service.argv[0]
    client = GameClient(game, game_service.address)
    try:
        mode = binding(game).info.modes[0]
        match = client.create(service_token, mode=mode.mode, seats=max(2, mode.min_seats), seed=3)
        seat = match.summary.to_act[0]
        token = match.tokens[seat]
        first = next(iter(client.stub.Watch(client.pb2.WatchRequest(match_id=match.match_id), metadata=bearer(token))))
        assert any(event.header.text for event in first.events), "setup events read as sentences"
        assert first.view.prompt.kind and first.view.prompt.text
        assert seat in {*first.view.prompt.must, *first.view.prompt.may}
        legal = client.legal(match.match_id, token)
        assert len(legal.labels) == len(legal.actions) > 0
        assert all(label.text and label.code for label in legal.labels)
        assert len({label.code for label in legal.labels}) == len(legal.labels)
        answer = client.submit(match.match_id, token, legal.actions[0], legal.view_version)
        assert all(not event.header.text for event in answer.events), "SubmitAction answers stay lean"
    finally:
        client.close()


def test_every_game_is_also_served_in_the_generic_envelope(game_service: ServiceProcess, service_token: str) -> None:
    """menagerie.generic.v1.Game: the view's fields as JSON, actions as JSON sent back as listed, events by tag."""
    game = game_service.argv[0]
    client = GameClient(game, game_service.address)
    try:
        mode = binding(game).info.modes[0]
        match = client.create(service_token, mode=mode.mode, seats=max(2, mode.min_seats), seed=5)
        seat = match.summary.to_act[0]
        auth = bearer(match.tokens[seat])
        with grpc.insecure_channel(game_service.address) as channel:
            stub = generic_pb2_grpc.GameStub(channel)
            reply = stub.GetView(generic_pb2.GetViewRequest(match_id=match.match_id), metadata=auth, timeout=10)
            assert reply.view.viewer == seat
            assert reply.view.prompt.text and seat in {*reply.view.prompt.must, *reply.view.prompt.may}
            assert isinstance(json.loads(reply.view.fields_json), dict)
            legal = stub.ListLegalActions(
                generic_pb2.ListLegalActionsRequest(match_id=match.match_id), metadata=auth, timeout=10
            )
            assert len(legal.labels) == len(legal.actions) > 0
            assert all(json.loads(action.json)["kind"] for action in legal.actions)
            request = generic_pb2.SubmitActionRequest(
                match_id=match.match_id,
                expected_version=legal.view_version,
                idempotency_key="generic-1",
                action=legal.actions[0],
            )
            answer = stub.SubmitAction(request, metadata=auth, timeout=10)
            assert answer.version == 2
            again = stub.SubmitAction(request, metadata=auth, timeout=10)  # the recorded answer, read back
            assert again == answer
            assert all(event.kind and isinstance(json.loads(event.fields_json), dict) for event in answer.events)
            first = next(iter(stub.Watch(generic_pb2.WatchRequest(match_id=match.match_id), metadata=auth, timeout=10)))
            assert any(event.header.text for event in first.events)
    finally:
        client.close()


def test_a_finished_matchs_reason_names_its_seats_everywhere(game_service: ServiceProcess, service_token: str) -> None:
    """The outcome's reason, which the engine writes with "Seat 2" for every reader, reaches clients with the seats'
    display names, the same in the summary (GetMatch), the seat's view (GetView) and the replay's last view."""
    game = game_service.argv[0]
    client = GameClient(game, game_service.address)
    try:
        mode = binding(game).info.modes[0]
        match = client.create(service_token, mode=mode.mode, seats=max(2, mode.min_seats), seed=7)
        summary = client.play_to_end(match, random.Random(7))
        token = match.tokens[0]
        *_, (_, _, state) = client.replayed(match.match_id, token)  # every step replayed: the last state
        outcome = binding(game).engine.outcome(state)
        assert outcome is not None
        named = name_mentions(outcome.reason, {s.seat: s.display_name for s in summary.seats})
        last = client.replay(match.match_id, token, seat=0)[-1].steps[-1]
        view = client.pb2.View()
        assert last.view.Unpack(view)
        assert summary.outcome.reason == client.view(match.match_id, token).view.outcome.reason == named
        assert view.outcome.reason == named and not re.search(r"\bSeat \d", named), named
    finally:
        client.close()
