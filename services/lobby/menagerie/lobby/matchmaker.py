"""The matchmaking loop: plan tables, claim tickets atomically, create the match, seat.

Any number of lobby replicas run this loop. A short lock per queue keeps them from
doing the same work twice, but what makes seating safe is the claim script: a
ticket is claimed for one match or not at all. A claim whose match was never seated
(a replica died, a game service did not answer) is completed by whichever replica
sees it later — creating a match is idempotent by its id — or given back to the queue.

A private table that has not started within table_lifetime_seconds is closed: its
waiting tickets expire and the slots they (and the table) held are freed.

Throughput: a pass works a queue in batches — the tables it plans are claimed in one
script, their matches created on the game service concurrently (at most
CREATE_CONCURRENCY calls in flight), and each chunk of SEAT_CHUNK matches is recorded
and seated in one round trip each. A pass that read a full batch from a queue is
followed at once by another (a long queue drains without waiting matchmaker_interval_ms
between batches); otherwise passes keep their interval, so a trickle of tickets is
planned in groups rather than by a busy loop.
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
import uuid
from collections.abc import Callable

import grpc
import msgspec
import structlog
from redis.exceptions import LockNotOwnedError

from menagerie.common.v1 import common_pb2, matches_pb2
from menagerie.lobby import keys
from menagerie.lobby.directory import GameDirectory
from menagerie.lobby.matchmaking import Candidate, fitted_budget, plan_tables
from menagerie.lobby.ratings import Ratings
from menagerie.lobby.records import CANCELLED, EXPIRED, Claim, Seating, Ticket
from menagerie.lobby.seats import SeatBook, SeatedMatch, SeatedPlayer
from menagerie.lobby.tickets import ENDED_TICKET_SECONDS, OPEN, TicketStore
from menagerie.rules.text import seat_name
from menagerie.shared.aio import pause
from menagerie.shared.bots import DEFAULT_BOT_LEVEL
from menagerie.shared.ladder import NEAREST, nearest
from menagerie.shared.settings import LobbySettings

log = structlog.get_logger(__name__)

SEATED_TICKET_SECONDS = 24 * 3600
CLAIM_GRACE_MS = 5_000
# Waiting tickets a pass reads from one queue (the oldest first).
BATCH_TICKETS = 1_000
# CreateMatch calls in flight at once from one pass (a bounded load on the game services).
CREATE_CONCURRENCY = 32
# Matches seated together once created: one seat script and one record pipeline per chunk.
SEAT_CHUNK = 64


def _candidate(ticket: Ticket) -> Candidate:
    spec = ticket.spec
    return Candidate(
        ticket_id=spec.ticket_id,
        player_id=spec.player_id,
        min_seats=spec.min_seats,
        max_seats=spec.max_seats,
        allow_bots=spec.allow_bots,
        bot_level=spec.bot_level,
        max_wait_ms=spec.max_wait_ms,
        turn_timer_seconds=spec.turn_timer_seconds,
        created_ms=spec.created_ms,
        bot_budget_seconds=spec.bot_budget_seconds,
    )


class Matchmaker:
    """Starts tables for every queue and private table, in passes."""

    def __init__(
        self,
        store: TicketStore,
        directory: GameDirectory,
        settings: LobbySettings,
        ratings: Ratings,
        clock: Callable[[], float] = time.time,
        book: SeatBook | None = None,
    ) -> None:
        self.store = store
        self.ratings = ratings
        self.book = book or SeatBook(store.redis, settings.seat_token_ttl_seconds, store.runner)
        self.directory = directory
        self.settings = settings
        self.clock = clock
        self.owner = f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"
        self.started = 0
        # Set by a pass that left tickets unread in a queue (a full batch): the next pass comes at once.
        self._more = False

    def _now_ms(self) -> int:
        return int(self.clock() * 1000)

    async def run(self, stop: asyncio.Event) -> None:
        """Passes until stop."""
        while not stop.is_set():
            await self.pass_once()
            if not self._more:
                await pause(stop, self.settings.matchmaker_interval_ms / 1000)

    async def pass_once(self) -> int:
        """One pass over every queue and table; returns how many tables started."""
        started = 0
        self._more = False
        for tag in await self.store.queues():
            lock = self.store.redis.lock(keys.lock(tag), timeout=10, blocking=False)
            if not await lock.acquire():
                continue
            try:
                started += await self._serve(tag)
            finally:
                try:
                    await lock.release()
                except LockNotOwnedError:
                    # The pass outlived the lock (a slow game service): harmless, claims keep seating safe.
                    log.warning("queue lock expired during a pass", queue=tag)
        self.started += started
        return started

    async def _serve(self, tag: str) -> int:
        now = self._now_ms()
        started = await self._create_and_seat(tag, await self.store.pending_claims(tag, now - CLAIM_GRACE_MS))
        if tag.startswith("t"):
            return started + await self._serve_table(tag, tag[1:], now)
        read = await self.store.waiting(tag, BATCH_TICKETS)
        tickets = await self._watched(read)
        lifetime_ms = self.settings.ticket_lifetime_seconds * 1000
        live = []
        for ticket in tickets:
            if not ticket.spec.allow_bots and now - ticket.spec.created_ms > lifetime_ms:
                await self.store.end(ticket, EXPIRED)
            else:
                live.append(ticket)
        if not live:
            return started
        first = live[0].spec
        claims = [
            Claim(
                match_id=uuid.uuid4().hex,
                game=first.game,
                mode=first.mode,
                options=first.options,
                seats=[*plan.tickets, *([""] * plan.bots)],
                bot_level=plan.bot_level,
                turn_timer_seconds=plan.turn_timer_seconds,
                claimed_ms=now,
                bot_budget_seconds=plan.bot_budget_seconds,
            )
            for plan in plan_tables([_candidate(t) for t in live], now)
        ]
        known = {t.spec.ticket_id: t for t in live}
        claims = await self.with_nearest_bots(claims, known)
        won = await self.store.claim_many(tag, claims)
        seated = await self._create_and_seat(tag, [c for c, ok in zip(claims, won, strict=True) if ok], known)
        # A full batch that started tables: more of this queue may be ready behind it.
        self._more = self._more or (len(read) == BATCH_TICKETS and seated > 0)
        return started + seated

    async def _serve_table(self, tag: str, table_id: str, now: int) -> int:
        found = await self.store.table(table_id)
        if (
            found is not None
            and found[2] == OPEN
            and now - found[0].created_ms > self.settings.table_lifetime_seconds * 1000
        ):
            ended = await self.store.expire_table(found[0], ENDED_TICKET_SECONDS)
            if ended:
                log.info("table expired", table=table_id, tickets=len(ended))
            found = await self.store.table(table_id)
        if found is None or found[2] != OPEN:
            if not await self.store.pending_claims(tag, now + CLAIM_GRACE_MS):
                await self.store.forget_queue(tag)
            return 0
        spec = found[0]
        tickets = await self._watched(await self.store.waiting(tag))
        if len(tickets) < len(spec.human_seats()):
            return 0
        seats = [""] * spec.seats
        for ticket in tickets:
            seats[ticket.spec.table_seat] = ticket.spec.ticket_id
        claim = Claim(
            match_id=f"table-{table_id}",
            game=spec.game,
            mode=spec.mode,
            options=spec.options,
            seats=seats,
            bot_level=spec.bot_level,
            turn_timer_seconds=spec.turn_timer_seconds,
            claimed_ms=now,
            bot_budget_seconds=spec.bot_budget_seconds,
        )
        known = {t.spec.ticket_id: t for t in tickets}
        (claim,) = await self.with_nearest_bots([claim], known)
        if not await self.store.claim(tag, claim):
            return 0
        return await self._create_and_seat(tag, [claim], known)

    async def with_nearest_bots(self, claims: list[Claim], tickets: dict[str, Ticket]) -> list[Claim]:
        """The claims, each whose bot_level is "nearest" (issue 33) given the mode's ladder level rated nearest
        the mean rating of its humans in the game, at that level's budget cut to the table's turn timer.

        Read when the table starts, so every human at it counts, not only the ticket or table that asked;
        all the humans' ratings in one round trip. A ladder gone since the ticket was made (a release
        without one) leaves the default level.
        """
        asking = [claim for claim in claims if claim.bot_level == NEAREST]
        ordinals: dict[tuple[str, str], float] = {}
        for game in {claim.game for claim in asking}:
            humans = sorted({tickets[t].spec.player_id for c in asking if c.game == game for t in c.seats if t})
            ordinals.update(((game, s.player_id), s.ordinal) for s in await self.ratings.standings(game, humans))
        # Each mode's levels listed once for the pass (a pass of one queue: one mode), not once a table.
        offered = {mode: self.directory.offered_bot_levels(*mode) for mode in {(c.game, c.mode) for c in asking}}
        return [
            self._nearest_bot(c, tickets, ordinals, offered[c.game, c.mode]) if c.bot_level == NEAREST else c
            for c in claims
        ]

    def _nearest_bot(
        self,
        claim: Claim,
        tickets: dict[str, Ticket],
        ordinals: dict[tuple[str, str], float],
        offered: list[matches_pb2.BotLevelRating],
    ) -> Claim:
        ratings = [ordinals[claim.game, tickets[t].spec.player_id] for t in claim.seats if t]
        chosen = nearest(offered, ratings)
        if chosen is None:
            return msgspec.structs.replace(claim, bot_level=DEFAULT_BOT_LEVEL, bot_budget_seconds=0.0)
        budget = fitted_budget(chosen.budget_seconds, claim.turn_timer_seconds)
        return msgspec.structs.replace(claim, bot_level=chosen.level, bot_budget_seconds=budget)

    async def _watched(self, tickets: list[Ticket]) -> list[Ticket]:
        """The tickets still wanted: one whose WatchTicket streams all closed, none back within
        the grace (ticket_watch_grace_seconds), is cancelled (its player left: Ctrl-C, a closed page).
        """
        if not self.settings.ticket_watch_grace_seconds:
            return tickets
        gone = await self.store.abandoned(tickets, self._now_ms())
        for ticket in gone:
            had = await self.store.end(ticket, CANCELLED)
            log.info("ticket cancelled: its watcher left", ticket=ticket.spec.ticket_id, had=had)
        left = {t.spec.ticket_id for t in gone}
        return [t for t in tickets if t.spec.ticket_id not in left]

    async def _create_and_seat(self, tag: str, claims: list[Claim], known: dict[str, Ticket] | None = None) -> int:
        """Creates the claims' matches (concurrently, bounded) and seats their tickets; returns how many started.

        `known` holds tickets already read this pass; the others are read in one round trip.
        """
        if not claims:
            return 0
        tickets = dict(known or {})
        missing = [t for claim in claims for t in claim.seats if t and t not in tickets]
        if missing:
            tickets.update((t.spec.ticket_id, t) for t in await self.store.load_many(missing))
        gate = asyncio.Semaphore(CREATE_CONCURRENCY)
        chunks = [claims[i : i + SEAT_CHUNK] for i in range(0, len(claims), SEAT_CHUNK)]
        done = await asyncio.gather(*(self._chunk(tag, chunk, tickets, gate) for chunk in chunks))
        return sum(done)

    async def _chunk(self, tag: str, claims: list[Claim], tickets: dict[str, Ticket], gate: asyncio.Semaphore) -> int:
        """Creates a chunk of matches, then records and seats those created, in one round trip each."""
        created = await asyncio.gather(*(self._create(tag, claim, tickets, gate) for claim in claims))
        started = [(claim, reply) for claim, reply in zip(claims, created, strict=True) if reply is not None]
        if not started:
            return 0
        if tag.startswith("t"):
            # Marked once its match exists (not at the claim: a claim given back leaves the
            # table open), and before its tickets are seated, so no later join finds it open.
            await self.store.table_started(tag[1:], SEATED_TICKET_SECONDS)
        now = self._now_ms()
        seatings: dict[str, dict[str, Seating]] = {}
        records = []
        for claim, reply in started:
            tokens = {c.seat: c.token for c in reply.seat_tokens}
            endpoint = self.directory.public_endpoint(claim.game)
            bots = claim.seats.count("")
            seatings[claim.match_id] = {
                ticket_id: Seating(claim.match_id, index, tokens[index], endpoint, len(claim.seats), bots, now)
                for index, ticket_id in enumerate(claim.seats)
                if ticket_id
            }
            records.append(
                SeatedMatch(
                    match_id=claim.match_id,
                    game=claim.game,
                    mode=claim.mode,
                    seats=[
                        SeatedPlayer(
                            s.seat, s.player_id, s.display_name, s.kind == common_pb2.SEAT_KIND_BOT, s.bot_level
                        )
                        for s in reply.match.seats
                    ],
                    started_ms=reply.match.created_at.ToMilliseconds() or now,
                )
            )
        specs = {ticket_id: ticket.spec for ticket_id, ticket in tickets.items()}
        # Before the tickets are seated: a player who sees the seating finds the match in ListMyMatches.
        await self.book.record_many(records)
        await self.store.seat_many(tag, seatings, SEATED_TICKET_SECONDS, specs, now)
        for claim, _ in started:
            log.debug("match started", match=claim.match_id, game=claim.game, humans=len(seatings[claim.match_id]))
        log.info("matches started", queue=tag, matches=len(started), tickets=sum(map(len, seatings.values())))
        return len(started)

    async def _create(
        self, tag: str, claim: Claim, tickets: dict[str, Ticket], gate: asyncio.Semaphore
    ) -> matches_pb2.CreateMatchResponse | None:
        """Creates the claim's match on its game service (idempotent by id); None when it could not."""
        seats = []
        for index, ticket_id in enumerate(claim.seats):
            if ticket_id:
                spec = tickets[ticket_id].spec
                seats.append(
                    common_pb2.SeatInfo(
                        seat=index,
                        player_id=spec.player_id,
                        display_name=spec.display_name,
                        kind=common_pb2.SEAT_KIND_HUMAN,
                    )
                )
            else:
                seats.append(
                    common_pb2.SeatInfo(
                        seat=index,
                        player_id=f"bot:{claim.bot_level}",
                        display_name=seat_name(index, bot_level=claim.bot_level),
                        kind=common_pb2.SEAT_KIND_BOT,
                        bot_level=claim.bot_level,
                    )
                )
        config = common_pb2.MatchConfig(
            game=claim.game,
            mode=claim.mode,
            options=claim.options,
            turn_timer_seconds=claim.turn_timer_seconds,
            bot_budget_seconds=claim.bot_budget_seconds,
        )
        try:
            async with gate:
                return await self.directory.create_match(claim.game, claim.match_id, config, seats)
        except grpc.RpcError as error:
            log.warning("could not create match", match=claim.match_id, code=error.code().name)
            if self._now_ms() - claim.claimed_ms > self.settings.claim_retry_seconds * 1000:
                await self.store.release(tag, claim)
            return None
