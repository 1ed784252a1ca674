"""The lobby's key rotates while matches run: the new key is trusted first, the old one dropped last."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import grpc
import jwt
import pytest

from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from menagerie.shared import keys
from tests.support.game_client import GameClient, bearer, status_of
from tests.support.keys import KeyDir
from tests.support.services import game_process, service_process

pytestmark = pytest.mark.integration


def answers(call: Callable[[], object]) -> grpc.StatusCode:
    """The status code of `call`: OK when it answers."""
    try:
        call()
    except grpc.RpcError as error:
        return error.code()
    return grpc.StatusCode.OK


def eventually(check: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """Waits until `check()` holds (the processes look at their key files once a second)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"not {what} after {timeout} s"
        time.sleep(0.1)


def test_the_lobby_key_rotates_while_matches_run(redis_url: str, tmp_path: Path) -> None:
    key_dir = KeyDir.generate(tmp_path)  # keys of their own: the other tests' keys stay as they are
    with game_process("beasts", redis_url, key_dir) as beasts:
        endpoints = f"beasts={beasts.address}"
        with service_process(
            "menagerie.lobby", redis_url, key_dir, MENAGERIE_GAME_ENDPOINTS=endpoints
        ) as lobby_process:
            channel = grpc.insecure_channel(lobby_process.address)
            lobby = lobby_pb2_grpc.LobbyStub(channel)
            game = GameClient("beasts", beasts.address)
            try:
                run_the_rotation(lobby, game, key_dir)
            finally:
                game.close()
                channel.close()


def run_the_rotation(lobby: lobby_pb2_grpc.LobbyStub, game: GameClient, key_dir: KeyDir) -> None:
    """Plays through a rotation: a match started under the old key goes on under the new one."""

    def register(name: str) -> str:
        return str(lobby.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name=name)).token)

    def spectates(token: str) -> bool:
        return answers(lambda: game.view(match.match_id, token)) is grpc.StatusCode.OK

    def lobby_knows(token: str) -> bool:
        request = lobby_pb2.GetLeaderboardRequest(game="beasts")
        return answers(lambda: lobby.GetLeaderboard(request, metadata=bearer(token))) is grpc.StatusCode.OK

    match = game.create(key_dir.signer().issue_service("tests", 600)[0], seats=2, seed=7)
    played = 0

    def play() -> None:
        nonlocal played
        game.play_step(match, lambda legal: legal[0])
        played += 1

    old_kid = keys.parse_signing_key(key_dir.signing_file("lobby").read_text()).kid
    old = register("Old")
    assert jwt.get_unverified_header(old)["kid"] == old_kid
    assert spectates(old)
    play()

    new_kid = keys.rotate(key_dir.directory, "lobby")  # trusted everywhere first, then the lobby signs with it
    eventually(lambda: jwt.get_unverified_header(register("New"))["kid"] == new_kid, "signing with the new key")
    new = register("New")
    play()
    assert spectates(new) and lobby_knows(new)
    assert spectates(old) and lobby_knows(old), "a token of the old key stays good until the key is dropped"

    keys.drop(key_dir.directory, old_kid)
    eventually(lambda: not spectates(old), "refusing the dropped key's token at the game")
    eventually(lambda: not lobby_knows(old), "refusing the dropped key's token at the lobby")
    code, details = status_of(lambda: game.view(match.match_id, old))
    assert code is grpc.StatusCode.UNAUTHENTICATED and "does not trust" in details
    assert spectates(new) and lobby_knows(new)
    play()  # the match runs on: its seat tokens came from the game service's key, untouched
    assert played == 3
