"""`make run` survives a crash (issue 10, item 3).

A crash (SIGKILL of every process, the embedded Redis server too) and a restart on the
same data: the matches in progress are there with every acknowledged move, bots carry
on to the end, the player's token still works and the ratings are kept. (A child of a
running `make run` killed outright is started again: tests/e2e/test_local_platform.py;
`make run` killed alone takes its processes with it and frees its data:
tests/e2e/test_interrupted_runs.py.)
"""

from __future__ import annotations

import random
import time
from pathlib import Path

import grpc
import pytest

from menagerie.common.v1 import common_pb2
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from menagerie.shared.keys import ROLE_GRANTS
from tests.support.game_client import GameClient, bearer
from tests.support.keys import KeyDir
from tests.support.platform import alive, free_port_block, port_block_size, quick_platform, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.faults]

LOBBY, BEASTS = 0, 1
FINISHED = common_pb2.MATCH_STATUS_FINISHED


def seated(lobby: lobby_pb2_grpc.LobbyStub, token: str) -> lobby_pb2.Seating:
    """Queues the player for a 3-seat Beasts table that random bots fill; returns its seating."""
    request = lobby_pb2.CreateTicketRequest(
        game="beasts",
        mode="training",
        min_seats=3,
        max_seats=3,
        allow_bots=True,
        bot_level="random",
        max_wait_seconds=1,
    )
    ticket = lobby.CreateTicket(request, metadata=bearer(token), timeout=10).ticket
    watch = lobby_pb2.WatchTicketRequest(ticket_id=ticket.ticket_id)
    updates = list(lobby.WatchTicket(watch, metadata=bearer(token), timeout=60))
    assert updates[-1].ticket.status == lobby_pb2.TICKET_STATUS_SEATED
    return updates[-1].ticket.seating


def entry(
    lobby: lobby_pb2_grpc.LobbyStub, player_id: str, matches: int, timeout: float = 60.0
) -> lobby_pb2.LeaderboardEntry:
    """The player's leaderboard entry once it counts `matches` matches."""

    def probe() -> lobby_pb2.LeaderboardEntry | None:
        reply = lobby.GetLeaderboard(lobby_pb2.GetLeaderboardRequest(game="beasts", limit=100), timeout=10)
        found = [e for e in reply.entries if e.player_id == player_id and e.matches >= matches]
        return found[0] if found else None

    return wait_for(f"{matches} rated match(es) of {player_id}", probe, timeout)


def history(game: GameClient, match_id: str, token: str, upto: int) -> dict[int, bytes]:
    """The match's events by version, 1..upto, as Watch replays them (serialized, to compare exactly)."""
    events: dict[int, bytes] = {}
    stream = game.stub.Watch(game.pb2.WatchRequest(match_id=match_id), metadata=bearer(token), timeout=30)
    for reply in stream:
        if reply.version <= upto:
            events[reply.version] = b"".join(e.SerializeToString(deterministic=True) for e in reply.events)
        if reply.version >= upto:
            stream.cancel()
            break
    assert set(events) == set(range(1, upto + 1)), f"Watch did not replay versions 1..{upto}"
    return events


def play_moves(game: GameClient, seating: lobby_pb2.Seating, moves: int, rng: random.Random) -> None:
    """Plays `moves` acknowledged actions of the player's seat (the bots play between them)."""
    done = 0
    deadline = time.monotonic() + 120
    while done < moves:
        assert time.monotonic() < deadline, "the player's seat was not asked to act often enough"
        summary = game.summary(seating.match_id, seating.seat_token)
        assert summary.status != FINISHED, "the match ended before the crash; play fewer moves"
        if seating.seat not in summary.to_act:
            time.sleep(0.02)
            continue
        legal = game.legal(seating.match_id, seating.seat_token)
        try:
            game.submit(seating.match_id, seating.seat_token, rng.choice(legal.actions), legal.view_version)
            done += 1
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.ABORTED:  # the table moved on: decide again
                raise


def bots_under_way(game: GameClient, token: str, matches: list[str]) -> None:
    """Waits until the bots have made some 20 moves across `matches` (each takes a second or two in all)."""

    def moved() -> bool | None:
        return sum(game.summary(m, token).version for m in matches) > 20 or None

    wait_for("the bots to start", moved)


def test_a_crash_of_every_process_loses_no_acknowledged_move_and_play_resumes(tmp_path: Path) -> None:
    """kill -9 of make run, every service and Redis; the same make run again: the platform carries on."""
    data, keys = tmp_path / "state" / "data", tmp_path / "state" / "keys"
    # No keys of the test's: make run makes and keeps its own in the folder, which tokens must survive.
    args = ("--data-dir", str(data), "--keys-dir", str(keys))
    base = free_port_block(port_block_size())
    rng = random.Random(10)

    with quick_platform(None, args, base) as platform:
        assert f"data         {data.resolve()} (kept across restarts" in platform.output()
        assert "made now; player and seat tokens stay valid" in platform.output()
        assert all((keys / f"{role}.jwk").stat().st_mode & 0o777 == 0o600 for role in ROLE_GRANTS)
        with grpc.insecure_channel(platform.address(LOBBY)) as channel:
            lobby = lobby_pb2_grpc.LobbyStub(channel)
            player = lobby.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name="Crash"), timeout=10)
            game = GameClient("beasts", platform.address(BEASTS))

            # A first match to the end: the player gets a rating.
            first = seated(lobby, player.token)
            game.play_seat_to_end(first.match_id, first.seat, first.seat_token, rng, timeout=120)
            rated = entry(lobby, player.player_id, 1)

            # A second match part-played: its history up to the last move the player saw acknowledged.
            second = seated(lobby, player.token)
            play_moves(game, second, 3, rng)
            ours = game.summary(second.match_id, second.seat_token).version
            before = history(game, second.match_id, second.seat_token, ours)

            # Matches of bots alone, in full swing at the crash (one takes about a second and a half).
            # Signed with the lobby's own key, as the lobby signs its service credential.
            service_token = KeyDir(keys).signer("lobby").issue_service("lobby", 600)[0]
            bots = [game.create(service_token, mode="training", seats=3, bots=(0, 1, 2)).match_id for _ in range(4)]
            bots_under_way(game, service_token, bots)
            seen = {m: game.summary(m, service_token) for m in bots}
            killed = platform.crash()
            game.close()
        assert len(killed) >= 7  # the runner, Redis, three games, the lobby, the dispatcher, the worker
        assert any(s.status != FINISHED for s in seen.values()), "the bots finished before the crash"
    assert not any(alive(pid) for pid in killed)

    with quick_platform(None, args, base) as platform:
        assert "player and seat tokens stay valid" in platform.output()
        with grpc.insecure_channel(platform.address(LOBBY)) as channel:
            lobby = lobby_pb2_grpc.LobbyStub(channel)
            game = GameClient("beasts", platform.address(BEASTS))

            # Every match is there with every move acknowledged before the crash, exactly as it was.
            assert stored_version(game, second.match_id, second.seat_token) >= ours
            assert history(game, second.match_id, second.seat_token, ours) == before
            for match_id, summary in seen.items():
                assert stored_version(game, match_id, service_token) >= summary.version

            # The ratings are kept.
            kept = entry(lobby, player.player_id, 1, timeout=10)
            assert (kept.mu, kept.sigma, kept.display_name) == (rated.mu, rated.sigma, "Crash"), "ratings were lost"

            # The bots carry on: alone, and beside the player, whose seat token from before still works.
            for match_id, summary in seen.items():
                assert game.finished(match_id, service_token).version >= summary.version
            played = game.play_seat_to_end(second.match_id, second.seat, second.seat_token, rng, timeout=120)
            assert played.summary.version > ours and played.summary.outcome.reason
            assert entry(lobby, player.player_id, 2).matches == 2

            # The player token from before the crash still queues.
            ticket = lobby.CreateTicket(
                lobby_pb2.CreateTicketRequest(game="beasts", mode="training", min_seats=2, max_seats=2),
                metadata=bearer(player.token),
                timeout=10,
            ).ticket
            lobby.CancelTicket(
                lobby_pb2.CancelTicketRequest(ticket_id=ticket.ticket_id), metadata=bearer(player.token), timeout=10
            )
            game.close()
        assert platform.ctrl_c() == 0


@pytest.mark.chaos
def test_repeated_crashes_under_bot_play_lose_nothing(tmp_path: Path) -> None:
    """Four crashes, each with matches of bots in full swing: after each, every acknowledged move is there."""
    args = ("--data-dir", str(tmp_path / "data"), "--keys-dir", str(tmp_path / "keys"))
    base = free_port_block(port_block_size())
    known: dict[str, tuple[int, dict[int, bytes]]] = {}  # match -> (version seen before a crash, its history)
    for crash in range(5):
        with quick_platform(None, args, base) as platform:
            game = GameClient("beasts", platform.address(BEASTS))
            token = KeyDir(tmp_path / "keys").signer("lobby").issue_service("lobby", 600)[0]
            for match_id, (version, events) in known.items():
                assert stored_version(game, match_id, token) >= version, f"crash {crash} lost moves"
                assert history(game, match_id, token, version) == events, f"crash {crash} changed the history"
            if crash == 4:
                for match_id in known:
                    assert game.finished(match_id, token).outcome.reason
                game.close()
                assert platform.ctrl_c() == 0
                break
            fresh = [game.create(token, mode="training", seats=3, bots=(0, 1, 2)).match_id for _ in range(4)]
            bots_under_way(game, token, fresh)
            for match_id in [*known, *fresh]:
                version = game.summary(match_id, token).version
                known[match_id] = (version, history(game, match_id, token, version))
            platform.crash()
            game.close()


def stored_version(game: GameClient, match_id: str, token: str) -> int:
    """The match's version as its service reads it from the store; fails when the match is gone."""
    try:
        return int(game.summary(match_id, token).version)
    except grpc.RpcError as error:
        raise AssertionError(f"match {match_id} did not survive the restart: {error.code()}") from None
