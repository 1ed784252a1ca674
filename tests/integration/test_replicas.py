"""Replicas on one Redis: any Beasts replica serves any move; two lobbies seat each ticket once; bots decide once."""

from __future__ import annotations

import random
import time
import urllib.request
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass

import grpc
import pytest
import redis

from menagerie.beasts.v1 import beasts_pb2
from menagerie.common.v1 import matches_pb2, matches_pb2_grpc
from menagerie.lobby import keys as lobby_keys
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from menagerie.shared.rpc.channels import open_channel
from tests.support.game_client import GameClient, bearer
from tests.support.keys import KEYS
from tests.support.lobby_client import queue_until_seated
from tests.support.redis_server import free_port, stream_entries, throwaway_redis
from tests.support.services import ServiceProcess, bot_worker_process, dispatcher_process, game_process, service_process
from tests.support.stored_match import idempotency_fields, stored_entries

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def second_replica(redis_url: str) -> Iterator[ServiceProcess]:
    with game_process("beasts", redis_url, KEYS) as service:
        yield service


def test_moves_alternating_between_replicas_all_land(
    beasts: GameClient, second_replica: ServiceProcess, service_token: str
) -> None:
    other = GameClient("beasts", second_replica.address)
    replicas = [beasts, other]
    rng = random.Random(6)
    match = beasts.create(service_token, mode="training", seats=3, options={"spell_cards": "true"})
    moves = 0
    while True:
        # Each replica has cached the snapshot of its own last move; the other moved since.
        reader, writer = rng.sample(replicas, 2)
        summary = reader.summary(match.match_id, match.tokens[0])
        if not summary.to_act:
            break
        token = match.tokens[summary.to_act[0]]
        legal = reader.legal(match.match_id, token)
        key = uuid.uuid4().hex
        action = rng.choice(legal.actions)
        first = writer.submit(match.match_id, token, action, legal.view_version, key=key)
        retry = reader.submit(match.match_id, token, action, legal.view_version, key=key)
        assert first.SerializeToString() == retry.SerializeToString()
        assert first.version == summary.version + 1
        moves += 1
    final = beasts.summary(match.match_id, service_token)
    assert final.version == moves + 1
    assert final.outcome.reason
    other.close()


def test_a_stale_replica_still_refuses_an_old_version(
    beasts: GameClient, second_replica: ServiceProcess, service_token: str
) -> None:
    other = GameClient("beasts", second_replica.address)
    match = beasts.create(service_token, mode="capture", seats=2)
    seat = beasts.summary(match.match_id, service_token).to_act[0]
    token = match.tokens[seat]
    version = other.legal(match.match_id, token).view_version  # the other replica caches version 1
    beasts.submit(match.match_id, token, beasts_pb2.Action(roll=beasts_pb2.Roll()), version)
    move = beasts.legal(match.match_id, token).actions[0]
    with pytest.raises(grpc.RpcError) as stale:
        other.submit(match.match_id, token, move, version)
    assert stale.value.code() == grpc.StatusCode.ABORTED
    fresh = other.legal(match.match_id, token).view_version
    assert other.submit(match.match_id, token, move, fresh).version == version + 2
    other.close()


# Replicas of every service on one Redis: three Beasts processes, two lobbies, two
# dispatchers, each caller spreading its calls over them round-robin, the bot worker per match
# (every call of a match to one replica: menagerie.shared.rpc.channels).
TICKETS = 12
BOT_MATCHES = 6


@dataclass
class Replicas:
    """The replicated platform: each service's replica addresses, and the bot worker's metrics port."""

    games: list[str]
    lobbies: list[str]
    dispatchers: list[ServiceProcess]
    metrics_port: int
    redis_url: str


@pytest.fixture(scope="module")
def replicas() -> Iterator[Replicas]:
    # A Redis server of its own: the session's dispatcher and worker (other tests' bot matches)
    # would otherwise play these matches too, or this worker theirs, and the count of decisions
    # played would not be this platform's alone.
    with ExitStack() as stack:
        redis_url, _kind = stack.enter_context(throwaway_redis())
        games = [stack.enter_context(game_process("beasts", redis_url, KEYS)).address for _ in range(3)]
        endpoints = "beasts=" + "|".join(games)  # all three (channels.grpc_target)
        lobbies = [
            stack.enter_context(
                service_process(
                    "menagerie.lobby",
                    redis_url,
                    KEYS,
                    MENAGERIE_GAME_ENDPOINTS=endpoints,
                    MENAGERIE_MATCHMAKER_INTERVAL_MS="50",
                )
            ).address
            for _ in range(2)
        ]
        dispatchers = [
            stack.enter_context(
                dispatcher_process(
                    redis_url,
                    KEYS,
                    MENAGERIE_GAME_ENDPOINTS=endpoints,
                    MENAGERIE_DEADLINE_SCAN_MS="100",
                )
            )
            for _ in range(2)
        ]
        metrics_port = free_port()
        stack.enter_context(
            bot_worker_process(
                redis_url,
                KEYS,
                MENAGERIE_GAME_ENDPOINTS=endpoints,
                MENAGERIE_METRICS_PORT=str(metrics_port),
            )
        )
        yield Replicas(games, lobbies, dispatchers, metrics_port, redis_url)


def balanced_channel(addresses: list[str]) -> grpc.Channel:
    """A channel that sends each call to the next of `addresses` (gRPC round_robin)."""
    return open_channel("|".join(addresses))


def bot_turns(metrics_port: int, result: str) -> float:
    """The worker's menagerie_bot_turns_total for Beasts decisions that ended in `result`."""
    with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=5) as reply:
        text = reply.read().decode()
    sample = f'menagerie_bot_turns_total{{game="beasts",result="{result}"}} '
    return sum(float(line.removeprefix(sample)) for line in text.splitlines() if line.startswith(sample))


def test_two_lobbies_seat_every_ticket_exactly_once(replicas: Replicas) -> None:
    players = [f"replica-{i}" for i in range(TICKETS)]
    with balanced_channel(replicas.lobbies) as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        request = lobby_pb2.CreateTicketRequest(
            game="beasts", mode="training", min_seats=3, max_seats=3, max_wait_seconds=60, turn_timer_seconds=3600
        )
        with ThreadPoolExecutor(TICKETS) as pool:
            seated = list(pool.map(lambda name: queue_until_seated(lobby, request, name)[1], players))
    assert all(t.status == lobby_pb2.TICKET_STATUS_SEATED for t in seated)
    by_match: dict[str, list[lobby_pb2.Ticket]] = {}
    for ticket in seated:
        by_match.setdefault(ticket.seating.match_id, []).append(ticket)
    # Each match got three different tickets in three different seats; no ticket is in two.
    assert len(by_match) == TICKETS // 3
    assert all(sorted(t.seating.seat for t in tickets) == [0, 1, 2] for tickets in by_match.values())
    assert len({t.ticket_id for t in seated}) == TICKETS
    client = redis.Redis.from_url(replicas.redis_url)
    for ticket in seated:
        statuses = [f[b"status"] for _, f in stream_entries(client, lobby_keys.updates(ticket.ticket_id))]
        assert statuses.count(b"seated") == 1, f"{ticket.ticket_id} told seated {statuses.count(b'seated')} times"
    client.close()
    # Every match the lobbies started exists at the game, whichever replica created it.
    with balanced_channel(replicas.games) as channel:
        matches = matches_pb2_grpc.MatchesStub(channel)
        for match_id, tickets in by_match.items():
            summary = matches.GetMatch(
                matches_pb2.GetMatchRequest(match_id=match_id), metadata=bearer(tickets[0].seating.seat_token)
            ).match
            assert len(summary.seats) == 3


def test_bots_across_replicas_make_each_decision_once(replicas: Replicas, service_token: str) -> None:
    clients = [GameClient("beasts", address) for address in replicas.games]
    # Created on every replica in turn; played by two dispatchers and one worker that calls each match's replica.
    created = [
        clients[i % len(clients)].create(service_token, mode="capture", seats=2, bots=(0, 1))
        for i in range(BOT_MATCHES)
    ]
    deadline = time.monotonic() + 240
    pending = {m.match_id for m in created}
    while pending:
        assert time.monotonic() < deadline, f"{len(pending)} bot matches did not finish"
        for index, match_id in enumerate(sorted(pending)):
            if clients[index % len(clients)].summary(match_id, service_token).outcome.reason:
                pending.discard(match_id)
        time.sleep(0.2)
    client = redis.Redis.from_url(replicas.redis_url)
    moves = 0
    for match in created:
        rows = stored_entries(client, match.match_id)
        keys = idempotency_fields(client, match.match_id)
        # One idempotency key per accepted move, each naming its own decision: none applied twice.
        assert len(keys) == len(rows) == len(set(keys))
        assert all(key.split(":", 1)[1].startswith(f"bot:{match.match_id}:") for key in keys)
        moves += len(rows)
    client.close()
    # And none played twice: the worker played exactly as many decisions as moves were made
    # (it counts a decision once its move was answered: the last one may be counted just after).
    deadline = time.monotonic() + 10
    while (played := bot_turns(replicas.metrics_port, "played")) < moves and time.monotonic() < deadline:
        time.sleep(0.1)
    assert played == moves
    for client_ in clients:
        client_.close()
