"""The arena's tables: wins with 95% Wilson intervals, by seat and by match length, draws, decision times
(a searching level's p99 beside its budget + 10%, PASS or MISS: issue 33's "time budgets held").

`menagerie arena` prints them for the run it played, `menagerie arena report FILE...` for the
matches of arena files (menagerie.arena.records), a set of tables per setting found.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence

from rich.console import Console
from rich.table import Table

from menagerie.arena.local import UNBOUNDED_SECONDS, ArenaRun, MatchResult, Pairing, split_level
from menagerie.arena.records import GameRecord, arena_of, by_setting
from menagerie.arena.stats import percentile, wilson
from menagerie.rules.bots import SearchBudget

LENGTH_QUARTILES = (0.25, 0.5, 0.75)  # a match-length bucket's upper ends: the quartiles of the matches' lengths


def _rate(wins: int, games: int) -> str:
    return f"{wins / games:.1%}" if games else "–"


def _interval(wins: int, games: int) -> str:
    low, high = wilson(wins, games)
    return f"{low:.1%}–{high:.1%}"


def results_table(arena: ArenaRun) -> Table:
    """One row per pairing (a competitive mode) or per team (a cooperative one)."""
    title = _title(arena)
    if arena.cooperative:
        table = Table("team", "won", "rate", "95% Wilson", "lost", "actions", title=title)
        for pairing in arena.pairings:
            wins, games = pairing.first_wins, pairing.games
            table.add_row(
                f"all {pairing.first}",
                f"{wins}/{games}",
                _rate(wins, games),
                _interval(wins, games),
                str(pairing.losses),
                f"{pairing.mean_actions:.1f}",
            )
        return table
    table = Table(
        "first vs second",
        "first won",
        "rate",
        "95% Wilson",
        "second won",
        "shared",
        "draws",
        "actions",
        title=f"{title}; the first level in one seat (rotating), the second in the others",
        caption="won: matches its side won alone; shared: won by both sides; actions: mean match length",
    )
    for pairing in arena.pairings:
        wins, games = pairing.first_wins, pairing.games
        table.add_row(
            f"{pairing.first} vs {pairing.second}",
            f"{wins}/{games}",
            _rate(wins, games),
            _interval(wins, games),
            str(pairing.second_wins),
            str(pairing.shared),
            str(pairing.draws),
            f"{pairing.mean_actions:.1f}",
        )
    return table


def _title(arena: ArenaRun) -> str:
    options = " ".join(f"{name}={value}" for name, value in arena.options.items())
    return f"{arena.game} {arena.mode} {options}".strip() + f", {arena.seats} seats"


def _pairing_name(pairing: Pairing) -> str:
    return f"all {pairing.first}" if pairing.second is None else f"{pairing.first} vs {pairing.second}"


def seats_table(arena: ArenaRun) -> Table:
    """A competitive mode: each pairing's `first` level seat by seat (the first-player advantage, if any)."""
    table = Table(
        "first vs second",
        "first's seat",
        "first won",
        "rate",
        "95% Wilson",
        "second won",
        title=f"{_title(arena)}: by the seat of the first level",
    )
    for pairing in arena.pairings:
        for seat in range(arena.seats):
            sat = Pairing(
                pairing.first, pairing.second, [r for r in pairing.results if r.levels[seat] == pairing.first]
            )
            wins, games = sat.first_wins, sat.games
            name = _pairing_name(pairing)
            table.add_row(
                name,
                f"Seat {seat + 1}",
                f"{wins}/{games}",
                _rate(wins, games),
                _interval(wins, games),
                str(sat.second_wins),
            )
    return table


def length_buckets(actions: Sequence[int]) -> list[int]:
    """The upper ends of the match-length buckets: the quartiles of `actions`, each once (the last bucket open)."""
    return sorted({int(percentile([float(a) for a in actions], q)) for q in LENGTH_QUARTILES})


def _bucket_name(ends: Sequence[int], bucket: int) -> str:
    if bucket == 0:
        return f"≤ {ends[0]} actions"
    if bucket == len(ends):
        return f"> {ends[-1]} actions"
    low, high = ends[bucket - 1] + 1, ends[bucket]
    return f"{high} actions" if low == high else f"{low}–{high} actions"


def lengths_table(arena: ArenaRun) -> Table:
    """Each pairing's (or team's) wins by match length, in buckets split at the quartiles of every match's length."""
    ends = length_buckets([r.actions for p in arena.pairings for r in p.results])
    table = Table(
        "first vs second" if not arena.cooperative else "team",
        "match length",
        "games",
        "first won" if not arena.cooperative else "won",
        "rate",
        "95% Wilson",
        title=f"{_title(arena)}: by match length",
    )
    for pairing in arena.pairings:
        buckets: dict[int, list[MatchResult]] = {}
        for result in pairing.results:
            buckets.setdefault(bisect.bisect_left(ends, result.actions), []).append(result)
        for bucket in sorted(buckets):
            part = Pairing(pairing.first, pairing.second, buckets[bucket])
            wins, games = part.first_wins, part.games
            name = _pairing_name(pairing)
            table.add_row(
                name,
                _bucket_name(ends, bucket),
                str(games),
                f"{wins}/{games}",
                _rate(wins, games),
                _interval(wins, games),
            )
    return table


# A searching level's decisions hold their budget when their p99 is within it plus this share (issue 33).
BUDGET_SLACK = 0.10


def time_target(spec: str, budget: SearchBudget | None) -> float | None:
    """The p99 (in seconds) a level's decisions must stay within: its budget + 10%; None when it has no time budget."""
    if budget is None:
        return None
    own = split_level(spec, budget)[1]
    if own is None or own.seconds >= UNBOUNDED_SECONDS:  # a level that does not search, or one bound by iterations
        return None
    return own.seconds * (1 + BUDGET_SLACK)


def times_table(
    seconds: dict[str, list[float]], levels: tuple[str, ...] | list[str], budget: SearchBudget | None = None
) -> Table:
    """Decision time per level: count, mean, p50, p99, longest (ms); a searching level's p99 beside its budget + 10%."""
    table = Table(
        "level",
        "decisions",
        "mean (ms)",
        "p50 (ms)",
        "p99 (ms)",
        "max (ms)",
        "budget + 10% (ms)",
        "p99 held",
        title="decision time per level",
    )
    for level in levels:
        made = seconds.get(level, [])
        mean = 1000 * sum(made) / len(made) if made else 0.0
        p99 = percentile(made, 0.99)
        target = time_target(level, budget)
        held = "–" if target is None or not made else ("PASS" if p99 <= target else "MISS")
        table.add_row(
            level,
            str(len(made)),
            f"{mean:.3f}",
            f"{1000 * percentile(made, 0.5):.3f}",
            f"{1000 * p99:.3f}",
            f"{1000 * max(made, default=0.0):.3f}",
            "–" if target is None else f"{1000 * target:.0f}",
            held,
        )
    return table


def print_tables(console: Console, arena: ArenaRun, levels: Sequence[str], budget: SearchBudget | None = None) -> None:
    """Every table of one setting's matches: the results, by seat (a competitive mode), by length, decision times."""
    console.print(results_table(arena))
    if not arena.cooperative:
        console.print(seats_table(arena))
    console.print(lengths_table(arena))
    console.print(times_table(arena.decision_seconds, list(levels), budget))


def print_report(console: Console, games: Iterable[GameRecord]) -> int:
    """The tables of every setting among `games` (each match once); how many settings were found."""
    groups, repeats = by_setting(games)
    for group in groups.values():
        setting = group[0].setting
        console.print(f"[bold]{setting.label()}[/bold]: {len(group)} matches")
        levels = list(dict.fromkeys(level for record in group for level in record.levels))
        print_tables(console, arena_of(setting, group), levels, setting.budget)
    if repeats:
        console.print(f"{repeats} matches found more than once were counted once")
    return len(groups)
