"""The dice game's service against a real Redis: reaction windows, hidden hands, bad input, replay."""

from __future__ import annotations

import random

import grpc
import pytest
import redis

from menagerie.common.v1 import common_pb2
from menagerie.pursuit.engine import Action, PursuitEngine, PursuitState
from menagerie.pursuit.v1 import pursuit_pb2
from menagerie.shared.tokens import TokenSigner
from tests.support.fixtures import GameClients
from tests.support.game_client import GameClient, Match
from tests.support.stored_match import replayed_and_stored_state

pytestmark = pytest.mark.integration

NORMAL = {"difficulty": "normal"}


@pytest.fixture
def pursuit(game_client: GameClients) -> GameClient:
    return game_client("pursuit")


def create(pursuit: GameClient, service_token: str, seats: int = 3, seed: int = 1) -> Match:
    return pursuit.create(service_token, mode="coop", seats=seats, options=NORMAL, seed=seed)


def first_window(pursuit: GameClient, match: Match, service_token: str, rng: random.Random) -> list[int]:
    """Plays random moves until a reaction window is open; returns the seats in it."""
    for _ in range(2_000):
        summary = pursuit.summary(match.match_id, service_token)
        assert summary.status != common_pb2.MATCH_STATUS_FINISHED, "no window opened in a whole match"
        view = pursuit.view(match.match_id, match.tokens[0]).view
        if view.prompt.may:
            return list(view.prompt.may)
        seat = summary.to_act[0]
        legal = pursuit.legal(match.match_id, match.tokens[seat])
        pursuit.submit(match.match_id, match.tokens[seat], rng.choice(legal.actions), legal.view_version)
    raise AssertionError("no window opened")


def test_the_active_players_first_roll_is_made_and_each_seat_sees_only_its_own_card(
    pursuit: GameClient, service_token: str, signer: TokenSigner
) -> None:
    match = create(pursuit, service_token)
    views = {seat: pursuit.view(match.match_id, token).view for seat, token in match.tokens.items()}
    first = views[0]
    assert first.rolls == 1 and len(first.dice) == 6 and first.difficulty == pursuit_pb2.DIFFICULTY_NORMAL
    for seat, view in views.items():
        assert [len(p.hand) for p in view.players] == [1 if p.seat == seat else 0 for p in view.players]
        assert [p.hand_size for p in view.players] == [1, 1, 1]
    spectator, _ = signer.issue_player("fan", "Fan", 600)
    assert all(not p.hand for p in pursuit.view(match.match_id, spectator).view.players)


def test_a_reaction_window_admits_only_the_seats_in_it(pursuit: GameClient, service_token: str) -> None:
    match = create(pursuit, service_token, seats=4, seed=5)
    window = first_window(pursuit, match, service_token, random.Random(5))
    summary = pursuit.summary(match.match_id, service_token)
    assert sorted(summary.to_act) == sorted(window)
    outsider = next(seat for seat in range(4) if seat not in window)
    legal = pursuit.legal(match.match_id, match.tokens[outsider])
    assert not legal.actions
    passing = pursuit_pb2.Action()
    getattr(passing, "pass").SetInParent()  # `pass` is a Python keyword: no keyword argument for it
    with pytest.raises(grpc.RpcError) as refused:
        pursuit.submit(match.match_id, match.tokens[outsider], passing, legal.view_version)
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert (refused.value.details() or "").startswith("Insight cards: ")
    for seat in window:
        legal = pursuit.legal(match.match_id, match.tokens[seat])
        assert passing in legal.actions
        pursuit.submit(match.match_id, match.tokens[seat], passing, legal.view_version)
    assert not set(window) & set(pursuit.view(match.match_id, match.tokens[0]).view.prompt.may)


def test_bad_moves_name_the_rule_and_change_nothing(pursuit: GameClient, service_token: str) -> None:
    match = create(pursuit, service_token, seed=2)
    # The first roll opened the Reroll window to the other seats: they pass, and the active player rolls on.
    prompt = pursuit.view(match.match_id, match.tokens[0]).view.prompt
    for seat in prompt.may:
        version = pursuit.legal(match.match_id, match.tokens[seat]).view_version
        passing = pursuit_pb2.Action()
        getattr(passing, "pass").SetInParent()  # `pass` is a Python keyword
        pursuit.submit(match.match_id, match.tokens[seat], passing, version)
    summary = pursuit.summary(match.match_id, service_token)
    active = summary.to_act[0]
    assert pursuit.view(match.match_id, match.tokens[active]).view.prompt.kind == "roll"
    token = match.tokens[active]
    legal = pursuit.legal(match.match_id, token)
    hand = pursuit.view(match.match_id, token).view.players[active].hand
    not_held = next(card for card in range(1, 31) if card not in {c.id for c in hand})
    before = summary.version

    play_card = pursuit_pb2.Action(play_reroll=pursuit_pb2.PlayReroll(card=not_held))
    with pytest.raises(grpc.RpcError) as not_mine:
        pursuit.submit(match.match_id, token, play_card, legal.view_version)
    assert not_mine.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert not_mine.value.details() == f"Insight cards: you hold no insight card {not_held}"

    end_assign = pursuit_pb2.Action(end_assign=pursuit_pb2.EndAssign())
    with pytest.raises(grpc.RpcError) as too_soon:
        pursuit.submit(match.match_id, token, end_assign, legal.view_version)
    assert too_soon.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert too_soon.value.details() == "Rolling: roll again, stop rolling, or play a Reroll card"

    unknown_face = pursuit_pb2.Action(reroll=pursuit_pb2.Reroll(keep=[pursuit_pb2.FACE_UNSPECIFIED]))
    with pytest.raises(grpc.RpcError) as malformed:
        pursuit.submit(match.match_id, token, unknown_face, legal.view_version)
    assert malformed.value.code() == grpc.StatusCode.INVALID_ARGUMENT

    with pytest.raises(grpc.RpcError) as empty:
        pursuit.submit(match.match_id, token, pursuit_pb2.Action(), legal.view_version)
    assert empty.value.code() == grpc.StatusCode.INVALID_ARGUMENT

    stop = pursuit_pb2.Action(stop_rolling=pursuit_pb2.StopRolling())
    assert stop in legal.actions
    pursuit.submit(match.match_id, token, stop, legal.view_version)
    with pytest.raises(grpc.RpcError) as stale:
        pursuit.submit(match.match_id, token, stop, legal.view_version)
    assert stale.value.code() == grpc.StatusCode.ABORTED
    assert pursuit.summary(match.match_id, service_token).version == before + 1


def test_a_whole_match_through_the_service_replays_from_its_actions(
    pursuit: GameClient, service_token: str, redis_url: str
) -> None:
    match = create(pursuit, service_token, seats=3, seed=11)
    summary = pursuit.play_to_end(match, random.Random(3))
    results = {s.result for s in summary.outcome.seats}
    assert len(summary.outcome.seats) == 3 and len(results) == 1, "one result for the whole team"
    client = redis.Redis.from_url(redis_url)
    replayed, stored = replayed_and_stored_state(client, match.match_id, PursuitEngine(), Action, PursuitState)
    assert replayed == stored
    client.close()
