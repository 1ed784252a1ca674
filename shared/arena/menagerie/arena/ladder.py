"""`menagerie arena ladder`: a round-robin of bot levels, rated as the leaderboard rates players (issue 33).

    menagerie arena ladder --game zoo --levels random,greedy,mcts@0.1,mcts@0.5 --games 100

For each competitive mode of the game (or the one --mode names), every pair of the levels
plays --games matches (menagerie.arena.local's pairings, on every core through
menagerie.arena.pool, each mode's matches in a JSON Lines file of --runs that a rerun resumes
or extends). The matches are then rated in their order with the leaderboard's model: OpenSkill
Plackett–Luce at its defaults, one identity per level, each seat a team of one ranked by the
engine's outcome, an identity with several seats moving by their average (as
menagerie.lobby.ratings does), and the rating shown its ordinal, mu - 3 sigma. Each mode's
ladder, with the command line that reproduces it, the date and the counts, goes into the
game's ladder file (menagerie.shared.ladder; by default the one in the game's package,
which the lobby reads), the file's other modes kept. Cooperative modes keep no ratings (as
on the leaderboard) and are left out.
"""

from __future__ import annotations

import argparse
import datetime
import shlex
from collections.abc import Sequence
from pathlib import Path

import msgspec
from openskill.models import PlackettLuce
from rich.console import Console
from rich.table import Table

from menagerie.arena import local, pool, records
from menagerie.arena.progress import RunProgress
from menagerie.arena.stats import wilson
from menagerie.rules import registry
from menagerie.rules.bots import SearchBudget
from menagerie.rules.errors import InvalidArgument
from menagerie.shared.ladder import LADDER_FILE, Ladder, ModeLadder, RatedLevel, about, luck_note

DEFAULT_LEVELS = "random,greedy,mcts@0.1,mcts@0.5"
MODEL = "OpenSkill Plackett–Luce at its defaults; rating = ordinal (mu - 3 sigma), as the leaderboard's"


def parser() -> argparse.ArgumentParser:
    """The command line of `menagerie arena ladder`."""
    p = argparse.ArgumentParser(
        prog="menagerie arena ladder",
        description="A round-robin of bot levels per competitive mode, rated with the leaderboard's OpenSkill model;"
        " writes the game's ladder file, which the lobby shows beside each level.",
    )
    p.add_argument("--game", required=True, help="an installed game, e.g. zoo")
    p.add_argument("--mode", help="one competitive mode (default: each of the game's competitive modes)")
    p.add_argument("--levels", default=DEFAULT_LEVELS, metavar="L1,L2,...", help=f"default {DEFAULT_LEVELS}")
    p.add_argument("--games", type=int, default=100, help="matches per pair of levels")
    p.add_argument("--seed", type=int, default=0, help="match g of a pairing has seed SEED+g")
    p.add_argument("--jobs", type=int, default=pool.default_jobs(), metavar="N", help="worker processes")
    p.add_argument(
        "--runs",
        type=Path,
        default=Path("ladder-runs"),
        metavar="DIR",
        help="each mode's matches as JSON Lines, DIR/GAME-MODE.jsonl (a rerun resumes it; default ladder-runs)",
    )
    p.add_argument("--ladder", type=Path, metavar="FILE", help=f"the ladder file (default: the game's {LADDER_FILE})")
    return p


def rate(setting: records.Setting, games: Sequence[records.GameRecord], budget: SearchBudget) -> list[RatedLevel]:
    """Each level's rating from `games` (rated in index order), strongest first."""
    model = PlackettLuce()
    current: dict[str, tuple[float, float]] = {}
    played: dict[str, int] = {}
    won: dict[str, int] = {}
    default = model.rating()
    for record in sorted(games, key=lambda r: r.index):
        seats = sorted(record.outcome.seats, key=lambda s: s.seat)
        names = [record.levels[s.seat] for s in seats]
        teams = [[model.rating(*current.get(name, (default.mu, default.sigma)))] for name in names]
        updated = model.rate(teams, ranks=[s.rank for s in seats])
        for name in dict.fromkeys(names):
            indexes = [i for i, other in enumerate(names) if other == name]
            mu = sum(updated[i][0].mu for i in indexes) / len(indexes)
            sigma = sum(updated[i][0].sigma for i in indexes) / len(indexes)
            current[name] = (mu, sigma)
            played[name] = played.get(name, 0) + 1
            won[name] = won.get(name, 0) + any(seats[i].result == "win" for i in indexes)
    rated = []
    for name, (mu, sigma) in current.items():
        level, own = local.split_level(name, budget)
        seconds = own.seconds if own is not None else 0.0
        rated.append(RatedLevel(level, seconds, mu, sigma, mu - 3 * sigma, played[name], won[name]))
    return sorted(rated, key=lambda level: -level.rating)


def write_ladder(path: Path, game: str, mode: str, ladder: ModeLadder) -> None:
    """`path` with `mode`'s ladder (its other modes kept), as readable JSON."""
    kept = msgspec.json.decode(path.read_bytes(), type=Ladder) if path.exists() else Ladder(game, MODEL)
    modes = {**kept.modes, mode: ladder}
    text = msgspec.json.format(msgspec.json.encode(Ladder(game, MODEL, dict(sorted(modes.items())))), indent=2)
    path.write_bytes(text + b"\n")


def ladder_table(game: str, mode: str, ladder: ModeLadder) -> Table:
    """A mode's ladder as the command prints it."""
    table = Table(
        "level",
        "budget",
        "rating",
        "mu",
        "sigma",
        "matches",
        "won",
        "95% Wilson",
        "shown",
        title=f"{game} {mode}, {ladder.seats} seats: {ladder.matches} matches, {ladder.games_per_pairing} per pair",
        caption=luck_note(ladder) or None,  # what the lobby will say beside the levels
    )
    for level in ladder.levels:
        low, high = wilson(level.wins, level.matches)
        table.add_row(
            level.level,
            f"{level.budget_seconds:g} s" if level.budget_seconds else "–",
            f"{level.rating:.1f}",
            f"{level.mu:.2f}",
            f"{level.sigma:.2f}",
            str(level.matches),
            str(level.wins),
            f"{low:.1%}–{high:.1%}",
            about(level.rating),
        )
    return table


def command_line(args: argparse.Namespace, mode: str) -> str:
    """The command that reproduces one mode's ladder."""
    words = ["menagerie", "arena", "ladder", "--game", args.game, "--mode", mode, "--levels", args.levels]
    words += ["--games", str(args.games), "--seed", str(args.seed)]
    return shlex.join(words)


def modes_of(game: str, mode: str | None) -> list[str]:
    """The competitive modes to rate: `mode`, or every competitive mode of `game`."""
    if game not in registry.game_ids():
        raise InvalidArgument(f"no game {game!r}; installed games: {', '.join(registry.game_ids())}")
    info = registry.engine(game).info
    if mode:
        if info.mode(mode).cooperative:
            raise InvalidArgument(f"{game} {mode} is cooperative: its levels play no one (and keep no rating)")
        return [mode]
    return [m.mode for m in info.modes if not m.cooperative]


def ladder_main(argv: Sequence[str], console: Console) -> int:
    """Runs `menagerie arena ladder`: each mode's round-robin, its ratings, the ladder file (2: a bad argument)."""
    args = parser().parse_args(argv)
    try:
        modes = modes_of(args.game, args.mode)
        path = args.ladder or registry.package_file(args.game, LADDER_FILE)
        if path is None:
            raise InvalidArgument(f"{args.game} has no package folder for its {LADDER_FILE}: name one with --ladder")
        args.runs.mkdir(parents=True, exist_ok=True)
        for mode in modes:
            plan = local.make_plan(args.game, mode, args.levels.split(","), args.games, args.seed)
            out = args.runs / f"{args.game}-{mode}.jsonl"
            with RunProgress(f"{args.game} {mode}") as shown:
                played = pool.run(plan, args.jobs, out, shown.start, lambda _record: shown.advance())
            setting = records.setting_of(plan)
            ladder = ModeLadder(
                command=command_line(args, mode),
                date=datetime.date.today().isoformat(),
                seats=plan.seats,
                matches=len(played),
                games_per_pairing=args.games,
                levels=rate(setting, played, plan.budget),
            )
            write_ladder(path, args.game, mode, ladder)
            console.print(ladder_table(args.game, mode, ladder))
        console.print(f"written: {path}")
    except InvalidArgument as exc:
        console.print(f"[red]{exc}[/red]")
        return 2
    return 0
