"""A 4-seat advanced Fantasy Zoo match through the running stack: one player, three bots."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import grpc
import pytest

from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tests.support.game_client import GameClient
from tests.support.lobby_client import queue_until_seated

if TYPE_CHECKING:  # imported at run time by pytest_plugins below, which must come first
    from tests.support.minimatch import RunningMinimatch

pytestmark = pytest.mark.e2e
# The whole platform in one process, started once for the session (deploy/local/minimatch.py).
pytest_plugins = ["tests.support.minimatch"]


def test_a_four_seat_advanced_zoo_match_with_bots_plays_to_the_end(minimatch: RunningMinimatch) -> None:
    with grpc.insecure_channel(minimatch.lobby) as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        request = lobby_pb2.CreateTicketRequest(
            game="zoo",
            mode="advanced",
            min_seats=4,
            max_seats=4,
            allow_bots=True,
            bot_level="greedy",
            max_wait_seconds=1,
        )
        seating = queue_until_seated(lobby, request, "Keeper")[1].seating
        assert (seating.seats, seating.bots) == (4, 3)
        assert seating.game_endpoint == minimatch.games["zoo"]

    zoo = GameClient("zoo", seating.game_endpoint)
    played = zoo.play_seat_to_end(seating.match_id, seating.seat, seating.seat_token, random.Random(9))
    summary, moves = played.summary, played.moves
    view = zoo.view(seating.match_id, seating.seat_token).view
    zoo.close()
    assert moves > 12  # at least three picks a round for five rounds
    assert view.round == 5 and len(summary.outcome.seats) == 4
    assert all(z.row for z in view.zoos), "every seat, bots included, built a zoo"
    assert all(z.secret_goals for z in view.zoos), "secret goals are revealed at the end"
