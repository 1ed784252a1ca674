"""BotSettings: the bots' time bounds nest under the redispatch interval, and the games a worker plays."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from pydantic import ValidationError

from menagerie.shared.settings import BotSettings

BASE = {
    "REDIS_URL": "redis://127.0.0.1:1/0",
    "verify_keys_file": "/keys/verify-keys.json",
    "game_endpoints": "beasts=h:1,zoo=h:2",
}


def bot_settings(**values: object) -> BotSettings:
    return BotSettings.model_validate({**BASE, **values})


def test_call_and_decision_deadlines_follow_the_redispatch_interval() -> None:
    settings = bot_settings()
    assert (settings.redispatch_seconds, settings.call_timeout(), settings.decision_timeout()) == (10, 2.5, 5.0)
    assert bot_settings(redispatch_seconds=2).call_timeout() == 0.5
    assert bot_settings(bot_call_timeout_seconds=1).call_timeout() == 1.0


@pytest.mark.parametrize(
    ("values", "names"),
    [
        ({"bot_call_timeout_seconds": 3}, "MENAGERIE_BOT_CALL_TIMEOUT_SECONDS (3 s) must be at most a quarter"),
        ({"redispatch_seconds": 40}, "MENAGERIE_TASK_SOFT_TIME_LIMIT_SECONDS (20 s) must exceed"),
        ({"task_soft_time_limit_seconds": 30}, "MENAGERIE_TASK_TIME_LIMIT_SECONDS (30 s) must exceed"),
        ({"worker_games": "zoo,chess"}, "MENAGERIE_WORKER_GAMES names chess"),
    ],
)
def test_a_configuration_whose_bounds_do_not_nest_is_refused_naming_the_variables(
    values: dict[str, object], names: str
) -> None:
    with pytest.raises(ValidationError, match=names.replace("(", r"\(").replace(")", r"\)")):
        bot_settings(**values)


def test_a_worker_plays_every_game_unless_told_which() -> None:
    assert bot_settings().played_games() == ["beasts", "zoo"]
    assert bot_settings(worker_games=" zoo ").played_games() == ["zoo"]


def test_the_worker_stops_at_start_with_the_message() -> None:
    env = {
        **os.environ,
        "REDIS_URL": BASE["REDIS_URL"],
        "MENAGERIE_VERIFY_KEYS_FILE": BASE["verify_keys_file"],
        "MENAGERIE_REDISPATCH_SECONDS": "10",
        "MENAGERIE_BOT_CALL_TIMEOUT_SECONDS": "10",
    }
    done = subprocess.run(
        [sys.executable, "-m", "menagerie.bots.worker"], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "MENAGERIE_BOT_CALL_TIMEOUT_SECONDS (10 s) must be at most a quarter" in done.stderr
