"""The `menagerie` command: play against bots (or people), watch a match, see the games."""

from __future__ import annotations

import getpass
import sys
from contextlib import ExitStack, closing
from dataclasses import dataclass, field
from typing import Annotated

import grpc
import typer
from rich.console import Console
from rich.table import Table

from menagerie.cli.connection import Patience, Transport, Unreachable, handle_interrupts, use_transport
from menagerie.cli.errors import explain
from menagerie.cli.games import GAMES
from menagerie.cli.play import Quit, follow, wait_for_seat
from menagerie.cli.session import GameSession, LobbySession
from menagerie.lobby.v1 import lobby_pb2

app = typer.Typer(help="Menagerie: creature-themed tabletop games, online.", no_args_is_help=True, add_completion=False)
console = Console(highlight=False)


@dataclass
class Settings:
    """What the command's global options chose."""

    lobby: str = "127.0.0.1:50050"
    patience: Patience = field(default_factory=Patience)


settings = Settings()


@app.callback()
def _options(
    lobby: Annotated[str, typer.Option(envvar="MENAGERIE_LOBBY", help="The lobby's host:port.")] = Settings.lobby,
    timeout: Annotated[
        float, typer.Option(envvar="MENAGERIE_TIMEOUT", min=0.1, help="Seconds to wait for any answer of a server.")
    ] = Patience.call_seconds,
    reconnect: Annotated[
        float,
        typer.Option(
            envvar="MENAGERIE_RECONNECT_SECONDS",
            min=0,
            help="Seconds to keep reconnecting a lost stream before giving up.",
        ),
    ] = Patience.reconnect_seconds,
    stream_seconds: Annotated[
        float,
        typer.Option(envvar="MENAGERIE_STREAM_SECONDS", min=0.5, hidden=True, help="Deadline of one stream call."),
    ] = Patience.stream_seconds,
    tls_ca: Annotated[
        str,
        typer.Option(
            envvar="MENAGERIE_TLS_CA_FILE", help="Speak TLS, trusting the CA in this PEM file (the platform's CA)."
        ),
    ] = "",
) -> None:
    settings.lobby = lobby
    handle_interrupts()
    use_transport(Transport(tls_ca))
    settings.patience = Patience(call_seconds=timeout, stream_seconds=stream_seconds, reconnect_seconds=reconnect)


def _notify(line: str) -> None:
    console.print(f"[yellow]{line}[/yellow]")


def _fail(message: str) -> None:
    console.print(f"[red]{message}[/red]")
    raise typer.Exit(1)


def _ask(prompt: str) -> str:
    return console.input(prompt)


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="Game id, e.g. beasts.")],
    mode: Annotated[str, typer.Option(help="Mode of the game, e.g. training.")] = "",
    players: Annotated[int, typer.Option(help="Seats at the table (0: any the mode allows).")] = 0,
    name: Annotated[str, typer.Option(help="Your display name.")] = "",
    max_wait: Annotated[int, typer.Option(help="Seconds to wait for people before bots fill the seats.")] = 10,
    bots: Annotated[bool, typer.Option(help="Let bots fill empty seats.")] = True,
    bot_level: Annotated[str, typer.Option(help="random or greedy.")] = "random",
    option: Annotated[list[str] | None, typer.Option(help="Game option name=value (repeatable).")] = None,
    auto_pass: Annotated[
        bool, typer.Option(help="Take a decision by itself when only one action is possible (e.g. End turn).")
    ] = False,
) -> None:
    """Queue for a match and play your seat from the terminal."""
    if game not in GAMES:
        _fail(f"This client knows the games {', '.join(GAMES)}, not {game!r}.")
    options = dict(item.partition("=")[::2] for item in option or [])
    address = settings.lobby
    # Channels are closed before the process exits: one left to the interpreter's shutdown
    # can hold the exit up (seen under load after a stream ended).
    opened = ExitStack()
    try:
        lobby = opened.enter_context(
            closing(LobbySession(address, name or getpass.getuser() or "Guest", settings.patience, _notify))
        )
        request = lobby_pb2.CreateTicketRequest(
            game=game,
            mode=mode,
            options=options,
            min_seats=players,
            max_seats=players,
            allow_bots=bots,
            bot_level=bot_level,
            max_wait_seconds=max_wait,
        )
        seating = wait_for_seat(console, lobby, request)
        # From here on a failed call is the game service's, and its address is the one to name.
        address = seating.game_endpoint
        session = opened.enter_context(
            closing(GameSession(game, address, seating.match_id, seating.seat_token, settings.patience, _notify))
        )
        follow(console, session, seating.seat, _ask, auto_pass)
    except grpc.RpcError as error:
        _fail(explain(error, address))
    except Unreachable as error:
        _fail(str(error))
    except Quit:
        console.print("You left the match. When your turn timer runs out, a bot plays your seat.")
    except (KeyboardInterrupt, EOFError):
        console.print("\nBye.")
    except RuntimeError as error:
        _fail(f"Could not play: {error}.")
    finally:
        opened.close()


@app.command()
def watch(
    match_id: Annotated[str, typer.Argument(help="The match to follow.")],
    game: Annotated[str, typer.Option(help="Game id of the match.")] = "beasts",
) -> None:
    """Follow a match as a spectator until it ends."""
    address = settings.lobby
    opened = ExitStack()
    try:
        lobby = opened.enter_context(closing(LobbySession(address, "Spectator", settings.patience, _notify)))
        # From here on a failed call is the game service's, and its address is the one to name.
        address = lobby.endpoint(game)
        session = opened.enter_context(
            closing(GameSession(game, address, match_id, lobby.token, settings.patience, _notify))
        )
        follow(console, session, None, _ask)
    except grpc.RpcError as error:
        _fail(explain(error, address))
    except Unreachable as error:
        _fail(str(error))
    except KeyError as error:
        _fail(str(error.args[0]))
    except KeyboardInterrupt:
        console.print("\nBye.")
    finally:
        opened.close()


@app.command()
def games() -> None:
    """The games the lobby offers."""
    address = settings.lobby
    try:
        listing = LobbySession(address, "Guest", settings.patience).games()
    except grpc.RpcError as error:
        _fail(explain(error, address))
        return
    table = Table("game", "mode", "seats", "options", "service")
    for entry in listing.games:
        for mode in entry.modes:
            options = ", ".join(f"{o.name}={'/'.join(o.allowed_values)}" for o in mode.options)
            status = entry.endpoint if entry.available else "unavailable"
            table.add_row(entry.game, mode.mode, f"{mode.min_seats}–{mode.max_seats}", options, status)
    console.print(table)


@app.command()
def leaderboard(game: Annotated[str, typer.Argument(help="Game id.")] = "beasts", limit: int = 20) -> None:
    """Ratings of a game, best first."""
    address = settings.lobby
    try:
        reply = LobbySession(address, "Guest", settings.patience).leaderboard(game, limit)
    except grpc.RpcError as error:
        _fail(explain(error, address))
        return
    table = Table("#", "player", "rating", "matches", "wins")
    for entry in reply.entries:
        table.add_row(str(entry.rank), entry.display_name, f"{entry.rating:.1f}", str(entry.matches), str(entry.wins))
    console.print(table)


if __name__ == "__main__":
    sys.exit(app())
