"""Entry point of the lobby (console script `menagerie-lobby`)."""

from __future__ import annotations

import grpc

from menagerie.lobby.directory import GameDirectory
from menagerie.lobby.matchmaker import Matchmaker
from menagerie.lobby.ratings import Ratings
from menagerie.lobby.servicer import LobbyServicer
from menagerie.lobby.tickets import TicketStore
from menagerie.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from menagerie.shared.rpc.bootstrap import Runtime, run_service
from menagerie.shared.rpc.quotas import MethodBudget
from menagerie.shared.settings import LobbySettings
from menagerie.shared.tracing import setup_tracing

REGISTER_PLAYER = f"/{lobby_pb2.DESCRIPTOR.services_by_name['Lobby'].full_name}/RegisterPlayer"


async def register(server: grpc.aio.Server, runtime: Runtime) -> list[str]:
    """Adds the Lobby service and starts matchmaking, directory refresh and ratings beside it."""
    settings = runtime.settings
    assert isinstance(settings, LobbySettings)
    directory = GameDirectory(settings.endpoints(), settings.public_endpoints(), runtime.signer, settings.tls_ca_file)
    await directory.refresh()
    store = TicketStore(runtime.redis, runtime.runner())
    ratings = Ratings(runtime.redis, directory)
    matchmaker = Matchmaker(store, directory, settings, ratings)
    runtime.add_loop("directory", directory.run)
    runtime.add_loop("matchmaker", matchmaker.run)
    runtime.add_loop("ratings", lambda stop: ratings.run(stop, settings.shards))
    # A new guest costs the store a record for a day: a budget per address of its own, beyond the call rate.
    runtime.quotas.limit_method(
        REGISTER_PLAYER, MethodBudget(settings.guests_per_minute, settings.guest_burst, "new guests")
    )
    lobby_pb2_grpc.add_LobbyServicer_to_server(
        LobbyServicer(runtime.redis, store, directory, ratings, runtime.signer, settings, runtime.wakeups()), server
    )
    return [lobby_pb2.DESCRIPTOR.services_by_name["Lobby"].full_name]


def main() -> None:
    """Runs the lobby until SIGTERM."""
    setup_tracing("lobby")  # before the server is made: traces off unless OTEL_* ask
    run_service("lobby", LobbySettings, register)


if __name__ == "__main__":
    main()
