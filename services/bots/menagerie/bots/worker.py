"""The bot worker (`menagerie-bot-worker`): a Celery worker that plays bot decisions.

gRPC channels are made in each worker process after the fork: a channel made before
forking can hang (grpc#13464).
"""

from __future__ import annotations

import os
import socket
from typing import Any

import grpc
from celery.signals import worker_process_init

from menagerie.bots.celery_app import PLAY_TURN, QUEUE, make_app
from menagerie.bots.turns import TurnPlayer
from menagerie.shared.logs import configure_logging
from menagerie.shared.rpc.bootstrap import load_settings
from menagerie.shared.settings import BotSettings
from menagerie.shared.tokens import TokenSigner

settings = load_settings(BotSettings)
app = make_app(settings)
_channels: dict[str, grpc.Channel] = {}


def _channel(address: str) -> grpc.Channel:
    """This process's channel to `address`, made on first use (after the fork)."""
    channel = _channels.get(address)
    if channel is None:
        channel = _channels[address] = grpc.insecure_channel(address)
    return channel


@worker_process_init.connect
def _forget_inherited_channels(**_: Any) -> None:
    """A forked child must not use its parent's channels."""
    _channels.clear()


_player = TurnPlayer(TokenSigner(settings.token_secret.get_secret_value()), settings.endpoints(), _channel)


@app.task(name=PLAY_TURN)
def play_turn(game: str, match_id: str, seat: int, view_version: int, level: str) -> str:
    """Plays one bot decision (see menagerie.bots.turns)."""
    return str(_player.play(game, match_id, seat, view_version, level))


def main() -> None:
    """Runs a worker of the pool until SIGTERM (warm shutdown: running turns finish)."""
    configure_logging("bot-worker", settings.log_format, settings.log_level)
    app.worker_main(
        [
            "--quiet",  # no banner
            "worker",
            f"--pool={settings.worker_pool}",
            f"--concurrency={settings.worker_concurrency}",
            f"--queues={QUEUE}",
            f"--hostname=bots-{os.getpid()}@{socket.gethostname()}",
            f"--loglevel={settings.log_level.upper()}",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
    )


if __name__ == "__main__":
    main()
