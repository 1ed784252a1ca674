"""The processes `make run` starts: one per game of deploy/games.toml, the gateway and the platform's own."""

from __future__ import annotations

from dataclasses import dataclass

from deploy.games import check_installed, load
from menagerie.rules.registry import game_ids

# `python -m menagerie.shared.games GAME` is the console script `menagerie-game GAME`.
GAME_MODULE = "menagerie.shared.games"


@dataclass(frozen=True)
class Service:
    """One process of the platform."""

    name: str
    module: str
    port_offset: int | None  # None: not a gRPC server
    needs_games: bool = False  # reads MENAGERIE_GAME_ENDPOINTS
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()  # its own settings, over the shared environment
    role: str = ""  # the issuer whose private key it holds (menagerie.shared.keys.ROLE_GRANTS); "": none


def games() -> tuple[Service, ...]:
    """One service per row of deploy/games.toml; GamesTableError when a row's game is not installed."""
    rows = load()
    check_installed(rows, game_ids())
    return tuple(Service(row.id, GAME_MODULE, row.offset, args=(row.id,), role="games") for row in rows)


# The browsers' door: HTTP on the web port (Connect and the web app), not a gRPC server.
GATEWAY = Service("gateway", "menagerie.gateway", None, needs_games=True, role="gateway")
WEB_PORT = 8080

PLATFORM = (
    Service("lobby", "menagerie.lobby", 0, needs_games=True, role="lobby"),
    Service("dispatcher", "menagerie.bots.dispatcher", None, needs_games=True),
    Service(
        "bot-worker",
        "menagerie.bots.worker",
        None,
        needs_games=True,
        env=(("MENAGERIE_WORKER_QUEUES", "plain"),),
        role="bots",
    ),
    # mcts decisions (a second of a core each) on a worker of their own: they never hold the
    # slots that random and greedy decisions wait for; one process, the machine has few cores.
    Service(
        "search-worker",
        "menagerie.bots.worker",
        None,
        needs_games=True,
        env=(("MENAGERIE_WORKER_QUEUES", "search"), ("MENAGERIE_WORKER_CONCURRENCY", "1")),
        role="bots",
    ),
)
