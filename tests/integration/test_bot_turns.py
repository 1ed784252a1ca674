"""A bot deciding from the turn its game service wrote for it (BotTurn), against a real Beasts service, no pool.

The worker's player (menagerie.bots.turns.TurnPlayer) is handed a written turn as its task
reads it with its mark: a turn gone stale is refused cleanly by the game service's version
check and nothing is applied; a task of a later decision with an older written turn asks
the game for fresh data instead; a written move the game refuses is decided again from
what the game answers now. Each decision's move lands once: one idempotency key per move.
No dispatcher or worker runs here: the test plays the tasks.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

import grpc
import msgspec
import pytest
import redis

from menagerie.bots.turns import TurnPlayer, TurnResult
from menagerie.rules import registry
from menagerie.rules.contract import MatchSetup
from menagerie.shared.bots import BotTurn, bot_turn_decoder
from menagerie.shared.store.keys import match_keys
from tests.support.fixtures import GameServices
from tests.support.game_client import GameClient
from tests.support.keys import KEYS
from tests.support.stored_match import idempotency_fields, stored_entries

pytestmark = pytest.mark.integration

SHARDS = 16  # the game services' default (MENAGERIE_SHARDS is not set in the tests)
GAME = "beasts"
ENGINE = registry.engine(GAME)
TURNS = bot_turn_decoder(ENGINE.view_type, ENGINE.action_type)


@pytest.fixture
def player(game_services: GameServices) -> Iterator[TurnPlayer]:
    channel = grpc.insecure_channel(game_services[GAME].address)
    yield TurnPlayer(KEYS.signer(), {GAME: GAME}, lambda _: channel, call_timeout=5.0, decision_timeout=10.0)
    channel.close()


@pytest.fixture
def store(redis_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


def written(store: redis.Redis, match_id: str) -> dict[int, bytes]:
    """The turns the game service wrote for the bot seats that must act now."""
    raw = cast("dict[bytes, bytes]", store.hgetall(match_keys(match_id, SHARDS).bot_turns))
    return {int(seat): turn for seat, turn in raw.items()}


def bot_token(match_id: str, seat: int) -> str:
    return KEYS.signer().issue_seat(match_id, seat, "bot:greedy", "Bot", 60, bot=True)[0]


def test_a_stale_written_turn_is_refused_cleanly_and_the_due_one_played_once(
    beasts: GameClient, player: TurnPlayer, store: redis.Redis, service_token: str
) -> None:
    match = beasts.create(service_token, mode="training", seats=3, bots=(0, 1, 2), bot_level="greedy", seed=21)
    match_id = match.match_id
    seat, old = min(written(store, match_id).items())
    version = TURNS.decode(old).view_version
    # The seat's decision is made meanwhile by another hand (another idempotency key): the match moves on.
    token = bot_token(match_id, seat)
    beasts.submit(match_id, token, beasts.legal(match_id, token).actions[0], version)
    moved = idempotency_fields(store, match_id)
    assert len(moved) == 1

    # The task of that decision, with the turn written for it: the game refuses (ABORTED), nothing lands.
    assert player.play(GAME, match_id, seat, version, "greedy", turn=old) is TurnResult.STALE
    fresh = written(store, match_id)
    if seat in fresh:  # its turn again, written at a later version: stale without asking
        assert player.play(GAME, match_id, seat, version, "greedy", turn=fresh[seat]) is TurnResult.STALE
    assert idempotency_fields(store, match_id) == moved

    # The decision due now, from its own written turn: played once; its task delivered again with an
    # older written turn asks the game instead, finds its move made, and moves nothing.
    due, raw = min(fresh.items())
    due_version = TURNS.decode(raw).view_version
    assert due_version > version or due != seat
    assert player.play(GAME, match_id, due, due_version, "greedy", turn=raw) is TurnResult.PLAYED
    assert player.play(GAME, match_id, due, due_version, "greedy", turn=old) in (TurnResult.STALE, TurnResult.PLAYED)
    keys = idempotency_fields(store, match_id)
    assert len(keys) == 2 == len(set(keys)) and f"{due}:bot:{match_id}:{due}:{due_version}" in keys


def test_a_written_move_the_game_refuses_is_decided_again_from_the_games_answers(
    beasts: GameClient, player: TurnPlayer, store: redis.Redis, service_token: str
) -> None:
    seed = 22
    match = beasts.create(service_token, mode="training", seats=3, bots=(0, 1, 2), bot_level="greedy", seed=seed)
    match_id = match.match_id
    seat, raw = min(written(store, match_id).items())
    turn = TURNS.decode(raw)
    # An action of the game that is not legal now: one the seat may take a move later.
    state, _ = ENGINE.setup(MatchSetup("training", 3), seed)
    ENGINE.apply(state, seat, turn.actions[0])
    illegal = next(a for a in ENGINE.legal_actions(state, seat) if a not in turn.actions)
    wrong = msgspec.msgpack.encode(BotTurn(turn.view_version, [illegal], turn.view))

    assert player.play(GAME, match_id, seat, turn.view_version, "greedy", turn=wrong) is TurnResult.PLAYED
    entries = stored_entries(store, match_id)
    assert len(entries) == 1 and entries[0].seat == seat
    assert msgspec.msgpack.decode(entries[0].action, type=ENGINE.action_type) in turn.actions
