"""The lobby's Redis store: tickets, queues, claims and private tables.

Every change of a ticket's status is one Lua script that also appends to the ticket's
own update stream, which WatchTicket follows. Every ticket and table a player opens
holds one of the player's slots (menagerie.lobby.players); the store frees it whenever
the ticket or table ends.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any, cast

import msgspec
from redis.asyncio import Redis

from menagerie.lobby import keys
from menagerie.lobby.players import RESERVATION_GRACE_MS, TABLE, TICKET, PlayerStore, Reservation, Slot, slot_field
from menagerie.lobby.records import CLAIMED, FINAL, WAITING, Claim, Seating, Ticket, TicketSpec
from menagerie.shared.store.pipelined import RedisRunner

ENDED_TICKET_SECONDS = 24 * 3600
OPEN = "open"

_encode = msgspec.msgpack.Encoder().encode
_spec = msgspec.msgpack.Decoder(TicketSpec)
_seating = msgspec.msgpack.Decoder(Seating)
_claim = msgspec.msgpack.Decoder(Claim)


class TableSpec(msgspec.Struct, frozen=True):
    """A private table as created."""

    table_id: str
    owner: str
    game: str
    mode: str
    options: dict[str, str]
    seats: int
    bot_seats: list[int]
    bot_level: str
    turn_timer_seconds: int
    created_ms: int
    bot_budget_seconds: float = 0.0

    def human_seats(self) -> list[int]:
        """Seats for players, in order."""
        return [s for s in range(self.seats) if s not in self.bot_seats]


class JoinResult(msgspec.Struct, frozen=True):
    """What a join attempt did."""

    outcome: str
    ticket_id: str = ""
    seat: int = -1
    free: int = 0
    detail: str = ""


_table_spec = msgspec.msgpack.Decoder(TableSpec)


def _script(name: str) -> str:
    return (resources.files("menagerie.lobby.lua") / name).read_text()


class TicketStore:
    """Tickets, queues, claims and tables in Redis."""

    def __init__(self, redis: Redis, runner: RedisRunner | None = None) -> None:
        self.redis = redis
        # Scripts and batches of the request path: pipelined when the process passes its runner.
        self.runner = runner or RedisRunner(redis)
        self._create = redis.register_script(_script("create_ticket.lua"))
        self._end = redis.register_script(_script("end_ticket.lua"))
        self._claim = redis.register_script(_script("claim.lua"))
        self._seat = redis.register_script(_script("seat.lua"))
        self._release = redis.register_script(_script("release.lua"))
        self._join = redis.register_script(_script("join_table.lua"))
        self._leave = redis.register_script(_script("leave_table.lua"))
        self._expire_table = redis.register_script(_script("expire_table.lua"))
        self.players = PlayerStore(redis, self.runner)

    # ------------------------------------------------------------------ slots

    async def reserve(self, player_id: str, slots: Sequence[Slot], now_ms: int, guest_ttl_seconds: int) -> Reservation:
        """Takes the player's slots for new tickets and tables (see players.py); stale ones are dropped at the cap."""
        reservation = await self.players.reserve(player_id, slots, now_ms, guest_ttl_seconds)
        if reservation.outcome != "full":
            return reservation
        stale = await self._stale(reservation, now_ms)
        if not stale:
            return reservation
        return await self.players.reserve(player_id, slots, now_ms, guest_ttl_seconds, stale)

    async def _stale(self, reservation: Reservation, now_ms: int) -> list[str]:
        """Fields of slots whose ticket or table has ended (or never appeared: its call failed)."""
        young = {i for i, at in reservation.held.items() if now_ms - at < RESERVATION_GRACE_MS}
        if reservation.kind == TICKET:
            found = {t.spec.ticket_id: t.status for t in await self.load_many(list(reservation.held))}
            open_ = {i for i, status in found.items() if status not in FINAL}
        else:
            found = {}
            for table_id in reservation.held:
                table = await self.table(table_id)
                if table is not None:
                    found[table_id] = table[2]
            open_ = {i for i, status in found.items() if status == OPEN}
        return [
            slot_field(reservation.kind, i)
            for i in reservation.held
            if i not in open_ and (i in found or i not in young)
        ]

    # ------------------------------------------------------------------ tickets

    async def create(self, spec: TicketSpec, tag: str) -> None:
        """Stores a waiting ticket in the queue with tag `tag`."""
        # The queue's registration (other slots) and the ticket (its queue's slot) are sent
        # at once: one round trip. The order does not matter: a pass finds the queue either way.
        await asyncio.gather(
            self.runner.batch([("SADD", keys.QUEUES, tag), ("HSETNX", keys.queue_meta(tag), "game", spec.game)]),
            self.runner.script(
                self._create,
                [keys.ticket(spec.ticket_id), keys.updates(spec.ticket_id), keys.waiting(tag)],
                [spec.ticket_id, _encode(spec), spec.created_ms],
            ),
        )

    async def load(self, ticket_id: str) -> Ticket | None:
        """The ticket, or None."""
        values = await self.redis.hmget(keys.ticket(ticket_id), ["status", "spec", "seating"])
        return _ticket(cast("list[bytes | None]", values))

    async def load_many(self, ticket_ids: Sequence[str]) -> list[Ticket]:
        """The tickets that exist among `ticket_ids`, in order."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for ticket_id in ticket_ids:
                pipe.hmget(keys.ticket(ticket_id), ["status", "spec", "seating"])
            replies = await pipe.execute()
        return [t for t in (_ticket(r) for r in replies) if t is not None]

    async def end(self, ticket: Ticket, status: str) -> str:
        """Cancels or expires a waiting ticket and frees its player's slot; returns the status it had."""
        spec = ticket.spec
        if spec.table_id:
            reply = await self.runner.script(
                self._leave,
                [
                    keys.table(spec.table_id),
                    keys.waiting(keys.table_tag(spec.table_id)),
                    keys.ticket(spec.ticket_id),
                    keys.updates(spec.ticket_id),
                ],
                [spec.ticket_id, spec.player_id, spec.table_seat, ENDED_TICKET_SECONDS],
            )
            found = await self.table(spec.table_id)
            if found is not None and found[2] != OPEN:
                # The last player left: the table closed, which frees its creator's slot.
                await self.players.free(found[0].owner, [slot_field(TABLE, spec.table_id)])
        else:
            reply = await self.runner.script(
                self._end,
                [
                    keys.ticket(spec.ticket_id),
                    keys.updates(spec.ticket_id),
                    keys.waiting(keys.tag_of(spec.ticket_id)),
                ],
                [spec.ticket_id, status, ENDED_TICKET_SECONDS],
            )
        had = reply.decode() if isinstance(reply, bytes) else str(reply)
        if had != CLAIMED:
            # Ended now, or earlier by another path: either way it holds no slot any more.
            await self.players.free(spec.player_id, [slot_field(TICKET, spec.ticket_id)])
        return had

    async def watching(self, ticket_id: str, until_ms: int) -> None:
        """Notes that a WatchTicket stream follows the ticket: it counts as watched until `until_ms`."""
        await self.redis.set(keys.ticket_watcher(ticket_id), until_ms, ex=ENDED_TICKET_SECONDS)

    async def abandoned(self, tickets: Sequence[Ticket], now_ms: int) -> list[Ticket]:
        """The tickets once watched whose last watcher's time ran out before `now_ms` (one read each)."""
        if not tickets:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for ticket in tickets:
                pipe.get(keys.ticket_watcher(ticket.spec.ticket_id))
            replies = await pipe.execute()
        return [t for t, until in zip(tickets, replies, strict=True) if until is not None and int(until) < now_ms]

    async def last_update(self, ticket_id: str) -> str:
        """The id of the ticket's latest update (to follow it from there)."""
        entries = cast("list[tuple[bytes, Any]]", await self.redis.xrevrange(keys.updates(ticket_id), count=1))
        return entries[0][0].decode() if entries else "0-0"

    # ------------------------------------------------------------- matchmaking

    async def queues(self) -> list[str]:
        """Tags of every queue and table the matchmaker looks at."""
        return sorted(m.decode() for m in cast("set[bytes]", await self.redis.smembers(keys.QUEUES)))

    async def forget_queue(self, tag: str) -> None:
        """Stops looking at a queue or table with nothing left in it."""
        await self.redis.srem(keys.QUEUES, tag)

    async def waiting(self, tag: str, limit: int = 1000) -> list[Ticket]:
        """Waiting tickets of a queue or table, oldest first."""
        ids = [m.decode() for m in cast("list[bytes]", await self.redis.zrange(keys.waiting(tag), 0, limit - 1))]
        return [t for t in await self.load_many(ids) if t.status == WAITING]

    async def lock(self, tag: str, owner: str, ttl_ms: int) -> bool:
        """Takes the queue for one matchmaking pass (an optimisation: claims are what is safe)."""
        return bool(await self.redis.set(keys.lock(tag), owner, nx=True, px=ttl_ms))

    async def claim(self, tag: str, claim: Claim) -> bool:
        """Claims the claim's tickets, all or none."""
        return (await self.claim_many(tag, [claim]))[0]

    async def claim_many(self, tag: str, claims: Sequence[Claim]) -> list[bool]:
        """Claims the tickets of each claim, each claim all or none, in one script; whether each was won."""
        if not claims:
            return []
        script_keys = [keys.waiting(tag), keys.claims(tag)]
        args: list[Any] = [claims[0].claimed_ms, len(claims)]
        for claim in claims:
            tickets = [t for t in claim.seats if t]
            script_keys += [keys.claim(tag, claim.match_id), *map(keys.ticket, tickets)]
            args += [claim.match_id, _encode(claim), len(tickets), *tickets]
        reply = cast("list[int]", await self.runner.script(self._claim, script_keys, args))
        return [bool(won) for won in reply]

    async def seat(
        self,
        tag: str,
        match_id: str,
        seatings: dict[str, Seating],
        keep_seconds: int,
        specs: Mapping[str, TicketSpec],
        now_ms: int,
    ) -> None:
        """Marks claimed tickets seated in `match_id`; their slots are freed and their players kept for good."""
        await self.seat_many(tag, {match_id: seatings}, keep_seconds, specs, now_ms)

    async def seat_many(
        self,
        tag: str,
        matches: Mapping[str, Mapping[str, Seating]],
        keep_seconds: int,
        specs: Mapping[str, TicketSpec],
        now_ms: int,
    ) -> None:
        """seat() for several matches of one queue (match id -> ticket id -> seating), in one script."""
        if not matches:
            return
        seated = [(specs[t].player_id, t) for seatings in matches.values() for t in seatings if t in specs]
        # Kept first: once a ticket says seated its player may look, and a crash between the two
        # steps must not leave a seated guest that expires.
        await self.players.keep(((player_id, specs[t].display_name) for player_id, t in seated), now_ms)
        script_keys = [keys.claims(tag)]
        args: list[Any] = [keep_seconds, len(matches)]
        for match_id, seatings in matches.items():
            script_keys.append(keys.claim(tag, match_id))
            args += [match_id, len(seatings)]
            for ticket_id, seating in seatings.items():
                script_keys += [keys.ticket(ticket_id), keys.updates(ticket_id)]
                args.append(_encode(seating))
        await self.runner.script(self._seat, script_keys, args)
        await self.players.free_seated(seated)

    async def release(self, tag: str, claim: Claim) -> None:
        """Puts a claim's tickets back in the queue."""
        tickets = await self.load_many([t for t in claim.seats if t])
        args: list[Any] = [claim.match_id]
        for ticket in tickets:
            args += [ticket.spec.ticket_id, ticket.spec.created_ms]
        await self.runner.script(
            self._release,
            [
                keys.claims(tag),
                keys.claim(tag, claim.match_id),
                keys.waiting(tag),
                *(keys.ticket(t.spec.ticket_id) for t in tickets),
            ],
            args,
        )

    async def pending_claims(self, tag: str, older_than_ms: int) -> list[Claim]:
        """Claims whose match was not seated by `older_than_ms` (a lobby died or a call failed)."""
        ids = cast("list[bytes]", await self.redis.zrangebyscore(keys.claims(tag), "-inf", older_than_ms))
        if not ids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for match_id in ids:
                pipe.hget(keys.claim(tag, match_id.decode()), "claim")
            blobs = cast("list[bytes | None]", await pipe.execute())
        return [_claim.decode(blob) for blob in blobs if blob]

    # ------------------------------------------------------------------ tables

    async def create_table(self, spec: TableSpec, code: str) -> None:
        """Stores an open table (its creator joins like anyone else, right after)."""
        tag = keys.table_tag(spec.table_id)
        await self.redis.hset(
            keys.table(spec.table_id), mapping={"spec": _encode(spec), "code": code, "status": "open"}
        )
        await self.redis.sadd(keys.QUEUES, tag)

    async def table(self, table_id: str) -> tuple[TableSpec, str, str] | None:
        """(spec, join code, status) of a table, or None."""
        values = cast("list[bytes | None]", await self.redis.hmget(keys.table(table_id), ["spec", "code", "status"]))
        spec, code, status = values
        if spec is None or code is None or status is None:
            return None
        return _table_spec.decode(spec), code.decode(), status.decode()

    async def table_started(self, table_id: str, keep_seconds: int) -> None:
        """Records that a table's match exists: it takes nobody else, is kept a while, and frees its slot."""
        found = await self.table(table_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(keys.table(table_id), "status", "started")
            pipe.expire(keys.table(table_id), keep_seconds)
            await pipe.execute()
        if found is not None:
            await self.players.free(found[0].owner, [slot_field(TABLE, table_id)])

    async def expire_table(self, spec: TableSpec, keep_seconds: int) -> list[Ticket]:
        """Closes a table nobody completed in time (see expire_table.lua); returns the tickets it ended."""
        tag = keys.table_tag(spec.table_id)
        # The waiting set may change between reading it and the script; the script then says so.
        for _ in range(5):
            waiting = [m.decode() for m in cast("list[bytes]", await self.redis.zrange(keys.waiting(tag), 0, -1))]
            script_keys = [keys.table(spec.table_id), keys.waiting(tag), keys.claims(tag)]
            for ticket_id in waiting:
                script_keys += [keys.ticket(ticket_id), keys.updates(ticket_id)]
            reply = await self.runner.script(self._expire_table, script_keys, [keep_seconds, *waiting])
            outcome = reply.decode() if isinstance(reply, bytes) else str(reply)
            if outcome != "changed":
                break
        if outcome != "expired":
            return []
        ended = await self.load_many(waiting)
        for ticket in ended:
            await self.players.free(ticket.spec.player_id, [slot_field(TICKET, ticket.spec.ticket_id)])
        await self.players.free(spec.owner, [slot_field(TABLE, spec.table_id)])
        return ended

    async def join_table(
        self, table: TableSpec, code: str, player_id: str, ticket_id: str, specs: dict[int, TicketSpec], now_ms: int
    ) -> JoinResult:
        """Takes the first free human seat for the player (see join_table.lua)."""
        args: list[Any] = [code, player_id, ticket_id, now_ms]
        for seat, spec in specs.items():
            args += [seat, _encode(spec)]
        reply = await self.runner.script(
            self._join,
            [
                keys.table(table.table_id),
                keys.waiting(keys.table_tag(table.table_id)),
                keys.ticket(ticket_id),
                keys.updates(ticket_id),
            ],
            args,
        )
        words = [r.decode() for r in reply]
        if words[0] == "joined":
            return JoinResult("joined", ticket_id, int(words[1]), int(words[2]))
        if words[0] == "already":
            return JoinResult("already", words[1])
        return JoinResult(words[0], detail=words[1] if len(words) > 1 else "")


def _ticket(values: Sequence[bytes | None]) -> Ticket | None:
    status, spec, seating = values
    if status is None or spec is None:
        return None
    return Ticket(
        spec=_spec.decode(spec),
        status=status.decode(),
        seating=_seating.decode(seating) if seating else None,
    )
