"""The CLI's connections against real gRPC servers: every call has a deadline, keepalive suits the servers.

A stalled server accepts every connection and call but never answers (as a process that
hangs on a lock, or is stopped, would); each of the CLI's calls must give up at its
deadline with a sentence, and each stream must give up after its reconnection budget.
The keepalive tests hold a quiet stream open against gRPC's default server ping policy,
with every period scaled down by the same factor so that the test takes seconds, not
twenty minutes: the policy compares intervals, so the scaled run decides as the real one.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent import futures

import grpc
import pytest

from menagerie.cli import connection
from menagerie.cli.connection import (
    KEEPALIVE_TIME_MS,
    SERVER_MIN_PING_INTERVAL_MS,
    Patience,
    Unreachable,
    channel_options,
    reconnecting,
)
from menagerie.cli.errors import explain
from menagerie.cli.games import GAMES
from menagerie.cli.session import GameSession, LobbySession
from menagerie.lobby.v1 import lobby_pb2

pytestmark = pytest.mark.integration

LOBBY = "menagerie.lobby.v1.Lobby"
REGISTER = f"/{LOBBY}/RegisterPlayer"
STREAMS = {f"/{LOBBY}/WatchTicket"}  # and every game's Watch (below)
QUICK = Patience(call_seconds=0.5, stream_seconds=5.0, reconnect_seconds=1.0)


class Stalled(grpc.GenericRpcHandler):
    """Answers RegisterPlayer (so a LobbySession can start) and leaves every other call hanging."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.called: list[str] = []
        self.answers_register = True

    def service(self, handler_call_details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler[bytes, bytes] | None:
        method = handler_call_details.method
        if method == REGISTER and self.answers_register:
            reply = lobby_pb2.RegisterPlayerResponse(player_id="p1", token="not-checked-here")
            return grpc.unary_unary_rpc_method_handler(lambda _request, _context: reply.SerializeToString())
        self.called.append(method)
        if method in STREAMS or method.endswith("/Watch"):
            return grpc.unary_stream_rpc_method_handler(self._hang_stream)
        return grpc.unary_unary_rpc_method_handler(self._hang)

    def _hang(self, _request: bytes, _context: grpc.ServicerContext) -> bytes:
        self.release.wait()
        return b""

    def _hang_stream(self, _request: bytes, _context: grpc.ServicerContext) -> Iterator[bytes]:
        self.release.wait()
        yield b""


@pytest.fixture
def stalled() -> Iterator[tuple[str, Stalled]]:
    """A real gRPC server on loopback whose handlers never answer (except RegisterPlayer)."""
    handler = Stalled()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16))
    server.add_generic_rpc_handlers([handler])
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield f"127.0.0.1:{port}", handler
    finally:
        handler.release.set()
        server.stop(0)


def test_every_unary_call_of_the_cli_gives_up_at_its_deadline(stalled: tuple[str, Stalled]) -> None:
    address, server = stalled
    lobby = LobbySession(address, "Ann", QUICK)
    game_id = next(iter(GAMES))
    game = GameSession(game_id, address, "m1", lobby.token, QUICK)
    calls: dict[str, Callable[[], object]] = {
        "ListGames": lobby.games,
        "GetLeaderboard": lambda: lobby.leaderboard(game_id, 5),
        "CreateTicket": lambda: lobby.queue(lobby_pb2.CreateTicketRequest(game=game_id)),
        "CancelTicket": lambda: lobby.cancel("t1"),
        "GetMatch": game.names,
        "GetView": game.view,
        "ListLegalActions": game.legal,
        "SubmitAction": lambda: game.submit(game.ui.pb2.Action(), 1),
    }
    try:
        for name, call in calls.items():
            with pytest.raises(grpc.RpcError) as failed:
                call()
            assert failed.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED, name
            assert explain(failed.value, address) == f"The server at {address} took too long to answer.", name
    finally:
        lobby.close()
        game.close()
    # Each call reached the server (and was not refused on the way).
    assert [method.rsplit("/", 1)[1] for method in server.called] == list(calls)


def test_registering_with_a_lobby_that_does_not_answer_gives_up(stalled: tuple[str, Stalled]) -> None:
    address, server = stalled
    server.answers_register = False
    with pytest.raises(grpc.RpcError) as failed:
        LobbySession(address, "Ann", QUICK)
    assert failed.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert server.called == [REGISTER]


@pytest.mark.parametrize("stream", ["Watch", "WatchTicket"])
def test_a_stream_that_never_answers_gives_up_with_a_sentence(stalled: tuple[str, Stalled], stream: str) -> None:
    address, server = stalled
    said: list[str] = []
    lobby = LobbySession(address, "Ann", QUICK, said.append)
    game = GameSession(next(iter(GAMES)), address, "m1", lobby.token, QUICK, said.append)
    updates = game.watch() if stream == "Watch" else lobby.watch_ticket("t1")
    try:
        with pytest.raises(Unreachable) as failed:
            next(updates)
    finally:
        updates.close()
        lobby.close()
        game.close()
    service = "game service" if stream == "Watch" else "lobby"
    assert str(failed.value) == (
        f"Lost the connection to the {service} at {address}, and it did not come back within 1 s. "
        "Is the platform running (make run)?"
    )
    # One line when the connection was lost, however many attempts followed.
    assert said == [f"Lost the connection to the {service} at {address}; reconnecting for up to 1 s…"]
    attempts = [method for method in server.called if method.endswith(f"/{stream}")]
    assert len(attempts) >= 2, "it tried again before giving up"


@pytest.fixture
def interruptions() -> Iterator[None]:
    """Ctrl-C state is per process: clear it after the test."""
    yield
    connection._interrupted.clear()


def test_ctrl_c_ends_a_waiting_stream_even_when_its_keyboardinterrupt_is_swallowed(
    stalled: tuple[str, Stalled], interruptions: None
) -> None:
    """Python raises KeyboardInterrupt wherever the main thread is; one raised in a finalizer is lost.

    The handler also cancels the open streams, so a command waiting on a quiet stream still
    ends: here the KeyboardInterrupt is swallowed on purpose and the wait must end anyway.
    """
    address, _server = stalled
    patient = Patience(call_seconds=30.0, stream_seconds=30.0, reconnect_seconds=30.0)

    def swallowed() -> None:
        with contextlib.suppress(KeyboardInterrupt):  # as when it lands in a gRPC call's __del__
            connection.on_interrupt(signal.SIGINT, None)

    with grpc.insecure_channel(address, options=channel_options()) as channel:
        watch = channel.unary_stream(f"/{LOBBY}/WatchTicket", request_serializer=bytes, response_deserializer=bytes)
        stream = reconnecting(lambda deadline: watch(b"", timeout=deadline), "the lobby", patient, print)
        timer = threading.Timer(0.3, swallowed)
        timer.start()
        started = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            next(stream)
        timer.join()
    assert time.monotonic() - started < 10, "the stream's wait ended with the interruption, not its deadline"


# gRPC's default server ping policy, every period divided by SCALE.
SCALE = 100
HOLD_SECONDS = 15.0  # four of the scaled keepalive periods, one more than the strikes that close a connection
QUIET = "menagerie.tests.Quiet"


@pytest.fixture
def ping_policed() -> Iterator[str]:
    """A real gRPC server with the default ping policy, scaled; its one stream says nothing for HOLD_SECONDS."""

    def hold(_request: bytes, _context: grpc.ServicerContext) -> Iterator[bytes]:
        threading.Event().wait(HOLD_SECONDS)  # quiet, as a Watch between moves
        yield b"still here"

    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=4),
        options=[("grpc.http2.min_ping_interval_without_data_ms", SERVER_MIN_PING_INTERVAL_MS // SCALE)],
    )
    server.add_generic_rpc_handlers(
        [grpc.method_handlers_generic_handler(QUIET, {"Hold": grpc.unary_stream_rpc_method_handler(hold)})]
    )
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.stop(0)


def hold_a_quiet_stream(address: str, keepalive_time_ms: int) -> list[bytes]:
    """The messages of the quiet stream, read over a channel with the CLI's options but this ping period."""
    with grpc.insecure_channel(address, options=channel_options(keepalive_time_ms)) as channel:
        hold = channel.unary_stream(f"/{QUIET}/Hold", request_serializer=bytes, response_deserializer=bytes)
        return list(hold(b"", timeout=HOLD_SECONDS * 4))


def test_the_clis_keepalive_keeps_a_quiet_stream_under_the_default_server_policy(ping_policed: str) -> None:
    assert hold_a_quiet_stream(ping_policed, KEEPALIVE_TIME_MS // SCALE) == [b"still here"]


def test_pings_faster_than_the_server_policy_get_the_stream_cut(ping_policed: str) -> None:
    """The check above can fail: the same stream with pings twice as often as the policy allows is cut."""
    with pytest.raises(grpc.RpcError) as failed:
        hold_a_quiet_stream(ping_policed, SERVER_MIN_PING_INTERVAL_MS // SCALE // 2)
    assert failed.value.code() == grpc.StatusCode.UNAVAILABLE
