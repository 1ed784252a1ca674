"""The matchmaking loop: plan tables, claim tickets atomically, create the match, seat.

Any number of lobby replicas run this loop. A short lock per queue keeps them from
doing the same work twice, but what makes seating safe is the claim script: a
ticket is claimed for one match or not at all. A claim whose match was never seated
(a replica died, a game service did not answer) is completed by whichever replica
sees it later — creating a match is idempotent by its id — or given back to the queue.

A private table that has not started within table_lifetime_seconds is closed: its
waiting tickets expire and the slots they (and the table) held are freed.
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
import uuid
from collections.abc import Callable

import grpc
import structlog

from menagerie.common.v1 import common_pb2
from menagerie.lobby import keys
from menagerie.lobby.directory import GameDirectory
from menagerie.lobby.matchmaking import Candidate, TablePlan, plan_tables
from menagerie.lobby.records import CANCELLED, EXPIRED, Claim, Seating, Ticket
from menagerie.lobby.seats import SeatBook, SeatedMatch, SeatedPlayer
from menagerie.lobby.tickets import ENDED_TICKET_SECONDS, OPEN, TicketStore
from menagerie.shared.aio import pause
from menagerie.shared.settings import LobbySettings

log = structlog.get_logger(__name__)

SEATED_TICKET_SECONDS = 24 * 3600
CLAIM_GRACE_MS = 5_000


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
    )


class Matchmaker:
    """Starts tables for every queue and private table, in passes."""

    def __init__(
        self,
        store: TicketStore,
        directory: GameDirectory,
        settings: LobbySettings,
        clock: Callable[[], float] = time.time,
        book: SeatBook | None = None,
    ) -> None:
        self.store = store
        self.book = book or SeatBook(store.redis, settings.seat_token_ttl_seconds)
        self.directory = directory
        self.settings = settings
        self.clock = clock
        self.owner = f"{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:6]}"
        self.started = 0

    def _now_ms(self) -> int:
        return int(self.clock() * 1000)

    async def run(self, stop: asyncio.Event) -> None:
        """Passes until stop."""
        while not stop.is_set():
            await self.pass_once()
            await pause(stop, self.settings.matchmaker_interval_ms / 1000)

    async def pass_once(self) -> int:
        """One pass over every queue and table; returns how many tables started."""
        started = 0
        for tag in await self.store.queues():
            lock = self.store.redis.lock(keys.lock(tag), timeout=10, blocking=False)
            if not await lock.acquire():
                continue
            try:
                started += await self._serve(tag)
            finally:
                await lock.release()
        self.started += started
        return started

    async def _serve(self, tag: str) -> int:
        now = self._now_ms()
        for claim in await self.store.pending_claims(tag, now - CLAIM_GRACE_MS):
            await self._create_and_seat(tag, claim)
        if tag.startswith("t"):
            return await self._serve_table(tag, tag[1:], now)
        tickets = await self._watched(await self.store.waiting(tag))
        lifetime_ms = self.settings.ticket_lifetime_seconds * 1000
        live = []
        for ticket in tickets:
            if not ticket.spec.allow_bots and now - ticket.spec.created_ms > lifetime_ms:
                await self.store.end(ticket, EXPIRED)
            else:
                live.append(ticket)
        if not live:
            return 0
        first = live[0].spec
        started = 0
        for plan in plan_tables([_candidate(t) for t in live], now):
            started += await self._start(tag, plan, first.game, first.mode, first.options, now)
        return started

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
        )
        if not await self.store.claim(tag, claim):
            return 0
        return await self._create_and_seat(tag, claim)

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

    async def _start(self, tag: str, plan: TablePlan, game: str, mode: str, options: dict[str, str], now: int) -> int:
        claim = Claim(
            match_id=uuid.uuid4().hex,
            game=game,
            mode=mode,
            options=options,
            seats=[*plan.tickets, *([""] * plan.bots)],
            bot_level=plan.bot_level,
            turn_timer_seconds=plan.turn_timer_seconds,
            claimed_ms=now,
        )
        if not await self.store.claim(tag, claim):
            return 0
        return await self._create_and_seat(tag, claim)

    async def _create_and_seat(self, tag: str, claim: Claim) -> int:
        tickets = {t.spec.ticket_id: t for t in await self.store.load_many([t for t in claim.seats if t])}
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
                        display_name=f"Bot {index} ({claim.bot_level})",
                        kind=common_pb2.SEAT_KIND_BOT,
                        bot_level=claim.bot_level,
                    )
                )
        config = common_pb2.MatchConfig(
            game=claim.game, mode=claim.mode, options=claim.options, turn_timer_seconds=claim.turn_timer_seconds
        )
        try:
            created = await self.directory.create_match(claim.game, claim.match_id, config, seats)
        except grpc.RpcError as error:
            log.warning("could not create match", match=claim.match_id, code=error.code().name)
            if self._now_ms() - claim.claimed_ms > self.settings.claim_retry_seconds * 1000:
                await self.store.release(tag, claim)
            return 0
        if tag.startswith("t"):
            # Marked once its match exists (not at the claim: a claim given back leaves the
            # table open), and before its tickets are seated, so no later join finds it open.
            await self.store.table_started(tag[1:], SEATED_TICKET_SECONDS)
        tokens = {c.seat: c.token for c in created.seat_tokens}
        now = self._now_ms()
        endpoint = self.directory.public_endpoint(claim.game)
        bots = claim.seats.count("")
        seatings = {
            ticket_id: Seating(claim.match_id, index, tokens[index], endpoint, len(claim.seats), bots, now)
            for index, ticket_id in enumerate(claim.seats)
            if ticket_id
        }
        specs = {ticket_id: ticket.spec for ticket_id, ticket in tickets.items()}
        # Before the tickets are seated: a player who sees the seating finds the match in ListMyMatches.
        await self.book.record(
            SeatedMatch(
                match_id=claim.match_id,
                game=claim.game,
                mode=claim.mode,
                seats=[
                    SeatedPlayer(s.seat, s.player_id, s.display_name, s.kind == common_pb2.SEAT_KIND_BOT, s.bot_level)
                    for s in created.match.seats
                ],
                started_ms=created.match.created_at.ToMilliseconds() or now,
            )
        )
        await self.store.seat(tag, claim.match_id, seatings, SEATED_TICKET_SECONDS, specs, now)
        log.info("match started", match=claim.match_id, game=claim.game, humans=len(seatings), bots=bots)
        return 1
