"""deploy/games.toml, the games this platform deploys: read by make run, the deploy-file generator and the tests.

One row per game: its id (the name its package registers in the `menagerie.games`
entry point group) and its gRPC port. Everything else about a game comes from its
package; everything else about a deployment from the generator's templates.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

TABLE = Path(__file__).resolve().with_name("games.toml")
LOBBY_PORT = 50050
# Game ports sit just above the lobby's, so `make run --base-port B` can shift them all.
PORTS = range(LOBBY_PORT + 1, LOBBY_PORT + 50)
# A game id names a compose service, a Kubernetes object and a Python package: lowercase letters and digits.
GAME_ID = re.compile(r"^[a-z][a-z0-9]*$")
# The platform's own processes; a game may not take their names.
RESERVED = frozenset({"redis", "lobby", "dispatcher", "game"})


class GamesTableError(ValueError):
    """deploy/games.toml is malformed, or names a game that is not installed."""


@dataclass(frozen=True)
class GameRow:
    """One deployed game: its id and its gRPC port."""

    id: str
    port: int

    @property
    def offset(self) -> int:
        """How far its port is from the lobby's (make run's --base-port shifts both)."""
        return self.port - LOBBY_PORT


def load(path: Path = TABLE) -> list[GameRow]:
    """The rows of the table at `path`, in their order; GamesTableError naming the first problem."""
    where = path.name
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise GamesTableError(f"{where}: {exc}") from exc
    if set(data) != {"games"} or not isinstance(data["games"], list) or not data["games"]:
        raise GamesTableError(f"{where}: expected one key, `games = [{{ id = ..., port = ... }}, ...]`")
    rows: list[GameRow] = []
    for index, row in enumerate(data["games"]):
        at = f"{where} row {index + 1}"
        if not isinstance(row, dict) or set(row) != {"id", "port"}:
            raise GamesTableError(f'{at}: a row is {{ id = "...", port = ... }}, not {row!r}')
        game, port = row["id"], row["port"]
        if not isinstance(game, str) or not GAME_ID.match(game) or game in RESERVED:
            raise GamesTableError(
                f"{at}: id {game!r} must be lowercase letters and digits, not one of {', '.join(sorted(RESERVED))}"
            )
        if not isinstance(port, int) or isinstance(port, bool) or port not in PORTS:
            raise GamesTableError(f"{at}: port {port!r} of {game} must be {PORTS.start}–{PORTS.stop - 1}")
        for other in rows:
            if game == other.id or port == other.port:
                raise GamesTableError(f"{at}: {game}={port} repeats the id or port of {other.id}={other.port}")
        rows.append(GameRow(game, port))
    return rows


def check_installed(rows: Iterable[GameRow], installed: Iterable[str], where: str = "deploy/games.toml") -> None:
    """GamesTableError when a row names a game that is not installed (with the installed ones)."""
    known = sorted(installed)
    missing = [row.id for row in rows if row.id not in known]
    if missing:
        raise GamesTableError(
            f"{where} names {', '.join(missing)}, not installed here; installed games: {', '.join(known) or 'none'}"
            " (install the game's folder, e.g. `make install`, or remove its row)"
        )


def endpoints(rows: Iterable[GameRow], address: Callable[[GameRow], str]) -> str:
    """MENAGERIE_GAME_ENDPOINTS for the rows: 'beasts=<address>,…', each address from `address(row)`."""
    return ",".join(f"{row.id}={address(row)}" for row in rows)
