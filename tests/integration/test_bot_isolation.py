"""A hung game service stalls only its own game's bots (issue 10, item 6): real processes, a Redis of their own.

Each test starts a Redis server, game services, the dispatcher and one Celery bot worker
that plays every game, then freezes one game service with SIGSTOP (a hung process: its
port still accepts connections, nothing answers). The bots of the other game must keep
moving, the frozen game's bots must resume after SIGCONT, and the dispatcher must not
enqueue a decision again while its task is still running.
"""

from __future__ import annotations

import os
import shutil
import signal
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass

import pytest

from menagerie.common.v1 import common_pb2, matches_pb2
from menagerie.rules.registry import game_ids
from menagerie.shared.embedded_redis import _binary as embedded_binary
from tests.support.game_client import GameClient, bearer
from tests.support.keys import KEYS
from tests.support.probes import samples, wait_for
from tests.support.redis_server import free_ports, redis_binary_server
from tests.support.services import ServiceProcess, bot_worker_process, dispatcher_process, game_process

pytestmark = [pytest.mark.integration, pytest.mark.faults]

FROZEN = "beasts"  # the game whose service hangs
# A game that must not notice: Zoo where installed (its simultaneous phases keep several bots busy).
OTHER = "zoo" if "zoo" in game_ids() else next(game for game in game_ids() if game != FROZEN)
CALL_TIMEOUT = 5.0


@dataclass
class BotPool:
    """The processes of one test and how to reach them."""

    services: dict[str, ServiceProcess]
    dispatcher_metrics: str  # http://host:port of the dispatcher's /metrics
    worker: ServiceProcess
    worker_metrics: str

    def dispatcher_total(self, name: str, **labels: str) -> float:
        """The sum of the dispatcher's samples of `name` whose labels include `labels`."""
        return labelled_total(self.dispatcher_metrics, name, labels)

    def turns(self, game: str, result: str) -> float:
        """Bot decisions of `game` the worker ended with `result`."""
        return labelled_total(self.worker_metrics, "menagerie_bot_turns_total", {"game": game, "result": result})


def labelled_total(base_url: str, name: str, labels: dict[str, str]) -> float:
    """The sum of the samples of `name` at `base_url` whose labels include `labels`."""
    found = samples(base_url, name)
    return sum(value for key, value in found.items() if set(labels.items()) <= set(key))


@contextmanager
def bot_pool(games: tuple[str, ...], redispatch_seconds: int, bot_deadline_seconds: int) -> Iterator[BotPool]:
    """A Redis server, a service per game, the dispatcher and one worker playing every game."""
    binary = shutil.which("redis-server") or embedded_binary()
    with redis_binary_server(binary) as url, ExitStack() as stack:
        services = {
            game: stack.enter_context(
                game_process(game, url, KEYS, MENAGERIE_BOT_TURN_DEADLINE_SECONDS=str(bot_deadline_seconds))
            )
            for game in games
        }
        endpoints = ",".join(f"{game}={service.address}" for game, service in services.items())
        metrics_port, worker_metrics_port = free_ports(2)
        stack.enter_context(
            dispatcher_process(
                url,
                KEYS,
                MENAGERIE_GAME_ENDPOINTS=endpoints,
                MENAGERIE_REDISPATCH_SECONDS=str(redispatch_seconds),
                MENAGERIE_METRICS_PORT=str(metrics_port),
                MENAGERIE_DEADLINE_SCAN_MS="100",
            )
        )
        worker = stack.enter_context(
            bot_worker_process(
                url,
                KEYS,
                MENAGERIE_GAME_ENDPOINTS=endpoints,
                MENAGERIE_REDISPATCH_SECONDS=str(redispatch_seconds),
                MENAGERIE_METRICS_PORT=str(worker_metrics_port),
            )
        )
        yield BotPool(services, f"http://127.0.0.1:{metrics_port}", worker, f"http://127.0.0.1:{worker_metrics_port}")


@contextmanager
def frozen(service: ServiceProcess) -> Iterator[None]:
    """The service's process stopped (SIGSTOP) for the block, then continued, whatever happens."""
    os.kill(service.process.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(service.process.pid, signal.SIGCONT)


class Tables:
    """Keeps `count` all-bot matches of one game running (a finished one is replaced) and counts their moves."""

    def __init__(self, game: str, address: str, count: int) -> None:
        self.client = GameClient(game, address)
        self.token = KEYS.signer().issue_service("isolation-tests", 3600)[0]
        mode = self.client.binding.info.modes[0]
        self.seats = max(mode.min_seats, min(3, mode.max_seats))
        self.versions: dict[str, int] = {}  # live match -> its version when last asked
        self.finished_moves = 0
        for _ in range(count):
            self._create()

    def _create(self) -> None:
        match = self.client.create(self.token, seats=self.seats, bots=tuple(range(self.seats)))
        self.versions[match.match_id] = int(match.summary.version)

    def moves(self) -> int:
        """Moves made in every match so far (a new match is at version 1)."""
        for match_id in list(self.versions):
            request = matches_pb2.GetMatchRequest(match_id=match_id)
            match = self.client.matches.GetMatch(request, metadata=bearer(self.token), timeout=CALL_TIMEOUT).match
            self.versions[match_id] = int(match.version)
            if match.status == common_pb2.MATCH_STATUS_FINISHED:
                self.finished_moves += self.versions.pop(match_id) - 1
                self._create()
        return self.finished_moves + sum(version - 1 for version in self.versions.values())

    def close(self) -> None:
        self.client.close()


def moves_per_second(seconds: float, *tables: Tables) -> list[float]:
    """Each table's moves per second over the next `seconds` (a measurement for the log and a bounded window).

    All of them are polled throughout, so that none runs out of live matches.
    """
    first = last = [t.moves() for t in tables]
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        time.sleep(0.2)
        last = [t.moves() for t in tables]
    elapsed = time.monotonic() - start
    return [(b - a) / elapsed for a, b in zip(first, last, strict=True)]


def test_a_hung_game_service_does_not_stall_the_bots_of_another_game() -> None:
    redispatch = 4
    with bot_pool((FROZEN, OTHER), redispatch, bot_deadline_seconds=1) as pool:
        frozen_tables = Tables(FROZEN, pool.services[FROZEN].address, 6)
        other_tables = Tables(OTHER, pool.services[OTHER].address, 4)
        try:
            wait_for(lambda: frozen_tables.moves() >= 10 and other_tables.moves() >= 10, 30, "both games' bots moving")
            window = 2 * redispatch
            frozen_tables.moves()  # finished matches replaced: every table has a decision pending
            with frozen(pool.services[FROZEN]):
                # A redispatch round first: the frozen game's decisions pass their deadlines and
                # are enqueued again, as they pile up in a real outage.
                time.sleep(redispatch)
                (during,) = moves_per_second(window, other_tables)
                assert pool.worker.process.poll() is None, pool.worker.output()[-3000:]
            print(f"\n{OTHER} bot moves/s: {during:.1f} while {FROZEN}'s service was stopped")
            # Counted over a whole window: a move a second at least, where it used to be none.
            assert during >= 1, f"{OTHER}'s bots stalled while {FROZEN}'s service was stopped"
            # The frozen game was marked unresponsive: most of its tasks ended at once, not
            # after waiting on it (menagerie.bots.marks).
            assert pool.turns(FROZEN, "game unresponsive") >= 1
            resumed_from = frozen_tables.moves()
            wait_for(lambda: frozen_tables.moves() >= resumed_from + 3, 40, f"{FROZEN}'s bots to resume after SIGCONT")
        finally:
            frozen_tables.close()
            other_tables.close()


def test_a_decision_whose_task_is_still_running_is_not_enqueued_again() -> None:
    # The bot turn deadline (2 s) passes while the task waits on the frozen service (each
    # call may wait a quarter of the redispatch interval: 3 s).
    with bot_pool((FROZEN,), redispatch_seconds=12, bot_deadline_seconds=2) as pool:
        tables = Tables(FROZEN, pool.services[FROZEN].address, 1)
        try:
            wait_for(lambda: tables.moves() >= 3, 30, "the bots moving")

            def redispatched() -> float:
                return pool.dispatcher_total("menagerie_dispatcher_decisions_enqueued_total", source="deadline")

            def deferred() -> float:
                return pool.dispatcher_total("menagerie_dispatcher_running_decisions_deferred_total")

            tables.moves()  # a finished match is replaced: a decision is pending
            before = redispatched()
            with frozen(pool.services[FROZEN]):
                wait_for(
                    lambda: deferred() >= 1 or redispatched() > before,
                    20,
                    "the deadline of the decision in progress to pass",
                )
                assert redispatched() == before, "a decision was enqueued again while its task was still running"
            moved_from = tables.moves()
            wait_for(lambda: tables.moves() > moved_from, 40, "the bots to move again after SIGCONT")
        finally:
            tables.close()
