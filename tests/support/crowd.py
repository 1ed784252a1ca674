"""Crowds of spectators for the capacity tests and the bench: many Watch streams, one player each."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import grpc

from menagerie.shared.games.binding import binding
from menagerie.shared.tokens import TokenSigner
from tests.support.game_client import GameClient, bearer


def new_matches(game: str, address: str, service_token: str, count: int) -> list[str]:
    """The ids of `count` new 2-seat matches of `game` (in the game's first mode) that nobody plays."""
    client = GameClient(game, address)
    try:
        return [client.create(service_token, seats=2).match_id for _ in range(count)]
    finally:
        client.close()


def spectator_streams(
    channel: grpc.aio.Channel,
    game: str,
    match_ids: Sequence[str],
    signer: TokenSigner,
    count: int,
    name: str = "spectator",
    timeout: float | None = 120,
) -> list[Any]:
    """`count` Watch streams spread over `match_ids`, each a spectator of its own (a player token); not read yet."""
    bound = binding(game)
    stub = bound.stub(channel)
    streams = []
    for i in range(count):
        token, _ = signer.issue_player(f"{name}-{i}", name.title(), 3600)
        request = bound.pb2.WatchRequest(match_id=match_ids[i % len(match_ids)])
        streams.append(stub.Watch(request, metadata=bearer(token), timeout=timeout))
    return streams


async def first_messages(streams: Sequence[Any], seconds: float = 120, batch: int = 200) -> list[Any]:
    """Each stream's first message (read `batch` streams at a time), within `seconds` in all."""
    firsts: list[Any] = []
    async with asyncio.timeout(seconds):
        for start in range(0, len(streams), batch):
            firsts += await asyncio.gather(*(s.read() for s in streams[start : start + batch]))
    return firsts
