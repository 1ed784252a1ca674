"""Matchmaking throughput: tickets seated per second by one lobby process."""

from __future__ import annotations

import threading
import time
from typing import cast

import grpc
import redis

from bench.service import GameLoad
from menagerie.lobby import keys
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc


def table_seats(load: GameLoad) -> int:
    """The smallest table of two or more that the load's mode allows."""
    mode = load.binding.info.mode(load.mode)
    return min(max(2, mode.min_seats), mode.max_seats)


def seat_tickets(
    lobby_address: str, redis_url: str, tickets: int, load: GameLoad, clients: int = 8
) -> tuple[float, float]:
    """Queues `tickets` players at once for the smallest tables of the load's mode; returns (created/s, seated/s).

    Seated per second counts from the first ticket created to the last one seated, so it
    includes creating the matches on the game service (one CreateMatch per table).
    """
    seats = table_seats(load)
    tickets -= tickets % seats  # whole tables only: a left-over ticket would wait forever
    with grpc.insecure_channel(lobby_address) as channel:
        stub = lobby_pb2_grpc.LobbyStub(channel)
        tokens = [
            stub.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name=f"b{i}")).token for i in range(tickets)
        ]
        ids: list[str] = []
        lock = threading.Lock()
        request = lobby_pb2.CreateTicketRequest(
            game=load.game, mode=load.mode, options=load.options, min_seats=seats, max_seats=seats
        )

        def queue(part: list[str]) -> None:
            for token in part:
                ticket = stub.CreateTicket(request, metadata=(("authorization", f"Bearer {token}"),)).ticket
                with lock:
                    ids.append(ticket.ticket_id)

        threads = [threading.Thread(target=queue, args=(tokens[i::clients],)) for i in range(clients)]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        created = time.perf_counter()
    client = redis.Redis.from_url(redis_url)
    while True:
        with client.pipeline(transaction=False) as pipe:
            for ticket_id in ids:
                pipe.hget(keys.ticket(ticket_id), "status")
            statuses = cast("list[bytes | None]", pipe.execute())
        if all(s == b"seated" for s in statuses):
            break
        time.sleep(0.01)
    seated = time.perf_counter()
    client.close()
    return tickets / (created - started), tickets / (seated - started)
