"""Every installed game, served by `menagerie-game`: health, reflection and DescribeGame, found by convention."""

from __future__ import annotations

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from menagerie.common.v1 import matches_pb2, matches_pb2_grpc
from menagerie.shared.games.binding import binding
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
