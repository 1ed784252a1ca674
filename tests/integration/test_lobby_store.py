"""The lobby's claim script on a real Redis: a ticket is claimed for one match or none."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import cast

import pytest
from redis.asyncio import Redis

from menagerie.lobby import keys
from menagerie.lobby.players import RESERVATION_GRACE_MS, TICKET, Slot
from menagerie.lobby.records import CLAIMED, WAITING, Claim, TicketSpec
from menagerie.lobby.tickets import TicketStore
from tests.support.redis_server import database_of_its_own

pytestmark = pytest.mark.integration


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[TicketStore]:
    # A database of its own: the suite's lobby service matches every queue in its database,
    # and could claim these tickets between two lines of a test.
    redis = Redis.from_url(database_of_its_own(redis_url, 9))
    yield TicketStore(redis)
    await redis.aclose()


async def queued(store: TicketStore, tag: str, count: int, player_id: str = "") -> list[str]:
    ids = []
    for n in range(count):
        spec = TicketSpec(
            ticket_id=f"{tag}.{uuid.uuid4().hex}",
            player_id=player_id or f"p{n}",
            display_name=f"P{n}",
            game="beasts",
            mode="capture",
            options={},
            min_seats=2,
            max_seats=2,
            allow_bots=False,
            bot_level="random",
            max_wait_ms=1000,
            turn_timer_seconds=0,
            created_ms=n,
        )
        await store.create(spec, tag)
        ids.append(spec.ticket_id)
    return ids


def claim(match_id: str, tickets: list[str]) -> Claim:
    return Claim(match_id, "beasts", "capture", {}, tickets, "random", 0, 0)


async def test_overlapping_claims_racing_at_once_seat_each_ticket_once(store: TicketStore) -> None:
    tag = "q" + uuid.uuid4().hex[:12]
    a, b, c = await queued(store, tag, 3)
    results = await asyncio.gather(store.claim(tag, claim("m1", [a, b])), store.claim(tag, claim("m2", [b, c])))
    assert sorted(results) == [False, True]
    winner = "m1" if results[0] else "m2"
    tickets = {t.spec.ticket_id: t for t in await store.load_many([a, b, c])}
    alone = c if winner == "m1" else a
    assert tickets[alone].status == WAITING, "a failed claim leaves its other tickets waiting"
    assert {tickets[t].status for t in ([a, b] if winner == "m1" else [b, c])} == {CLAIMED}
    assert [t.spec.ticket_id for t in await store.waiting(tag)] == [alone]


async def test_a_released_claim_puts_its_tickets_back_in_order(store: TicketStore) -> None:
    tag = "q" + uuid.uuid4().hex[:12]
    a, b = await queued(store, tag, 2)
    pending = claim("m3", [a, b])
    assert await store.claim(tag, pending)
    assert await store.waiting(tag) == []
    assert [c.match_id for c in await store.pending_claims(tag, 10**15)] == ["m3"]
    await store.release(tag, pending)
    assert [t.spec.ticket_id for t in await store.waiting(tag)] == [a, b]
    assert await store.pending_claims(tag, 10**15) == []
    assert await store.redis.exists(keys.claim(tag, "m3")) == 0


async def test_slots_left_behind_are_dropped_at_the_cap_and_calls_in_flight_are_not(store: TicketStore) -> None:
    """A crash may leave a slot held for a ticket that ended or never appeared; the cap heals it."""
    cap, ttl, now = 3, 3600, 10**13
    player = uuid.uuid4().hex
    tag = "q" + uuid.uuid4().hex[:12]
    await store.players.register(player, "Ann", now, ttl)

    async def reserve(ticket_id: str, at: int) -> str:
        reservation = await store.reserve(player, [Slot(TICKET, ticket_id, cap)], at, ttl)
        return reservation.outcome

    # Seated, but the lobby died before freeing its slot.
    (seated,) = await queued(store, tag, 1, player)
    assert await reserve(seated, now) == "ok"
    await store.redis.hset(keys.ticket(seated), "status", "seated")
    # Reserved long ago, never created: its call failed.
    assert await reserve(f"{tag}.lost", now - 2 * RESERVATION_GRACE_MS) == "ok"
    # Reserved just now, not created yet: a call in flight, which must keep its slot.
    assert await reserve(f"{tag}.in-flight", now) == "ok"
    assert await reserve(f"{tag}.fourth", now) == "ok"
    assert await reserve(f"{tag}.fifth", now) == "ok"
    held = [h.decode() for h in cast("list[bytes]", await store.redis.hkeys(keys.player(player)))]
    assert sorted(h for h in held if h.startswith("ticket:")) == [
        f"ticket:{tag}.fifth",
        f"ticket:{tag}.fourth",
        f"ticket:{tag}.in-flight",
    ]
    full = await store.reserve(player, [Slot(TICKET, f"{tag}.sixth", cap)], now, ttl)
    assert (full.outcome, full.kind, len(full.held)) == ("full", TICKET, cap)
