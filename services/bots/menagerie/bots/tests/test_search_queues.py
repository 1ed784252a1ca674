"""The search queues: mcts decisions go apart, workers take the queues they are told, budgets fit the task."""

from __future__ import annotations

import os

import pytest

from menagerie.bots.celery_app import queue_for, worker_queues
from menagerie.rules.errors import InvalidArgument
from menagerie.shared.bots import BOT_LEVELS, DEFAULT_BOT_LEVEL, checked_budget
from menagerie.shared.settings import THREADS_CONCURRENCY, BotSettings

BASE = {
    "REDIS_URL": "redis://127.0.0.1:1/0",
    "verify_keys_file": "/keys/verify-keys.json",
    "game_endpoints": "beasts=h:1,zoo=h:2",
}


def test_a_search_level_has_a_queue_of_its_own_per_game() -> None:
    assert queue_for("beasts", "mcts") == "menagerie-bots.beasts.search"
    assert (
        queue_for("beasts", "greedy") == queue_for("beasts", "random") == queue_for("beasts") == "menagerie-bots.beasts"
    )
    assert queue_for("zoo", "mcts") != queue_for("beasts", "mcts")


def test_a_worker_consumes_the_queues_it_is_told() -> None:
    games = ["beasts", "zoo"]
    assert worker_queues(games, "plain") == ["menagerie-bots.beasts", "menagerie-bots.zoo"]
    assert worker_queues(games, "search") == ["menagerie-bots.beasts.search", "menagerie-bots.zoo.search"]
    assert set(worker_queues(games, "all")) == {*worker_queues(games, "plain"), *worker_queues(games, "search")}
    assert BotSettings.model_validate(BASE).worker_queues == "all"  # one worker alone plays every level


def test_mcts_is_offered_and_greedy_stays_the_default() -> None:
    assert "mcts" in BOT_LEVELS and DEFAULT_BOT_LEVEL == "greedy"
    assert BotSettings.model_validate({**BASE, "timeout_bot_level": "mcts"}).timeout_bot_level == "mcts"


def test_a_budget_must_fit_the_turn_timer() -> None:
    assert checked_budget(0, 0) == 0  # the default, 1 s, stored as 0
    assert checked_budget(2.5, 3) == 2.5
    assert checked_budget(2.5, 0) == 2.5  # the game's default timer: the game service checks it
    with pytest.raises(InvalidArgument, match=r"must fit the turn timer: at most turn_timer_seconds \(2 s\)"):
        checked_budget(2.5, 2)
    with pytest.raises(InvalidArgument, match="at most 10"):
        checked_budget(10.5, 60)
    with pytest.raises(InvalidArgument, match="≥ 0"):
        checked_budget(float("nan"), 60)


def test_the_search_time_fits_the_tasks_time_limits() -> None:
    settings = BotSettings.model_validate(BASE)  # soft limit 20 s, a decision's calls 5 s
    assert settings.search_seconds(1.0) == 1.0
    assert settings.search_seconds(10.0) == 10.0
    tight = BotSettings.model_validate(
        {**BASE, "redispatch_seconds": 2, "task_soft_time_limit_seconds": 5, "task_time_limit_seconds": 6}
    )
    assert tight.search_seconds(10.0) == 5 - 1 - 1  # the soft limit less the calls' time and a second's margin


def test_a_worker_of_the_plain_queues_alone_runs_the_threads_pool() -> None:
    def pool(**settings: str) -> str:
        return BotSettings.model_validate({**BASE, **settings}).pool()

    assert pool(worker_queues="plain") == "threads"  # cheap decisions waiting on a call: no process hop per task
    assert pool(worker_queues="search") == pool(worker_queues="all") == "prefork"  # a search holds a core
    assert pool(worker_queues="plain", worker_pool="prefork") == "prefork"  # an operator's choice stands


def test_a_threads_worker_runs_more_decisions_at_once_than_a_searching_one() -> None:
    def concurrency(**settings: str) -> int:
        return BotSettings.model_validate({**BASE, **settings}).concurrency()

    cores = len(os.sched_getaffinity(0))
    assert concurrency(worker_queues="plain") == THREADS_CONCURRENCY  # decisions waiting on a call
    assert concurrency(worker_queues="search") == concurrency(worker_queues="all") == cores  # a search a core
    assert concurrency(worker_queues="plain", worker_pool="prefork") == cores
    assert concurrency(worker_queues="search", worker_concurrency="1") == 1  # an operator's choice stands
