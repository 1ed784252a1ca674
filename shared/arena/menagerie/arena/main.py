"""`menagerie-arena` (also `menagerie arena`): bot levels against each other, and a table of how they fared.

    menagerie arena --game zoo --mode beginner --bots mcts,greedy,random --games 200 --seed 1
    menagerie arena --game pursuit --bots mcts,greedy --games 50 --iterations 200   # replays exactly
    menagerie arena --game beasts --mode capture --bots greedy,random --games 20 --through-stack

In process by default (no services; menagerie.arena.local says how matches are paired and
played); `--through-stack` plays the same pairings through the running platform
(menagerie.arena.stack). A search level (`mcts`) thinks for `--budget` seconds per
decision (default 1 s) and, with `--iterations N`, stops after N iterations as well;
`--iterations` without `--budget` bounds the search by iterations alone, so a seed replays
the same matches.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from menagerie.arena import local, stack
from menagerie.arena.report import results_table, times_table
from menagerie.rules.bots import SearchBudget
from menagerie.rules.errors import InvalidArgument

DEFAULT_LEVELS = "mcts,greedy,random"
# --iterations without --budget: a wall clock this long never stops a search first.
UNBOUNDED_SECONDS = 24 * 3600.0


def parse_options(items: Sequence[str]) -> dict[str, str]:
    """['difficulty=easy'] -> {'difficulty': 'easy'}."""
    options = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise InvalidArgument(f"--option {item!r} is not NAME=VALUE")
        options[name.strip()] = value.strip()
    return options


def budget_of(seconds: float | None, iterations: int) -> SearchBudget:
    """The search budget the flags ask for (see the module's docstring)."""
    if seconds is not None and seconds <= 0:
        raise InvalidArgument("--budget must be more than 0 seconds")
    if iterations < 0:
        raise InvalidArgument("--iterations must be 0 (no bound) or more")
    if seconds is None:
        seconds = UNBOUNDED_SECONDS if iterations else SearchBudget().seconds
    return SearchBudget(seconds=seconds, iterations=iterations)


def parser() -> argparse.ArgumentParser:
    """The command line."""
    p = argparse.ArgumentParser(
        prog="menagerie arena",
        description="Bot levels against each other: wins with 95% Wilson intervals, draws, match length and"
        " decision time per level.",
    )
    p.add_argument("--game", required=True, help="an installed game, e.g. zoo")
    p.add_argument("--mode", help="one of the game's modes (default: its first)")
    p.add_argument(
        "--bots",
        default=DEFAULT_LEVELS,
        metavar="L1,L2,...",
        help=f"the levels to play (default {DEFAULT_LEVELS}): each pair in a competitive mode, each level as a"
        " team in a co-op one",
    )
    p.add_argument("--games", type=int, default=100, help="matches per pairing (per team in a co-op mode)")
    p.add_argument("--seed", type=int, default=0, help="match g of a pairing has seed SEED+g")
    p.add_argument("--seats", type=int, help="seats (default 2, or 3 in a co-op mode, within the mode's range)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a mode option (repeatable)")
    p.add_argument("--budget", type=float, metavar="SECONDS", help="a search level's time per decision (default 1)")
    p.add_argument("--iterations", type=int, default=0, help="a search level's iterations per decision (0: no bound)")
    p.add_argument("--through-stack", action="store_true", help="play through the running services (make run)")
    p.add_argument(
        "--lobby",
        default=os.environ.get("MENAGERIE_LOBBY", "127.0.0.1:50050"),
        help="the lobby's host:port, for --through-stack (MENAGERIE_LOBBY)",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the arena; 2 for a bad argument, 1 when --through-stack finds no platform."""
    args = parser().parse_args(argv)
    # Piped (a log, a closing note): wide enough that no row wraps.
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 140)
    try:
        budget = budget_of(args.budget, args.iterations)
        plan = local.make_plan(
            args.game,
            args.mode,
            args.bots.split(","),
            args.games,
            args.seed,
            args.seats,
            parse_options(args.option),
            budget,
        )
    except InvalidArgument as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    total = len(plan.pairings()) * plan.games
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    where = "through the services" if args.through_stack else "in process"
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task(f"{plan.game} {plan.mode.mode} {where}", total=total)

        def advance() -> None:
            progress.advance(task)

        if args.through_stack:
            try:
                arena = stack.run(plan, args.lobby, advance)
            except stack.PlatformDown as exc:
                progress.stop()
                console.print(f"[red]{exc}[/red]")
                return 1
        else:
            arena = local.run(plan, advance)
    console.print(results_table(arena))
    console.print(times_table(arena.decision_seconds, list(plan.levels)))
    if args.through_stack:
        console.print(
            "Through the services, the times are those of the seat the arena plays (its own policy, in this"
            " process); the bot pool's seats are timed by its metrics."
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
