"""The `menagerie` command: play against bots (or people), watch a match, see the games."""

from __future__ import annotations

import getpass
import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import ExitStack, closing, contextmanager
from dataclasses import dataclass, field
from typing import Annotated

import grpc
import typer
from rich.console import Console
from rich.table import Table

from menagerie.cli import identity
from menagerie.cli.connection import (
    Patience,
    Transport,
    Unreachable,
    handle_interrupts,
    interrupted,
    use_transport,
)
from menagerie.cli.errors import explain
from menagerie.cli.games import GAMES
from menagerie.cli.play import Quit, follow, stdin_lines, wait_for_seat
from menagerie.cli.session import GameSession, LobbySession
from menagerie.common.v1 import matches_pb2
from menagerie.lobby.v1 import lobby_pb2
from menagerie.rules.text import seat_name

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


def _player(address: str, name: str, fresh: bool = False) -> LobbySession:
    """The lobby as the player the CLI kept for `address` (a new guest when none is kept, or `fresh`).

    Another `name` renames the kept player (RenamePlayer) rather than registering a new guest,
    so `menagerie resume` still finds its matches and its ratings stay its own.
    """
    saved = None if fresh else identity.load(address)
    if saved is None:
        lobby = LobbySession(address, name or getpass.getuser() or "Guest", settings.patience, _notify)
        identity.save(address, lobby.identity)
        return lobby
    lobby = LobbySession(address, saved.display_name, settings.patience, _notify, saved)
    if not name or name == saved.display_name:
        return lobby
    try:
        identity.save(address, lobby.rename(name))
    except grpc.RpcError as error:
        if error.code() != grpc.StatusCode.UNAUTHENTICATED:
            raise
        lobby.close()  # the kept player is no longer accepted (another platform, a revoked key): a new guest
        return _player(address, name, fresh=True)
    console.print(f"Playing as {name} (renamed from {saved.display_name}; the same player).", soft_wrap=True)
    return lobby


LEFT_THE_MATCH = "\nYou left the match. Until you come back (menagerie resume), a bot plays your seat."


@dataclass
class Seated:
    """A seat's session in the making: what it opened, and whose address a failed call names."""

    address: str
    opened: ExitStack = field(default_factory=ExitStack)


@contextmanager
def seated_session(address: str) -> Iterator[Seated]:
    """Runs `play` or `resume`: closes what they opened and turns each way they end into a sentence."""
    seated = Seated(address)
    # Channels are closed before the process exits: one left to the interpreter's shutdown
    # can hold the exit up (seen under load after a stream ended).
    with seated.opened:
        try:
            yield seated
        except typer.Exit:
            raise  # a failure already told (click's Exit is a RuntimeError too)
        except grpc.RpcError as error:
            _fail(explain(error, seated.address))
        except Unreachable as error:
            _fail(str(error))
        except Quit:
            console.print(LEFT_THE_MATCH)
        except (KeyboardInterrupt, EOFError):
            console.print("\nBye.")
        except RuntimeError as error:
            if interrupted():  # Ctrl-C, turned into RuntimeError inside a lock (menagerie.cli.connection)
                console.print("\nBye.")
            else:
                _fail(f"Could not play: {error}.")


def _seat(opened: ExitStack, game: str, seating: lobby_pb2.Seating, auto_pass: bool, returning: bool = False) -> None:
    """Plays `seating`'s seat until the match ends or the player leaves (`q`: a bot plays it from then on).

    `returning`: the seat may have been left; the player takes it back from the bot first.
    """
    session = opened.enter_context(
        closing(
            GameSession(game, seating.game_endpoint, seating.match_id, seating.seat_token, settings.patience, _notify)
        )
    )
    if returning:
        session.take_back()
    try:
        follow(console, session, seating.seat, stdin_lines, auto_pass)
    except Quit:
        session.leave()
        raise


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="Game id, e.g. beasts.")],
    mode: Annotated[str, typer.Option(help="Mode of the game, e.g. training.")] = "",
    players: Annotated[int, typer.Option(help="Seats at the table (0: any the mode allows).")] = 0,
    name: Annotated[str, typer.Option(help="Your display name.")] = "",
    max_wait: Annotated[int, typer.Option(help="Seconds to wait for people before bots fill the seats.")] = 10,
    bots: Annotated[bool, typer.Option(help="Let bots fill empty seats.")] = True,
    bot_level: Annotated[
        str,
        typer.Option(
            help="greedy (the default), random, mcts (searches, about a second a move), or nearest (the level"
            " rated nearest the table's players when it starts; `menagerie games` lists each level's rating)."
        ),
    ] = "greedy",
    bot_budget: Annotated[
        float, typer.Option(help="Seconds an mcts bot thinks per move (0: 1 s; at most the turn timer).")
    ] = 0.0,
    option: Annotated[list[str] | None, typer.Option(help="Game option name=value (repeatable).")] = None,
    turn_timer: Annotated[int, typer.Option(help="Seconds per decision before a bot decides (0: the game's).")] = 0,
    auto_pass: Annotated[
        bool, typer.Option(help="Take a decision by itself when only one action is possible (e.g. End turn).")
    ] = False,
) -> None:
    """Queue for a match and play your seat from the terminal (b: the board, q: leave)."""
    # Any game the lobby offers can be played: one without a board of its own on the generic one.
    options = dict(item.partition("=")[::2] for item in option or [])
    with seated_session(settings.lobby) as seated:
        request = lobby_pb2.CreateTicketRequest(
            game=game,
            mode=mode,
            options=options,
            min_seats=players,
            max_seats=players,
            allow_bots=bots,
            bot_level=bot_level,
            max_wait_seconds=max_wait,
            turn_timer_seconds=turn_timer,
            bot_budget_seconds=bot_budget,
        )
        lobby = seated.opened.enter_context(closing(_player(seated.address, name)))
        try:
            seating = wait_for_seat(console, lobby, request)
        except grpc.RpcError as error:
            if error.code() != grpc.StatusCode.UNAUTHENTICATED:
                raise
            # The kept player is no longer accepted (another platform, an expired token): a new guest.
            lobby = seated.opened.enter_context(closing(_player(seated.address, name, fresh=True)))
            seating = wait_for_seat(console, lobby, request)
        # From here on a failed call is the game service's, and its address is the one to name.
        seated.address = seating.game_endpoint
        _seat(seated.opened, game, seating, auto_pass)


@app.command()
def resume(
    match_id: Annotated[str, typer.Argument(help="The match to rejoin (default: choose from your matches).")] = "",
    seat: Annotated[int, typer.Option(help="Your seat's number (1, 2, …), when you hold several in the match.")] = 0,
    auto_pass: Annotated[
        bool, typer.Option(help="Take a decision by itself when only one action is possible (e.g. End turn).")
    ] = False,
) -> None:
    """List your matches in progress and rejoin one with a fresh seat token."""
    with seated_session(settings.lobby) as seated:
        saved = identity.load(seated.address)
        if saved is None:
            _fail("This terminal has played no match at this lobby yet (menagerie play GAME).")
            return
        lobby = seated.opened.enter_context(
            closing(LobbySession(seated.address, saved.display_name, settings.patience, _notify, saved))
        )
        if not match_id:
            mine = list(lobby.my_matches().matches)
            if not mine:
                console.print("You have no matches in progress.")
                return
            table = Table("#", "match", "game", "mode", "seat", "your turn", "players")
            for number, entry in enumerate(mine, 1):
                turn = ("yes" if entry.my_turn else "no") if entry.available else "?"
                people = ", ".join(s.display_name for s in entry.seats)
                table.add_row(str(number), entry.match_id, entry.game, entry.mode, seat_name(entry.seat), turn, people)
            console.print(table)
            picked = mine[0]
            if len(mine) > 1:
                answer = _ask(f"Rejoin which match (1–{len(mine)}, q to quit)? ").strip().lower()
                if not answer.isdigit() or not 1 <= int(answer) <= len(mine):
                    return
                picked = mine[int(answer) - 1]
            match_id = picked.match_id
            if seat < 1:
                seat = picked.seat + 1
        # The person counts seats from 1 (seat_name); the lobby's field is the 0-based index.
        reply = lobby.resume(match_id, seat - 1 if seat >= 1 else None)
        console.print(
            f"Back at {seat_name(reply.seating.seat)} of match {match_id} ({reply.game}, {reply.mode}).", soft_wrap=True
        )
        seated.address = reply.seating.game_endpoint
        _seat(seated.opened, reply.game, reply.seating, auto_pass, returning=True)


@app.command()
def watch(
    match_id: Annotated[str, typer.Argument(help="The match to follow.")],
    game: Annotated[str, typer.Option(help="Game id of the match (default: ask the game services).")] = "",
) -> None:
    """Follow a match of any game as a spectator until it ends (the board is drawn as it changes)."""
    address = settings.lobby
    opened = ExitStack()
    try:
        lobby = opened.enter_context(closing(LobbySession(address, "Spectator", settings.patience, _notify)))
        # From here on a failed call is the game service's, and its address is the one to name.
        if game:
            address = lobby.endpoint(game)
        else:
            game, address = lobby.game_of(match_id)
        session = opened.enter_context(
            closing(GameSession(game, address, match_id, lobby.token, settings.patience, _notify))
        )
        follow(console, session, None, stdin_lines if sys.stdin.isatty() else None)
    except grpc.RpcError as error:
        _fail(explain(error, address))
    except Unreachable as error:
        _fail(str(error))
    except KeyError as error:
        _fail(str(error.args[0]))
    except (KeyboardInterrupt, Quit):
        console.print("\nBye.")
    finally:
        opened.close()


@app.command()
def rules(game: Annotated[str, typer.Argument(help="Game id, e.g. zoo.")]) -> None:
    """How to play GAME, in short (the decisions we authored are in services/GAME/RULES.md)."""
    if game not in GAMES:
        _fail(
            f"This client has no how-to-play of {game!r}, only of {', '.join(GAMES)}; a game the lobby offers"
            f" without one is drawn on the generic board (menagerie play {game})."
        )
    console.print(GAMES[game].how_to_play().rstrip(), markup=False)


@app.command()
def games() -> None:
    """The games the lobby offers."""
    address = settings.lobby
    try:
        listing = LobbySession(address, "Guest", settings.patience).games()
    except grpc.RpcError as error:
        _fail(explain(error, address))
        return
    table = Table()
    # Names, and each bot level with its rating, on one line each; the options and the address give way.
    for heading in ("game", "mode", "seats"):
        table.add_column(heading, no_wrap=True)
    table.add_column("options")
    table.add_column("bots (--bot-level)", no_wrap=True)
    table.add_column("service")
    notes = []
    for entry in listing.games:
        for mode in entry.modes:
            options = ", ".join(f"{o.name}={'/'.join(o.allowed_values)}" for o in mode.options)
            status = entry.endpoint if entry.available else "unavailable"
            bots = "\n".join(bot_level_line(rated) for rated in mode.bot_levels)
            table.add_row(entry.game, mode.mode, f"{mode.min_seats}–{mode.max_seats}", options, bots, status)
            if mode.bot_levels_note:
                notes.append(f"{entry.game} {mode.mode}: {mode.bot_levels_note}")
    console.print(table)
    for note in notes:  # below the table, where a sentence is not wrapped into a narrow column
        console.print(note)


def bot_level_line(rated: matches_pb2.BotLevelRating) -> str:
    """A rated bot level as `menagerie games` lists it: 'mcts 0.5 s: Bot · about 21' (issue 33's ladder)."""
    budget = f" {rated.budget_seconds:g} s" if rated.budget_seconds else ""
    return f"{rated.level}{budget}: {rated.label}"


ARENA = "menagerie-arena"


def arena_command() -> str | None:
    """Where `menagerie-arena` is: beside this interpreter (a virtualenv's bin/), else on PATH."""
    beside = shutil.which(ARENA, path=os.path.dirname(sys.executable))
    return beside or shutil.which(ARENA)


# The arena plays engines and bots in process, which this client may not import (pyproject's
# import rules): like git's subcommands, `menagerie arena ...` runs another program with the
# same arguments, and its help is that program's.
@app.command(
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []},
    add_help_option=False,
)
def arena(ctx: typer.Context) -> None:
    """Bot levels against each other (menagerie-arena): win rates with 95% Wilson intervals; --help for more."""
    command = arena_command()
    if command is None:
        _fail(
            f"{ARENA} is not installed: it comes with the menagerie-arena package (shared/arena; make install"
            " installs it)."
        )
        return
    sys.stdout.flush()
    # The global --lobby reaches the arena's --through-stack as its default lobby.
    os.execve(command, [command, *ctx.args], {**os.environ, "MENAGERIE_LOBBY": settings.lobby})


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
