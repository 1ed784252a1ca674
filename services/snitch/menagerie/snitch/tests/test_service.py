"""The Catch the Golden Snitch service against a real Redis: bots to the end, secret choices, bad input, replay."""

from __future__ import annotations

import random
import time

import grpc
import msgspec
import pytest
import redis

from menagerie.bots.turns import TurnPlayer, TurnResult
from menagerie.common.v1 import common_pb2
from menagerie.rules.bots import SEARCH_LEVELS, levels
from menagerie.shared.tokens import TokenSigner
from menagerie.snitch.engine import Action, SnitchEngine, SnitchState
from menagerie.snitch.v1 import snitch_pb2
from tests.support.fixtures import GameClients
from tests.support.game_client import GameClient, Match, bearer
from tests.support.stored_match import replayed_and_stored_state

pytestmark = pytest.mark.integration

# Every bot level the game has (`random`, and the game's own once its bots are installed); a search
# level (1 s a decision, some 200 decisions a match) is measured by the arena and tests/unit/search/test_mcts.py.
LEVELS = sorted(set(levels("snitch")) - SEARCH_LEVELS)


@pytest.fixture
def snitch(game_client: GameClients) -> GameClient:
    return game_client("snitch")


def finished(snitch: GameClient, match: Match, token: str) -> bool:
    return snitch.summary(match.match_id, token).status == common_pb2.MATCH_STATUS_FINISHED


def assert_replays(redis_url: str, match_id: str) -> None:
    """The stored state is the one the seed and the stored actions rebuild.

    Compared as values, not bytes: a finished state's scores are ints until stored, floats
    after (test_codec.py, test_a_finished_state_survives_storage_byte_for_byte).
    """
    client = redis.Redis.from_url(redis_url)
    try:
        replayed, stored = replayed_and_stored_state(client, match_id, SnitchEngine(), Action, SnitchState)
    finally:
        client.close()
    decode = msgspec.msgpack.Decoder(SnitchState).decode
    assert decode(replayed) == decode(stored)


def play_until(snitch: GameClient, match: Match, kind: str, rng: random.Random) -> snitch_pb2.View:
    """Random legal actions of the seats to act until the prompt is `kind`; returns seat 0's view then."""
    for _ in range(500):
        view: snitch_pb2.View = snitch.view(match.match_id, match.tokens[0]).view
        if view.prompt.kind == kind:
            return view
        assert view.prompt.kind != "finished", f"the match ended before any {kind!r} decision"
        seat = next(iter(view.prompt.must or view.prompt.may))
        legal = snitch.legal(match.match_id, match.tokens[seat])
        snitch.submit(match.match_id, match.tokens[seat], rng.choice(legal.actions), legal.view_version)
    raise AssertionError(f"no {kind!r} decision in 500 actions")


@pytest.mark.parametrize("level", LEVELS)
def test_bots_play_a_seeded_match_to_the_end_through_the_service(
    snitch: GameClient, service_token: str, signer: TokenSigner, redis_url: str, level: str
) -> None:
    """Both Coaches are bots of `level`, deciding as the bot pool does: the seat's view and legal actions over gRPC."""
    match = snitch.create(service_token, seats=2, seed=7, bots=(0, 1), bot_level=level)
    # The bot pool's own decision maker, on the test client's channel to the service.
    player = TurnPlayer(signer, {"snitch": "loopback"}, lambda _: snitch.channel, call_timeout=10, decision_timeout=30)
    played = 0
    while not finished(snitch, match, service_token):
        assert played < 3_000, "the bots did not finish the match"
        summary = snitch.summary(match.match_id, service_token)
        for seat in summary.to_act:
            version = snitch.legal(match.match_id, match.tokens[seat]).view_version
            result = player.play("snitch", match.match_id, seat, version, level)
            assert result in (TurnResult.PLAYED, TurnResult.STALE), result
            played += result == TurnResult.PLAYED
    summary = snitch.summary(match.match_id, service_token)
    assert sorted(s.result for s in summary.outcome.seats) == [common_pb2.RESULT_WIN, common_pb2.RESULT_LOSS]
    assert summary.outcome.reason and summary.version == played + 1
    view = snitch.view(match.match_id, match.tokens[0]).view
    assert view.prompt.kind == "finished" and view.HasField("outcome")
    assert_replays(redis_url, match.match_id)


@pytest.mark.usefixtures("dispatcher", "bot_worker")
def test_the_bot_pool_plays_a_whole_match_through_celery(
    snitch: GameClient, service_token: str, redis_url: str
) -> None:
    level = next((name for name in LEVELS if name != "random"), "random")  # the game's own level where it has one
    match = snitch.create(service_token, seats=2, seed=3, bots=(0, 1), bot_level=level)
    deadline = time.monotonic() + 180
    while not finished(snitch, match, service_token):
        assert time.monotonic() < deadline, "the bot pool did not finish the match"
        time.sleep(0.2)
    summary = snitch.summary(match.match_id, service_token)
    assert len(summary.outcome.seats) == 2 and summary.outcome.reason
    assert_replays(redis_url, match.match_id)


def test_a_whole_match_of_random_moves_through_the_service_replays_from_its_actions(
    snitch: GameClient, service_token: str, redis_url: str
) -> None:
    match = snitch.create(service_token, seats=2, seed=11, options={"house_0": "ravenclaw", "house_1": "hufflepuff"})
    summary = snitch.play_to_end(match, random.Random(11))
    assert {s.result for s in summary.outcome.seats} == {common_pb2.RESULT_WIN, common_pb2.RESULT_LOSS}
    houses = [c.house for c in snitch.view(match.match_id, match.tokens[1]).view.coaches]
    assert houses == ["ravenclaw", "hufflepuff"]
    assert_replays(redis_url, match.match_id)


def test_each_coach_sees_only_their_own_hand(snitch: GameClient, service_token: str, signer: TokenSigner) -> None:
    match = snitch.create(service_token, seats=2, seed=1)
    hands = {seat: [c.id for c in snitch.view(match.match_id, t).view.hand] for seat, t in match.tokens.items()}
    assert [len(hands[0]), len(hands[1])] == [5, 5]
    for seat, token in match.tokens.items():
        first = next(iter(snitch.stub.Watch(snitch_pb2.WatchRequest(match_id=match.match_id), metadata=bearer(token))))
        drawn = {e.cards_drawn.seat: list(e.cards_drawn.cards) for e in first.events if e.HasField("cards_drawn")}
        assert drawn == {seat: hands[seat], 1 - seat: []}
        assert all(card.seat == seat for card in first.view.hand)
    spectator, _ = signer.issue_player("fan", "Fan", 600)
    view = snitch.view(match.match_id, spectator).view
    assert not view.hand and not view.HasField("viewer")
    assert [c.hand_size for c in view.coaches] == [5, 5]


def test_pitch_cards_stay_secret_until_both_are_chosen(snitch: GameClient, service_token: str) -> None:
    match = snitch.create(service_token, seats=2, seed=2)
    view = play_until(snitch, match, "pitch_cards", random.Random(2))
    assert sorted(view.prompt.must) == [0, 1]
    legal = snitch.legal(match.match_id, match.tokens[0])
    choice = legal.actions[0]
    assert choice.WhichOneof("kind") == "choose_pitch_card"
    snitch.submit(match.match_id, match.tokens[0], choice, legal.view_version)
    mine = snitch.view(match.match_id, match.tokens[0]).view
    theirs = snitch.view(match.match_id, match.tokens[1]).view
    assert mine.my_pitch_card == choice.choose_pitch_card.card
    assert not theirs.HasField("my_pitch_card")
    assert theirs.coaches[0].pitch_card_chosen and not theirs.coaches[0].HasField("pitch_card")
    assert theirs.prompt.must == [1]
    chosen = []
    for token in match.tokens.values():
        request = snitch_pb2.WatchRequest(match_id=match.match_id)
        for reply in snitch.stub.Watch(request, metadata=bearer(token), timeout=10):
            chosen += [e.pitch_card_chosen for e in reply.events if e.HasField("pitch_card_chosen")]
            if reply.HasField("view"):
                break
    assert [(c.seat, c.HasField("card")) for c in chosen] == [(0, True), (0, False)]
    legal = snitch.legal(match.match_id, match.tokens[1])
    snitch.submit(match.match_id, match.tokens[1], legal.actions[0], legal.view_version)
    revealed = snitch.view(match.match_id, match.tokens[1]).view
    assert revealed.coaches[0].pitch_card == choice.choose_pitch_card.card
    assert revealed.prompt.kind != "pitch_cards"


def test_both_coaches_choosing_at_the_same_moment_both_land(snitch: GameClient, service_token: str) -> None:
    match = snitch.create(service_token, seats=2, seed=4)
    play_until(snitch, match, "pitch_cards", random.Random(4))
    requests = []
    for token in match.tokens.values():
        legal = snitch.legal(match.match_id, token)
        requests.append((token, snitch.submit_request(match.match_id, legal.actions[-1], legal.view_version)))
    futures = [snitch.stub.SubmitAction.future(request, metadata=bearer(token)) for token, request in requests]
    for future in futures:
        future.result()
    view = snitch.view(match.match_id, match.tokens[0]).view
    assert all(c.HasField("pitch_card") for c in view.coaches)


def test_bad_actions_name_the_rule_and_change_nothing(snitch: GameClient, service_token: str) -> None:
    match = snitch.create(service_token, seats=2, seed=1)
    before = snitch.summary(match.match_id, service_token)
    seat = before.to_act[0]
    token, other = match.tokens[seat], match.tokens[1 - seat]
    legal = snitch.legal(match.match_id, token)
    assert snitch.view(match.match_id, token).view.prompt.kind == "kick_off_bludger"

    out_of_turn = snitch.legal(match.match_id, other)
    assert not out_of_turn.actions
    with pytest.raises(grpc.RpcError) as waiting:
        snitch.submit(match.match_id, other, legal.actions[0], out_of_turn.view_version)
    assert waiting.value.code() == grpc.StatusCode.FAILED_PRECONDITION

    nowhere = snitch_pb2.Action(place_bludger=snitch_pb2.PlaceBludger(zone="the_moon"))
    with pytest.raises(grpc.RpcError) as refused:
        snitch.submit(match.match_id, token, nowhere, legal.view_version)
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert (refused.value.details() or "").startswith("Bludgers: ")

    no_reaction_named = snitch_pb2.Action(react=snitch_pb2.React(player=1))
    with pytest.raises(grpc.RpcError) as malformed:
        snitch.submit(match.match_id, token, no_reaction_named, legal.view_version)
    assert malformed.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "reaction" in (malformed.value.details() or "")

    with pytest.raises(grpc.RpcError) as empty:
        snitch.submit(match.match_id, token, snitch_pb2.Action(), legal.view_version)
    assert empty.value.code() == grpc.StatusCode.INVALID_ARGUMENT

    snitch.submit(match.match_id, token, legal.actions[0], legal.view_version)
    with pytest.raises(grpc.RpcError) as stale:
        snitch.submit(match.match_id, token, legal.actions[1], legal.view_version)
    assert stale.value.code() == grpc.StatusCode.ABORTED
    assert snitch.summary(match.match_id, service_token).version == before.version + 1


def pick(part: str, card: str) -> snitch_pb2.Action:
    return snitch_pb2.Action(pick_for_team=snitch_pb2.PickForTeam(part=part, card=card))


def team_changes(snitch: GameClient, match: Match, token: str) -> list[snitch_pb2.TeamChanged]:
    """The TeamChanged events of the match so far, as the holder of `token` reads them (Watch)."""
    changes = []
    request = snitch_pb2.WatchRequest(match_id=match.match_id)
    for reply in snitch.stub.Watch(request, metadata=bearer(token), timeout=10):
        changes += [e.team_changed for e in reply.events if e.HasField("team_changed")]
        if reply.HasField("view"):
            break
    return changes


def test_advanced_teams_are_built_in_secret_and_a_refused_pick_names_the_rule(
    snitch: GameClient, service_token: str, signer: TokenSigner
) -> None:
    """Mode "advanced" (Build Your Team): each Coach sees only their own draft; a pick over the Funding or of
    another House's Player is refused naming the rule, and changes nothing."""
    options = {"funding": "5", "spectators": "on"}
    match = snitch.create(service_token, mode="advanced", seats=2, seed=5, options=options)
    assert match.summary.config.mode == "advanced" and dict(match.summary.config.options) == options
    for token in match.tokens.values():
        view = snitch.view(match.match_id, token).view
        assert view.mode == snitch_pb2.MODE_ADVANCED and view.funding == 5 and view.spectators_on
        assert view.prompt.kind == "team_building" and sorted(view.prompt.must) == [0, 1]
        assert view.HasField("draft") and not view.draft.HasField("house") and view.draft.funding == 5
        assert view.draft.missing and not view.draft.ready
        assert [c.house for c in view.coaches] == ["", ""] and not view.players
        legal = snitch.legal(match.match_id, token)
        assert {a.WhichOneof("kind") for a in legal.actions} == {"pick_for_team"}
        assert {a.pick_for_team.part for a in legal.actions} == {"house"}

    # Both Coaches choose their House at once: neither waits for the other.
    houses = {0: "gryffindor", 1: "slytherin"}
    for seat, house in houses.items():
        legal = snitch.legal(match.match_id, match.tokens[seat])
        assert pick("house", house) in legal.actions
        reply = snitch.submit(match.match_id, match.tokens[seat], pick("house", house), legal.view_version)
        assert [(e.team_changed.part, e.team_changed.card) for e in reply.events] == [("house", house)]
    # Seat 0 spends the whole Funding: Harry Potter (3 Galleons) and Angelina Johnson (2).
    for card in ("harry_potter_veteran", "angelina_johnson"):
        legal = snitch.legal(match.match_id, match.tokens[0])
        assert pick("player", card) in legal.actions
        snitch.submit(match.match_id, match.tokens[0], pick("player", card), legal.view_version)

    views = {seat: snitch.view(match.match_id, token).view for seat, token in match.tokens.items()}
    assert views[0].draft.house == "gryffindor" and views[0].draft.cost == 5
    assert [p.id for p in views[0].draft.players] == ["harry_potter_veteran", "angelina_johnson"]
    assert views[1].draft.house == "slytherin" and not views[1].draft.players and views[1].draft.cost == 0
    for view in views.values():  # the rival's Team shows nowhere: no House, no cards
        assert [c.house for c in view.coaches] == ["", ""] and not any(c.cards for c in view.coaches)
    spectator, _ = signer.issue_player("fan", "Fan", 600)
    assert not snitch.view(match.match_id, spectator).view.HasField("draft")

    # The TeamChanged events: the changing Coach reads the part and card, the rival only that it changed.
    mine = [(c.seat, c.part, c.card) for c in team_changes(snitch, match, match.tokens[0])]
    assert mine == [
        (0, "house", "gryffindor"),
        (1, "", ""),
        (0, "player", "harry_potter_veteran"),
        (0, "player", "angelina_johnson"),
    ]
    theirs = team_changes(snitch, match, match.tokens[1])
    assert [(c.seat, c.HasField("part"), c.HasField("card")) for c in theirs] == [
        (0, False, False),
        (1, True, True),
        (0, False, False),
        (0, False, False),
    ]
    assert theirs[1].card == "slytherin"

    # Refused picks: a Keeper over the Funding, a Player of another House (free, so only its House refuses it).
    before = snitch.summary(match.match_id, service_token).version
    legal = snitch.legal(match.match_id, match.tokens[0])
    for card, why in (
        ("oliver_wood", "2 more Galleons would exceed the Funding of 5"),
        ("slytherin_chaser", "Slytherin Chaser cannot join Gryffindor"),
    ):
        assert pick("player", card) not in legal.actions
        with pytest.raises(grpc.RpcError) as refused:
            snitch.submit(match.match_id, match.tokens[0], pick("player", card), legal.view_version)
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        details = refused.value.details() or ""
        assert details.startswith("Build Your Team: ") and why in details, details
    assert snitch.summary(match.match_id, service_token).version == before
    assert snitch.view(match.match_id, match.tokens[0]).view.draft == views[0].draft
    assert snitch.legal(match.match_id, match.tokens[0]).actions == legal.actions
