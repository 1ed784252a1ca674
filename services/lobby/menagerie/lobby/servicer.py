"""menagerie.lobby.v1.Lobby: translates requests to the ticket store and back.

Validation happens here (with checks.py), before anything is written: an unknown game or mode, seat
counts out of range, a max_wait out of bounds, a stranger's ticket or a wrong join code
are refused with a clear message and change nothing.

Quotas (menagerie.lobby.players): a guest expires unless it plays; a player holds at most
max_open_tickets open tickets and max_open_tables open tables (RESOURCE_EXHAUSTED past
that, naming the cap and how to free a slot); a token whose guest record expired is told
to register again. A player's matches in progress are resuming.py's; the protobuf form of a
ticket is messages.py's.
"""

from __future__ import annotations

import secrets
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

from redis.asyncio import Redis

from menagerie.lobby import keys
from menagerie.lobby.checks import (
    MAX_WAIT_DEFAULT,
    MAX_WAIT_LIMIT,
    checked_bot_level,
    checked_display_name,
    checked_turn_timer,
    duration,
    player_of,
)
from menagerie.lobby.directory import GameDirectory
from menagerie.lobby.messages import ticket_message
from menagerie.lobby.players import TABLE, TICKET, Slot, slot_field
from menagerie.lobby.ratings import Ratings
from menagerie.lobby.records import CANCELLED, CLAIMED, FINAL, SEATED, WAITING, Ticket, TicketSpec
from menagerie.lobby.resuming import MatchesInProgress
from menagerie.lobby.seats import SeatBook
from menagerie.lobby.tickets import TableSpec, TicketStore
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from menagerie.rules.contract import MatchSetup
from menagerie.rules.errors import (
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    ResourceExhausted,
    Unauthenticated,
)
from menagerie.shared.bots import BOT_LEVELS, checked_budget
from menagerie.shared.ladder import NEAREST
from menagerie.shared.rpc.interceptor import Context, require_principal
from menagerie.shared.settings import LobbySettings
from menagerie.shared.tokens import Principal, TokenSigner
from menagerie.shared.wakeups import StreamWakeups

JOIN_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
WATCH_HEARTBEAT_MS = 1000


class LobbyServicer(lobby_pb2_grpc.LobbyServicer):
    """The lobby's gRPC API."""

    def __init__(
        self,
        redis: Redis,
        store: TicketStore,
        directory: GameDirectory,
        ratings: Ratings,
        signer: TokenSigner,
        settings: LobbySettings,
        wakeups: StreamWakeups,
    ) -> None:
        self.wakeups = wakeups
        self.redis = redis
        self.store = store
        self.directory = directory
        self.ratings = ratings
        self.signer = signer
        self.settings = settings
        self.book = SeatBook(redis, settings.seat_token_ttl_seconds, store.runner)
        self.in_progress = MatchesInProgress(self.book, directory, signer, settings)

    @staticmethod
    def _now_ms() -> int:
        return int(time.time() * 1000)

    async def RegisterPlayer(  # noqa: N802 - gRPC method name
        self, request: lobby_pb2.RegisterPlayerRequest, context: Context
    ) -> lobby_pb2.RegisterPlayerResponse:
        name = checked_display_name(request.display_name)
        player_id = uuid.uuid4().hex
        await self.store.players.register(player_id, name, self._now_ms(), self.settings.guest_player_ttl_seconds)
        token, expires = self.signer.issue_player(player_id, name, self.settings.player_token_ttl_seconds)
        response = lobby_pb2.RegisterPlayerResponse(player_id=player_id, token=token)
        response.expires_at.FromSeconds(expires)
        return response

    async def RenamePlayer(  # noqa: N802 - gRPC method name
        self, request: lobby_pb2.RenamePlayerRequest, context: Context
    ) -> lobby_pb2.RenamePlayerResponse:
        player = player_of(require_principal())
        name = checked_display_name(request.display_name)
        await self.store.players.rename(player.subject, name)
        token, expires = self.signer.issue_player(player.subject, name, self.settings.player_token_ttl_seconds)
        response = lobby_pb2.RenamePlayerResponse(player_id=player.subject, token=token, display_name=name)
        response.expires_at.FromSeconds(expires)
        return response

    async def ListGames(self, request: lobby_pb2.ListGamesRequest, context: Context) -> lobby_pb2.ListGamesResponse:  # noqa: N802
        return self.directory.listing()

    async def _reserve(self, player: Principal, ticket_id: str, table_id: str = "") -> None:
        """Takes the player's slots for a new ticket (and table), or refuses past a cap."""
        slots = [Slot(TICKET, ticket_id, self.settings.max_open_tickets)]
        if table_id:
            slots.insert(0, Slot(TABLE, table_id, self.settings.max_open_tables))
        reservation = await self.store.reserve(
            player.subject, slots, self._now_ms(), self.settings.guest_player_ttl_seconds
        )
        if reservation.outcome == "missing":
            raise Unauthenticated(
                f"player {player.subject} is no longer registered (a guest who has never played is forgotten "
                f"{duration(self.settings.guest_player_ttl_seconds)} after its last ticket); register again"
            )
        if reservation.kind == TICKET:
            raise ResourceExhausted(
                f"you hold {len(reservation.held)} open tickets, and a player may hold "
                f"{self.settings.max_open_tickets}: cancel one (CancelTicket) or wait until one is seated or expires"
            )
        if reservation.kind == TABLE:
            raise ResourceExhausted(
                f"you have {len(reservation.held)} open tables, and a player may have "
                f"{self.settings.max_open_tables}: wait until one starts or expires, or close one (a table closes "
                "when everyone waiting at it cancels their ticket with CancelTicket)"
            )

    def _checked_options(self, game: str, mode: str, seats: int, options: dict[str, str]) -> dict[str, str]:
        """The options with defaults filled in, or InvalidArgument (also for the mode and seats)."""
        return self.directory.info(game).validate(MatchSetup(mode, seats, options))

    def _chosen_bot(self, game: str, mode: str, level: str, budget: float) -> tuple[str, float]:
        """The bot level and budget a ticket or table asks for. `nearest` (issue 33) stays as it is, budget 0:
        the matchmaker picks the ladder level nearest the table's humans when it starts (with_nearest_bots)."""
        if level != NEAREST:
            return checked_bot_level(level), budget
        if not self.directory.offered_bot_levels(game, mode):
            raise InvalidArgument(
                f"bot_level {NEAREST!r} needs the rating ladder of {game} {mode}, which has none: name a level"
                f" ({', '.join(BOT_LEVELS)})"
            )
        return NEAREST, 0.0

    async def CreateTicket(  # noqa: N802
        self, request: lobby_pb2.CreateTicketRequest, context: Context
    ) -> lobby_pb2.CreateTicketResponse:
        player = player_of(require_principal())
        mode = self.directory.mode(request.game, request.mode)
        low = request.min_seats or mode.min_seats
        high = request.max_seats or mode.max_seats
        if low > high:
            raise InvalidArgument(f"min_seats ({low}) is more than max_seats ({high})")
        if low < mode.min_seats or high > mode.max_seats:
            raise InvalidArgument(
                f"{request.game} {request.mode} is played by {mode.min_seats}–{mode.max_seats} seats; "
                f"asked for {low}–{high}"
            )
        options = self._checked_options(request.game, request.mode, low, dict(request.options))
        max_wait = request.max_wait_seconds or MAX_WAIT_DEFAULT
        if max_wait > MAX_WAIT_LIMIT:
            raise InvalidArgument(f"max_wait_seconds must be 1–{MAX_WAIT_LIMIT}")
        tag = keys.queue_tag(request.game, request.mode, options)
        timer = checked_turn_timer(request.turn_timer_seconds)
        bot_level, budget = self._chosen_bot(request.game, request.mode, request.bot_level, request.bot_budget_seconds)
        spec = TicketSpec(
            ticket_id=f"{tag}.{uuid.uuid4().hex}",
            player_id=player.subject,
            display_name=player.name,
            game=request.game,
            mode=request.mode,
            options=options,
            min_seats=low,
            max_seats=high,
            allow_bots=request.allow_bots,
            bot_level=bot_level,
            max_wait_ms=max_wait * 1000,
            turn_timer_seconds=timer,
            created_ms=self._now_ms(),
            bot_budget_seconds=checked_budget(budget, timer),
        )
        await self._reserve(player, spec.ticket_id)
        # Should this fail, the slot is not freed here (the ticket may exist all the same):
        # a slot whose ticket never appears is dropped at the cap after a grace period.
        await self.store.create(spec, tag)
        return lobby_pb2.CreateTicketResponse(ticket=ticket_message(Ticket(spec, WAITING)))

    async def _own_ticket(self, ticket_id: str) -> Ticket:
        player = player_of(require_principal())
        if not ticket_id or "." not in ticket_id:
            raise InvalidArgument("ticket_id is required (as CreateTicket returned it)")
        ticket = await self.store.load(ticket_id)
        if ticket is None:
            raise NotFound(f"no ticket {ticket_id}")
        if ticket.spec.player_id != player.subject:
            raise PermissionDenied("this ticket belongs to another player")
        return ticket

    async def CancelTicket(  # noqa: N802
        self, request: lobby_pb2.CancelTicketRequest, context: Context
    ) -> lobby_pb2.CancelTicketResponse:
        ticket = await self._own_ticket(request.ticket_id)
        if ticket.status == WAITING:
            had = await self.store.end(ticket, CANCELLED)
            if had != WAITING:
                ticket = await self._own_ticket(request.ticket_id)
        if ticket.status == CLAIMED:
            raise FailedPrecondition("a table is starting with this ticket; it can no longer be cancelled")
        if ticket.status == SEATED and ticket.seating is not None:
            raise FailedPrecondition(f"the ticket is already seated in match {ticket.seating.match_id}")
        ticket = await self._own_ticket(request.ticket_id)
        return lobby_pb2.CancelTicketResponse(ticket=ticket_message(ticket))

    async def WatchTicket(  # noqa: N802
        self, request: lobby_pb2.WatchTicketRequest, context: Context
    ) -> AsyncIterator[lobby_pb2.WatchTicketResponse]:
        """The ticket now, again on every change and at least every heartbeat, until it is final.

        Between changes the stream waits on the process's one stream reader
        (runtime.wakeups()), holding no Redis connection.
        """
        await self._own_ticket(request.ticket_id)
        last = await self.store.last_update(request.ticket_id)
        grace_ms = self.settings.ticket_watch_grace_seconds * 1000
        with self.wakeups.follow(keys.updates(request.ticket_id), last) as follower:
            ticket = await self._own_ticket(request.ticket_id)
            while True:
                if grace_ms and ticket.status not in FINAL:
                    # Renewed at every update and heartbeat: once the client is gone it lapses,
                    # and the matchmaker cancels the ticket (Matchmaker._watched).
                    await self.store.watching(request.ticket_id, self._now_ms() + grace_ms + WATCH_HEARTBEAT_MS)
                waited = max(0, self._now_ms() - ticket.spec.created_ms) // 1000
                yield lobby_pb2.WatchTicketResponse(ticket=ticket_message(ticket), waited_seconds=waited)
                if ticket.status in FINAL:
                    return
                if await follower.wait(WATCH_HEARTBEAT_MS / 1000):
                    follower.clear()  # before the read, so a change after it wakes us again
                    ticket = await self._own_ticket(request.ticket_id)

    async def CreateTable(  # noqa: N802
        self, request: lobby_pb2.CreateTableRequest, context: Context
    ) -> lobby_pb2.CreateTableResponse:
        player = player_of(require_principal())
        options = self._checked_options(request.game, request.mode, request.seats, dict(request.options))
        bot_seats = sorted(set(request.bot_seats))
        if len(bot_seats) != len(request.bot_seats) or any(s >= request.seats for s in bot_seats):
            raise InvalidArgument(f"bot_seats must be distinct seats of 0..{request.seats - 1}")
        if len(bot_seats) == request.seats:
            raise InvalidArgument("a table needs at least one seat for a player")
        timer = checked_turn_timer(request.turn_timer_seconds)
        bot_level, budget = self._chosen_bot(request.game, request.mode, request.bot_level, request.bot_budget_seconds)
        table = TableSpec(
            table_id=uuid.uuid4().hex[:16],
            owner=player.subject,
            game=request.game,
            mode=request.mode,
            options=options,
            seats=request.seats,
            bot_seats=bot_seats,
            bot_level=bot_level,
            turn_timer_seconds=timer,
            created_ms=self._now_ms(),
            bot_budget_seconds=checked_budget(budget, timer),
        )
        code = "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(6))
        ticket_id = f"{keys.table_tag(table.table_id)}.{uuid.uuid4().hex}"
        await self._reserve(player, ticket_id, table.table_id)
        await self.store.create_table(table, code)
        ticket = await self._join(table, code, player, ticket_id)
        return lobby_pb2.CreateTableResponse(table_id=table.table_id, join_code=code, ticket=ticket_message(ticket))

    async def JoinTable(self, request: lobby_pb2.JoinTableRequest, context: Context) -> lobby_pb2.JoinTableResponse:  # noqa: N802
        player = player_of(require_principal())
        if not request.table_id or not request.join_code:
            raise InvalidArgument("table_id and join_code are required")
        found = await self.store.table(request.table_id)
        if found is None:
            raise NotFound(f"no table {request.table_id}")
        if request.join_code != found[1]:
            # Refused before taking a slot, so a wrong code reads the same at the cap (join_table.lua checks again).
            raise PermissionDenied("the join code is wrong")
        ticket_id = f"{keys.table_tag(request.table_id)}.{uuid.uuid4().hex}"
        await self._reserve(player, ticket_id)
        ticket = await self._join(found[0], request.join_code, player, ticket_id)
        return lobby_pb2.JoinTableResponse(ticket=ticket_message(ticket))

    async def _join(self, table: TableSpec, code: str, player: Principal, ticket_id: str) -> Ticket:
        """Seats the player at the table with the ticket whose slot it reserved (freed unless it joins)."""
        now = self._now_ms()
        specs = {
            seat: TicketSpec(
                ticket_id=ticket_id,
                player_id=player.subject,
                display_name=player.name,
                game=table.game,
                mode=table.mode,
                options=table.options,
                min_seats=table.seats,
                max_seats=table.seats,
                allow_bots=bool(table.bot_seats),
                bot_level=table.bot_level,
                max_wait_ms=0,
                turn_timer_seconds=table.turn_timer_seconds,
                created_ms=now,
                table_id=table.table_id,
                table_seat=seat,
                bot_budget_seconds=table.bot_budget_seconds,
            )
            for seat in table.human_seats()
        }
        result = await self.store.join_table(table, code, player.subject, ticket_id, specs, now)
        if result.outcome != "joined":
            # No new ticket (a refusal, or the player's ticket there already holds its own slot).
            await self.store.players.free(player.subject, [slot_field(TICKET, ticket_id)])
        if result.outcome == "bad_code":
            raise PermissionDenied("the join code is wrong")
        if result.outcome == "missing":
            raise NotFound(f"no table {table.table_id}")
        if result.outcome == "closed":
            raise FailedPrecondition(f"the table has {result.detail}; it takes no more players")
        if result.outcome == "full":
            raise FailedPrecondition("every player seat of the table is taken")
        ticket = await self.store.load(result.ticket_id)
        if ticket is None:
            raise NotFound(f"no ticket {result.ticket_id}")
        return ticket

    async def GetLeaderboard(  # noqa: N802
        self, request: lobby_pb2.GetLeaderboardRequest, context: Context
    ) -> lobby_pb2.GetLeaderboardResponse:
        if request.game not in self.directory.endpoints:
            raise InvalidArgument(f"unknown game {request.game!r}; games: {', '.join(self.directory.endpoints)}")
        limit = request.limit or 20
        if limit > 100:
            raise InvalidArgument("limit must be 1–100")
        standings = await self.ratings.leaderboard(request.game, limit)
        entries: list[Any] = [
            lobby_pb2.LeaderboardEntry(
                rank=index + 1,
                player_id=s.player_id,
                display_name=s.display_name,
                rating=s.ordinal,
                mu=s.mu,
                sigma=s.sigma,
                matches=s.matches,
                wins=s.wins,
                bot=s.bot,
            )
            for index, s in enumerate(standings)
        ]
        return lobby_pb2.GetLeaderboardResponse(game=request.game, entries=entries)

    # ------------------------------------------------------------- resuming a seat

    async def ListMyMatches(  # noqa: N802
        self, request: lobby_pb2.ListMyMatchesRequest, context: Context
    ) -> lobby_pb2.ListMyMatchesResponse:
        return await self.in_progress.list_for(player_of(require_principal()))

    async def ResumeSeat(  # noqa: N802
        self, request: lobby_pb2.ResumeSeatRequest, context: Context
    ) -> lobby_pb2.ResumeSeatResponse:
        return await self.in_progress.resume(player_of(require_principal()), request)
