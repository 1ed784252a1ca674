"""Fantastic Beasts mode III (Advanced Magizoology, co-op) through the stack `make run` starts.

A player asks the lobby for a mode III table; bots fill the other seats and play through
the bot worker while the player plays random legal actions. The match ends as a co-op
game ends: every seat wins together or every seat loses together. Two tables, one after
the other on the same platform: four seats with greedy bots, two with a random bot.
"""

from __future__ import annotations

import random

import grpc
import pytest

from menagerie.common.v1 import common_pb2
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tests.support.game_client import GameClient
from tests.support.keys import KEYS
from tests.support.lobby_client import queue_until_seated
from tests.support.platform import RunningPlatform, local_platform

# make test plays mode III to its end in the browser (test_play_every_mode); these tables, longer, run in
# `make test-extended`.
pytestmark = [pytest.mark.e2e, pytest.mark.extended]

LOBBY, BEASTS = 0, 1  # port offsets: deploy/games.toml's port − 50050


def play_a_table(platform: RunningPlatform, lobby: lobby_pb2_grpc.LobbyStub, seats: int, level: str, seed: int) -> None:
    """A player queues for `seats` seats of mode III, bots of `level` fill the rest; all play to a co-op end."""
    request = lobby_pb2.CreateTicketRequest(
        game="beasts",
        mode="advanced",
        min_seats=seats,
        max_seats=seats,
        allow_bots=True,
        bot_level=level,
        max_wait_seconds=1,
    )
    ticket = queue_until_seated(lobby, request, f"Newt {seats}")[1]
    seating = ticket.seating
    assert ticket.status == lobby_pb2.TICKET_STATUS_SEATED
    assert (seating.seats, seating.bots) == (seats, seats - 1)
    assert seating.game_endpoint == platform.address(BEASTS)

    game = GameClient("beasts", seating.game_endpoint)
    played = game.play_seat_to_end(seating.match_id, seating.seat, seating.seat_token, random.Random(seed))
    view = game.view(seating.match_id, seating.seat_token).view
    game.close()

    summary = played.summary
    assert summary.config.mode == "advanced"
    assert played.moves > 0
    assert summary.version > 1 + played.moves, "the bots played too"
    bots = {s.seat: s.bot_level for s in summary.seats if s.kind == common_pb2.SEAT_KIND_BOT}
    assert bots == dict.fromkeys(set(range(seats)) - {seating.seat}, level)
    assert len(summary.outcome.seats) == seats and summary.outcome.reason
    results = {s.result for s in summary.outcome.seats}
    assert results in ({common_pb2.RESULT_WIN}, {common_pb2.RESULT_LOSS}), summary.outcome
    # Every seat, the bots included, chose a character and had turns.
    assert len({p.character for p in view.players if p.character}) == seats
    assert view.turn >= seats and view.prompt.kind == "finished"


def test_a_player_and_bots_play_mode_iii_tables_to_a_co_op_end() -> None:
    with local_platform(KEYS) as platform:
        with grpc.insecure_channel(platform.address(LOBBY)) as channel:
            lobby = lobby_pb2_grpc.LobbyStub(channel)
            games = {g.game: g for g in lobby.ListGames(lobby_pb2.ListGamesRequest()).games}
            advanced = {m.mode: m for m in games["beasts"].modes}["advanced"]
            assert advanced.cooperative and (advanced.min_seats, advanced.max_seats) == (2, 6)
            play_a_table(platform, lobby, seats=4, level="greedy", seed=7)
            play_a_table(platform, lobby, seats=2, level="random", seed=8)
        assert platform.ctrl_c() == 0
