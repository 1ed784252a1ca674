"""The lobby's claim script on a real Redis: a ticket is claimed for one match or none."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from menagerie.lobby import keys
from menagerie.lobby.records import CLAIMED, WAITING, Claim, TicketSpec
from menagerie.lobby.tickets import TicketStore

pytestmark = pytest.mark.integration


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[TicketStore]:
    redis = Redis.from_url(redis_url)
    yield TicketStore(redis)
    await redis.aclose()


async def queued(store: TicketStore, tag: str, count: int) -> list[str]:
    ids = []
    for n in range(count):
        spec = TicketSpec(
            ticket_id=f"{tag}.{uuid.uuid4().hex}",
            player_id=f"p{n}",
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
