"""The Celery configuration of the bot pool, shared by the dispatcher and the workers.

Tasks are acknowledged late and rejected when a worker dies, prefetch is 1 and each
task has soft and hard time limits; none of that is relied on for recovery, which is
the dispatcher's (deadlines), because the Redis broker only redelivers an unacknowledged
task after its visibility timeout (an hour by default). So kombu's ack emulation is off:
a worker keeps its unacknowledged tasks in memory only (given back to the queue when it
stops or a pool process dies), instead of writing each task to an "unacked" hash in
Redis when it arrives and deleting it when done: two round trips per task, each on a
redis-py client built for the occasion, the first between the task's arrival and its
start. It also keeps a worker alive through a broker outage during a turn, which kombu
5.7's restore of that hash turned into an "Unrecoverable error".

Each game has a queue of its own (`queue_for`): the dispatcher sends a decision to its
game's queue and a worker consumes the queues of the games it plays, so a game whose
service hangs fills only its own queue, and a pool of workers may serve one game.

A searching level (`mcts`, which thinks for a second or more per decision where `greedy`
takes a millisecond) has a second queue per game, `<game's queue>.search`, consumed by
workers of its own (MENAGERIE_WORKER_QUEUES=search): search seats then never hold the
slots that cheaper levels' decisions wait for, however many tables ask for them.
"""

from __future__ import annotations

from celery import Celery

from menagerie.bots import tracing  # noqa: F401 (connects the worker's trace hooks to Celery's signals)
from menagerie.shared.bots import searches
from menagerie.shared.settings import BotSettings

QUEUE_PREFIX = "menagerie-bots"
SEARCH_SUFFIX = "search"
PLAY_TURN = "menagerie.bots.play_turn"
# A finished match's win estimates (menagerie.bots.estimates), on its game's search queue.
ESTIMATE_MATCH = "menagerie.bots.estimate_match"
# A watched live match's estimate at its latest step (menagerie.bots.live), on its game's plain queue:
# milliseconds of CPU, so it never waits behind a search seat's second of thought.
ESTIMATE_LIVE = "menagerie.bots.estimate_live"


def search_queue(game: str) -> str:
    """The Celery queue of `game`'s decisions at a searching level."""
    return f"{QUEUE_PREFIX}.{game}.{SEARCH_SUFFIX}"


def queue_for(game: str, level: str = "") -> str:
    """The Celery queue of `game`'s bot decisions at `level`: the game's search queue for a searching level."""
    return search_queue(game) if searches(level) else f"{QUEUE_PREFIX}.{game}"


def worker_queues(games: list[str], kinds: str) -> list[str]:
    """The queues a worker consumes for `games`: plain ones, search ones or both (`kinds`: plain, search, all)."""
    plain = [queue_for(game) for game in games] if kinds in ("plain", "all") else []
    search = [search_queue(game) for game in games] if kinds in ("search", "all") else []
    return plain + search


def make_app(settings: BotSettings) -> Celery:
    """The Celery app, configured for idempotent, time-limited bot turns."""
    app = Celery("menagerie-bots", broker=settings.broker())
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_ignore_result=True,
        task_soft_time_limit=settings.task_soft_time_limit_seconds,
        task_time_limit=settings.task_time_limit_seconds,
        broker_connection_retry_on_startup=True,
        # Bounded waits on the broker: without a socket timeout a publish on a connection
        # the broker dropped silently waits forever (kombu's redis transport docs). Reads
        # of the workers' BRPOP (1 s) end well within it.
        broker_transport_options={"socket_timeout": 10, "socket_connect_timeout": 5, "ack_emulation": False},
        # A publish tries four times within about a second; after that the dispatcher's
        # loop fails and its supervisor retries with backoff (the turn notice stays pending).
        task_publish_retry_policy={"max_retries": 3, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5},
        worker_hijack_root_logger=False,
        worker_send_task_events=False,
    )
    return app
