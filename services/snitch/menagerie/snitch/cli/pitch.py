"""The pitch: the view's Zones drawn as a grid at their row and column, each with its Players (Team,
Position code, Trait and Locked marks, the Quaffle, Stunned and Dice tokens), the Bludgers and a Loose
Quaffle.
"""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from menagerie.snitch.cli import lookups, words
from menagerie.snitch.cli.words import TEAM_STYLE, View
from menagerie.snitch.v1 import snitch_pb2

QUAFFLE = "◉"  # the holder's mark, and a Loose Quaffle
BLUDGER = "●"


class PitchGrid:
    """The pitch: a grid of the view's Zones by row and column, each with its Players, Bludgers and Quaffle."""

    def __init__(self, view: View, names: dict[int, str]) -> None:
        self.view = view
        self.names = names

    def __rich_console__(self, console: Any, options: Any) -> Any:
        yield self.table(options.max_width)

    def table(self, width: int) -> Table:
        """The grid, each Zone's name in full where its column is wide enough, else shortened."""
        view = self.view
        zones = list(view.zones)
        rows = max((z.row for z in zones), default=0) + 1
        columns = max((z.column for z in zones), default=0) + 1
        room = (width - columns - 1) // columns
        table = Table(box=box.ROUNDED, show_header=False, padding=(0, 0), expand=True, show_lines=True)
        for _ in range(columns):
            table.add_column(ratio=1, overflow="fold")
        grid: list[list[RenderableType]] = [["" for _ in range(columns)] for _ in range(rows)]
        for zone in zones:
            grid[zone.row][zone.column] = self.cell(zone, words.fitted(zone.name, room))
        for row in grid:
            table.add_row(*row)
        return table

    def cell(self, zone: snitch_pb2.ZoneView, name: str) -> Text:
        view = self.view
        marks = words.marks(view)
        text = Text(name, style="bold" if zone.orange else "")
        if zone.HasField("scoring_area_of"):
            text.stylize(TEAM_STYLE[zone.scoring_area_of % 2])
        for team in (0, 1):
            here = [p for p in view.players if p.team == team and p.zone == zone.id]
            if not here:
                continue
            text.append(f"\n{marks[team]}", style=TEAM_STYLE[team])
            for player in sorted(here, key=lambda p: p.index):
                text.append(" ")
                style = "bold underline" if player.has_quaffle else ""
                text.append(player.code, style=style)
                text.append(lookups.trait_mark(view, team, player.index), style="yellow")
                if player.has_quaffle:
                    text.append(QUAFFLE, style="bold yellow")
                if player.stunned:
                    text.append("×" * player.stunned, style="red")
                if player.bonus or player.penalty:
                    text.append("+" * len(player.bonus) + "-" * len(player.penalty), style="cyan")
        extras = Text()
        for bludger in zone.bludgers:
            extras.append(f"{BLUDGER}{bludger + 1} ", style="bold")
        if zone.quaffle and view.quaffle_loose:
            extras.append(f"{QUAFFLE} loose", style="bold yellow")
        if extras:
            text.append("\n")
            text.append_text(extras)
        return text
