"""Matchmaking throughput: tickets seated per second by one lobby process."""

from __future__ import annotations

import threading
import time
from typing import cast

import grpc
import redis

from menagerie.lobby import keys
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc


def seat_tickets(lobby_address: str, redis_url: str, tickets: int, clients: int = 8) -> tuple[float, float]:
    """Queues `tickets` players for 2-seat tables at once; returns (created/s, seated/s).

    Seated per second counts from the first ticket created to the last one seated, so it
    includes creating the matches on the game service (one CreateMatch per table).
    """
    with grpc.insecure_channel(lobby_address) as channel:
        stub = lobby_pb2_grpc.LobbyStub(channel)
        tokens = [
            stub.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name=f"b{i}")).token for i in range(tickets)
        ]
        ids: list[str] = []
        lock = threading.Lock()

        def queue(part: list[str]) -> None:
            for token in part:
                ticket = stub.CreateTicket(
                    lobby_pb2.CreateTicketRequest(game="beasts", mode="capture", min_seats=2, max_seats=2),
                    metadata=(("authorization", f"Bearer {token}"),),
                ).ticket
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
