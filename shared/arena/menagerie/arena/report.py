"""The arena's table: wins with 95% Wilson intervals, draws, match length, decision times."""

from __future__ import annotations

from rich.table import Table

from menagerie.arena.local import ArenaRun
from menagerie.arena.stats import percentile, wilson


def _rate(wins: int, games: int) -> str:
    return f"{wins / games:.1%}" if games else "–"


def _interval(wins: int, games: int) -> str:
    low, high = wilson(wins, games)
    return f"{low:.1%}–{high:.1%}"


def results_table(arena: ArenaRun) -> Table:
    """One row per pairing (a competitive mode) or per team (a cooperative one)."""
    options = " ".join(f"{name}={value}" for name, value in arena.options.items())
    title = f"{arena.game} {arena.mode} {options}".strip() + f", {arena.seats} seats"
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


def times_table(seconds: dict[str, list[float]], levels: tuple[str, ...] | list[str]) -> Table:
    """Decision time per level: how many decisions, their mean and p99 in milliseconds."""
    table = Table("level", "decisions", "mean (ms)", "p99 (ms)", title="decision time per level")
    for level in levels:
        made = seconds.get(level, [])
        mean = 1000 * sum(made) / len(made) if made else 0.0
        table.add_row(level, str(len(made)), f"{mean:.3f}", f"{1000 * percentile(made, 0.99):.3f}")
    return table
