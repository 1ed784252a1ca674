"""The entry point of every game service: one call with the game's binding."""

from __future__ import annotations

import grpc

from menagerie.common.v1 import matches_pb2, matches_pb2_grpc
from menagerie.shared.games.binding import GameBinding
from menagerie.shared.games.host import GameHost
from menagerie.shared.games.servicers import GameServicer, MatchesServicer
from menagerie.shared.rpc.bootstrap import Register, Runtime, run_service
from menagerie.shared.settings import GameServiceSettings
from menagerie.shared.store import MatchStore


def game_registrar(binding: GameBinding) -> Register:
    """The `register` function of the bootstrap for one game."""

    async def register(server: grpc.aio.Server, runtime: Runtime) -> list[str]:
        settings = runtime.settings
        assert isinstance(settings, GameServiceSettings)
        store = MatchStore(runtime.redis, settings.shards, settings.turn_feed_maxlen)
        host = GameHost(binding, store, runtime.signer, settings)
        binding.add_to_server(GameServicer(host), server)
        matches_pb2_grpc.add_MatchesServicer_to_server(MatchesServicer(host), server)
        return [binding.service_name, matches_pb2.DESCRIPTOR.services_by_name["Matches"].full_name]

    return register


def run_game_service(binding: GameBinding) -> None:
    """Runs a game service process until SIGTERM."""
    run_service(binding.info.game, GameServiceSettings, game_registrar(binding))
