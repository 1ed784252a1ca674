"""One caller flooding a process is slowed down; everyone else is served.

Quotas (menagerie.shared.rpc.quotas) are per caller: a seat, a player, or — without a
token — the peer's host. Past its rate a caller hears RESOURCE_EXHAUSTED with a
`grpc-retry-pushback-ms` hint; a process at its limit of concurrent calls refuses more
the same way. What a flood does to the others' latency is measured by `make bench`.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator

import grpc
import pytest

from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from menagerie.shared.games.binding import binding
from menagerie.shared.tokens import TokenSigner
from tests.support.crowd import first_messages, new_matches, spectator_streams
from tests.support.game_client import GameClient, bearer
from tests.support.keys import KEYS
from tests.support.services import ServiceProcess, game_process, service_process

pytestmark = [pytest.mark.integration, pytest.mark.faults]

GAME = "beasts"
RATE, BURST = "50", "50"


@pytest.fixture
def limited_game(redis_url: str) -> Iterator[ServiceProcess]:
    """A game process with a low call rate per caller and few concurrent calls."""
    with game_process(
        GAME,
        redis_url,
        KEYS,
        MENAGERIE_RATE_LIMIT_PER_SECOND=RATE,
        MENAGERIE_RATE_LIMIT_BURST=BURST,
        MENAGERIE_MAX_CONCURRENT_RPCS="30",
    ) as process:
        yield process


def flood(address: str, match_id: str, token: str, calls: int, threads: int = 4) -> Counter[str]:
    """`calls` GetView calls per thread, as fast as they go; the status codes seen, and one pushback hint."""
    seen: Counter[str] = Counter()
    lock = threading.Lock()
    pb2 = binding(GAME).pb2

    def run() -> None:
        with grpc.insecure_channel(address) as channel:
            stub = binding(GAME).stub(channel)
            for _ in range(calls):
                try:
                    stub.GetView(pb2.GetViewRequest(match_id=match_id), metadata=bearer(token), timeout=10)
                    code = "OK"
                except grpc.RpcError as error:
                    code = error.code().name
                    trailing = {item.key for item in error.trailing_metadata() or ()}
                    if "grpc-retry-pushback-ms" in trailing:
                        with lock:
                            seen["pushback"] += 1
                with lock:
                    seen[code] += 1

    workers = [threading.Thread(target=run) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(60)
    return seen


def test_a_flooding_seat_is_held_to_its_rate_and_another_match_is_served(
    limited_game: ServiceProcess, service_token: str
) -> None:
    client = GameClient(GAME, limited_game.address)
    try:
        flooded = client.create(service_token, seats=2)
        quiet = client.create(service_token, seats=2)
        outcome: dict[str, Counter[str]] = {}
        flooder = threading.Thread(
            target=lambda: outcome.setdefault(
                "flood", flood(limited_game.address, flooded.match_id, flooded.tokens[0], 150)
            )
        )
        flooder.start()
        # The quiet match's seats keep calling meanwhile, each well within its own rate.
        quiet_calls = 0
        while flooder.is_alive() and quiet_calls < 40:
            for token in quiet.tokens.values():
                assert client.view(quiet.match_id, token).version >= 1
                quiet_calls += 1
        flooder.join(60)
    finally:
        client.close()
    seen = outcome["flood"]
    assert seen["OK"] >= int(BURST), seen  # the burst is honoured
    assert seen["RESOURCE_EXHAUSTED"] > 0, seen
    assert seen["pushback"] == seen["RESOURCE_EXHAUSTED"], seen  # every refusal says when to retry
    assert set(seen) <= {"OK", "RESOURCE_EXHAUSTED", "pushback"}, seen
    assert quiet_calls >= 2


def test_the_refusal_names_the_rate_and_the_wait(limited_game: ServiceProcess, service_token: str) -> None:
    client = GameClient(GAME, limited_game.address)
    try:
        match = client.create(service_token, seats=2)
        token = match.tokens[1]

        def views_past_the_burst() -> None:
            for _ in range(int(BURST) * 4):
                client.view(match.match_id, token)

        with pytest.raises(grpc.RpcError) as error:
            views_past_the_burst()
        assert error.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        details = error.value.details() or ""
        assert f"at most {RATE} per second" in details and "retry in" in details, details
    finally:
        client.close()


async def test_a_process_at_its_concurrent_call_limit_refuses_more(
    limited_game: ServiceProcess, signer: TokenSigner, service_token: str
) -> None:
    """30 concurrent calls at most: with 30 streams open, one more call is RESOURCE_EXHAUSTED."""
    (match_id,) = new_matches(GAME, limited_game.address, service_token, 1)
    pb2 = binding(GAME).pb2
    async with grpc.aio.insecure_channel(limited_game.address) as channel:
        stub = binding(GAME).stub(channel)
        streams = spectator_streams(channel, GAME, [match_id], signer, 30, name="crowd", timeout=60)
        await first_messages(streams, seconds=30)
        token, _ = signer.issue_player("one-more", "One more", 600)
        with pytest.raises(grpc.aio.AioRpcError) as error:
            await stub.GetView(pb2.GetViewRequest(match_id=match_id), metadata=bearer(token), timeout=10)
        assert error.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        for stream in streams:
            stream.cancel()


@pytest.fixture
def limited_lobby(redis_url: str, game_endpoints: str) -> Iterator[ServiceProcess]:
    with service_process(
        "menagerie.lobby",
        redis_url,
        KEYS,
        MENAGERIE_GAME_ENDPOINTS=game_endpoints,
        MENAGERIE_RATE_LIMIT_PER_SECOND="10",
        MENAGERIE_RATE_LIMIT_BURST="20",
    ) as lobby:
        yield lobby


def test_registrations_without_a_token_are_limited_per_host(limited_lobby: ServiceProcess) -> None:
    """RegisterPlayer needs no credential, so its flood is counted by the caller's host."""
    codes: Counter[str] = Counter()
    with grpc.insecure_channel(limited_lobby.address) as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        for i in range(60):
            try:
                lobby.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name=f"Flood {i}"), timeout=10)
                codes["OK"] += 1
            except grpc.RpcError as error:
                codes[error.code().name] += 1
    assert codes["OK"] >= 20 and codes["RESOURCE_EXHAUSTED"] > 0, codes
    assert set(codes) == {"OK", "RESOURCE_EXHAUSTED"}, codes
