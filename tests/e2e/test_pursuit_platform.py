"""The cooperative dice game through the running stack: one player with two bots, and bots alone."""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING

import grpc
import pytest

from menagerie.common.v1 import common_pb2
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tests.support.game_client import GameClient
from tests.support.keys import KEYS
from tests.support.lobby_client import queue_until_seated

if TYPE_CHECKING:  # imported at run time by pytest_plugins below, which must come first
    from tests.support.minimatch import RunningMinimatch

pytestmark = pytest.mark.e2e
# The whole platform in one process, started once for the session (deploy/local/minimatch.py).
pytest_plugins = ["tests.support.minimatch"]


def seat_with_bots(lobby_address: str) -> lobby_pb2.Seating:
    """A player asks the lobby for a 3-seat table; greedy bots fill the other two seats."""
    request = lobby_pb2.CreateTicketRequest(
        game="pursuit",
        mode="coop",
        options={"difficulty": "easy"},
        min_seats=3,
        max_seats=3,
        allow_bots=True,
        bot_level="greedy",
        max_wait_seconds=1,
    )
    with grpc.insecure_channel(lobby_address) as channel:
        return queue_until_seated(lobby_pb2_grpc.LobbyStub(channel), request, "Tina")[1].seating


def test_a_three_seat_table_with_bots_and_a_table_of_bots_alone_play_to_the_end(minimatch: RunningMinimatch) -> None:
    seating = seat_with_bots(minimatch.lobby)
    assert seating.game_endpoint == minimatch.games["pursuit"]
    assert (seating.seats, seating.bots) == (3, 2)

    pursuit = GameClient("pursuit", seating.game_endpoint)
    service_token = KEYS.signer().issue_service("e2e", 600)[0]
    bots_alone = pursuit.create(service_token, mode="coop", seats=3, bots=(0, 1, 2), bot_level="greedy")

    played = pursuit.play_seat_to_end(seating.match_id, seating.seat, seating.seat_token, random.Random(4))
    summary, moves = played.summary, played.moves
    deadline = time.monotonic() + 120
    view = pursuit.view(seating.match_id, seating.seat_token).view
    assert moves > 0
    assert len(summary.outcome.seats) == 3 and len({s.result for s in summary.outcome.seats}) == 1
    # Only a board's owner readies its actions, in their own turn (RULES.md "Assigning dice"):
    # a bot's readied board shows a bot took a turn. Not every seat need have had one: the
    # first seat is drawn and an easy beast can end the match by turn 2 (seen in a full run).
    assert {p.seat for p in view.players if p.ready} - {seating.seat}, "a bot took a turn and readied actions"

    while (bots := pursuit.summary(bots_alone.match_id, service_token)).status != common_pb2.MATCH_STATUS_FINISHED:
        assert time.monotonic() < deadline, "the bots' match did not finish"
        time.sleep(0.1)
    assert len({s.result for s in bots.outcome.seats}) == 1 and bots.outcome.reason
    pursuit.close()
