"""Errors carry google.rpc.Status details, and reflection answers in v1 and v1alpha (real Redis, real processes).

A client reads the details with grpcio-status (`rpc_status.from_call`), as docs/clients.md shows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TypeVar

import grpc
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.rpc import error_details_pb2, status_pb2
from grpc_reflection.v1alpha import reflection_pb2 as v1alpha_pb2
from grpc_status import rpc_status  # type: ignore[import-untyped]

from menagerie.beasts.v1 import beasts_pb2
from menagerie.cli.errors import explain
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from menagerie.shared.games.binding import binding
from menagerie.shared.keys import parse_signing_key
from menagerie.shared.rpc.details import read_details
from menagerie.shared.rpc.reflection import V1_FILE, V1_SERVICE, V1ALPHA_SERVICE, v1_file
from tests.support.game_client import GameClient, Match, bearer
from tests.support.keys import KEYS
from tests.support.services import ServiceProcess, service_process

pytestmark = pytest.mark.integration

ROLL = beasts_pb2.Action(roll=beasts_pb2.Roll())
MATCHES = "menagerie.common.v1.Matches"
D = TypeVar("D", error_details_pb2.ErrorInfo, error_details_pb2.BadRequest, error_details_pb2.PreconditionFailure)


@pytest.fixture
def match(beasts: GameClient, service_token: str) -> Match:
    return beasts.create(service_token, mode="training", seats=3, seed=5)


def refused(call: Callable[[], object]) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value


def rich_status(error: grpc.RpcError) -> status_pb2.Status:
    """The google.rpc.Status of a failed call, checked against its code and message by grpcio-status."""
    status = rpc_status.from_call(error)
    assert isinstance(status, status_pb2.Status), error
    return status


def first_of(status: status_pb2.Status, kind: type[D]) -> D:
    for packed in status.details:
        detail = kind()
        if packed.Unpack(detail):  # False when the detail is of another type
            return detail
    raise AssertionError(f"no {kind.DESCRIPTOR.full_name} in {status}")


def seat_to_act(beasts: GameClient, match: Match) -> int:
    return beasts.summary(match.match_id, match.tokens[0]).to_act[0]


def test_a_refused_move_names_its_rule(beasts: GameClient, match: Match) -> None:
    seat = seat_to_act(beasts, match)
    token = match.tokens[seat]
    version = beasts.legal(match.match_id, token).view_version
    move = beasts_pb2.Action(move=beasts_pb2.Move(to=1))
    error = refused(lambda: beasts.submit(match.match_id, token, move, version))
    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert error.details() == "Movement: roll the die before you move"  # the message is unchanged
    status = rich_status(error)
    info = first_of(status, error_details_pb2.ErrorInfo)
    assert (info.reason, info.domain) == ("MOVEMENT", "menagerie.beasts")
    assert info.metadata["rule"] == "Movement"
    assert info.metadata["detail"] == "roll the die before you move"
    assert info.metadata["match_id"] == match.match_id
    precondition = first_of(status, error_details_pb2.PreconditionFailure)
    assert [(v.type, v.subject) for v in precondition.violations] == [("RULE", "Movement")]

    # The terminal client shows the rule beside what it says.
    assert explain(error) == "That is not allowed now — roll the die before you move (rule: Movement)."

    other = (seat + 1) % 3
    other_version = beasts.legal(match.match_id, match.tokens[other]).view_version
    error = refused(lambda: beasts.submit(match.match_id, match.tokens[other], ROLL, other_version))
    read = read_details(error)
    assert (read.reason, read.rule, read.domain) == ("TURN_ORDER", "Turn order", "menagerie.beasts")


def test_a_malformed_request_names_the_field(beasts: GameClient, match: Match) -> None:
    seat = seat_to_act(beasts, match)
    token = match.tokens[seat]
    version = beasts.legal(match.match_id, token).view_version
    no_colour = beasts_pb2.Action(expelliarmus=beasts_pb2.Expelliarmus(target_seat=1))
    cases: list[tuple[Callable[[], object], list[str]]] = [
        (lambda: beasts.submit(match.match_id, token, beasts_pb2.Action(), version), ["action"]),
        (lambda: beasts.submit(match.match_id, token, no_colour, version), ["action.expelliarmus.colour"]),
        (lambda: beasts.submit(match.match_id, token, ROLL, version, key=""), ["idempotency_key"]),
        (lambda: beasts.view("", token), ["match_id"]),
    ]
    for call, fields in cases:
        error = refused(call)
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        status = rich_status(error)
        assert first_of(status, error_details_pb2.ErrorInfo).reason == "INVALID_ARGUMENT"
        bad = first_of(status, error_details_pb2.BadRequest)
        assert [v.field for v in bad.field_violations] == fields, error.details()
        assert all(v.description == error.details() for v in bad.field_violations)


def test_undecodable_bytes_stale_views_and_missing_tokens_have_their_reasons(beasts: GameClient, match: Match) -> None:
    seat = seat_to_act(beasts, match)
    token = match.tokens[seat]
    submit = beasts.channel.unary_unary(
        "/menagerie.beasts.v1.Beasts/SubmitAction", request_serializer=lambda b: b, response_deserializer=lambda b: b
    )
    error = refused(lambda: submit(b"\xff\xff\xff\xff", metadata=bearer(token)))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert read_details(error).reason == "UNDECODABLE_REQUEST"

    version = beasts.legal(match.match_id, token).view_version
    error = refused(lambda: beasts.submit(match.match_id, token, ROLL, version + 5))
    assert error.code() == grpc.StatusCode.ABORTED
    read = read_details(error)
    assert read.reason == "VERSION_CONFLICT"
    assert read.metadata["expected_version"] == str(version + 5)
    assert [kind for kind, _, _ in read.preconditions] == ["VERSION"]

    request = beasts.pb2.GetViewRequest(match_id=match.match_id)
    error = refused(lambda: beasts.stub.GetView(request))
    assert (error.code(), read_details(error).reason) == (grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MISSING")
    error = refused(lambda: beasts.stub.GetView(request, metadata=(("authorization", "Basic x"),)))
    assert (error.code(), read_details(error).reason) == (grpc.StatusCode.UNAUTHENTICATED, "AUTHORIZATION_MALFORMED")
    expired, _ = KEYS.signer().issue_seat(match.match_id, 0, "p0", "P", -5)
    error = refused(lambda: beasts.stub.GetView(request, metadata=bearer(expired)))
    assert (error.details(), read_details(error).reason) == ("the token has expired", "TOKEN_EXPIRED")
    # A key of its own under a trusted key's name: the signature does not verify.
    trusted_kid = parse_signing_key(KEYS.signing_file("tests").read_text()).kid
    claims = {"iss": "menagerie", "iat": 0, "exp": 2**40, "sub": "p0", "typ": "seat", "mid": match.match_id, "seat": 0}
    forged = jwt.encode(claims, Ed25519PrivateKey.generate(), algorithm="EdDSA", headers={"kid": trusted_kid})
    error = refused(lambda: beasts.stub.GetView(request, metadata=bearer(forged)))
    assert (error.details(), read_details(error).reason) == ("the token's signature is not valid", "TOKEN_INVALID")
    # A token of the old shared HS256 secret names no trusted key.
    old = jwt.encode(claims, "x" * 48, algorithm="HS256")
    error = refused(lambda: beasts.stub.GetView(request, metadata=bearer(old)))
    assert read_details(error).reason == "TOKEN_INVALID" and "does not trust" in (error.details() or "")


@pytest.fixture
def lobby(redis_url: str, game_services: Mapping[str, ServiceProcess]) -> Iterator[ServiceProcess]:
    """A lobby of its own, in front of the Beasts service only."""
    endpoints = f"beasts={game_services['beasts'].address}"
    with service_process("menagerie.lobby", redis_url, KEYS, MENAGERIE_GAME_ENDPOINTS=endpoints) as service:
        yield service


def test_the_lobby_names_its_domain_and_fields(lobby: ServiceProcess) -> None:
    with grpc.insecure_channel(lobby.address) as channel:
        stub = lobby_pb2_grpc.LobbyStub(channel)
        error = refused(lambda: stub.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name=""), timeout=10))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    read = read_details(error)
    assert (read.reason, read.domain) == ("INVALID_ARGUMENT", "menagerie.lobby")
    assert [field for field, _ in read.field_violations] == ["display_name"]


def reflect(channel: grpc.Channel, service: str, requests: list[v1alpha_pb2.ServerReflectionRequest]) -> list[object]:
    """Asks reflection `service` (v1 or v1alpha) on `channel`, with its own version's message types."""
    if service == V1_SERVICE:
        file = v1_file(descriptor_pool.DescriptorPool())  # a pool of the test's own: v1 types from scratch
        request_type = message_factory.GetMessageClass(file.message_types_by_name["ServerReflectionRequest"])
        response_type = message_factory.GetMessageClass(file.message_types_by_name["ServerReflectionResponse"])
    else:
        request_type, response_type = v1alpha_pb2.ServerReflectionRequest, v1alpha_pb2.ServerReflectionResponse
    call = channel.stream_stream(
        f"/{service}/ServerReflectionInfo",
        request_serializer=request_type.SerializeToString,
        response_deserializer=response_type.FromString,
    )
    asked = [request_type.FromString(r.SerializeToString()) for r in requests]
    return list(call(iter(asked), timeout=10))


@pytest.mark.parametrize("version", [V1_SERVICE, V1ALPHA_SERVICE])
def test_reflection_answers_in_v1_and_v1alpha(game_services: Mapping[str, ServiceProcess], version: str) -> None:
    game = "beasts"
    service_name = binding(game).service_name
    with grpc.insecure_channel(game_services[game].address) as channel:
        listed, described, itself = reflect(
            channel,
            version,
            [
                v1alpha_pb2.ServerReflectionRequest(list_services=""),
                v1alpha_pb2.ServerReflectionRequest(file_containing_symbol=service_name),
                v1alpha_pb2.ServerReflectionRequest(file_containing_symbol=V1_SERVICE),
            ],
        )
    names = {s.name for s in listed.list_services_response.service}  # type: ignore[attr-defined]
    assert {service_name, MATCHES, "grpc.health.v1.Health", V1_SERVICE, V1ALPHA_SERVICE} <= names
    files = [
        descriptor_pb2.FileDescriptorProto.FromString(raw)
        for raw in described.file_descriptor_response.file_descriptor_proto  # type: ignore[attr-defined]
    ]
    assert any(service_name.rsplit(".", 1)[1] in [s.name for s in f.service] for f in files)
    [v1] = [
        descriptor_pb2.FileDescriptorProto.FromString(raw)
        for raw in itself.file_descriptor_response.file_descriptor_proto  # type: ignore[attr-defined]
    ]
    assert (v1.name, v1.package, [s.name for s in v1.service]) == (V1_FILE, "grpc.reflection.v1", ["ServerReflection"])
    assert v1.service[0].method[0].input_type == ".grpc.reflection.v1.ServerReflectionRequest"
