"""The Beasts service against a real Redis: concurrency, streams, Watch, replay, timers."""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import grpc
import msgspec
import pytest
import redis
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from menagerie.beasts.engine import Action, BeastsEngine, BeastsState
from menagerie.beasts.engine.model import BeastsView, Event
from menagerie.beasts.v1 import beasts_pb2
from menagerie.common.v1 import common_pb2, matches_pb2
from menagerie.rules.contract import MatchSetup
from menagerie.rules.events import project
from menagerie.shared import codec
from menagerie.shared.store.keys import match_keys
from menagerie.shared.tokens import TokenSigner
from tests.support.fixtures import GameServices
from tests.support.game_client import GameClient, bearer
from tests.support.keys import KEYS
from tests.support.redis_server import stream_entries
from tests.support.services import game_process, stop_process
from tests.support.stored_match import SHARDS, replayed_and_stored_state

pytestmark = pytest.mark.integration

ROLL = beasts_pb2.Action(roll=beasts_pb2.Roll())
ENGINE = BeastsEngine()


def test_health_and_reflection(game_services: GameServices) -> None:
    with grpc.insecure_channel(game_services["beasts"].address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        for service in ("", "menagerie.beasts.v1.Beasts", "menagerie.common.v1.Matches"):
            reply = health.Check(health_pb2.HealthCheckRequest(service=service))  # type: ignore[attr-defined]
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        # typeshed types the reflection stub's methods as Incomplete.
        request = reflection_pb2.ServerReflectionRequest(list_services="")
        replies = stub.ServerReflectionInfo(iter([request]))  # type: ignore[operator]
        names = {s.name for reply in replies for s in reply.list_services_response.service}
    assert {"menagerie.beasts.v1.Beasts", "menagerie.common.v1.Matches", "grpc.health.v1.Health"} <= names


def test_describe_game_lists_modes_and_seats(beasts: GameClient) -> None:
    reply = beasts.matches.DescribeGame(matches_pb2.DescribeGameRequest())
    assert reply.game == "beasts"
    modes = {m.mode: m for m in reply.modes}
    assert set(modes) == {"capture", "training", "advanced"}
    assert (modes["training"].min_seats, modes["training"].max_seats) == (2, 6)
    assert [o.name for o in modes["training"].options] == ["spell_cards"]
    assert (modes["advanced"].min_seats, modes["advanced"].max_seats) == (2, 6)
    assert modes["advanced"].cooperative and not modes["training"].cooperative
    assert [o.name for o in modes["advanced"].options] == ["difficulty"]


def test_concurrent_submits_at_one_version_apply_exactly_once(beasts: GameClient, service_token: str) -> None:
    rng = random.Random(11)
    pairs = 0
    while pairs < 100:
        match = beasts.create(service_token, mode="training", seats=3, options={"spell_cards": "true"})
        while pairs < 100:
            summary = beasts.summary(match.match_id, match.tokens[0])
            if not summary.to_act:
                break
            token = match.tokens[summary.to_act[0]]
            legal = beasts.legal(match.match_id, token)
            requests = [
                beasts_pb2.SubmitActionRequest(
                    match_id=match.match_id,
                    expected_version=legal.view_version,
                    idempotency_key=uuid.uuid4().hex,
                    action=rng.choice(legal.actions),
                )
                for _ in range(2)
            ]
            futures = [beasts.stub.SubmitAction.future(r, metadata=bearer(token)) for r in requests]
            outcomes = []
            for future in futures:
                try:
                    future.result()
                    outcomes.append("ok")
                except grpc.RpcError as error:
                    outcomes.append(error.code().name)
            assert sorted(outcomes) == ["ABORTED", "ok"], outcomes
            assert beasts.summary(match.match_id, token).version == summary.version + 1
            pairs += 1


def test_one_stream_entry_and_one_turn_notice_per_accepted_action(
    beasts: GameClient, service_token: str, redis_url: str
) -> None:
    match = beasts.create(service_token, mode="capture", seats=2, seed=3)
    rng = random.Random(2)
    for _ in range(12):
        beasts.play_step(match, rng.choice)
    version = beasts.summary(match.match_id, match.tokens[0]).version
    keys = match_keys(match.match_id, SHARDS)
    client = redis.Redis.from_url(redis_url)
    assert client.xlen(keys.events) == version == 13
    notices = []
    for _, fields in stream_entries(client, keys.shard.turns):
        notice = common_pb2.MatchEvent.FromString(fields[b"pb"])
        if notice.match_id == match.match_id:
            notices.append(notice.version)
    assert notices == list(range(1, version + 1))
    client.close()


def watch(beasts: GameClient, match_id: str, token: str, from_version: int) -> Iterator[beasts_pb2.WatchResponse]:
    request = beasts_pb2.WatchRequest(match_id=match_id, from_version=from_version)
    yield from beasts.stub.Watch(request, metadata=bearer(token), timeout=60)


def test_watch_resumes_after_a_disconnect_with_no_gap_and_no_duplicate(
    beasts: GameClient, service_token: str, signer: TokenSigner
) -> None:
    match = beasts.create(service_token, mode="training", seats=3, options={"spell_cards": "true"})
    rng = random.Random(5)
    for _ in range(8):
        beasts.play_step(match, rng.choice)
    spectator, _ = signer.issue_player("fan", "Fan", 600)
    seen: list[int] = []
    stream = beasts.stub.Watch(
        beasts_pb2.WatchRequest(match_id=match.match_id, from_version=0), metadata=bearer(spectator), timeout=60
    )
    for response in stream:
        seen.append(response.version)
        if response.HasField("view"):
            break
    stream.cancel()  # the client goes away
    assert seen == list(range(1, 10))
    for _ in range(8):
        beasts.play_step(match, rng.choice)
    for response in watch(beasts, match.match_id, spectator, seen[-1]):
        seen.append(response.version)
        if response.HasField("view"):
            break
    assert seen == list(range(1, 18))


def test_a_live_watcher_sees_every_version_until_the_end(beasts: GameClient, service_token: str) -> None:
    match = beasts.create(service_token, mode="capture", seats=2, seed=21)
    versions: list[int] = []
    last_view: list[beasts_pb2.View] = []

    def follow() -> None:
        for response in watch(beasts, match.match_id, match.tokens[1], 0):
            versions.append(response.version)
            if response.HasField("view"):
                last_view.append(response.view)

    watcher = threading.Thread(target=follow)
    watcher.start()
    beasts.play_to_end(match, random.Random(4))
    watcher.join(30)
    assert not watcher.is_alive(), "Watch must end when the match is over"
    final = beasts.summary(match.match_id, match.tokens[0])
    assert final.status == common_pb2.MATCH_STATUS_FINISHED
    assert versions == list(range(1, final.version + 1))
    assert last_view[-1].prompt.kind == "finished"


def test_views_and_events_show_spells_only_to_their_holder(
    beasts: GameClient, service_token: str, signer: TokenSigner
) -> None:
    match = beasts.create(service_token, mode="training", seats=3, options={"spell_cards": "true"}, seed=9)
    spectator, _ = signer.issue_player("fan", "Fan", 600)
    for seat, token in match.tokens.items():
        view = beasts.view(match.match_id, token).view
        for player in view.players:
            assert bool(player.spells) == (player.seat == seat)
            assert player.spell_count >= 2
        for response in watch(beasts, match.match_id, token, 0):
            for event in response.events:
                if event.WhichOneof("kind") == "spell_drawn":
                    drawn = event.spell_drawn
                    assert (drawn.spell != beasts_pb2.SPELL_UNSPECIFIED) == (drawn.seat == seat)
            break
    view = beasts.view(match.match_id, spectator).view
    assert not view.HasField("viewer")
    assert all(not p.spells for p in view.players)


def test_a_finished_match_replays_from_its_stored_actions(
    beasts: GameClient, service_token: str, redis_url: str
) -> None:
    match = beasts.create(service_token, mode="training", seats=4, options={"spell_cards": "true"})
    beasts.play_to_end(match, random.Random(8))
    client = redis.Redis.from_url(redis_url)
    replayed, stored = replayed_and_stored_state(client, match.match_id, ENGINE, Action, BeastsState)
    assert replayed == stored
    keys = match_keys(match.match_id, SHARDS)
    assert client.ttl(keys.state) > 0 and client.ttl(keys.events) > 0  # finished matches expire
    client.close()


def test_list_and_get_matches(beasts: GameClient, service_token: str) -> None:
    created = []
    for _ in range(3):
        created.append(beasts.create(service_token, mode="capture", seats=2))
        time.sleep(0.005)  # listing is by creation time in milliseconds
    finished = created[0]
    beasts.play_to_end(finished, random.Random(1))
    listing = beasts.matches.ListMatches(matches_pb2.ListMatchesRequest(page_size=2), metadata=bearer(service_token))
    assert len(listing.matches) == 2 and listing.next_page_token
    following = beasts.matches.ListMatches(
        matches_pb2.ListMatchesRequest(page_size=2, page_token=listing.next_page_token), metadata=bearer(service_token)
    )
    first_page = [m.match_id for m in listing.matches]
    assert first_page == [created[2].match_id, created[1].match_id]
    assert following.matches[0].match_id == created[0].match_id
    done = beasts.matches.ListMatches(
        matches_pb2.ListMatchesRequest(page_size=100, status=common_pb2.MATCH_STATUS_FINISHED),
        metadata=bearer(service_token),
    )
    assert finished.match_id in [m.match_id for m in done.matches]
    assert all(m.status == common_pb2.MATCH_STATUS_FINISHED for m in done.matches)
    summary = beasts.summary(finished.match_id, service_token)
    assert len(summary.outcome.seats) == 2 and summary.outcome.reason


def test_a_bot_decides_for_a_human_only_after_the_turn_timer(
    beasts: GameClient, service_token: str, signer: TokenSigner
) -> None:
    match = beasts.create(service_token, mode="capture", seats=2, turn_timer=1)
    seat = beasts.summary(match.match_id, service_token).to_act[0]
    bot_token, _ = signer.issue_seat(match.match_id, seat, "bots", "Bot", 60, bot=True)
    version = beasts.legal(match.match_id, match.tokens[seat]).view_version
    with pytest.raises(grpc.RpcError) as refused:
        beasts.submit(match.match_id, bot_token, ROLL, version)
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    time.sleep(1.2)
    reply = beasts.submit(match.match_id, bot_token, ROLL, version)
    assert reply.events[0].header.timeout_decision is True
    move = beasts.legal(match.match_id, match.tokens[seat]).actions[0]
    reply = beasts.submit(match.match_id, match.tokens[seat], move, reply.view_version)
    assert reply.events[0].header.timeout_decision is False


def test_sigterm_drains_and_exits_cleanly(redis_url: str, service_token: str) -> None:
    with game_process("beasts", redis_url, KEYS, MENAGERIE_LOG_LEVEL="info", MENAGERIE_GRACE_SECONDS="1") as service:
        client = GameClient("beasts", service.address)
        match = client.create(service_token, mode="training", seats=2)
        stream = client.stub.Watch(
            beasts_pb2.WatchRequest(match_id=match.match_id), metadata=bearer(match.tokens[0]), timeout=30
        )
        next(stream)
        started = time.monotonic()
        code = stop_process(service.process)
        elapsed = time.monotonic() - started
        client.close()
    assert code == 0
    assert elapsed < 5
    log = service.output()
    assert "draining" in log and "service stopped" in log


def test_prometheus_metrics_count_rpcs_by_code(redis_url: str, service_token: str) -> None:
    import urllib.request

    from tests.support.redis_server import free_port

    port = free_port()
    with game_process("beasts", redis_url, KEYS, MENAGERIE_METRICS_PORT=str(port)) as svc:
        client = GameClient("beasts", svc.address)
        match = client.create(service_token, mode="training", seats=2)
        with pytest.raises(grpc.RpcError):
            client.submit(match.match_id, match.tokens[0], beasts_pb2.Action(), 1)
        client.close()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
            text = reply.read().decode()
    assert 'menagerie_rpc_total{code="OK",method="/menagerie.common.v1.Matches/CreateMatch"} 1.0' in text
    assert 'menagerie_rpc_total{code="INVALID_ARGUMENT",method="/menagerie.beasts.v1.Beasts/SubmitAction"} 1.0' in text
    assert "menagerie_rpc_seconds_bucket" in text


# ------------------------------------------------------------------ mode III (advanced, co-op)


def event_round_trip(event: Event) -> Event:
    """An event through beasts_pb2.Event (as the service sends it) and back."""
    fields = msgspec.to_builtins(event)
    message = codec.fill_oneof(beasts_pb2.Event(), fields.pop(codec.TAG), fields)
    kind = message.WhichOneof("kind")
    assert kind is not None
    body = codec.from_message(getattr(message, kind), dict[str, Any])
    decoded: Event = msgspec.convert({codec.TAG: kind, **body}, Event)
    return decoded


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_mode_iii_views_events_and_actions_survive_protobuf(seats: int) -> None:
    """Seeded advanced matches: every view (each seat's and a spectator's), event and legal action, both ways."""
    kinds: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        state, events = ENGINE.setup(MatchSetup("advanced", seats), 500 + 10 * seed + seats)
        step = 0
        while True:
            for event in events:
                kinds.add(type(event).__name__)
                for viewer in (None, 0):
                    shown = project(event, viewer)
                    assert event_round_trip(shown) == shown
            if step % 5 == 0 or ENGINE.outcome(state) is not None:
                for viewer in (None, *range(seats)):
                    view = ENGINE.view(state, viewer)
                    message = codec.to_message(beasts_pb2.View, view)
                    assert message.mode == beasts_pb2.MODE_ADVANCED
                    assert codec.from_message(message, BeastsView) == view
            if ENGINE.outcome(state) is not None:
                break
            seat = rng.choice(ENGINE.to_act(state).seats())
            legal = ENGINE.legal_actions(state, seat)
            for action in legal:
                assert codec.decode_tagged(codec.tagged_to_message(beasts_pb2.Action, action), Action, "a") == action
            events = ENGINE.apply(state, seat, rng.choice(legal))
            step += 1
    assert {"CharacterChosen", "CreaturePlaced", "SalemerPlaced", "BarRefilled", "FightRolled"} <= kinds
    assert {"EventRevealed", "RoundEnded", "MatchFinished"} <= kinds


def test_a_mode_iii_match_plays_to_a_co_op_end_through_the_service(
    beasts: GameClient, service_token: str, redis_url: str, signer: TokenSigner
) -> None:
    match = beasts.create(service_token, mode="advanced", seats=3, seed=41)
    view = beasts.view(match.match_id, match.tokens[0]).view
    assert view.mode == beasts_pb2.MODE_ADVANCED
    assert view.prompt.kind == "character" and len(view.bar) == 5 and view.pool.red > 0
    assert list(view.bar_colours) == [
        beasts_pb2.COLOUR_WILD,
        beasts_pb2.COLOUR_BLUE,
        beasts_pb2.COLOUR_GREEN,
        beasts_pb2.COLOUR_YELLOW,
        beasts_pb2.COLOUR_RED,
    ]
    chooser = match.tokens[view.prompt.must[0]]
    legal = beasts.legal(match.match_id, chooser)
    assert {a.WhichOneof("kind") for a in legal.actions} == {"choose_character"}
    assert all(label.text and label.code for label in legal.labels)
    final = beasts.play_to_end(match, random.Random(12))
    assert final.status == common_pb2.MATCH_STATUS_FINISHED
    results = {s.result for s in final.outcome.seats}
    assert results in ({common_pb2.RESULT_WIN}, {common_pb2.RESULT_LOSS}), final.outcome
    spectator, _ = signer.issue_player("fan", "Fan", 600)
    kinds: set[str] = set()
    for response in watch(beasts, match.match_id, spectator, 0):
        for event in response.events:
            kind = event.WhichOneof("kind")
            assert kind is not None
            kinds.add(kind)
            if kind in {"character_chosen", "fight_rolled", "round_ended", "match_finished"}:
                assert event.header.text, kind
        if response.HasField("view"):
            assert response.view.prompt.kind == "finished"
            break
    assert {"character_chosen", "creature_placed", "salemer_placed", "bar_refilled", "round_ended"} <= kinds
    client = redis.Redis.from_url(redis_url)
    replayed, stored = replayed_and_stored_state(client, match.match_id, ENGINE, Action, BeastsState)
    assert replayed == stored
    client.close()
