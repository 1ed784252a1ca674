"""The platform as `make run` starts it: a player queues, bots fill and play (Beasts, the Snitch), ratings follow;
a child killed outright (the bot worker, a game service) is started again and play goes on (issue 10, item 5);
Ctrl-C stops every process.

One platform for the whole story: a `make run` start costs some 10 processes' start-up (issue 34: the suite's time).
"""

from __future__ import annotations

import random
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from menagerie.common.v1 import common_pb2
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tests.support.game_client import GameClient
from tests.support.keys import KEYS
from tests.support.lobby_client import queue_until_seated
from tests.support.platform import RunningPlatform, quick_platform, wait_for

pytestmark = pytest.mark.e2e

LOBBY, BEASTS, SNITCH = 0, 1, 4  # port offsets: deploy/games.toml's port − 50050
SERVICES = ("redis", "beasts", "snitch", "lobby", "dispatcher", "bot-worker", "search-worker")
# make run starts two workers of the same command: the bot worker takes the plain queues.
PLAIN_WORKER = "MENAGERIE_WORKER_QUEUES=plain"


def test_a_player_plays_bots_the_leaderboard_shows_it_and_killed_children_come_back() -> None:
    with quick_platform(KEYS) as platform:
        output = platform.output()
        for name in SERVICES:
            assert f"\n{name}" in "\n" + output, f"make run does not report {name}"
        assert f"lobby        {platform.address(LOBBY)}" in output
        assert f"beasts       {platform.address(BEASTS)}" in output
        for offset in (LOBBY, BEASTS):
            with grpc.insecure_channel(platform.address(offset)) as channel:
                health = health_pb2_grpc.HealthStub(channel)
                reply = health.Check(health_pb2.HealthCheckRequest())  # type: ignore[attr-defined]
                assert reply.status == health_pb2.HealthCheckResponse.SERVING

        with grpc.insecure_channel(platform.address(LOBBY)) as channel:
            lobby = lobby_pb2_grpc.LobbyStub(channel)
            request = lobby_pb2.CreateTicketRequest(
                game="beasts", mode="training", min_seats=3, max_seats=3, allow_bots=True, max_wait_seconds=1
            )
            player, ticket = queue_until_seated(lobby, request, "Tester")
            seating = ticket.seating
            assert ticket.status == lobby_pb2.TICKET_STATUS_SEATED
            assert (seating.seats, seating.bots) == (3, 2)
            assert seating.game_endpoint == platform.address(BEASTS)

            game = GameClient("beasts", seating.game_endpoint)
            played = game.play_seat_to_end(seating.match_id, seating.seat, seating.seat_token, random.Random(3))
            summary = played.summary
            game.close()
            assert played.moves > 0
            assert summary.outcome.reason
            bots_moved = {s.seat for s in summary.seats if s.kind == common_pb2.SEAT_KIND_BOT}
            assert len(bots_moved) == 2

            entries: list[lobby_pb2.LeaderboardEntry] = []
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                reply = lobby.GetLeaderboard(lobby_pb2.GetLeaderboardRequest(game="beasts", limit=100))
                entries = [e for e in reply.entries if e.player_id == player.player_id]
                if entries:
                    break
                time.sleep(0.2)
            assert entries, "the finished match never reached the leaderboard"
            assert entries[0].matches == 1 and entries[0].display_name == "Tester"

            # Catch the Golden Snitch, Build Your Team (Funding 5, Spectators on): a player's seat
            # against a greedy bot, which builds its Team through the worker pool, to the catch.
            request = lobby_pb2.CreateTicketRequest(
                game="snitch",
                mode="advanced",
                options={"funding": "5", "spectators": "on"},
                min_seats=2,
                max_seats=2,
                allow_bots=True,
                bot_level="greedy",
                max_wait_seconds=1,
            )
            seating = queue_until_seated(lobby, request, "Seeker")[1].seating
            assert (seating.seats, seating.bots) == (2, 1)
            assert seating.game_endpoint == platform.address(SNITCH)
            snitch = GameClient("snitch", seating.game_endpoint)
            played = snitch.play_seat_to_end(seating.match_id, seating.seat, seating.seat_token, random.Random(4))
            view = snitch.view(seating.match_id, seating.seat_token).view
            snitch.close()
            assert played.moves > 0 and "caught the Golden Snitch" in played.summary.outcome.reason
            bots_moved = {s.seat for s in played.summary.seats if s.kind == common_pb2.SEAT_KIND_BOT}
            assert bots_moved == {1 - seating.seat}
            assert view.sequence >= 1 and view.race.snitch in view.race.seekers
            assert view.funding == 5 and view.spectators_on and len(view.stand) == 2
            assert all(len(coach.cards) == 7 for coach in view.coaches), "both Teams were built and played"

        killed_children_are_started_again(platform)

        group = platform.group()
        assert len(group) >= 6  # the runner, Redis and the four services (and the worker's pool)
        assert platform.ctrl_c() == 0
    time.sleep(0.5)
    assert platform.group() == [], "processes outlived Ctrl-C"
    assert "stopped." in platform.output()


def serving(address: str) -> bool:
    """True when the gRPC health check at `address` says SERVING."""
    with grpc.insecure_channel(address) as channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=1)  # type: ignore[attr-defined]
        except grpc.RpcError:
            return False
    return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)


def child_or_none(platform: RunningPlatform, needle: str, env: str = "") -> int | None:
    """The runner's child running `needle` (with `env`), or None while there is none."""
    try:
        return platform.child(needle, env)
    except AssertionError:
        return None


def kill_child(platform: RunningPlatform, needle: str, env: str = "") -> int:
    """SIGKILL of the runner's child running `needle` (with `env`) and of what it forked; returns its pid."""
    pid = platform.child(needle, env)
    platform.kill_tree(pid)
    return pid


def killed_children_are_started_again(platform: RunningPlatform) -> None:
    """kill -9 the bot worker, then a game service: both come back, and bots play on."""
    game = GameClient("beasts", platform.address(BEASTS))
    service_token = KEYS.signer().issue_service("e2e", 600)[0]

    worker = kill_child(platform, "menagerie.bots.worker", PLAIN_WORKER)
    wait_for("the worker's exit line", lambda: "bot-worker exited with code -9" in platform.output() or None, 30)
    assert "restarting it in" in platform.output()
    restarted = wait_for("a new bot worker", lambda: child_or_none(platform, "menagerie.bots.worker", PLAIN_WORKER), 30)
    assert restarted != worker
    # Only the worker plays bot seats: a bots-only match that finishes shows it is back.
    after_worker = game.create(service_token, mode="training", seats=3, bots=(0, 1, 2))
    assert game.finished(after_worker.match_id, service_token).outcome.reason

    under_way = game.create(service_token, mode="training", seats=3, bots=(0, 1, 2))
    wait_for("a few bot moves", lambda: game.summary(under_way.match_id, service_token).version > 3 or None, 60)
    kill_child(platform, "menagerie.shared.games beasts")
    wait_for("the game's exit line", lambda: "beasts exited with code -9" in platform.output() or None, 30)
    wait_for("beasts SERVING again", lambda: serving(platform.address(BEASTS)) or None, 60)
    # The match that was under way when its service died is played to the end, and new ones are.
    assert game.finished(under_way.match_id, service_token).outcome.reason
    after_game = game.create(service_token, mode="training", seats=3, bots=(0, 1, 2))
    assert game.finished(after_game.match_id, service_token).outcome.reason
    game.close()
