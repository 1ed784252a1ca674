"""Bad input gets a clear error and changes nothing (real Redis, a real Beasts process)."""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Iterator

import grpc
import jwt
import pytest

from menagerie.beasts.v1 import beasts_pb2
from menagerie.common.v1 import common_pb2, matches_pb2
from menagerie.shared.tokens import TokenSigner
from tests.support.game_client import GameClient, Match, bearer, status_of

pytestmark = pytest.mark.integration

ROLL = beasts_pb2.Action(roll=beasts_pb2.Roll())


@pytest.fixture
def match(beasts: GameClient, service_token: str) -> Match:
    return beasts.create(service_token, mode="training", seats=3, seed=5)


def current_seat(beasts: GameClient, match: Match) -> int:
    return beasts.summary(match.match_id, match.tokens[0]).to_act[0]


@pytest.fixture
def unchanged(beasts: GameClient, match: Match) -> Iterator[None]:
    """Asserts the match did not change during the test."""
    before = beasts.summary(match.match_id, match.tokens[0])

    def views() -> list[bytes]:
        replies = [beasts.view(match.match_id, t) for t in match.tokens.values()]
        for reply in replies:
            reply.clock.ClearField("server_time")  # the server's clock at the call: it moves on
        return [reply.SerializeToString() for reply in replies]

    seen = views()
    yield
    after = beasts.summary(match.match_id, match.tokens[0])
    assert (after.version, list(after.to_act), after.updated_at) == (
        before.version,
        list(before.to_act),
        before.updated_at,
    )
    assert views() == seen


def raw_call(beasts: GameClient, method: str) -> Callable[..., bytes]:
    return beasts.channel.unary_unary(method, request_serializer=lambda b: b, response_deserializer=lambda b: b)


@pytest.mark.usefixtures("unchanged")
def test_undecodable_bytes_are_invalid_argument(beasts: GameClient, match: Match) -> None:
    seat = current_seat(beasts, match)
    submit = raw_call(beasts, "/menagerie.beasts.v1.Beasts/SubmitAction")
    code, details = status_of(lambda: submit(b"\xff\xff\xff\xff", metadata=bearer(match.tokens[seat])))
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert "not a valid /menagerie.beasts.v1.Beasts/SubmitAction message" in details


@pytest.mark.usefixtures("unchanged")
def test_random_bytes_never_yield_internal(beasts: GameClient, match: Match, service_token: str) -> None:
    rng = random.Random(3)
    methods = [
        "/menagerie.beasts.v1.Beasts/SubmitAction",
        "/menagerie.beasts.v1.Beasts/GetView",
        "/menagerie.beasts.v1.Beasts/ListLegalActions",
        "/menagerie.common.v1.Matches/CreateMatch",
        "/menagerie.common.v1.Matches/GetMatch",
        "/menagerie.common.v1.Matches/ListMatches",
    ]
    seat = current_seat(beasts, match)
    for _ in range(60):
        method = rng.choice(methods)
        payload = rng.randbytes(rng.randrange(0, 40))
        token = rng.choice([match.tokens[seat], service_token])
        codes = []
        try:
            raw_call(beasts, method)(payload, metadata=bearer(token))
            codes.append(grpc.StatusCode.OK)
        except grpc.RpcError as error:
            codes.append(error.code())
        assert grpc.StatusCode.INTERNAL not in codes, (method, payload)


@pytest.mark.usefixtures("unchanged")
def test_malformed_requests_are_invalid_argument(beasts: GameClient, match: Match) -> None:
    seat = current_seat(beasts, match)
    token = match.tokens[seat]
    version = beasts.legal(match.match_id, token).view_version
    code, details = status_of(lambda: beasts.submit(match.match_id, token, beasts_pb2.Action(), version))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "action is empty" in details
    bad_colour = beasts_pb2.Action(expelliarmus=beasts_pb2.Expelliarmus(target_seat=1))
    code, details = status_of(lambda: beasts.submit(match.match_id, token, bad_colour, version))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "colour" in details
    code, details = status_of(lambda: beasts.submit(match.match_id, token, ROLL, version, key=""))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "idempotency_key" in details
    code, details = status_of(lambda: beasts.view("", token))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "match_id is required" in details


@pytest.mark.usefixtures("unchanged")
def test_an_illegal_move_is_failed_precondition_naming_the_rule(beasts: GameClient, match: Match) -> None:
    seat = current_seat(beasts, match)
    token = match.tokens[seat]
    version = beasts.legal(match.match_id, token).view_version
    move = beasts_pb2.Action(move=beasts_pb2.Move(to=1))
    code, details = status_of(lambda: beasts.submit(match.match_id, token, move, version))
    assert code == grpc.StatusCode.FAILED_PRECONDITION
    assert details == "Movement: roll the die before you move"
    other = (seat + 1) % 3
    other_version = beasts.legal(match.match_id, match.tokens[other]).view_version
    code, details = status_of(lambda: beasts.submit(match.match_id, match.tokens[other], ROLL, other_version))
    assert code == grpc.StatusCode.FAILED_PRECONDITION
    # The refusal is written with seat numbers for everyone; the player reads the seats' display names.
    assert details == f"Turn order: it is Player {seat}'s turn, not Player {other}'s"


@pytest.mark.usefixtures("unchanged")
def test_a_stale_view_version_is_aborted(beasts: GameClient, match: Match) -> None:
    seat = current_seat(beasts, match)
    token = match.tokens[seat]
    version = beasts.legal(match.match_id, token).view_version
    code, details = status_of(lambda: beasts.submit(match.match_id, token, ROLL, version - 1))
    assert code == grpc.StatusCode.ABORTED
    assert "moved on" in details


@pytest.mark.usefixtures("unchanged")
def test_missing_expired_and_forged_tokens_are_unauthenticated(beasts: GameClient, match: Match) -> None:
    request = beasts_pb2.GetViewRequest(match_id=match.match_id)
    code, _ = status_of(lambda: beasts.stub.GetView(request))
    assert code == grpc.StatusCode.UNAUTHENTICATED
    from tests.support.keys import KEYS

    expired, _ = KEYS.signer().issue_seat(match.match_id, 0, "p0", "P", -5)
    code, details = status_of(lambda: beasts.stub.GetView(request, metadata=bearer(expired)))
    assert (code, details) == (grpc.StatusCode.UNAUTHENTICATED, "the token has expired")
    # A bot worker's key signs bots' seats only: a human's seat token from it is refused.
    forged, _ = KEYS.signer("bots").issue_seat(match.match_id, 0, "p0", "P", 60)
    code, details = status_of(lambda: beasts.stub.GetView(request, metadata=bearer(forged)))
    assert code == grpc.StatusCode.UNAUTHENTICATED and "may not sign seat tokens" in details
    # A token of the old shared HS256 secret names no key the service trusts.
    claims = {"iss": "menagerie", "iat": 0, "exp": 2**40, "sub": "p0", "typ": "seat", "mid": match.match_id, "seat": 0}
    old = jwt.encode(claims, "x" * 48, algorithm="HS256")
    code, details = status_of(lambda: beasts.stub.GetView(request, metadata=bearer(old)))
    assert (code, details) == (
        grpc.StatusCode.UNAUTHENTICATED,
        "the token is signed by a key this service does not trust",
    )
    code, _ = status_of(lambda: beasts.stub.GetView(request, metadata=(("authorization", "Basic abc"),)))
    assert code == grpc.StatusCode.UNAUTHENTICATED


@pytest.mark.usefixtures("unchanged")
def test_someone_elses_token_is_permission_denied(
    beasts: GameClient, match: Match, service_token: str, signer: TokenSigner
) -> None:
    seat = current_seat(beasts, match)
    version = beasts.legal(match.match_id, match.tokens[seat]).view_version
    elsewhere = beasts.create(service_token, mode="training", seats=2)
    code, details = status_of(lambda: beasts.submit(match.match_id, elsewhere.tokens[0], ROLL, version))
    assert code == grpc.StatusCode.PERMISSION_DENIED and "seat token is for match" in details
    player, _ = signer.issue_player("p0", "P", 60)
    code, _ = status_of(lambda: beasts.submit(match.match_id, player, ROLL, version))
    assert code == grpc.StatusCode.PERMISSION_DENIED
    no_such_seat, _ = signer.issue_seat(match.match_id, 7, "p7", "P", 60)
    code, details = status_of(lambda: beasts.submit(match.match_id, no_such_seat, ROLL, version))
    assert code == grpc.StatusCode.PERMISSION_DENIED and "no seat 7" in details
    code, _ = status_of(
        lambda: beasts.matches.CreateMatch(matches_pb2.CreateMatchRequest(), metadata=bearer(match.tokens[0]))
    )
    assert code == grpc.StatusCode.PERMISSION_DENIED


def test_an_unknown_match_is_not_found(beasts: GameClient, signer: TokenSigner) -> None:
    ghost = uuid.uuid4().hex
    token, _ = signer.issue_seat(ghost, 0, "p0", "P", 60)
    code, _ = status_of(lambda: beasts.submit(ghost, token, ROLL, 1))
    assert code == grpc.StatusCode.NOT_FOUND
    code, _ = status_of(lambda: beasts.view(ghost, token))
    assert code == grpc.StatusCode.NOT_FOUND
    code, _ = status_of(lambda: beasts.summary(ghost, token))
    assert code == grpc.StatusCode.NOT_FOUND


def test_a_repeated_idempotency_key_gets_the_first_answer_applied_once(beasts: GameClient, match: Match) -> None:
    seat = current_seat(beasts, match)
    token = match.tokens[seat]
    version = beasts.legal(match.match_id, token).view_version
    key = uuid.uuid4().hex
    first = beasts.submit(match.match_id, token, ROLL, version, key=key)
    again = beasts.submit(match.match_id, token, ROLL, version, key=key)
    assert first.SerializeToString() == again.SerializeToString()
    assert beasts.summary(match.match_id, token).version == first.version == 2


def test_bad_match_configurations_are_invalid_argument(beasts: GameClient, service_token: str) -> None:
    def create(**config: object) -> tuple[grpc.StatusCode, str]:
        seats = config.pop("seats", 3)
        request = matches_pb2.CreateMatchRequest(
            config=common_pb2.MatchConfig(**config),  # type: ignore[arg-type]
            seats=[
                common_pb2.SeatInfo(seat=i, player_id=f"p{i}", kind=common_pb2.SEAT_KIND_HUMAN)
                for i in range(seats)  # type: ignore[call-overload]
            ],
        )
        return status_of(lambda: beasts.matches.CreateMatch(request, metadata=bearer(service_token)))

    assert create(game="zoo", mode="beginner") == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "this service runs 'beasts', not 'zoo'",
    )
    code, details = create(game="beasts", mode="expert")
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "no mode 'expert'" in details
    code, details = create(game="beasts", mode="capture", seats=7)
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "2–6 seats, not 7" in details
    code, details = create(game="beasts", mode="capture", options={"spell_cards": "true"})
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "no option 'spell_cards'" in details


def test_create_match_with_an_id_is_idempotent(beasts: GameClient, service_token: str) -> None:
    match_id = f"fixed-{uuid.uuid4().hex[:8]}"
    first = beasts.create(service_token, mode="training", seats=3, match_id=match_id)
    again = beasts.create(service_token, mode="training", seats=3, match_id=match_id)
    assert first.match_id == again.match_id == match_id
    assert again.summary.version == 1
    code, details = status_of(lambda: beasts.create(service_token, mode="training", seats=4, match_id=match_id))
    assert code == grpc.StatusCode.ALREADY_EXISTS
    assert "exists with another configuration" in details


def test_page_tokens_and_match_ids_that_only_look_right_are_invalid_argument(
    beasts: GameClient, match: Match, service_token: str
) -> None:
    """A superscript digit, 5,000 digits, a trailing newline: INVALID_ARGUMENT, never INTERNAL."""
    auth = bearer(service_token)
    for token in ("²:x", "1" * 5_000 + ":abc", "12:abc\n", "12:", ":abc", "12:a:b"):

        def list_page(token: str = token) -> object:
            return beasts.matches.ListMatches(matches_pb2.ListMatchesRequest(page_token=token), metadata=auth)

        code, details = status_of(list_page)
        assert (code, details) == (grpc.StatusCode.INVALID_ARGUMENT, "page_token is not one this service issued"), token
    code, details = status_of(lambda: beasts.view(match.match_id + "\n", match.tokens[0]))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "match_id must be" in details


def test_an_idempotency_key_reused_for_another_move_is_invalid_argument_naming_it(
    beasts: GameClient, service_token: str
) -> None:
    match = beasts.create(service_token, mode="training", seats=3, seed=5)
    seat = current_seat(beasts, match)
    token = match.tokens[seat]
    version = beasts.legal(match.match_id, token).view_version
    key = uuid.uuid4().hex
    first = beasts.submit(match.match_id, token, ROLL, version, key=key)
    end_turn = beasts_pb2.Action(end_turn=beasts_pb2.EndTurn())
    for action, expected in ((end_turn, version), (ROLL, version + 1)):

        def reuse(action: beasts_pb2.Action = action, expected: int = expected) -> object:
            return beasts.submit(match.match_id, token, action, expected, key=key)

        code, details = status_of(reuse)
        assert code == grpc.StatusCode.INVALID_ARGUMENT, details
        assert key in details and "different move" in details
    assert beasts.submit(match.match_id, token, ROLL, version, key=key).SerializeToString() == first.SerializeToString()
