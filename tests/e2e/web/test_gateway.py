"""The gateway without a browser: blocking Connect clients (connect-python) against it, the backends behind it."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import urllib.request
from typing import TYPE_CHECKING, Any

import grpc
import pytest
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from google.rpc import status_pb2

from menagerie.common.v1 import matches_pb2
from menagerie.common.v1.matches_connect import MatchesClientSync
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from menagerie.lobby.v1.lobby_connect import LobbyClientSync
from menagerie.rules.registry import game_ids
from menagerie.shared.lifetime import spawn, stop_group
from menagerie.zoo.v1 import zoo_pb2
from menagerie.zoo.v1.zoo_connect import ZooClientSync
from tests.support.game_client import GameClient
from tests.support.platform import free_port_block

if TYPE_CHECKING:  # imported at run time by pytest_plugins below, which must come first
    from tests.e2e.web.fixtures import RunningGateway
    from tests.support.minimatch import RunningMinimatch

pytestmark = pytest.mark.e2e
pytest_plugins = ["tests.support.minimatch", "tests.e2e.web.fixtures"]


def test_backend_errors_reach_the_browser_as_connect_errors_with_their_details(
    gateway: RunningGateway, minimatch: RunningMinimatch, service_token: str
) -> None:
    with LobbyClientSync(gateway.url) as lobby:
        with pytest.raises(ConnectError) as missing:
            lobby.create_ticket(lobby_pb2.CreateTicketRequest(game="zoo"))
        assert missing.value.code is Code.UNAUTHENTICATED and "Bearer" in missing.value.message

    zoo = GameClient("zoo", minimatch.games["zoo"])
    match = zoo.create(service_token, mode="beginner", seats=2)
    stale = zoo.pb2.SubmitActionRequest(
        match_id=match.match_id,
        expected_version=99,
        idempotency_key="stale",
        action=zoo.legal(match.match_id, match.tokens[0]).actions[0],
    )
    metadata = (("authorization", f"Bearer {match.tokens[0]}"),)
    with pytest.raises(grpc.RpcError) as direct:
        zoo.stub.SubmitAction(stale, metadata=metadata)
    zoo.close()
    with ZooClientSync(gateway.url) as web, pytest.raises(ConnectError) as forwarded:
        web.submit_action(zoo_pb2.SubmitActionRequest.FromString(stale.SerializeToString()), headers=dict(metadata))
    assert forwarded.value.code.name == direct.value.code().name
    assert forwarded.value.message == direct.value.details()
    trailing: Any = direct.value.trailing_metadata() or ()
    status_details = [value for key, value in trailing if key == "grpc-status-details-bin"]
    expected = list(status_pb2.Status.FromString(status_details[0]).details) if status_details else []
    assert list(forwarded.value.details) == expected


def test_each_game_has_its_matches_service_under_its_own_prefix(gateway: RunningGateway) -> None:
    for game in game_ids():  # every installed game: a new one is checked as it lands
        with MatchesClientSync(f"{gateway.url}/games/{game}") as matches:
            described = matches.describe_game(matches_pb2.DescribeGameRequest())
        assert described.game == game and described.modes


def test_a_stream_the_browser_leaves_is_cancelled_at_the_backend(gateway: RunningGateway) -> None:
    # The lobby allows 16 open streams per caller: 25 left in turn pass only if each one was cancelled behind.
    with LobbyClientSync(gateway.url) as lobby:
        player = lobby.register_player(lobby_pb2.RegisterPlayerRequest(display_name="Streamer"))
        headers = {"authorization": f"Bearer {player.token}"}
        ticket = lobby.create_ticket(
            lobby_pb2.CreateTicketRequest(
                game="zoo", mode="beginner", min_seats=4, max_seats=4, allow_bots=True, max_wait_seconds=600
            ),
            headers=headers,
        )
        for _ in range(25):
            request = lobby_pb2.WatchTicketRequest(ticket_id=ticket.ticket.ticket_id)
            stream = lobby.watch_ticket(request, headers=headers)
            for reply in stream:
                assert reply.ticket.status == lobby_pb2.TICKET_STATUS_WAITING
                break
            stream.close()  # type: ignore[attr-defined]  # a generator: closing it closes the response
        lobby.cancel_ticket(lobby_pb2.CancelTicketRequest(ticket_id=ticket.ticket.ticket_id), headers=headers)


def test_the_gateway_serves_the_app_answers_health_and_ends_open_streams_on_sigterm(
    minimatch: RunningMinimatch, web_app: object
) -> None:
    port = free_port_block(1)
    env = {
        **os.environ,
        "MENAGERIE_PORT": str(port),
        "MENAGERIE_LOBBY_ADDRESS": minimatch.lobby,  # the games come from the lobby's ListGames
        "MENAGERIE_LOG_FORMAT": "json",
        "MENAGERIE_LOG_LEVEL": "info",
        # Longer than the test waits: a stream still open at SIGTERM would hold the exit this long.
        "MENAGERIE_GRACE_SECONDS": "120",
    }
    env.pop("MENAGERIE_GAME_ENDPOINTS", None)
    process = spawn(
        [sys.executable, "-m", "menagerie.gateway"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    url = f"http://127.0.0.1:{port}"
    try:
        from tests.e2e.web.fixtures import healthy

        for _ in range(300):
            if healthy(url):
                break
            assert process.poll() is None
            subprocess.run(["sleep", "0.1"], check=True)
        with urllib.request.urlopen(f"{url}/healthz", timeout=5) as reply:
            assert reply.read() == b"SERVING\n"
        with urllib.request.urlopen(f"{url}/", timeout=5) as reply:
            assert b'<div id="root">' in reply.read()
        with LobbyClientSync(url) as lobby:  # a browser waiting on a ticket while the gateway stops
            player = lobby.register_player(lobby_pb2.RegisterPlayerRequest(display_name="Draining"))
            headers = {"authorization": f"Bearer {player.token}"}
            ticket = lobby.create_ticket(
                lobby_pb2.CreateTicketRequest(game="zoo", mode="beginner", min_seats=4, max_seats=4), headers=headers
            ).ticket
            followed: queue.Queue[object] = queue.Queue()

            def follow() -> None:
                try:
                    request = lobby_pb2.WatchTicketRequest(ticket_id=ticket.ticket_id)
                    for reply in lobby.watch_ticket(request, headers=headers):
                        followed.put(reply.ticket.status)
                    followed.put("ended")
                except ConnectError as exc:
                    followed.put(exc.code)

            watcher = threading.Thread(target=follow, daemon=True)
            watcher.start()
            assert followed.get(timeout=10) == lobby_pb2.TICKET_STATUS_WAITING
            process.send_signal(signal.SIGTERM)
            assert process.wait(60) == 0  # well before the 120 s grace: the open stream did not hold the drain
            assert followed.get(timeout=10) == "ended"  # ended cleanly; the page reopens it elsewhere
            watcher.join(10)
        with grpc.insecure_channel(minimatch.lobby) as channel:
            lobby_pb2_grpc.LobbyStub(channel).CancelTicket(
                lobby_pb2.CancelTicketRequest(ticket_id=ticket.ticket_id), metadata=tuple(headers.items()), timeout=10
            )
    finally:
        stop_group(process, signal.SIGKILL, 10)
    assert process.stdout is not None
    with process.stdout:
        output = process.stdout.read().decode()
    lines = [json.loads(line) for line in output.splitlines() if line.startswith("{")]
    started = next(line for line in lines if line["event"] == "gateway started")
    assert set(started["games"]) == {"beasts", "pursuit", "snitch", "zoo"}
    assert lines[-1]["event"] == "service stopped"
