"""Matchmaking in batches on a real Redis and a real game service: many matches claimed and
seated per script, a queue longer than a batch drained by two matchmakers at once, each
ticket seated exactly once."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator
from typing import cast

import pytest
from redis.asyncio import Redis

from menagerie.lobby import keys, matchmaker
from menagerie.lobby.directory import GameDirectory
from menagerie.lobby.matchmaker import Matchmaker
from menagerie.lobby.ratings import Ratings
from menagerie.lobby.records import CLAIMED, SEATED, WAITING, Claim, Seating, TicketSpec
from menagerie.lobby.seats import SeatBook
from menagerie.lobby.tickets import TicketStore
from menagerie.rules.contract import MatchSetup
from menagerie.shared.settings import LobbySettings
from tests.support.fixtures import GameServices
from tests.support.keys import KEYS
from tests.support.redis_server import database_of_its_own

pytestmark = pytest.mark.integration


# The suite's lobby service (session-wide) matches every queue it finds in its database: the
# tickets here live in a database of their own, or it could claim them between two lines.
LOBBY_DB = 8


@pytest.fixture
def lobby_url(redis_url: str) -> str:
    return database_of_its_own(redis_url, LOBBY_DB)


@pytest.fixture
async def store(lobby_url: str) -> AsyncIterator[TicketStore]:
    redis = Redis.from_url(lobby_url)
    yield TicketStore(redis)
    await redis.aclose()


def spec(tag: str, n: int, options: dict[str, str] | None = None) -> TicketSpec:
    return TicketSpec(
        ticket_id=f"{tag}.{uuid.uuid4().hex}",
        player_id=f"p{n}-{uuid.uuid4().hex[:6]}",
        display_name=f"P{n}",
        game="beasts",
        mode="training",
        options=options or {},
        min_seats=2,
        max_seats=2,
        allow_bots=False,
        bot_level="random",
        max_wait_ms=60_000,
        turn_timer_seconds=0,
        created_ms=int(time.time() * 1000) + n,
    )


async def queued(store: TicketStore, tag: str, count: int, options: dict[str, str] | None = None) -> list[str]:
    ids = []
    for n in range(count):
        ticket = spec(tag, n, options)
        await store.create(ticket, tag)
        ids.append(ticket.ticket_id)
    return ids


def claim(match_id: str, tickets: list[str]) -> Claim:
    return Claim(match_id, "beasts", "training", {}, tickets, "random", 0, 0)


async def test_a_batch_of_claims_wins_exactly_those_whose_tickets_all_wait(store: TicketStore) -> None:
    tag = "q" + uuid.uuid4().hex[:12]
    a, b, c, d, e, f = await queued(store, tag, 6)
    assert await store.claim(tag, claim("m0", [a, b]))
    won = await store.claim_many(
        tag, [claim("m1", [b, c]), claim("m2", [d, e]), claim("m3", [f, a]), claim("m4", [c, f, ""])]
    )
    assert won == [False, True, False, True]
    tickets = {t.spec.ticket_id: t for t in await store.load_many([a, b, c, d, e, f])}
    assert {t.status for t in tickets.values()} == {CLAIMED}
    assert await store.waiting(tag) == []
    matches = {i: cast("bytes", await store.redis.hget(keys.ticket(i), "match_id")) for i in (a, b, c, d, e, f)}
    assert matches == {a: b"m0", b: b"m0", c: b"m4", d: b"m2", e: b"m2", f: b"m4"}
    assert sorted(c.match_id for c in await store.pending_claims(tag, 10**15)) == ["m0", "m2", "m4"]


async def test_seating_many_matches_seats_each_ticket_only_in_the_match_that_claimed_it(store: TicketStore) -> None:
    tag = "q" + uuid.uuid4().hex[:12]
    a, b, c, d, spare = await queued(store, tag, 5)
    assert await store.claim_many(tag, [claim("m1", [a, b]), claim("m2", [c, d])]) == [True, True]

    def seating(match_id: str, seat: int) -> Seating:
        return Seating(match_id, seat, f"token-{match_id}-{seat}", "127.0.0.1:1", 2, 0, 5)

    # m2 also names `a` (claimed by m1) and `spare` (never claimed): neither is seated by it.
    await store.seat_many(
        tag,
        {
            "m1": {a: seating("m1", 0), b: seating("m1", 1)},
            "m2": {c: seating("m2", 0), d: seating("m2", 1), a: seating("m2", 0), spare: seating("m2", 1)},
        },
        60,
        {},
        5,
    )
    tickets = {t.spec.ticket_id: t for t in await store.load_many([a, b, c, d, spare])}
    assert {i: t.status for i, t in tickets.items()} == {a: SEATED, b: SEATED, c: SEATED, d: SEATED, spare: WAITING}
    assert {i: t.seating.match_id for i, t in tickets.items() if t.seating} == {a: "m1", b: "m1", c: "m2", d: "m2"}
    assert await store.pending_claims(tag, 10**15) == []
    assert [t.spec.ticket_id for t in await store.waiting(tag)] == [spare]
    # Completing m1 again (another replica, late) changes nothing: its tickets are seated already.
    await store.seat_many(tag, {"m1": {a: seating("m1", 1), b: seating("m1", 0)}}, 60, {}, 6)
    again = {t.spec.ticket_id: t.seating for t in await store.load_many([a, b])}
    assert again == {a: seating("m1", 0), b: seating("m1", 1)}
    updates = cast("list[tuple[bytes, dict[bytes, bytes]]]", await store.redis.xrange(keys.updates(a)))
    assert [u[1][b"status"] for u in updates] == [b"waiting", b"seated"]


async def test_a_queue_longer_than_a_batch_is_seated_once_each_by_two_matchmakers_at_once(
    lobby_url: str, game_services: GameServices, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Small batches and chunks, so that 60 tickets take several passes, chunks and claim scripts.
    monkeypatch.setattr(matchmaker, "BATCH_TICKETS", 14)
    monkeypatch.setattr(matchmaker, "SEAT_CHUNK", 3)
    monkeypatch.setattr(matchmaker, "CREATE_CONCURRENCY", 4)
    address = game_services["beasts"].address
    settings = LobbySettings.model_validate(
        {"verify_keys_file": str(KEYS.verify_file), "redis_url": lobby_url, "game_endpoints": f"beasts={address}"}
    )
    redis = Redis.from_url(lobby_url)
    directory = GameDirectory({"beasts": address}, {}, KEYS.signer())
    try:
        await directory.refresh()
        options = directory.info("beasts").validate(MatchSetup("training", 2, {}))
        tag = keys.queue_tag("beasts", "training", options)
        store = TicketStore(redis)
        ids = await queued(store, tag, 60, options)
        replicas = [Matchmaker(TicketStore(redis), directory, settings, Ratings(redis, directory)) for _ in range(2)]

        async def drain(replica: Matchmaker) -> None:
            for _ in range(200):
                if not await redis.zcard(keys.waiting(tag)) and not await redis.zcard(keys.claims(tag)):
                    return
                await replica.pass_once()
                await asyncio.sleep(0)

        await asyncio.gather(*(drain(r) for r in replicas))
        tickets = await store.load_many(ids)
        assert [t.status for t in tickets] == [SEATED] * 60
        seatings = [cast("Seating", t.seating) for t in tickets]
        per_match = Counter(s.match_id for s in seatings)
        assert len(per_match) == 30
        assert set(per_match.values()) == {2}
        assert sorted((s.match_id, s.seat) for s in seatings) == sorted((m, seat) for m in per_match for seat in (0, 1))
        # Each ticket was told "seated" once: no second seating by the other replica.
        for ticket_id in ids:
            updates = cast("list[tuple[bytes, dict[bytes, bytes]]]", await redis.xrange(keys.updates(ticket_id)))
            assert [u[1][b"status"] for u in updates] == [b"waiting", b"seated"]
        book = SeatBook(redis, 3600)
        for ticket in tickets:
            seated = await book.match(cast("Seating", ticket.seating).match_id)
            assert seated is not None
            assert ticket.spec.player_id in {s.player_id for s in seated.seats}
    finally:
        await directory.close()
        await redis.aclose()
