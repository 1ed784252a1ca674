"""mcts through the platform: offered by the lobby, its budget checked against the turn timer and
stored with the match, its decisions on a search queue of their own that only search workers play."""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import AbstractContextManager
from functools import partial
from typing import Any

import grpc
import pytest
import redis

from menagerie.arena import local, stack
from menagerie.bots.celery_app import queue_for
from menagerie.common.v1 import common_pb2, matches_pb2
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tests.support.fixtures import GameClients
from tests.support.game_client import Auth, GameClient, bearer, status_of
from tests.support.keys import KEYS
from tests.support.probes import wait_for
from tests.support.services import ServiceProcess, bot_worker_process

pytestmark = pytest.mark.integration


def register(lobby: lobby_pb2_grpc.LobbyStub, name: str) -> Auth:
    return bearer(lobby.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name=name)).token)


def attempt(call: Callable[..., object], request: object, auth: Auth) -> tuple[grpc.StatusCode, str]:
    """The status and details of a call that must fail."""
    return status_of(lambda: call(request, metadata=auth))


def create_match(
    game: GameClient, service_token: str, level: str, budget: float = 0.0, timer: int = 0, bots: int = 2
) -> str:
    """A 2-seat Beasts training match whose first `bots` seats are bots at `level`; its id."""
    seats = [
        common_pb2.SeatInfo(
            seat=seat,
            player_id="" if seat < bots else f"p{seat}",
            kind=common_pb2.SEAT_KIND_BOT if seat < bots else common_pb2.SEAT_KIND_HUMAN,
            bot_level=level if seat < bots else "",
        )
        for seat in range(2)
    ]
    config = common_pb2.MatchConfig(game="beasts", mode="training", turn_timer_seconds=timer, bot_budget_seconds=budget)
    request = matches_pb2.CreateMatchRequest(config=config, seats=seats)
    return str(game.matches.CreateMatch(request, metadata=bearer(service_token)).match.match_id)


def test_the_lobby_refuses_a_bot_budget_that_does_not_fit(lobby: lobby_pb2_grpc.LobbyStub, redis_url: str) -> None:
    ann = lobby.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name="Ann"))
    auth = bearer(ann.token)
    client = redis.Redis.from_url(redis_url)
    # The session's lobby serves other tests' players meanwhile (their matches end, ratings
    # change): what must not change is what Ann's refused requests would have written.
    record = client.dump(f"lb:player:{ann.player_id}")
    assert record is not None, "registering keeps a player record"
    before = set(client.keys("lb:*"))
    ticket = partial(
        lobby_pb2.CreateTicketRequest, game="beasts", mode="capture", min_seats=2, max_seats=2, bot_level="mcts"
    )
    table = partial(
        lobby_pb2.CreateTableRequest, game="beasts", mode="capture", seats=2, bot_seats=[1], bot_level="mcts"
    )
    cases: list[tuple[dict[str, Any], str]] = [
        ({"bot_budget_seconds": 5, "turn_timer_seconds": 3}, "bot_budget_seconds (5 s) must fit the turn timer"),
        ({"bot_budget_seconds": 11}, "bot_budget_seconds must be at most 10"),
        ({"bot_budget_seconds": -1}, "bot_budget_seconds must be a number of seconds ≥ 0"),
        ({"bot_budget_seconds": 2, "turn_timer_seconds": 1}, "at most turn_timer_seconds (1 s)"),
    ]
    for make, call in ((ticket, lobby.CreateTicket), (table, lobby.CreateTable)):
        for fields, message in cases:
            code, details = attempt(call, make(**fields), auth)
            assert code == grpc.StatusCode.INVALID_ARGUMENT, details
            assert message in details
    created = {os.fsdecode(key) for key in set(client.keys("lb:*")) - before}
    assert not [k for k in created if ":ticket:" in k or k.endswith((":table", ":waiting"))], created
    assert client.dump(f"lb:player:{ann.player_id}") == record, "a refused request stored nothing"
    client.close()


def test_the_game_service_refuses_a_budget_longer_than_the_match_timer(
    game_client: GameClients, service_token: str
) -> None:
    beasts = game_client("beasts")
    code, details = status_of(lambda: create_match(beasts, service_token, "mcts", budget=4, timer=2, bots=1))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "must fit the turn timer" in details
    beasts.close()


def test_mcts_is_offered_and_a_table_carries_its_budget_to_the_match(
    lobby: lobby_pb2_grpc.LobbyStub, game_client: GameClients
) -> None:
    auth = register(lobby, "Host")
    request = lobby_pb2.CreateTableRequest(
        game="beasts",
        mode="training",
        seats=3,
        bot_seats=[1, 2],
        bot_level="mcts",
        turn_timer_seconds=30,
        bot_budget_seconds=0.5,
    )
    created = lobby.CreateTable(request, metadata=auth)
    assert (created.ticket.bot_level, created.ticket.bot_budget_seconds) == ("mcts", 0.5)
    seating = None
    watch = lobby_pb2.WatchTicketRequest(ticket_id=created.ticket.ticket_id)
    for update in lobby.WatchTicket(watch, metadata=auth, timeout=20):
        seating = update.ticket.seating if update.ticket.status == lobby_pb2.TICKET_STATUS_SEATED else None
    assert seating is not None and seating.bots == 2
    beasts = game_client("beasts")
    summary = beasts.summary(seating.match_id, seating.seat_token)
    assert (summary.config.turn_timer_seconds, summary.config.bot_budget_seconds) == (30, 0.5)
    assert [(s.kind, s.bot_level) for s in summary.seats] == [
        (common_pb2.SEAT_KIND_HUMAN, ""),
        (common_pb2.SEAT_KIND_BOT, "mcts"),
        (common_pb2.SEAT_KIND_BOT, "mcts"),
    ]
    beasts.close()


@pytest.mark.usefixtures("dispatcher")
def test_mcts_decisions_go_to_the_search_queue_which_only_search_workers_play(
    game_client: GameClients, service_token: str, redis_url: str, game_endpoints: str
) -> None:
    beasts = game_client("beasts")

    def worker(queues: str) -> AbstractContextManager[ServiceProcess]:
        return bot_worker_process(
            redis_url,
            KEYS,
            MENAGERIE_GAME_ENDPOINTS=game_endpoints,
            MENAGERIE_WORKER_GAMES="beasts",
            MENAGERIE_WORKER_QUEUES=queues,
        )

    def version(match_id: str) -> int:
        return int(beasts.summary(match_id, service_token).version)

    queues = redis.Redis.from_url(redis_url)
    search = create_match(beasts, service_token, "mcts", budget=0.1)
    wait_for(lambda: bool(queues.llen(queue_for("beasts", "mcts"))), 10, "the mcts decision in the search queue")
    with worker("plain"):
        greedy = create_match(beasts, service_token, "greedy")
        wait_for(lambda: version(greedy) >= 4, 60, "the greedy bots to play on the plain queue")
        assert version(search) == 1, "a plain worker played an mcts decision"
        assert queues.llen(queue_for("beasts", "mcts")), "the mcts decision waits in the search queue"
    with worker("search"):
        wait_for(lambda: version(search) >= 4, 60, "the mcts bots to play from the search queue")
    queues.close()
    beasts.close()


@pytest.mark.usefixtures("dispatcher", "bot_worker")
def test_the_arena_plays_its_pairings_through_the_stack(lobby_service: ServiceProcess) -> None:
    plan = local.make_plan("beasts", "capture", ["greedy", "random"], games=2, seed=0)
    arena = stack.run(plan, lobby_service.address)
    (pairing,) = arena.pairings
    assert pairing.games == 2
    assert pairing.first_wins + pairing.second_wins + pairing.shared + pairing.draws == 2
    assert [r.levels for r in pairing.results] == [("greedy", "random"), ("random", "greedy")]
    assert all(r.actions > 0 for r in pairing.results)
    # The arena played the random seat itself (the pool the greedy one): its decisions were timed.
    assert arena.decision_seconds.get("random") and "greedy" not in arena.decision_seconds


def test_the_arena_says_when_the_platform_is_not_running() -> None:
    plan = local.make_plan("beasts", "capture", ["greedy", "random"], games=1, seed=0)
    with pytest.raises(stack.PlatformDown, match="make run"):
        stack.run(plan, "127.0.0.1:1")
