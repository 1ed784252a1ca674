"""The entry point of every game service: `menagerie-game <game-id>` serves any installed game.

The game id comes from the command line or, in containers, from MENAGERIE_GAME (one
image serves every game; compose and Kubernetes set the variable per game). The game
is found through menagerie.rules.registry and bound to its generated code by
convention (GameBinding.for_engine), so adding a game adds no entry point here.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

import grpc

from menagerie.common.v1 import matches_pb2, matches_pb2_grpc
from menagerie.rules import registry
from menagerie.rules.bots import REQUIRED_LEVELS, missing_levels
from menagerie.shared.games.binding import GameBinding, GameBindingError, binding
from menagerie.shared.games.host import GameHost
from menagerie.shared.games.inbound import Inbound
from menagerie.shared.games.outbound import Outbound
from menagerie.shared.games.servicers import GameServicer, MatchesServicer
from menagerie.shared.rpc.bootstrap import Register, Runtime, run_service
from menagerie.shared.settings import GameServiceSettings
from menagerie.shared.store import MatchStore
from menagerie.shared.tracing import setup_tracing

GAME_ENV = "MENAGERIE_GAME"
# argparse's status for a bad command line; an unknown game is one.
USAGE_ERROR = 2


def game_registrar(binding: GameBinding) -> Register:
    """The `register` function of the bootstrap for one game."""

    async def register(server: grpc.aio.Server, runtime: Runtime) -> list[str]:
        settings = runtime.settings
        assert isinstance(settings, GameServiceSettings)
        store = MatchStore(
            runtime.redis,
            settings.shards,
            settings.turn_feed_maxlen,
            settings.turn_feed_max_age_seconds,
            runtime.runner(),
        )
        replies = Outbound(binding)
        host = GameHost(binding.engine, store, runtime.signer, settings, runtime.wakeups(), replies)
        binding.add_to_server(GameServicer(host, Inbound(binding.messages), replies), server)
        served = [binding.service_name]
        generic_replies = None
        if binding.typed:
            # Every game is also served in the generic envelope: clients without its board draw it from there.
            generic = GameBinding.generic(binding.engine)
            generic_replies = Outbound(generic, binding)
            generic.add_to_server(GameServicer(host, Inbound(generic.messages), generic_replies), server)
            served.append(generic.service_name)
        matches_pb2_grpc.add_MatchesServicer_to_server(MatchesServicer(host, replies, generic_replies), server)
        return [*served, matches_pb2.DESCRIPTOR.services_by_name["Matches"].full_name]

    return register


def run_game_service(binding: GameBinding) -> None:
    """Runs a game service process until SIGTERM."""
    setup_tracing(binding.info.game)  # before the server is made: traces off unless OTEL_* ask
    run_service(binding.info.game, GameServiceSettings, game_registrar(binding))


def chosen_game(argv: Sequence[str] | None = None) -> GameBinding:
    """The binding of the game named on the command line or in MENAGERIE_GAME; exit status 2 if not installed."""
    installed = registry.game_ids()
    parser = argparse.ArgumentParser(
        prog="menagerie-game",
        description=f"Serves one installed game over gRPC until SIGTERM. Installed: {', '.join(installed) or 'none'}.",
    )
    parser.add_argument("game", nargs="?", default=os.environ.get(GAME_ENV), help=f"the game id (default: ${GAME_ENV})")
    game = parser.parse_args(argv).game
    if not game:
        parser.error(f"name a game, as an argument or in {GAME_ENV}; installed: {', '.join(installed) or 'none'}")
    if game not in installed:
        parser.error(f"no game {game!r} is installed; installed: {', '.join(installed) or 'none'}")
    if missing := missing_levels(game):
        # A seat left to a bot, or a timer that runs out, would find no policy: refuse the game now.
        parser.error(
            f"game {game!r} ships no bot level {', '.join(missing)}; every game ships {', '.join(REQUIRED_LEVELS)}"
        )
    try:
        return binding(game)
    except GameBindingError as exc:
        # A broken game must not start half a service: say what its proto lacks and stop.
        print(f"menagerie-game: {game}: {exc}", file=sys.stderr)
        raise SystemExit(USAGE_ERROR) from None


def main(argv: Sequence[str] | None = None) -> None:
    """Console script `menagerie-game [GAME]`: serves the game until SIGTERM."""
    run_game_service(chosen_game(argv))
