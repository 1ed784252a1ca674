"""Optional transport security: TLS on every gRPC hop, and a Redis user per service.

A local certificate authority is made in the test (trustme). A service given a
certificate serves TLS only; a caller given the CA verifies it; the lobby calls a TLS
game service; a plaintext or wrongly trusting client is refused. Redis users come from
deploy/redis/users.acl, the file the compose example loads: each service reaches its own
keys with its own password, and not the commands it has no business with.
"""

from __future__ import annotations

import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
import redis
import trustme

from menagerie.common.v1 import matches_pb2, matches_pb2_grpc
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from menagerie.shared.embedded_redis import _binary as embedded_binary
from menagerie.shared.lifetime import spawn, stop_group
from menagerie.shared.rpc.channels import open_channel
from tests.support.game_client import GameClient, bearer
from tests.support.keys import KEYS
from tests.support.redis_server import free_port, wait_for_redis
from tests.support.services import bot_worker_process, dispatcher_process, game_process, service_process

pytestmark = pytest.mark.integration

ACL_FILE = Path(__file__).resolve().parents[2] / "deploy" / "redis" / "users.acl"


@dataclass(frozen=True)
class Pki:
    """A CA and one server certificate for loopback, as PEM files."""

    ca: Path
    cert: Path
    key: Path
    other_ca: Path  # a CA that signed nothing of ours

    def env(self) -> dict[str, str]:
        """The settings of a process that serves TLS and calls other services over TLS."""
        return {
            "MENAGERIE_TLS_CERT_FILE": str(self.cert),
            "MENAGERIE_TLS_KEY_FILE": str(self.key),
            "MENAGERIE_TLS_CA_FILE": str(self.ca),
        }


@pytest.fixture(scope="module")
def pki() -> Iterator[Pki]:
    folder = Path(tempfile.mkdtemp(prefix="menagerie-pki-"))
    ca = trustme.CA()
    server = ca.issue_cert("127.0.0.1", "localhost")
    ca.cert_pem.write_to_path(str(folder / "ca.pem"))
    server.cert_chain_pems[0].write_to_path(str(folder / "cert.pem"))
    server.private_key_pem.write_to_path(str(folder / "key.pem"))
    trustme.CA().cert_pem.write_to_path(str(folder / "other-ca.pem"))
    yield Pki(folder / "ca.pem", folder / "cert.pem", folder / "key.pem", folder / "other-ca.pem")
    shutil.rmtree(folder, ignore_errors=True)


def describe(address: str, ca_file: str) -> str:
    with open_channel(address, ca_file) as channel:
        stub = matches_pb2_grpc.MatchesStub(channel)
        return stub.DescribeGame(matches_pb2.DescribeGameRequest(), timeout=5).game


def test_a_tls_service_answers_callers_that_trust_its_ca_and_no_one_else(
    redis_url: str, pki: Pki, service_token: str
) -> None:
    with game_process("beasts", redis_url, KEYS, **pki.env()) as service:
        assert describe(service.address, str(pki.ca)) == "beasts"
        for ca_file in ("", str(pki.other_ca)):  # plaintext, and a CA that did not sign the server
            with pytest.raises(grpc.RpcError) as refused:
                describe(service.address, ca_file)
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE


def test_the_lobby_seats_a_player_in_a_match_made_on_a_tls_game_service(redis_url: str, pki: Pki) -> None:
    with (
        game_process("beasts", redis_url, KEYS, **pki.env()) as beasts,
        service_process(
            "menagerie.lobby",
            redis_url,
            KEYS,
            (),
            MENAGERIE_GAME_ENDPOINTS=f"beasts={beasts.address}",
            MENAGERIE_MATCHMAKER_INTERVAL_MS="50",
            **pki.env(),
        ) as lobby,
        open_channel(lobby.address, str(pki.ca)) as channel,
    ):
        stub = lobby_pb2_grpc.LobbyStub(channel)
        player = stub.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name="Ann"), timeout=10)
        ticket = stub.CreateTicket(
            lobby_pb2.CreateTicketRequest(
                game="beasts", mode="capture", min_seats=2, max_seats=2, allow_bots=True, max_wait_seconds=1
            ),
            metadata=bearer(player.token),
            timeout=10,
        ).ticket
        request = lobby_pb2.WatchTicketRequest(ticket_id=ticket.ticket_id)
        last = list(stub.WatchTicket(request, metadata=bearer(player.token), timeout=30))[-1].ticket
        assert last.seating.match_id, last


def redis_with_users(acl_file: Path, passwords: dict[str, str]) -> tuple[subprocess.Popen[bytes], str, Path]:
    """A Redis server whose users are deploy/redis/users.acl's, with these passwords."""
    folder = Path(tempfile.mkdtemp(prefix="menagerie-acl-"))
    text = acl_file.read_text()
    for user, password in passwords.items():
        text = text.replace(f"<{user}-password>", password)
    (folder / "users.acl").write_text(text)
    port = free_port()
    binary = shutil.which("redis-server") or embedded_binary()
    args = ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", str(folder)]
    process = spawn(
        [binary, *args, "--aclfile", str(folder / "users.acl")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    return process, f"127.0.0.1:{port}", folder


def test_each_service_reaches_redis_as_its_own_user() -> None:
    users = re.findall(r"^user (\S+) on", ACL_FILE.read_text(), flags=re.MULTILINE)
    assert {"game", "lobby", "dispatcher", "bot-worker"} <= set(users), users
    passwords = {user: f"{user}-secret-password" for user in users}
    process, address, folder = redis_with_users(ACL_FILE, passwords)
    try:
        wait_for_redis(f"redis://game:{passwords['game']}@{address}/0")
        anonymous = redis.Redis.from_url(f"redis://{address}/0")
        with pytest.raises(redis.AuthenticationError):
            anonymous.ping()  # the default user is off
        as_game = redis.Redis.from_url(f"redis://game:{passwords['game']}@{address}/0")
        with pytest.raises(redis.exceptions.NoPermissionError):
            as_game.flushall()
        with pytest.raises(redis.exceptions.NoPermissionError):
            as_game.set("lb:player:someone", "x")  # the lobby's keys are not the game's
        url = {user: f"redis://{user}:{passwords[user]}@{address}/0" for user in users}
        with game_process("beasts", url["game"], KEYS) as beasts:
            endpoints = f"beasts={beasts.address}"
            with (
                service_process("menagerie.lobby", url["lobby"], KEYS, MENAGERIE_GAME_ENDPOINTS=endpoints) as lobby,
                dispatcher_process(
                    url["dispatcher"],
                    KEYS,
                    MENAGERIE_GAME_ENDPOINTS=endpoints,
                ) as dispatcher,
                bot_worker_process(
                    url["bot-worker"],
                    KEYS,
                    MENAGERIE_GAME_ENDPOINTS=endpoints,
                ) as worker,
                grpc.insecure_channel(lobby.address) as channel,
            ):
                stub = lobby_pb2_grpc.LobbyStub(channel)
                player = stub.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name="Ann"), timeout=10)
                request = lobby_pb2.CreateTicketRequest(
                    game="beasts", mode="capture", min_seats=2, max_seats=2, allow_bots=True, max_wait_seconds=1
                )
                ticket = stub.CreateTicket(request, metadata=bearer(player.token), timeout=10).ticket
                watch = lobby_pb2.WatchTicketRequest(ticket_id=ticket.ticket_id)
                seating = list(stub.WatchTicket(watch, metadata=bearer(player.token), timeout=30))[-1].ticket.seating
                assert seating.match_id
                # The bot seat moves through dispatcher and worker, each as its own Redis user;
                # the player moves whenever the match waits for them.
                client = GameClient("beasts", beasts.address)
                try:
                    deadline = time.monotonic() + 30
                    bot_moves = 0
                    while bot_moves == 0:
                        logs = f"{dispatcher.output()[-2000:]}\n{worker.output()[-2000:]}"
                        assert time.monotonic() < deadline, f"no bot moved:\n{logs}"
                        legal = client.legal(seating.match_id, seating.seat_token)
                        if legal.actions:
                            client.submit(seating.match_id, seating.seat_token, legal.actions[0], legal.view_version)
                        watch = client.pb2.WatchRequest(match_id=seating.match_id)
                        entries = client.stub.Watch(watch, metadata=bearer(seating.seat_token), timeout=5)
                        for entry in entries:
                            bot_moves += sum(
                                1 for e in entry.events if e.header.HasField("seat") and e.header.seat != seating.seat
                            )
                            if entry.view_version:
                                break
                        time.sleep(0.2)
                finally:
                    client.close()
    finally:
        stop_group(process, signal.SIGKILL, 10)
        shutil.rmtree(folder, ignore_errors=True)


def test_the_cli_speaks_tls_when_given_the_ca(redis_url: str, pki: Pki) -> None:
    """`menagerie --tls-ca CA games` lists the games of a TLS lobby; without the CA it says it cannot connect."""
    cli = str(Path(sys.executable).with_name("menagerie"))
    with (
        game_process("beasts", redis_url, KEYS, **pki.env()) as beasts,
        service_process(
            "menagerie.lobby",
            redis_url,
            KEYS,
            (),
            MENAGERIE_GAME_ENDPOINTS=f"beasts={beasts.address}",
            **pki.env(),
        ) as lobby,
    ):
        trusted = subprocess.run(
            [cli, "--lobby", lobby.address, "--tls-ca", str(pki.ca), "--timeout", "5", "games"],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert trusted.returncode == 0, trusted.stdout + trusted.stderr
        assert "beasts" in trusted.stdout
        plaintext = subprocess.run(
            [cli, "--lobby", lobby.address, "--timeout", "2", "games"], capture_output=True, text=True, timeout=60
        )
        assert plaintext.returncode != 0
        assert "Traceback" not in plaintext.stdout + plaintext.stderr


def test_the_compose_examples_certificates_serve_tls(redis_url: str, tmp_path: Path) -> None:
    """deploy/tls/make-certs.sh (the secure compose example's `certs` service) makes a CA a client can trust."""
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command is not installed (the compose example runs it in an Alpine container)")
    script = Path(__file__).resolve().parents[2] / "deploy" / "tls" / "make-certs.sh"
    made = subprocess.run(
        ["sh", str(script), str(tmp_path), "lobby beasts"], capture_output=True, text=True, timeout=120
    )
    assert made.returncode == 0, made.stderr
    env = {
        "MENAGERIE_TLS_CERT_FILE": str(tmp_path / "service.pem"),
        "MENAGERIE_TLS_KEY_FILE": str(tmp_path / "service.key"),
        "MENAGERIE_TLS_CA_FILE": str(tmp_path / "ca.pem"),
    }
    with game_process("beasts", redis_url, KEYS, **env) as service:
        assert describe(service.address, str(tmp_path / "ca.pem")) == "beasts"
    again = subprocess.run(
        ["sh", str(script), str(tmp_path), "lobby beasts"], capture_output=True, text=True, timeout=60
    )
    assert "already" in again.stdout  # a second run keeps the CA the players trust
