"""The `menagerie` command when services stop, stall or restart under it.

Real processes: a Redis, a game service and a lobby, each on a port that stays the same
when a test kills the process and starts it again (as a supervisor would), and the
`menagerie` command in a child process read like a terminal. Nothing here waits for a
time to pass and then judges how long something took: each test waits for what the
command prints, or for its exit, with generous bounds.
"""

from __future__ import annotations

import io
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc
import pexpect
import pytest
from pexpect.popen_spawn import PopenSpawn

from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from menagerie.shared.games.binding import binding
from menagerie.shared.lifetime import die_with_parent, spawn, stop_group
from menagerie.shared.rpc.health import wait_until_serving
from tests.support.game_client import GameClient, Match, bearer
from tests.support.keys import KEYS
from tests.support.minimatch import other_database
from tests.support.redis_server import free_port
from tests.support.services import GAME_MODULE, service_env

pytestmark = [pytest.mark.e2e, pytest.mark.faults]

GAME = "beasts"
MODE = binding(GAME).info.modes[0].mode
MENAGERIE = str(Path(sys.executable).parent / "menagerie")
# A database no other fixture uses: this module's lobby must not seat tickets of other tests.
OWN_DATABASE = 11
STARTUP_SECONDS = 90.0  # a service's start on a busy machine (imports, Redis, health)


class Restartable:
    """A service process on a fixed port: killed and started again, it listens where it did."""

    def __init__(self, module: str, argv: tuple[str, ...], redis_url: str, **extra_env: str) -> None:
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.command = [sys.executable, "-m", module, *argv]
        self.env = service_env(redis_url, KEYS, module, MENAGERIE_PORT=str(self.port), **extra_env)
        self.log = Path(tempfile.mkstemp(prefix=f"{(argv or (module,))[0]}-", suffix=".log")[1])
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Starts the process and waits until it serves."""
        with self.log.open("ab") as sink:
            self.process = spawn(self.command, env=self.env, stdout=sink, stderr=subprocess.STDOUT)
        try:
            wait_until_serving(self.address, self.process, STARTUP_SECONDS)
        except (RuntimeError, TimeoutError) as exc:
            raise RuntimeError(f"{exc}; its log:\n{self.log.read_text(errors='replace')[-3000:]}") from None

    def kill(self) -> None:
        """SIGKILL: the process dies as a crashed container would, without draining."""
        assert self.process is not None
        stop_group(self.process, signal.SIGKILL)

    def pause(self) -> None:
        """SIGSTOP: the process keeps its port (the kernel still accepts connections) but answers nothing."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def stop(self) -> None:
        """Stops it however it is (paused, running, dead)."""
        if self.process is not None:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGCONT)
            stop_group(self.process, signal.SIGTERM, 20)


@contextmanager
def running(module: str, argv: tuple[str, ...], redis_url: str, **extra_env: str) -> Iterator[Restartable]:
    """A Restartable, started, and stopped when the block ends."""
    service = Restartable(module, argv, redis_url, **extra_env)
    try:
        service.start()
        yield service
    finally:
        service.stop()


@pytest.fixture
def own_redis(redis_url: str) -> str:
    """The session's Redis server, in a database of this module's own."""
    return other_database(redis_url, OWN_DATABASE)


@pytest.fixture
def game(own_redis: str) -> Iterator[Restartable]:
    """A game service of this test's own (the test may kill, pause or restart it)."""
    with running(GAME_MODULE, (GAME,), own_redis) as service:
        yield service


@contextmanager
def lobby_running(redis_url: str, game_address: str, **extra_env: str) -> Iterator[Restartable]:
    """A lobby that sends players of GAME to `game_address`, started, and stopped when the block ends."""
    with running(
        "menagerie.lobby", (), redis_url, MENAGERIE_GAME_ENDPOINTS=f"{GAME}={game_address}", **extra_env
    ) as lobby:
        yield lobby


@contextmanager
def menagerie(*args: str, **env: str) -> Iterator[tuple[PopenSpawn[str], io.StringIO]]:
    """`menagerie *args` in a child process and its output so far; killed if still running at the end.

    A plain child process (PopenSpawn), not a pseudo-terminal: forking this process,
    which holds gRPC threads, could crash the fork (see deploy/local/minimatch.py).
    """
    environment = {
        **os.environ,
        "COLUMNS": "200",
        "TERM": "dumb",
        "PYTHONUNBUFFERED": "1",
        "PYTHONFAULTHANDLER": "1",
        "MENAGERIE_HOME": tempfile.mkdtemp(),  # the player it keeps, away from the user's own
        **env,
    }
    # Tied to this process: it gets SIGKILL when the test process dies, however it dies.
    child = PopenSpawn(die_with_parent([MENAGERIE, *args]), encoding="utf-8", timeout=60, env=environment)
    transcript = io.StringIO()
    child.logfile_read = transcript
    try:
        yield child, transcript
    finally:
        if child.proc.poll() is None:
            child.proc.kill()
            child.proc.wait()
        for pipe in (child.proc.stdin, child.proc.stdout):
            if pipe is not None:
                pipe.close()


def finish(child: PopenSpawn[str], seconds: float = 180) -> int:
    """Waits for the command to end; its exit status.

    A command that has not ended in time is asked for its threads' stacks (faulthandler,
    on SIGABRT) so the failure says where it hung. (The hang once seen here was a suite
    started in the background, whose children ignored SIGINT: see tests/support/fixtures.py.)
    """
    try:
        child.expect(pexpect.EOF, timeout=seconds)
    except pexpect.TIMEOUT:
        child.proc.send_signal(signal.SIGABRT)
        child.expect(pexpect.EOF, timeout=20)
        raise AssertionError(f"the command did not end; its output and stacks:\n{child.before}") from None
    return child.proc.wait()


def event_texts(address: str, match_id: str) -> list[str]:
    """Every event sentence a spectator reads in the match so far, in order (a fresh Watch from the start)."""
    client = GameClient(GAME, address)
    token, _ = KEYS.signer().issue_player("referee", "Referee", 600)
    stream = client.stub.Watch(client.pb2.WatchRequest(match_id=match_id), metadata=bearer(token), timeout=30)
    texts: list[str] = []
    try:
        for response in stream:
            texts += [event.header.text for event in response.events if event.header.text]
            if response.HasField("view"):  # the latest version: the history is complete
                return texts
    finally:
        stream.cancel()
        client.close()
    raise AssertionError("the Watch ended before the latest version")


def printed_events(child: PopenSpawn[str], transcript: io.StringIO, expected: list[str]) -> list[str]:
    """The event sentences the command has printed, in order, once it has printed as many as `expected`."""
    wanted = set(expected)
    deadline = time.monotonic() + 60
    while True:
        printed = [line.rstrip() for line in transcript.getvalue().splitlines() if line.rstrip() in wanted]
        if len(printed) >= len(expected) or time.monotonic() > deadline:
            return printed
        child.expect([pexpect.TIMEOUT, pexpect.EOF], timeout=0.5)


def play(address: str, match: Match, rng: random.Random, moves: int) -> None:
    """`moves` random legal actions of whichever seat is to act."""
    client = GameClient(GAME, address)
    try:
        for _ in range(moves):
            assert client.play_step(match, rng.choice) is not None, "the match ended early; pick another seed"
    finally:
        client.close()


def new_match(address: str, seed: int) -> Match:
    """A two-seat match of people (no bots: the test makes every move)."""
    client = GameClient(GAME, address)
    try:
        service_token = KEYS.signer().issue_service("tests", 600)[0]
        return client.create(service_token, seats=2, seed=seed)
    finally:
        client.close()


def test_watch_names_the_game_service_that_is_not_running(own_redis: str) -> None:
    nowhere = f"127.0.0.1:{free_port()}"
    with (
        lobby_running(own_redis, nowhere) as lobby,
        menagerie("--lobby", lobby.address, "watch", "m1", "--game", GAME) as (child, transcript),
    ):
        assert finish(child) == 1
    assert f"The server at {nowhere} is not reachable. Is the platform running (make run)?" in transcript.getvalue()


def warm_up(lobby_address: str) -> None:
    """The calls the CLI makes first (RegisterPlayer, ListGames), answered once: a lobby's first calls are
    its slowest (the Redis connection, its scripts loaded), and a 2-s deadline meant for the game service
    once ran out on another server, the lobby it seems, while three test workers shared the two cores."""
    with grpc.insecure_channel(lobby_address) as channel:
        lobby = lobby_pb2_grpc.LobbyStub(channel)
        lobby.RegisterPlayer(lobby_pb2.RegisterPlayerRequest(display_name="Warm"), timeout=STARTUP_SECONDS)
        lobby.ListGames(lobby_pb2.ListGamesRequest(), timeout=STARTUP_SECONDS)


def test_watch_of_a_stalled_game_service_gives_up_at_the_deadline(own_redis: str, game: Restartable) -> None:
    match = new_match(game.address, seed=3)
    watch = ("watch", match.match_id, "--game", GAME)
    with lobby_running(own_redis, game.address) as lobby:
        warm_up(lobby.address)
        game.pause()
        with menagerie("--lobby", lobby.address, *watch, MENAGERIE_TIMEOUT="2") as (child, transcript):
            assert finish(child) == 1
    assert f"The server at {game.address} took too long to answer." in transcript.getvalue()


def test_watch_of_a_game_service_that_stops_mid_match_ends_with_a_sentence(own_redis: str, game: Restartable) -> None:
    match = new_match(game.address, seed=5)
    play(game.address, match, random.Random(5), 3)
    history = event_texts(game.address, match.match_id)
    watch = ("watch", match.match_id, "--game", GAME)
    patience = {"MENAGERIE_TIMEOUT": "2", "MENAGERIE_STREAM_SECONDS": "2", "MENAGERIE_RECONNECT_SECONDS": "3"}
    with (
        lobby_running(own_redis, game.address) as lobby,
        menagerie("--lobby", lobby.address, *watch, **patience) as (child, transcript),
    ):
        assert printed_events(child, transcript, history) == history
        game.pause()  # no reset, no GOAWAY: the stream just goes quiet, as after a network partition
        child.expect(re.escape(f"Lost the connection to the game service at {game.address}; reconnecting"))
        assert finish(child) == 1
    assert (
        f"Lost the connection to the game service at {game.address}, and it did not come back within 3 s. "
        "Is the platform running (make run)?"
    ) in transcript.getvalue()
    assert "Traceback" not in transcript.getvalue()


def test_watch_resumes_where_it_was_after_the_game_service_restarts(own_redis: str, game: Restartable) -> None:
    match = new_match(game.address, seed=7)
    rng = random.Random(7)
    play(game.address, match, rng, 3)
    watch = ("watch", match.match_id, "--game", GAME)
    # Stream calls of 3 s: the stream is reopened twice while nobody moves (at 1 s, and once at 2 s
    # while lint and the suite shared the 2 cores, a slow first answer to a reopened stream read as a
    # lost connection, rightly: the CLI counts a stream silent for its whole deadline as lost).
    patience = {"MENAGERIE_STREAM_SECONDS": "3", "MENAGERIE_RECONNECT_SECONDS": "120"}
    with (
        lobby_running(own_redis, game.address) as lobby,
        menagerie("--lobby", lobby.address, *watch, **patience) as (child, transcript),
    ):
        history = event_texts(game.address, match.match_id)
        assert printed_events(child, transcript, history) == history

        # Quiet for several stream deadlines: reopened where it was, nothing lost, nothing repeated.
        child.expect([pexpect.TIMEOUT, pexpect.EOF], timeout=7)
        play(game.address, match, rng, 2)
        history = event_texts(game.address, match.match_id)
        assert printed_events(child, transcript, history) == history
        assert "Lost the connection" not in transcript.getvalue()

        game.kill()
        child.expect(re.escape(f"Lost the connection to the game service at {game.address}; reconnecting"))
        game.start()
        child.expect("Reconnected.", timeout=120)
        play(game.address, match, rng, 4)
        history = event_texts(game.address, match.match_id)
        # Every event once, in order: those before the outage, then those after it.
        assert printed_events(child, transcript, history) == history, transcript.getvalue()
        child.kill(signal.SIGINT)
        assert finish(child) == 0
    assert transcript.getvalue().count("Lost the connection") == 1


def test_a_queued_player_keeps_waiting_across_a_lobby_restart(own_redis: str, game: Restartable) -> None:
    # Without bots the ticket waits alone until it expires (the shortest lifetime the lobby allows).
    queue = ("play", GAME, "--mode", MODE, "--no-bots", "--max-wait", "1")
    with (
        lobby_running(own_redis, game.address, MENAGERIE_TICKET_LIFETIME_SECONDS="10") as lobby,
        menagerie("--lobby", lobby.address, *queue, MENAGERIE_RECONNECT_SECONDS="120") as (child, transcript),
    ):
        assert child.expect(["Waiting for players", pexpect.EOF]) == 0, transcript.getvalue()
        lobby.kill()
        child.expect(re.escape(f"Lost the connection to the lobby at {lobby.address}; reconnecting"))
        lobby.start()
        child.expect("Reconnected.", timeout=120)
        child.expect("Could not play: the ticket was expired.", timeout=120)
        assert finish(child) == 1
    assert "Traceback" not in transcript.getvalue()
