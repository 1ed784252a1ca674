"""The lobby against a real Redis and a real Beasts service: tickets, tables, ratings."""

from __future__ import annotations

import os
import threading
import time
from collections import Counter

import grpc
import pytest
import redis

from menagerie.common.v1 import common_pb2, matches_pb2
from menagerie.lobby import keys as lobby_keys
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tests.support.fixtures import GameClients, GameServices
from tests.support.game_client import Auth, bearer, status_of
from tests.support.keys import KEYS
from tests.support.services import ServiceProcess, service_process

pytestmark = pytest.mark.integration


def register(lobby: lobby_pb2_grpc.LobbyStub, name: str = "Ann") -> tuple[str, Auth]:
    reply = lobby.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name=name))
    return reply.player_id, bearer(reply.token)


def ticket_request(mode: str = "capture", seats: int = 2, **fields: object) -> lobby_pb2.CreateTicketRequest:
    return lobby_pb2.CreateTicketRequest(
        game="beasts",
        mode=mode,
        min_seats=seats,
        max_seats=seats,
        **fields,  # type: ignore[arg-type]
    )


def seated(lobby: lobby_pb2_grpc.LobbyStub, ticket_id: str, auth: Auth, timeout: float = 20) -> lobby_pb2.Ticket:
    """Follows WatchTicket to its end and returns the last ticket."""
    last = None
    for update in lobby.WatchTicket(lobby_pb2.WatchTicketRequest(ticket_id=ticket_id), metadata=auth, timeout=timeout):
        last = update.ticket
    assert last is not None
    return last


def test_register_and_list_games(lobby: lobby_pb2_grpc.LobbyStub, game_services: GameServices) -> None:
    player_id, _ = register(lobby)
    assert len(player_id) == 32
    code, details = status_of(lambda: lobby.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name=" ")))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "display_name" in details
    games = lobby.ListGames(lobby_pb2.ListGamesRequest()).games
    # Every installed game, in the order of MENAGERIE_GAME_ENDPOINTS (the registry's, by id).
    assert [(g.game, g.endpoint, g.available) for g in games] == [
        (game, service.address, True) for game, service in game_services.items()
    ]
    modes = {g.game: {m.mode for m in g.modes} for g in games}
    assert modes["beasts"] == {"capture", "training", "advanced"}
    assert modes["pursuit"] == {"coop"}
    assert modes["zoo"] == {"beginner", "advanced"}


def test_the_listing_rates_each_bot_level_and_says_where_luck_decides(
    lobby: lobby_pb2_grpc.LobbyStub, game_services: GameServices
) -> None:
    """Issue 33: each competitive mode's bot levels with their ladder rating; Beasts capture named a game of luck."""
    games = {g.game: {m.mode: m for m in g.modes} for g in lobby.ListGames(lobby_pb2.ListGamesRequest()).games}
    for game, mode in [("beasts", "capture"), ("beasts", "training"), ("zoo", "beginner"), ("zoo", "advanced")]:
        levels = games[game][mode].bot_levels
        assert {level.level for level in levels} >= {"random", "greedy", "mcts"}, (game, mode)
        assert [level.rating for level in levels] == sorted((level.rating for level in levels), reverse=True)
        assert [level.label for level in levels] == [f"Bot · about {round(level.rating)}" for level in levels]
        assert all(level.matches > 0 for level in levels)
    capture = games["beasts"]["capture"].bot_levels_note
    assert capture.startswith("A game of luck: the random bot") and "ladder matches" in capture
    assert games["beasts"]["training"].bot_levels_note == games["zoo"]["beginner"].bot_levels_note == ""
    coop = games["pursuit"]["coop"]
    assert (list(coop.bot_levels), coop.bot_levels_note) == ([], ""), "a co-operative mode is not rated"


def test_a_table_asking_for_the_nearest_bot_gets_the_level_rated_nearest_its_host(
    lobby: lobby_pb2_grpc.LobbyStub, game_client: GameClients
) -> None:
    """Issue 33: bot_level "nearest" seats the ladder level whose rating is nearest the host's, at its budget."""
    _, host = register(lobby, "Host")
    levels = next(g for g in lobby.ListGames(lobby_pb2.ListGamesRequest()).games if g.game == "beasts")
    capture = next(m for m in levels.modes if m.mode == "capture").bot_levels
    new_player = 0.0  # a new player's rating: OpenSkill's default ordinal, mu 25 - 3 x 25/3
    expected = min(capture, key=lambda level: abs(level.rating - new_player))
    request = lobby_pb2.CreateTableRequest(game="beasts", mode="capture", seats=2, bot_seats=[1], bot_level="nearest")
    table = lobby.CreateTable(request, metadata=host)
    seat = seated(lobby, table.ticket.ticket_id, host).seating
    game = game_client("beasts")
    summary = game.summary(seat.match_id, seat.seat_token)
    game.close()
    bot = summary.seats[1]
    assert (bot.kind, bot.bot_level) == (common_pb2.SEAT_KIND_BOT, expected.level)
    assert summary.config.bot_budget_seconds == expected.budget_seconds
    coop = lobby_pb2.CreateTableRequest(game="pursuit", mode="coop", seats=2, bot_seats=[1], bot_level="nearest")
    code, details = status_of(lambda: lobby.CreateTable(coop, metadata=host))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "needs the rating ladder of pursuit coop" in details


def test_a_backfilled_table_gets_the_bot_level_rated_nearest_its_humans(
    lobby: lobby_pb2_grpc.LobbyStub, redis_url: str, game_client: GameClients
) -> None:
    """Issue 33: a queue's "nearest" bot is the ladder level nearest the mean rating of the humans who
    start the table together, read when it starts (not the rating of the ticket that asked alone)."""
    listing = next(g for g in lobby.ListGames(lobby_pb2.ListGamesRequest()).games if g.game == "beasts")
    levels = next(m for m in listing.modes if m.mode == "capture").bot_levels

    def nearest_to(rating: float) -> matches_pb2.BotLevelRating:
        return min(levels, key=lambda level: (abs(level.rating - rating), level.rating))

    new_id, new_player = register(lobby, "Newcomer")
    strong_id, strong_player = register(lobby, "Veteran")
    # The Veteran's rating as the leaderboard keeps it: mu 36, sigma 2, shown as mu - 3 sigma = 30.
    redis.Redis.from_url(redis_url).hset(lobby_keys.rating("beasts", strong_id), mapping={"mu": 36.0, "sigma": 2.0})
    together = nearest_to((0.0 + 30.0) / 2)  # the Newcomer is new: 0
    assert together.level != nearest_to(0.0).level or together.budget_seconds != nearest_to(0.0).budget_seconds
    request = ticket_request(seats=3, allow_bots=True, bot_level="nearest", max_wait_seconds=1)
    first = lobby.CreateTicket(request, metadata=new_player).ticket
    assert first.bot_level == "nearest", "chosen when the table starts"
    second = lobby.CreateTicket(request, metadata=strong_player).ticket
    seat = seated(lobby, first.ticket_id, new_player).seating
    assert seated(lobby, second.ticket_id, strong_player).seating.match_id == seat.match_id
    game = game_client("beasts")
    summary = game.summary(seat.match_id, seat.seat_token)
    game.close()
    assert {s.player_id for s in summary.seats} >= {new_id, strong_id}
    bots = [s for s in summary.seats if s.kind == common_pb2.SEAT_KIND_BOT]
    assert [b.bot_level for b in bots] == [together.level]
    assert summary.config.bot_budget_seconds == together.budget_seconds


def test_bad_tickets_are_refused_and_nothing_is_queued(
    lobby: lobby_pb2_grpc.LobbyStub, redis_url: str, game_services: GameServices
) -> None:
    player_id, auth = register(lobby)
    client = redis.Redis.from_url(redis_url)
    # The session's lobby serves other tests' tickets meanwhile (keys come and expire): what
    # must not appear is a ticket, table or queue of these refused requests, nor a slot of Ann's.
    record = client.dump(f"lb:player:{player_id}")
    before = set(client.keys("lb:*"))

    def refused(request: lobby_pb2.CreateTicketRequest, metadata: Auth | None = auth) -> tuple[grpc.StatusCode, str]:
        return status_of(lambda: lobby.CreateTicket(request, metadata=metadata))

    assert refused(lobby_pb2.CreateTicketRequest(game="chess", mode="x")) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        f"unknown game 'chess'; games: {', '.join(game_services)}",
    )
    code, details = refused(lobby_pb2.CreateTicketRequest(game="beasts", mode="expert"))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "no mode 'expert'" in details
    code, details = refused(ticket_request(seats=7))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "2–6 seats; asked for 7–7" in details
    code, details = refused(lobby_pb2.CreateTicketRequest(game="beasts", mode="capture", min_seats=4, max_seats=3))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "more than max_seats" in details
    code, details = refused(ticket_request(max_wait_seconds=601))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "max_wait_seconds must be 1–600" in details
    code, details = refused(ticket_request(bot_level="genius"))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "bot_level" in details
    code, details = refused(ticket_request(mode="training", options={"spell_cards": "maybe"}))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "spell_cards" in details
    assert refused(ticket_request(), metadata=None)[0] == grpc.StatusCode.UNAUTHENTICATED
    service_token = KEYS.signer().issue_service("x", 60)[0]
    assert refused(ticket_request(), metadata=bearer(service_token))[0] == grpc.StatusCode.PERMISSION_DENIED
    created = {os.fsdecode(key) for key in set(client.keys("lb:*")) - before}
    assert not [k for k in created if ":ticket:" in k or k.endswith((":table", ":waiting", ":queue"))], created
    assert client.dump(f"lb:player:{player_id}") == record, "a refused ticket stored nothing"
    client.close()


def test_compatible_tickets_are_grouped_into_one_match(
    lobby: lobby_pb2_grpc.LobbyStub, game_client: GameClients
) -> None:
    players = [register(lobby, f"P{i}") for i in range(3)]
    tickets = [lobby.CreateTicket(ticket_request(seats=3), metadata=auth).ticket for _, auth in players]
    seats = [seated(lobby, t.ticket_id, auth) for t, (_, auth) in zip(tickets, players, strict=True)]
    assert {s.status for s in seats} == {lobby_pb2.TICKET_STATUS_SEATED}
    assert len({s.seating.match_id for s in seats}) == 1
    assert sorted(s.seating.seat for s in seats) == [0, 1, 2]
    assert {s.seating.bots for s in seats} == {0}
    game = game_client("beasts")
    for ticket, (player_id, _) in zip(seats, players, strict=True):
        view = game.view(ticket.seating.match_id, ticket.seating.seat_token)
        assert view.view.viewer == ticket.seating.seat
        summary = game.summary(ticket.seating.match_id, ticket.seating.seat_token)
        assert summary.seats[ticket.seating.seat].player_id == player_id
    game.close()


def test_incompatible_tickets_wait_apart(lobby: lobby_pb2_grpc.LobbyStub) -> None:
    (_, a), (_, b) = register(lobby), register(lobby)
    first = lobby.CreateTicket(ticket_request(mode="capture", seats=2), metadata=a).ticket
    second = lobby.CreateTicket(ticket_request(mode="training", seats=2), metadata=b).ticket
    time.sleep(0.5)
    for ticket, auth in ((first, a), (second, b)):
        update = next(iter(lobby.WatchTicket(lobby_pb2.WatchTicketRequest(ticket_id=ticket.ticket_id), metadata=auth)))
        assert update.ticket.status == lobby_pb2.TICKET_STATUS_WAITING
        lobby.CancelTicket(lobby_pb2.CancelTicketRequest(ticket_id=ticket.ticket_id), metadata=auth)


def test_bots_fill_the_empty_seats_after_max_wait(lobby: lobby_pb2_grpc.LobbyStub) -> None:
    _, auth = register(lobby)
    created = time.monotonic()
    ticket = lobby.CreateTicket(ticket_request(seats=4, allow_bots=True, max_wait_seconds=1), metadata=auth).ticket
    updates = list(lobby.WatchTicket(lobby_pb2.WatchTicketRequest(ticket_id=ticket.ticket_id), metadata=auth))
    elapsed = time.monotonic() - created
    assert updates[0].ticket.status == lobby_pb2.TICKET_STATUS_WAITING
    final = updates[-1].ticket
    assert final.status == lobby_pb2.TICKET_STATUS_SEATED
    assert (final.seating.seats, final.seating.bots) == (4, 3)
    assert 1.0 <= elapsed < 5.0


def test_without_bots_a_lone_ticket_keeps_waiting(lobby: lobby_pb2_grpc.LobbyStub) -> None:
    _, auth = register(lobby)
    ticket = lobby.CreateTicket(ticket_request(seats=5, allow_bots=False, max_wait_seconds=1), metadata=auth).ticket
    time.sleep(1.5)
    stream = lobby.WatchTicket(lobby_pb2.WatchTicketRequest(ticket_id=ticket.ticket_id), metadata=auth)
    assert next(iter(stream)).ticket.status == lobby_pb2.TICKET_STATUS_WAITING
    stream.cancel()
    lobby.CancelTicket(lobby_pb2.CancelTicketRequest(ticket_id=ticket.ticket_id), metadata=auth)


def test_cancel_and_its_refusals(lobby: lobby_pb2_grpc.LobbyStub) -> None:
    _, owner = register(lobby)
    _, stranger = register(lobby, "Eve")
    ticket = lobby.CreateTicket(ticket_request(seats=6, allow_bots=False), metadata=owner).ticket
    request = lobby_pb2.CancelTicketRequest(ticket_id=ticket.ticket_id)
    code, details = status_of(lambda: lobby.CancelTicket(request, metadata=stranger))
    assert code == grpc.StatusCode.PERMISSION_DENIED and "another player" in details
    missing = lobby_pb2.CancelTicketRequest(ticket_id=ticket.ticket_id.split(".")[0] + ".nope")
    assert status_of(lambda: lobby.CancelTicket(missing, metadata=owner))[0] == grpc.StatusCode.NOT_FOUND
    cancelled = lobby.CancelTicket(request, metadata=owner).ticket
    assert cancelled.status == lobby_pb2.TICKET_STATUS_CANCELLED
    assert lobby.CancelTicket(request, metadata=owner).ticket.status == lobby_pb2.TICKET_STATUS_CANCELLED
    assert seated(lobby, ticket.ticket_id, owner).status == lobby_pb2.TICKET_STATUS_CANCELLED

    lucky = lobby.CreateTicket(ticket_request(seats=2, allow_bots=True, max_wait_seconds=1), metadata=owner).ticket
    seated(lobby, lucky.ticket_id, owner)
    code, details = status_of(
        lambda: lobby.CancelTicket(lobby_pb2.CancelTicketRequest(ticket_id=lucky.ticket_id), metadata=owner)
    )
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "already seated" in details


def test_a_private_table_starts_when_its_player_seats_are_taken(
    lobby: lobby_pb2_grpc.LobbyStub, game_client: GameClients
) -> None:
    host_id, host = register(lobby, "Host")
    guest_id, guest = register(lobby, "Guest")
    _, stranger = register(lobby, "Stranger")
    table = lobby.CreateTable(
        lobby_pb2.CreateTableRequest(game="beasts", mode="training", seats=4, bot_seats=[1, 3], bot_level="greedy"),
        metadata=host,
    )
    assert len(table.join_code) == 6 and table.ticket.status == lobby_pb2.TICKET_STATUS_WAITING
    wrong = lobby_pb2.JoinTableRequest(table_id=table.table_id, join_code="AAAAAA")
    code, details = status_of(lambda: lobby.JoinTable(wrong, metadata=guest))
    assert (code, details) == (grpc.StatusCode.PERMISSION_DENIED, "the join code is wrong")
    unknown = lobby_pb2.JoinTableRequest(table_id="0" * 16, join_code=table.join_code)
    assert status_of(lambda: lobby.JoinTable(unknown, metadata=guest))[0] == grpc.StatusCode.NOT_FOUND
    time.sleep(0.3)
    stream = lobby.WatchTicket(lobby_pb2.WatchTicketRequest(ticket_id=table.ticket.ticket_id), metadata=host)
    assert next(iter(stream)).ticket.status == lobby_pb2.TICKET_STATUS_WAITING  # one player seat is still free
    stream.cancel()
    join = lobby_pb2.JoinTableRequest(table_id=table.table_id, join_code=table.join_code)
    joined = lobby.JoinTable(join, metadata=guest).ticket
    host_seat = seated(lobby, table.ticket.ticket_id, host).seating
    guest_seat = seated(lobby, joined.ticket_id, guest).seating
    assert host_seat.match_id == guest_seat.match_id == f"table-{table.table_id}"
    assert (host_seat.seat, guest_seat.seat, host_seat.bots) == (0, 2, 2)
    code, details = status_of(lambda: lobby.JoinTable(join, metadata=stranger))
    assert code == grpc.StatusCode.FAILED_PRECONDITION and "takes no more players" in details
    game = game_client("beasts")
    summary = game.summary(host_seat.match_id, host_seat.seat_token)
    kinds = [(s.player_id, s.kind, s.bot_level) for s in summary.seats]
    assert kinds == [
        (host_id, common_pb2.SEAT_KIND_HUMAN, ""),
        ("bot:greedy", common_pb2.SEAT_KIND_BOT, "greedy"),
        (guest_id, common_pb2.SEAT_KIND_HUMAN, ""),
        ("bot:greedy", common_pb2.SEAT_KIND_BOT, "greedy"),
    ]
    game.close()


def test_a_snitch_advanced_table_carries_its_options_to_the_match(
    lobby: lobby_pb2_grpc.LobbyStub, game_client: GameClients
) -> None:
    """A mode's options go from the table to the match as agreed: Catch the Golden Snitch, Build Your Team."""
    _, host = register(lobby, "Host")
    _, guest = register(lobby, "Guest")
    listing = next(g for g in lobby.ListGames(lobby_pb2.ListGamesRequest()).games if g.game == "snitch")
    advanced = next(m for m in listing.modes if m.mode == "advanced")
    assert {o.name: (o.default_value, list(o.allowed_values)) for o in advanced.options} == {
        "funding": ("5", ["0", "3", "5", "7", "10", "15"]),
        "spectators": ("off", ["off", "on"]),
    }
    options = {"funding": "7", "spectators": "on"}

    def create(**chosen: str) -> lobby_pb2.CreateTableResponse:
        request = lobby_pb2.CreateTableRequest(game="snitch", mode="advanced", seats=2, options=chosen)
        return lobby.CreateTable(request, metadata=host)

    code, details = status_of(lambda: create(funding="6", spectators="on"))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "funding" in details
    table = create(**options)
    assert table.ticket.mode == "advanced" and dict(table.ticket.options) == options
    join = lobby_pb2.JoinTableRequest(table_id=table.table_id, join_code=table.join_code)
    joined = lobby.JoinTable(join, metadata=guest).ticket
    assert dict(joined.options) == options
    seatings = [seated(lobby, table.ticket.ticket_id, host).seating, seated(lobby, joined.ticket_id, guest).seating]
    assert seatings[0].match_id == seatings[1].match_id == f"table-{table.table_id}"
    game = game_client("snitch")
    summary = game.summary(seatings[0].match_id, seatings[0].seat_token)
    assert (summary.config.game, summary.config.mode) == ("snitch", "advanced")
    assert dict(summary.config.options) == options
    for seating in seatings:  # the engine got them: each Coach builds a Team under a Funding of 7, Spectators on
        view = game.view(seating.match_id, seating.seat_token).view
        assert (view.funding, view.spectators_on, view.prompt.kind) == (7, True, "team_building")
        assert view.draft.funding == 7
    game.close()


def test_watch_ticket_is_for_its_owner_only(lobby: lobby_pb2_grpc.LobbyStub) -> None:
    _, owner = register(lobby)
    _, stranger = register(lobby, "Eve")
    ticket = lobby.CreateTicket(ticket_request(seats=6, allow_bots=False), metadata=owner).ticket
    watch = lobby_pb2.WatchTicketRequest(ticket_id=ticket.ticket_id)
    code, _ = status_of(lambda: list(lobby.WatchTicket(watch, metadata=stranger)))
    assert code == grpc.StatusCode.PERMISSION_DENIED
    lobby.CancelTicket(lobby_pb2.CancelTicketRequest(ticket_id=ticket.ticket_id), metadata=owner)


def test_two_lobby_replicas_never_seat_a_ticket_twice(
    lobby_service: ServiceProcess, redis_url: str, game_endpoints: str
) -> None:
    with service_process(
        "menagerie.lobby",
        redis_url,
        KEYS,
        MENAGERIE_GAME_ENDPOINTS=game_endpoints,
        MENAGERIE_MATCHMAKER_INTERVAL_MS="10",
    ) as second:
        channels = [grpc.insecure_channel(lobby_service.address), grpc.insecure_channel(second.address)]
        stubs = [lobby_pb2_grpc.LobbyStub(c) for c in channels]
        # 60 players queue through both replicas at once for 2-seat tables.
        players = [register(stubs[i % 2], f"R{i}") for i in range(60)]
        tickets: list[tuple[str, Auth]] = []
        lock = threading.Lock()

        def queue(index: int) -> None:
            _, auth = players[index]
            ticket = stubs[index % 2].CreateTicket(ticket_request(seats=2, allow_bots=False), metadata=auth).ticket
            with lock:
                tickets.append((ticket.ticket_id, auth))

        threads = [threading.Thread(target=queue, args=(i,)) for i in range(60)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        finals = [seated(stubs[0], ticket_id, auth, timeout=30) for ticket_id, auth in tickets]
        for channel in channels:
            channel.close()
    assert {t.status for t in finals} == {lobby_pb2.TICKET_STATUS_SEATED}
    per_match = Counter(t.seating.match_id for t in finals)
    assert len(per_match) == 30 and set(per_match.values()) == {2}
    assert len({(t.seating.match_id, t.seating.seat) for t in finals}) == 60


def test_a_finished_match_updates_the_leaderboard(lobby: lobby_pb2_grpc.LobbyStub, game_client: GameClients) -> None:
    (ann_id, ann), (bob_id, bob) = register(lobby, "Ann"), register(lobby, "Bob")
    tickets = [lobby.CreateTicket(ticket_request(seats=2), metadata=auth).ticket for auth in (ann, bob)]
    seatings = [seated(lobby, t.ticket_id, auth).seating for t, auth in zip(tickets, (ann, bob), strict=True)]
    game = game_client("beasts")
    tokens = {s.seat: s.seat_token for s in seatings}
    match_id = seatings[0].match_id
    while True:
        summary = game.summary(match_id, tokens[0])
        if not summary.to_act:
            break
        token = tokens[summary.to_act[0]]
        legal = game.legal(match_id, token)
        game.submit(match_id, token, legal.actions[0], legal.view_version)
    winners = {s.seat for s in summary.outcome.seats if s.result == common_pb2.RESULT_WIN}
    deadline = time.monotonic() + 15
    while True:
        entries = lobby.GetLeaderboard(lobby_pb2.GetLeaderboardRequest(game="beasts", limit=100)).entries
        ours = {e.player_id: e for e in entries if e.player_id in (ann_id, bob_id)}
        if len(ours) == 2 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert set(ours) == {ann_id, bob_id}
    for seating, player_id in zip(seatings, (ann_id, bob_id), strict=True):
        entry = ours[player_id]
        assert (entry.matches, entry.wins) == (1, 1 if seating.seat in winners else 0)
    if len(winners) == 1:
        winner = ann_id if seatings[0].seat in winners else bob_id
        loser = bob_id if winner == ann_id else ann_id
        assert ours[winner].rating > ours[loser].rating
    code, _ = status_of(lambda: lobby.GetLeaderboard(lobby_pb2.GetLeaderboardRequest(game="chess")))
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    game.close()
