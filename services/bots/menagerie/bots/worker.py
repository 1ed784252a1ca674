"""The bot worker (`menagerie-bot-worker`): a Celery worker that plays bot decisions.

It starts through the platform's bootstrap (`run_blocking`): settings, logging, and —
with MENAGERIE_METRICS_PORT — `/metrics` (turns played, by game and result) and
`/healthz` (SERVING while the broker answers a PING) on one HTTP port. Not a gRPC
health server: the prefork pool forks, and a gRPC server must not run across a fork.
Celery runs its own loop in the foreground.

The pool's processes count the turns and the main process serves the metrics, so when
metrics are on, prometheus_client keeps its values in files shared by all of them
(multiprocess mode, PROMETHEUS_MULTIPROC_DIR). That mode is chosen when
prometheus_client is first imported, hence the few lines before the imports below.

Exit status: the worker's own (non-zero after an "Unrecoverable error"), and 1 whenever
it stopped although no signal asked it to. `worker_main` drops the status, so a worker
that Celery stopped used to exit 0 and a supervisor that restarts on failure left the
pool without it: Celery 5.7/kombu 5.7 did so when the broker connection dropped while a
turn was unacknowledged (AttributeError restoring kombu's "unacked" hash; the pool now
runs without that hash, menagerie.bots.celery_app, and rides such an outage out).

It consumes the Celery queues of the games it plays (MENAGERIE_WORKER_GAMES, default
every game of MENAGERIE_GAME_ENDPOINTS: one queue per game, menagerie.bots.celery_app), so
operators may run a pool per game; MENAGERIE_WORKER_QUEUES=plain or search splits the
cheap levels from the searching one (`mcts`) between workers, as `make run` and the
deploy files do. Within one worker, a game service that hangs cannot
take every slot: calls are bounded well under the redispatch interval
(menagerie.bots.turns) and a game whose calls time out is marked unresponsive, tried by
one task now and then while its other tasks end at once (menagerie.bots.marks). Each task
marks its decision as in progress while it runs, so the dispatcher does not enqueue it
again meanwhile, and reads with that mark what the game service wrote for the decision (the
seat's BotTurn), so that it makes one call to the game, SubmitAction.

gRPC channels and the Redis client of the marks are made in each worker process after the
fork: a gRPC channel made before forking can hang (grpc#13464).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

METRICS_DIR_ENV = "PROMETHEUS_MULTIPROC_DIR"
if os.environ.get("MENAGERIE_METRICS_PORT", "0").strip() not in ("", "0") and METRICS_DIR_ENV not in os.environ:
    os.environ[METRICS_DIR_ENV] = tempfile.mkdtemp(prefix="menagerie-bot-worker-metrics-")
    # Ours, so removed at exit (the pool's processes leave through os._exit and skip this);
    # a directory an operator set is left alone.
    atexit.register(shutil.rmtree, os.environ[METRICS_DIR_ENV], ignore_errors=True)

import socket  # noqa: E402
import threading  # noqa: E402
from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

import grpc  # noqa: E402
from celery.signals import worker_init, worker_process_init, worker_shutting_down  # noqa: E402
from celery.worker import WorkController  # noqa: E402
from prometheus_client import CollectorRegistry, Counter, Histogram, multiprocess  # noqa: E402

from menagerie.bots.celery_app import ESTIMATE_LIVE, ESTIMATE_MATCH, PLAY_TURN, make_app, worker_queues  # noqa: E402
from menagerie.bots.estimates import MatchEstimator  # noqa: E402
from menagerie.bots.live import LiveEstimator  # noqa: E402
from menagerie.bots.marks import Access, Marks, Start  # noqa: E402
from menagerie.bots.turns import GameUnresponsive, TurnPlayer, TurnResult  # noqa: E402
from menagerie.shared.bots import DEFAULT_BOT_BUDGET_SECONDS  # noqa: E402
from menagerie.shared.lifetime import tie_to_parent  # noqa: E402
from menagerie.shared.redis_client import connect_sync_redis  # noqa: E402
from menagerie.shared.rpc.bootstrap import BlockingRuntime, load_settings, redis_answers, run_blocking  # noqa: E402
from menagerie.shared.rpc.channels import open_channel  # noqa: E402
from menagerie.shared.settings import BotSettings  # noqa: E402

settings = load_settings(BotSettings)
app = make_app(settings)
_channels: dict[str, grpc.Channel] = {}
_marks: list[Marks] = []  # this process's, made on first use (after the fork)
# Marks are best effort: a Redis that does not answer within this is skipped for the turn.
MARKS_TIMEOUT_SECONDS = 2.0

TURNS = Counter("menagerie_bot_turns_total", "Bot decisions played, by game and result", ["game", "result"])
# A searching level's time to choose as a share of its budget: issue 33 holds its p99 to ≤ 1.1
# (histogram_quantile(0.99, ...) over these buckets; the arena's report says the same of its runs).
SEARCH_SHARE = Histogram(
    "menagerie_bot_search_budget_share",
    "A searching bot's time to choose divided by its budget, by game",
    ["game"],
    buckets=(0.5, 0.9, 1.0, 1.02, 1.05, 1.1, 1.2, 1.5, 2.0, 5.0),
)
# Not a TurnResult: the task raised (a game service unreachable, a time limit).
ERROR = "error"
# Decisions over once their task ends (the move landed, or the seat's view moved on): their
# mark is left to expire rather than cleared, a round trip spared (menagerie.bots.marks).
OVER = frozenset({TurnResult.PLAYED, TurnResult.STALE})


def _channel(address: str) -> grpc.Channel:
    """This process's channel to `address`, made on first use (after the fork)."""
    channel = _channels.get(address)
    if channel is None:
        per_match = settings.game_routing == "per-match"
        channel = _channels[address] = open_channel(address, settings.tls_ca_file, per_match=per_match)
    return channel


def marks() -> Marks:
    """This process's marks (menagerie.bots.marks), made on first use (after the fork)."""
    if not _marks:
        client = connect_sync_redis(
            settings.redis_url, socket_timeout=MARKS_TIMEOUT_SECONDS, socket_connect_timeout=MARKS_TIMEOUT_SECONDS
        )
        _marks.append(
            Marks(client, settings.task_soft_time_limit_seconds, settings.redispatch_seconds, settings.shards)
        )
    return _marks[0]


@worker_process_init.connect
def _forget_inherited_clients(**_: Any) -> None:
    """A forked child must not use its parent's channels or Redis connections."""
    _channels.clear()
    _marks.clear()


# The worker's main process, as its forked pool processes inherit it.
_MAIN_PID = os.getpid()


@worker_process_init.connect
def _die_with_the_worker(**_: Any) -> None:
    """A pool process dies with the worker's main process, one killed while it was being forked too."""
    # Celery sets the pool's parent-death signal (SIGKILL) but does not check that the parent was
    # still there when it did; tie_to_parent does. A child started afresh (not forked) has its own _MAIN_PID.
    if os.getpid() != _MAIN_PID:
        tie_to_parent(_MAIN_PID)


_player = TurnPlayer(
    settings.token_signer(),
    settings.endpoints(),
    _channel,
    call_timeout=settings.call_timeout(),
    decision_timeout=settings.decision_timeout(),
    searched=lambda game, seconds, budget: SEARCH_SHARE.labels(game).observe(seconds / budget),
)


_estimator = MatchEstimator(settings.token_signer(), settings.endpoints(), _channel, settings.call_timeout())


@app.task(name=ESTIMATE_MATCH)
def estimate_match(game: str, match_id: str) -> int:
    """Computes and records a finished match's win estimates (menagerie.bots.estimates); how many steps got one."""
    return _estimator.estimate(game, match_id)


_live = LiveEstimator(settings.token_signer(), settings.endpoints(), _channel, settings.call_timeout())


@app.task(name=ESTIMATE_LIVE)
def estimate_live(game: str, match_id: str, version: int) -> bool:
    """Estimates a watched live match at `version` from the spectator's view (menagerie.bots.live); whether it could."""
    return _live.estimate(game, match_id, version) is not None


@app.task(name=PLAY_TURN)
def play_turn(game: str, match_id: str, seat: int, view_version: int, level: str, budget_seconds: float = 0.0) -> str:
    """Plays one bot decision (see menagerie.bots.turns), marked as in progress while it runs.

    `budget_seconds` is the match's time per decision for a searching level (0 = the default;
    a task sent before it existed has none), cut to what the task's time limits leave.
    """
    start = marks().start(game, match_id, seat, view_version)
    if start.token is None:
        result = TurnResult.IN_PROGRESS
    else:
        played: TurnResult | None = None  # None while it plays, and when it raised
        try:
            budget = settings.search_seconds(budget_seconds or DEFAULT_BOT_BUDGET_SECONDS)
            played = _play(game, match_id, seat, view_version, level, start, budget)
        finally:
            if played not in OVER:
                marks().end(match_id, seat, view_version, start.token)
        result = played
    TURNS.labels(game, result).inc()
    return str(result)


def _play(
    game: str, match_id: str, seat: int, view_version: int, level: str, start: Start, budget: float
) -> TurnResult:
    access = start.access
    if access == Access.CLOSED:
        return TurnResult.GAME_UNRESPONSIVE
    try:
        result = _player.play(game, match_id, seat, view_version, level, budget, start.turn)
    except GameUnresponsive:
        marks().unresponsive(game)
        TURNS.labels(game, ERROR).inc()
        raise
    except Exception:
        TURNS.labels(game, ERROR).inc()
        raise
    if access == Access.PROBE:
        marks().responsive(game)
    return result


# Set by Celery's warm and cold shutdown handlers (SIGTERM, SIGINT, SIGQUIT), in the main process.
_asked_to_stop = threading.Event()
# The worker that `worker_main` runs: its exit status is kept there, and nowhere else.
_workers: list[WorkController] = []


@worker_shutting_down.connect
def _note_stop_request(**_: Any) -> None:
    """A signal asked the worker to stop: exiting 0 afterwards is what was asked."""
    _asked_to_stop.set()


@worker_init.connect
def _note_worker(sender: WorkController, **_: Any) -> None:
    """Keeps the worker, to read its exit status once it stops."""
    _workers.append(sender)


def exit_status(celery_status: int | None, asked_to_stop: bool) -> int:
    """The worker process's exit status: Celery's when it says failure, else 1 unless a signal asked it to stop."""
    if celery_status:
        return celery_status
    return 0 if asked_to_stop else 1


def _work(runtime: BlockingRuntime) -> int:
    """Runs Celery's worker loop in the foreground until a signal (warm shutdown: running turns finish)."""
    # worker_main returns (celery-types says it never does) and drops the worker's exit
    # status, even after an "Unrecoverable error": the status is read from the worker.
    worker_main: Callable[[list[str]], None] = app.worker_main
    runtime.log.info("playing", games=settings.played_games(), queues=settings.worker_queues)
    worker_main(
        [
            "--quiet",  # no banner
            "worker",
            f"--pool={settings.pool()}",
            f"--concurrency={settings.concurrency()}",
            f"--queues={','.join(worker_queues(settings.played_games(), settings.worker_queues))}",
            f"--hostname=bots-{os.getpid()}@{socket.gethostname()}",
            f"--loglevel={settings.log_level.upper()}",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
    )
    status = _workers[-1].exitcode if _workers else None
    code = exit_status(status, _asked_to_stop.is_set())
    if code and not status:
        runtime.log.error("the worker stopped without being asked to; exiting with a failure so it is restarted")
    return code


def metrics_registry() -> CollectorRegistry | None:
    """The registry that sums every pool process's values (multiprocess mode), or None for the default one."""
    if METRICS_DIR_ENV not in os.environ:
        return None
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    return registry


def main() -> None:
    """Runs a worker of the pool until SIGTERM; exits non-zero if it stopped for any other reason."""
    run_blocking(
        "bot-worker",
        settings,
        _work,
        check=lambda: redis_answers(settings.broker()),
        registry=metrics_registry(),
    )


if __name__ == "__main__":
    main()
