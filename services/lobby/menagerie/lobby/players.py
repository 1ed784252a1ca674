"""Players the lobby registered, and the slots their open tickets and tables hold.

A player is a guest until seated in a match. RegisterPlayer needs no credential, so a
guest's record (`lb:player:<id>`) expires after guest_player_ttl_seconds; opening a
ticket or table renews that, and being seated in a match makes the record permanent
(PERSIST), ratings included. A token may outlive its guest's record: the calls that open
tickets or tables then answer UNAUTHENTICATED ("register again").

Caps: the record holds one field per open ticket (`ticket:<id>`) and per open table the
player created (`table:<id>`), valued with when it was reserved. reserve.lua counts and
takes them in one step, so concurrent calls at the cap never both pass. The record is
one key in its own hash slot while a ticket lives in its queue's (or table's) slot, so
the slot is reserved first and the ticket created after, by a second script; the slot is
freed when the ticket is cancelled, expires or is seated, and a table's when it starts,
closes or expires. A slot a crash left behind is found stale when the player reaches the
cap (its ticket or table ended, or never appeared within RESERVATION_GRACE_MS) and
dropped then, so the count never stays wrong and is never too low.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from redis.asyncio import Redis

from menagerie.lobby import keys
from menagerie.shared.store.pipelined import RedisRunner

TICKET = "ticket"
TABLE = "table"
# A slot whose ticket or table has not appeared after this belongs to a call that failed.
RESERVATION_GRACE_MS = 60_000
RENAME = "if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('HSET', KEYS[1], 'name', ARGV[1]) end return 0"


def slot_field(kind: str, item_id: str) -> str:
    """The player-record field that holds one open ticket or table."""
    return f"{kind}:{item_id}"


@dataclass(frozen=True)
class Slot:
    """A ticket or table a player wants to open, and the cap of its kind."""

    kind: str
    item_id: str
    cap: int


@dataclass(frozen=True)
class Reservation:
    """What reserve.lua answered: ok, missing (no player) or full (with the slots held)."""

    outcome: str
    kind: str = ""
    # id -> when it was reserved (ms), of every slot of the full kind
    held: dict[str, int] = field(default_factory=dict)


class PlayerStore:
    """Player records and their slots in Redis."""

    def __init__(self, redis: Redis, runner: RedisRunner | None = None) -> None:
        self.redis = redis
        self.runner = runner or RedisRunner(redis)
        self._reserve = redis.register_script((resources.files("menagerie.lobby.lua") / "reserve.lua").read_text())
        # Only an existing record: HSET alone would bring back an expired guest's record, for good.
        self._rename = redis.register_script(RENAME)

    async def register(self, player_id: str, name: str, now_ms: int, guest_ttl_seconds: int) -> None:
        """Stores a new guest, which expires unless it plays."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.hset(keys.player(player_id), mapping={"name": name, "created_ms": now_ms})
            pipe.expire(keys.player(player_id), guest_ttl_seconds)
            await pipe.execute()

    async def rename(self, player_id: str, name: str) -> None:
        """The player's new display name (nothing for a guest record that expired: its token names it)."""
        await self.runner.script(self._rename, [keys.player(player_id)], [name])

    async def reserve(
        self, player_id: str, slots: Sequence[Slot], now_ms: int, guest_ttl_seconds: int, drop: Sequence[str] = ()
    ) -> Reservation:
        """Takes every slot or none (see reserve.lua), after dropping the stale fields `drop`."""
        args: list[Any] = [now_ms, guest_ttl_seconds, len(drop), *drop]
        for slot in slots:
            args += [slot.kind, slot.cap, slot.item_id]
        reply = [
            r.decode() if isinstance(r, bytes) else str(r)
            for r in await self.runner.script(self._reserve, [keys.player(player_id)], args)
        ]
        if reply[0] != "full":
            return Reservation(reply[0])
        kind = reply[1]
        held = {name.split(":", 1)[1]: int(value) for name, value in zip(reply[2::2], reply[3::2], strict=True)}
        return Reservation("full", kind, held)

    async def free(self, player_id: str, fields: Iterable[str]) -> None:
        """Frees slots (a no-op for slots already free, or a record that expired)."""
        names = list(fields)
        if names:
            await self.redis.hdel(keys.player(player_id), *names)

    async def keep(self, players: Iterable[tuple[str, str]], now_ms: int) -> None:
        """Players (id, name) about to be seated: each kept for good, before any ticket says seated."""
        commands: list[tuple[str | int, ...]] = []
        for player_id, name in players:
            key = keys.player(player_id)
            commands += [
                # Recreates a record that expired while its ticket waited: a player who plays is kept.
                ("HSETNX", key, "name", name),
                ("HSET", key, "played_ms", now_ms),
                ("PERSIST", key),
            ]
        await self.runner.batch(commands)

    async def free_seated(self, tickets: Iterable[tuple[str, str]]) -> None:
        """Frees the slots of seated tickets (player id, ticket id)."""
        commands = [("HDEL", keys.player(player_id), slot_field(TICKET, t)) for player_id, t in tickets]
        await self.runner.batch(commands)
