"""Each kind of error maps to its status code and the details a client program reads (google.rpc.Status)."""

from __future__ import annotations

import grpc
import pytest
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2

from menagerie.beasts.v1 import beasts_pb2
from menagerie.common.v1 import matches_pb2
from menagerie.lobby.v1 import lobby_pb2
from menagerie.rules.errors import (
    Aborted,
    AlreadyExists,
    FailedPrecondition,
    IllegalAction,
    InvalidArgument,
    MenagerieError,
    NotFound,
    PermissionDenied,
    ResourceExhausted,
    Unauthenticated,
    Unavailable,
    rule_id,
)
from menagerie.shared.rpc.details import (
    DETAILS_KEY,
    error_status,
    field_paths,
    retry_info,
    status_of,
    trailers,
)
from menagerie.shared.rpc.quotas import Quotas, QuotaSettings, RateLimited

DOMAIN = "menagerie.beasts"
SUBMIT = beasts_pb2.SubmitActionRequest(match_id="m1", expected_version=7, idempotency_key="k")


def unpacked(status: status_pb2.Status) -> dict[str, Message]:
    """The status's details by type name (each type at most once here)."""
    kinds: dict[str, type[Message]] = {
        "google.rpc.ErrorInfo": error_details_pb2.ErrorInfo,
        "google.rpc.BadRequest": error_details_pb2.BadRequest,
        "google.rpc.PreconditionFailure": error_details_pb2.PreconditionFailure,
        "google.rpc.QuotaFailure": error_details_pb2.QuotaFailure,
        "google.rpc.RetryInfo": error_details_pb2.RetryInfo,
    }
    found: dict[str, Message] = {}
    for packed in status.details:
        detail = kinds[packed.TypeName()]()
        assert packed.Unpack(detail)
        assert packed.TypeName() not in found
        found[packed.TypeName()] = detail
    return found


def error_info(status: status_pb2.Status) -> error_details_pb2.ErrorInfo:
    info = unpacked(status)["google.rpc.ErrorInfo"]
    assert isinstance(info, error_details_pb2.ErrorInfo)
    return info


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("Turn order", "TURN_ORDER"),
        ("End of the game", "END_OF_THE_GAME"),
        ("Build Your Team", "BUILD_YOUR_TEAM"),
        ("Élan — vital", "ELAN_VITAL"),
        ("3.2 Movement", "RULE_3_2_MOVEMENT"),
        ("X", "RULE_X"),
        ("a" * 80, "A" * 63),
    ],
)
def test_a_rule_id_is_a_valid_error_info_reason(rule: str, expected: str) -> None:
    assert rule_id(rule) == expected


def test_a_refused_move_names_its_rule() -> None:
    error = IllegalAction("Turn order", "it is seat 1's turn, not seat 0's")
    status = status_of(error, DOMAIN, SUBMIT)
    assert (status.code, status.message) == (
        grpc.StatusCode.FAILED_PRECONDITION.value[0],
        "Turn order: it is seat 1's turn, not seat 0's",
    )
    info = error_info(status)
    assert (info.reason, info.domain) == ("TURN_ORDER", DOMAIN)
    assert dict(info.metadata) == {
        "rule": "Turn order",
        "detail": "it is seat 1's turn, not seat 0's",
        "anchor": "rule-turn-order",
        "match_id": "m1",
    }
    precondition = unpacked(status)["google.rpc.PreconditionFailure"]
    assert isinstance(precondition, error_details_pb2.PreconditionFailure)
    [violation] = precondition.violations
    assert (violation.type, violation.subject, violation.description) == (
        "RULE",
        "Turn order",
        "it is seat 1's turn, not seat 0's",
    )


def test_a_stale_view_is_a_version_conflict_with_the_expected_version() -> None:
    error = Aborted("your view is at version 7 but seat 0's view moved on to version 9; fetch the view")
    status = status_of(error, DOMAIN, SUBMIT)
    assert status.code == grpc.StatusCode.ABORTED.value[0]
    info = error_info(status)
    assert info.reason == "VERSION_CONFLICT"
    assert dict(info.metadata) == {"match_id": "m1", "expected_version": "7"}
    precondition = unpacked(status)["google.rpc.PreconditionFailure"]
    assert isinstance(precondition, error_details_pb2.PreconditionFailure)
    assert [(v.type, v.subject) for v in precondition.violations] == [("VERSION", "expected_version")]


@pytest.mark.parametrize(
    ("request_message", "message", "fields"),
    [
        (SUBMIT, "match_id is required", ["match_id"]),
        (SUBMIT, "idempotency_key is required: 1–128 characters", ["idempotency_key"]),
        (SUBMIT, "action is empty: set one of roll, end_turn, felix_felicis", ["action"]),
        (SUBMIT, "action.expelliarmus: Object missing required field `colour`", ["action.expelliarmus.colour"]),
        (SUBMIT, "action.move: Expected `int` >= 0, got -1 - at `$.to`", ["action.move.to"]),
        # Words in quotes or parentheses are the client's values or asides, not fields.
        (SUBMIT, "idempotency_key 'match_id' was used (another action or expected_version)", ["idempotency_key"]),
        (matches_pb2.CreateMatchRequest(), "seat 2: kind must be HUMAN or BOT", ["seats[2].kind"]),
        (matches_pb2.CreateMatchRequest(), "seats are required: one SeatInfo per seat", ["seats"]),
        (matches_pb2.CreateMatchRequest(), "turn_timer_seconds must be at most 86400", ["config.turn_timer_seconds"]),
        (lobby_pb2.JoinTableRequest(), "table_id and join_code are required", ["table_id", "join_code"]),
        (lobby_pb2.CreateTicketRequest(), "min_seats (3) is more than max_seats (2)", ["min_seats", "max_seats"]),
        (lobby_pb2.CreateTableRequest(), "a table needs at least one seat for a player", []),
        # The word before a quoted value, and a singular for its map or list field.
        (matches_pb2.CreateMatchRequest(), "zoo has no mode 'x'; modes: beginner", ["config.mode"]),
        (lobby_pb2.CreateTicketRequest(), "zoo has no mode 'x'; modes: beginner", ["mode"]),
        (lobby_pb2.CreateTicketRequest(), "option funding must be one of 0, 3, not '9'", ["options"]),
        (lobby_pb2.GetLeaderboardRequest(), "unknown game 'x'; games: beasts, zoo", ["game"]),
        (matches_pb2.CreateMatchRequest(), "this service runs 'zoo', not 'beasts'", []),
    ],
)
def test_a_malformed_request_names_its_fields(request_message: Message, message: str, fields: list[str]) -> None:
    assert field_paths(message, request_message.DESCRIPTOR) == fields
    status = status_of(InvalidArgument(message), "menagerie.lobby", request_message)
    assert (status.code, status.message) == (grpc.StatusCode.INVALID_ARGUMENT.value[0], message)
    assert error_info(status).reason == "INVALID_ARGUMENT"
    details = unpacked(status)
    if not fields:
        assert "google.rpc.BadRequest" not in details
        return
    bad = details["google.rpc.BadRequest"]
    assert isinstance(bad, error_details_pb2.BadRequest)
    assert [(v.field, v.description) for v in bad.field_violations] == [(f, message) for f in fields]


def test_a_field_named_by_the_error_wins_over_the_message() -> None:
    status = status_of(InvalidArgument("zoo has no mode 'x'", fields=["config.mode"]), DOMAIN, SUBMIT)
    bad = unpacked(status)["google.rpc.BadRequest"]
    assert isinstance(bad, error_details_pb2.BadRequest)
    assert [v.field for v in bad.field_violations] == ["config.mode"]


def test_a_rate_limit_says_when_to_retry() -> None:
    quotas = Quotas(QuotaSettings(calls_per_second=10, burst=1))
    quotas.take_call("seat:m1:0")
    with pytest.raises(RateLimited) as refused:
        quotas.take_call("seat:m1:0")
    status = status_of(refused.value, DOMAIN, SUBMIT)
    assert status.code == grpc.StatusCode.RESOURCE_EXHAUSTED.value[0]
    assert status.message == refused.value.message
    info = error_info(status)
    assert info.reason == "RATE_LIMITED"
    assert info.metadata["caller"] == "seat:m1:0"
    assert int(info.metadata["retry_after_ms"]) == refused.value.retry_after_ms
    details = unpacked(status)
    retry = details["google.rpc.RetryInfo"]
    assert isinstance(retry, error_details_pb2.RetryInfo)
    assert retry.retry_delay.ToMilliseconds() == refused.value.retry_after_ms
    quota = details["google.rpc.QuotaFailure"]
    assert isinstance(quota, error_details_pb2.QuotaFailure)
    assert [(v.subject, v.description) for v in quota.violations] == [("seat:m1:0", refused.value.message)]


def test_stream_caps_have_reasons_of_their_own() -> None:
    quotas = Quotas(QuotaSettings(streams_per_caller=1, streams_per_process=2))
    quotas.open_stream("seat:m1:0")
    with pytest.raises(ResourceExhausted) as per_caller:
        quotas.open_stream("seat:m1:0")
    quotas.open_stream("seat:m1:1")
    with pytest.raises(ResourceExhausted) as per_process:
        quotas.open_stream("seat:m1:2")
    assert error_info(status_of(per_caller.value, DOMAIN)).reason == "TOO_MANY_STREAMS"
    assert error_info(status_of(per_process.value, DOMAIN)).reason == "SERVER_STREAMS_FULL"
    assert "google.rpc.RetryInfo" not in unpacked(status_of(per_caller.value, DOMAIN))


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (Unauthenticated("the token has expired"), grpc.StatusCode.UNAUTHENTICATED),
        (PermissionDenied("this call needs a seat token of the match"), grpc.StatusCode.PERMISSION_DENIED),
        (NotFound("no beasts match m1"), grpc.StatusCode.NOT_FOUND),
        (AlreadyExists("match m1 exists with another configuration"), grpc.StatusCode.ALREADY_EXISTS),
        (FailedPrecondition("every player seat of the table is taken"), grpc.StatusCode.FAILED_PRECONDITION),
        (ResourceExhausted("you hold 5 open tickets"), grpc.StatusCode.RESOURCE_EXHAUSTED),
        (Unavailable("the match is too busy right now; try again"), grpc.StatusCode.UNAVAILABLE),
    ],
)
def test_every_other_kind_keeps_its_code_and_message_and_is_named_by_it(
    error: MenagerieError, code: grpc.StatusCode
) -> None:
    status = status_of(error, DOMAIN, SUBMIT)
    assert (status.code, status.message) == (code.value[0], error.message)
    info = error_info(status)
    assert (info.reason, info.domain) == (code.name, DOMAIN)
    assert info.metadata["match_id"] == "m1"


def test_an_error_may_name_its_own_reason_and_metadata() -> None:
    error = Unauthenticated("no token", reason="TOKEN_MISSING", metadata={"hint": "register"})
    info = error_info(status_of(error, "menagerie.lobby", lobby_pb2.ListMyMatchesRequest()))
    assert (info.reason, info.domain, dict(info.metadata)) == ("TOKEN_MISSING", "menagerie.lobby", {"hint": "register"})


def test_the_trailer_carries_the_status_beside_extra_pairs() -> None:
    status = error_status(grpc.StatusCode.UNAVAILABLE, "down", DOMAIN, "STORE_UNAVAILABLE", details=[retry_info(1500)])
    pairs = dict(trailers(status, (("grpc-retry-pushback-ms", "1500"),)))
    assert pairs["grpc-retry-pushback-ms"] == "1500"
    carried = pairs[DETAILS_KEY]
    assert isinstance(carried, bytes)
    assert status_pb2.Status.FromString(carried) == status
    retry = unpacked(status)["google.rpc.RetryInfo"]
    assert isinstance(retry, error_details_pb2.RetryInfo)
    assert (retry.retry_delay.seconds, retry.retry_delay.nanos) == (1, 500_000_000)
