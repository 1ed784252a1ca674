"""`menagerie-arena` (also `menagerie arena`): bots against each other, in process or through the services.

The one arena of the platform, with two commands.

The pairing table (the default): bot levels against each other, and a table of how they fared.

    menagerie arena --game zoo --mode beginner --bots mcts,greedy,random --games 200 --seed 1
    menagerie arena --game pursuit --bots mcts,greedy --games 50 --iterations 200   # replays exactly
    menagerie arena --game beasts --mode capture --bots greedy,random --games 20 --through-stack

In process by default (no services; menagerie.arena.local says how matches are paired and
played), on every core: `--jobs N` worker processes (default one per core; menagerie.arena.pool),
the run's matches and their seeds listed up front so that it gives the same results
whatever N. Progress, the rate and the time left go to stderr. `--out FILE` writes each
match as it finishes, a line of JSON (menagerie.arena.records); the same command with the
same FILE resumes a stopped run (and a larger --games extends a finished one), playing only
the matches FILE does not hold. `--through-stack` plays the same pairings through the
running platform, one match at a time (menagerie.arena.stack). A search level (`mcts`)
thinks for `--budget` seconds per decision (default 1 s) and, with `--iterations N`, stops
after N iterations as well; `--iterations` without `--budget` bounds the search by
iterations alone, so a seed replays the same matches. `mcts@0.5` names the level at a
budget of its own (0.5 s a decision), so one run can pit budgets against each other. The
decision-time table prints each searching level's p99 beside its budget + 10% (PASS/MISS).

`report`: the tables of one or more files that `--out` wrote (per setting: each pairing's
wins with 95% Wilson intervals, by seat, by match length, decision times).

    menagerie arena --game zoo --mode beginner --bots mcts,greedy --games 400 --out zoo.jsonl
    menagerie arena report zoo.jsonl more-zoo.jsonl

`ladder`: a round-robin of levels per competitive mode, rated with the leaderboard's OpenSkill
model into the game's ladder file, which the lobby shows beside each level (menagerie.arena.ladder).

    menagerie arena ladder --game zoo --levels random,greedy,mcts@0.1,mcts@0.5 --games 100

`sweep`: greedy against random over every installed game, mode and option value (what
`make arena` runs; menagerie.arena.sweep says what it plays and prints), a line-up per
line of text; co-op modes as a random team against a greedy team with how their matches
ended; a Build Your Team mode with its balance report.

    menagerie arena sweep --game all --games 1000
    menagerie arena sweep --game beasts --mode advanced --seats 2,4,6 --option difficulty=all
    menagerie arena sweep --game snitch --mode advanced --opponent greedy --funding-sweep 0,5,10 \
        --option spectators=on

Both play each match with local.play_match (the same seeds give the same matches) and
give win rates with 95% Wilson intervals (menagerie.arena.stats).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from menagerie.arena import ladder, local, pool, records, stack, sweep
from menagerie.arena.progress import RunProgress
from menagerie.arena.report import print_report, print_tables, results_table, times_table
from menagerie.arena.teams import TeamRecord
from menagerie.rules import registry
from menagerie.rules.bots import SearchBudget, levels
from menagerie.rules.errors import InvalidArgument

DEFAULT_LEVELS = "mcts,greedy,random"
SWEEP = "sweep"  # the subcommand: `menagerie arena sweep ...`
REPORT = "report"  # the subcommand: `menagerie arena report FILE...`
LADDER = "ladder"  # the subcommand: `menagerie arena ladder --game G ...` (menagerie.arena.ladder)
INTERRUPTED = 130  # the shell's code for a command stopped by Ctrl-C (128 + SIGINT)


def parse_options(items: Sequence[str]) -> dict[str, str]:
    """['difficulty=easy', 'funding=0,5'] -> {'difficulty': 'easy', 'funding': '0,5'}."""
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
        seconds = local.UNBOUNDED_SECONDS if iterations else SearchBudget().seconds
    return SearchBudget(seconds=seconds, iterations=iterations)


def parser() -> argparse.ArgumentParser:
    """The command line."""
    p = argparse.ArgumentParser(
        prog="menagerie arena",
        description="Bot levels against each other: wins with 95% Wilson intervals, draws, match length and"
        " decision time per level.",
        epilog="`menagerie arena sweep --help`: greedy against random over every game, mode and option (make arena);"
        " `menagerie arena report FILE...`: the tables of files written with --out; `menagerie arena ladder --help`:"
        " the rating ladder of the levels.",
    )
    p.add_argument("--game", required=True, help="an installed game, e.g. zoo")
    p.add_argument("--mode", help="one of the game's modes (default: its first)")
    p.add_argument(
        "--bots",
        default=DEFAULT_LEVELS,
        metavar="L1,L2,...",
        help=f"the levels to play (default {DEFAULT_LEVELS}): each pair in a competitive mode, each level as a"
        " team in a co-op one; mcts@SECONDS: the search at a budget of its own",
    )
    p.add_argument("--games", type=int, default=100, help="matches per pairing (per team in a co-op mode)")
    p.add_argument("--seed", type=int, default=0, help="match g of a pairing has seed SEED+g")
    p.add_argument("--seats", type=int, help="seats (default 2, or 3 in a co-op mode, within the mode's range)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a mode option (repeatable)")
    p.add_argument("--budget", type=float, metavar="SECONDS", help="a search level's time per decision (default 1)")
    p.add_argument("--iterations", type=int, default=0, help="a search level's iterations per decision (0: no bound)")
    p.add_argument(
        "--jobs",
        type=int,
        default=pool.default_jobs(),
        metavar="N",
        help=f"worker processes (default {pool.default_jobs()}: one per core); the results are the same for any N",
    )
    p.add_argument(
        "--out",
        type=Path,
        metavar="FILE",
        help="append each match to FILE as a line of JSON; rerun with the same FILE to resume (or extend) the run",
    )
    p.add_argument("--through-stack", action="store_true", help="play through the running services (make run)")
    p.add_argument(
        "--lobby",
        default=os.environ.get("MENAGERIE_LOBBY", "127.0.0.1:50050"),
        help="the lobby's host:port, for --through-stack (MENAGERIE_LOBBY)",
    )
    return p


def sweep_parser() -> argparse.ArgumentParser:
    """The command line of `menagerie arena sweep`."""
    p = argparse.ArgumentParser(
        prog="menagerie arena sweep",
        description="Greedy bots against random ones; in a cooperative mode, greedy teams against random teams.",
    )
    p.add_argument("--game", choices=[*registry.game_ids(), sweep.ALL], default=sweep.ALL)
    p.add_argument("--games", type=int, default=200, help="matches per line-up (per team in a co-op mode)")
    p.add_argument("--mode", help="one of the game's modes (default: every mode)")
    p.add_argument(
        "--seats",
        metavar="S|S1,S2,...",
        help="seats, or each count listed in turn (default 2, or 3 in a cooperative mode, within the mode's range)",
    )
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="fix an option of the mode, NAME=V1,V2 for each value listed or NAME=all for each of its values"
        " (repeatable; default: each value of each option in turn, the others at their defaults)",
    )
    p.add_argument(
        "--funding-sweep",
        metavar="V1,V2,...",
        help="each Funding value in turn (the same as --option funding=V1,V2,...)",
    )
    p.add_argument(
        "--opponent",
        default="random",
        metavar="LEVEL",
        help="the bot level of the seats greedy plays against (default random; greedy: greedy against greedy)",
    )
    p.add_argument("--seed", type=int, default=0, help="the first match seed")
    return p


def sweep_lineups(
    game: str, mode: str | None, seats: str | None, options: Sequence[str], opponent: str
) -> list[sweep.Lineup]:
    """Every line-up a sweep plays, all checked before any plays; InvalidArgument naming what is wrong."""
    chosen = parse_options(options)
    counts = sweep.parse_seats(seats)
    todo: list[sweep.Lineup] = []
    for each in registry.game_ids() if game == sweep.ALL else [game]:
        if game == sweep.ALL and "greedy" not in levels(each):
            print(f"{each}: no `greedy` bot level, not played", flush=True)
            continue
        if opponent not in levels(each):
            raise InvalidArgument(f"{each} has no bot level {opponent!r}; its levels: {', '.join(levels(each))}")
        for count in counts:
            todo += sweep.lineups(each, mode, count, chosen)
    return todo


def sweep_main(argv: Sequence[str]) -> int:
    """Runs `menagerie arena sweep`: each line-up's figures, then any balance report (exit 2: a bad argument)."""
    p = sweep_parser()
    args = p.parse_args(argv)
    if args.games < 1:
        p.error("--games must be at least 1")
    if args.funding_sweep:
        args.option.append(f"funding={args.funding_sweep}")
    if args.game == sweep.ALL and (args.mode or args.seats or args.option or args.opponent != "random"):
        p.error("--game all plays each game's defaults: no --mode, --seats, --option, --funding-sweep, --opponent")
    try:
        todo = sweep_lineups(args.game, args.mode, args.seats, args.option, args.opponent)
    except InvalidArgument as exc:
        p.error(str(exc))
    teams: dict[str, list[TeamRecord]] = {}
    for lineup in todo:
        text, built = sweep.play(lineup, args.games, args.seed, args.opponent)
        teams.setdefault(lineup.game, []).extend(built)
        print(text, flush=True)
    for game, built in teams.items():
        if summary := sweep.balance(game, built):
            print(summary, flush=True)
    return 0


def report_parser() -> argparse.ArgumentParser:
    """The command line of `menagerie arena report`."""
    p = argparse.ArgumentParser(
        prog="menagerie arena report",
        description="The tables of arena runs written with --out: per setting, each pairing's wins with 95% Wilson"
        " intervals, by seat and by match length, and decision times per level.",
    )
    p.add_argument("files", nargs="+", type=Path, metavar="FILE", help="a file `menagerie arena --out` wrote")
    return p


def report_main(argv: Sequence[str], console: Console) -> int:
    """Runs `menagerie arena report`: the tables of the files' matches (exit 2: a file missing or not an arena's)."""
    args = report_parser().parse_args(argv)
    games: list[records.GameRecord] = []
    try:
        for path in args.files:
            games += records.games_of(records.read(path))
    except (OSError, InvalidArgument) as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    if not print_report(console, games):
        console.print("no matches in " + ", ".join(str(path) for path in args.files))
    return 0


def _in_process(console: Console, plan: local.Plan, args: argparse.Namespace) -> int:
    """Plays `plan` on `args.jobs` processes, writing `args.out`; its tables (130 when Ctrl-C stopped it)."""
    label = f"{plan.game} {plan.mode.mode}"
    with RunProgress(label) as shown:
        try:
            played = pool.run(plan, args.jobs, args.out, shown.start, lambda _record: shown.advance())
        except KeyboardInterrupt:
            kept = f"; {args.out} keeps every match finished, the same command resumes the run" if args.out else ""
            console.print(f"stopped: {shown.done} of {shown.total} matches played{kept}", soft_wrap=True)
            return INTERRUPTED
    setting = records.setting_of(plan)
    print_tables(console, records.arena_of(setting, played), plan.levels, setting.budget)
    return 0


def _through_stack(console: Console, plan: local.Plan, lobby: str) -> int:
    """Plays `plan` through the services at `lobby`; its tables (1 when they do not answer)."""
    total = len(plan.pairings()) * plan.games
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(f"{plan.game} {plan.mode.mode} through the services", total=total)
        try:
            arena = stack.run(plan, lobby, lambda: progress.advance(task))
        except stack.PlatformDown as exc:
            progress.stop()
            console.print(f"[red]{exc}[/red]")
            return 1
    console.print(results_table(arena))
    console.print(times_table(arena.decision_seconds, list(plan.levels), plan.budget))
    console.print(
        "Through the services, the times are those of the seat the arena plays (its own policy, in this"
        " process); the bot pool's seats are timed by its metrics."
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the arena (`sweep` first: the sweep; `report`: the tables of files); 2 for a bad argument,
    1 when --through-stack finds no platform, 130 when Ctrl-C stopped a run."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == [SWEEP]:
        return sweep_main(arguments[1:])
    # Piped (a log, a closing note): wide enough that no row wraps.
    console = Console(highlight=False, width=None if sys.stdout.isatty() else 140)
    if arguments[:1] == [REPORT]:
        return report_main(arguments[1:], console)
    if arguments[:1] == [LADDER]:
        return ladder.ladder_main(arguments[1:], console)
    args = parser().parse_args(arguments)
    try:
        if args.jobs < 1:
            raise InvalidArgument("--jobs must be at least 1")
        if args.through_stack and args.out is not None:
            raise InvalidArgument("--out is for runs in process: --through-stack plays one match at a time, unsaved")
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
        if args.through_stack:
            return _through_stack(console, plan, args.lobby)
        return _in_process(console, plan, args)
    except InvalidArgument as exc:
        console.print(f"[red]{exc}[/red]")
        return 2


if __name__ == "__main__":
    sys.exit(main())
