"""Redis key layout (docs/architecture.md "Match keys"): every key of a shard shares one hash tag.

A match lives in shard k = crc32(match id) mod N, so the one Lua script of a move
touches a single Redis Cluster slot.
"""

from __future__ import annotations

import zlib
from typing import NamedTuple

PREFIX = "mg"


def shard_of(match_id: str, shards: int) -> int:
    """The shard of a match: stable across processes and languages (CRC-32)."""
    return zlib.crc32(match_id.encode()) % shards


class ShardKeys(NamedTuple):
    """Keys shared by every match of one shard."""

    turns: str  # every match's turn notices (the dispatcher reads it)
    deadlines: str
    active: str
    finished: str
    results: str  # the FINISHED notices alone (the lobby's ratings read it: not every move)


class MatchKeys(NamedTuple):
    """Keys of one match."""

    state: str
    events: str
    idempotency: str
    shard: ShardKeys
    # A hash of the bot seats that must act now (seat -> menagerie.shared.bots.BotTurn): what their
    # bots need to decide, written with the move that made their turn, gone with the next one.
    bot_turns: str
    # A finished match's win estimates (menagerie.shared.store.records.WinEstimates): RecordWinEstimates
    # writes them, with the state hash's remaining time to live.
    estimates: str
    # A live match's estimates (GetLiveWinChances): a hash of version -> each seat's chance (msgpack), from
    # spectators' views, kept LIVE_SECONDS after the last one; `watched` is set while someone watches the
    # chart, `live_due` while an estimate was asked for in the last throttle period (submit.lua).
    live: str
    watched: str
    live_due: str


def shard_keys(shard: int) -> ShardKeys:
    """Keys of shard `shard`."""
    tag = f"{PREFIX}:{{s{shard}}}"
    return ShardKeys(
        turns=f"{tag}:turns",
        deadlines=f"{tag}:deadlines",
        active=f"{tag}:active",
        finished=f"{tag}:finished",
        results=f"{tag}:results",
    )


def match_keys(match_id: str, shards: int) -> MatchKeys:
    """Keys of match `match_id`."""
    shard = shard_of(match_id, shards)
    base = f"{PREFIX}:{{s{shard}}}:m:{match_id}"
    return MatchKeys(
        state=f"{base}:state",
        events=f"{base}:events",
        idempotency=f"{base}:idem",
        shard=shard_keys(shard),
        bot_turns=f"{base}:bots",
        estimates=f"{base}:estimates",
        live=f"{base}:live",
        watched=f"{base}:watched",
        live_due=f"{base}:live-due",
    )


def deadline_member(match_id: str, seat: int, view_version: int) -> str:
    """The member of a shard's deadlines set for one seat's pending decision."""
    return f"{match_id}|{seat}|{view_version}"


class Deadline(NamedTuple):
    """A parsed deadlines-set member."""

    match_id: str
    seat: int
    view_version: int


def parse_deadline_member(member: str) -> Deadline:
    """The inverse of deadline_member."""
    match_id, seat, version = member.rsplit("|", 2)
    return Deadline(match_id, int(seat), int(version))
