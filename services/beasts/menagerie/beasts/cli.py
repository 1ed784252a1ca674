"""The Beasts board game in the terminal: the board, tokens, players and creatures as the view shows them.

Every sentence (events, the prompt, action labels) comes from the engine through the
service; this module only draws. It never imports the engine.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

import grpc
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from menagerie.beasts.v1 import beasts_pb2, beasts_pb2_grpc
from menagerie.cli.menu import Entry, default_menu
from menagerie.rules.text import seat_name

COLOURS = ("red", "blue", "yellow", "green", "wild")
LEGEND = "Spaces: ◎ blue circle · ? face down · ✦ creature · R/B/Y/G/W resource · @seat"
# How each colour is drawn (presentation only; the words come from the engine).
COLOUR_STYLE: dict[int, str] = {
    beasts_pb2.COLOUR_RED: "red",
    beasts_pb2.COLOUR_BLUE: "blue",
    beasts_pb2.COLOUR_YELLOW: "yellow",
    beasts_pb2.COLOUR_GREEN: "green",
    beasts_pb2.COLOUR_WILD: "magenta",
}


def _space_name(view: Any, space: int) -> str:
    for entry in view.board.spaces:
        if entry.id == space:
            return f"{space} {entry.name}"
    return str(space)


def _creature_name(view: Any, creature: str) -> str:
    for card in view.creatures:
        if card.id == creature:
            return str(card.name)
    return creature


def _counts(counts: Any) -> Text:
    text = Text()
    for colour, name in zip(COLOURS, ("R", "B", "Y", "G", "W"), strict=True):
        value = getattr(counts, colour)
        if value:
            style = COLOUR_STYLE[getattr(beasts_pb2, f"COLOUR_{colour.upper()}")]
            text.append(f"{value}{name} ", style=style)
    return text if text.plain else Text("–")


def _cost(counts: Any) -> str:
    return " ".join(f"{getattr(counts, c)}{c[0].upper()}" for c in COLOURS if getattr(counts, c)) or "–"


class _SpaceGrid:
    """Spaces in columns, each `id name marks`: the names take what the console's width leaves."""

    COLUMNS = 3
    GAP = 2

    def __init__(self, title: str, cells: list[tuple[int, str, Text]]) -> None:
        self.title = title
        self.cells = cells

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        rows = (len(self.cells) + self.COLUMNS - 1) // self.COLUMNS
        columns = [self.cells[c * rows : (c + 1) * rows] for c in range(self.COLUMNS)]
        marks = [max((len(m.plain) for _, _, m in column), default=0) for column in columns]
        ids = len(str(max((i for i, _, _ in self.cells), default=0)))
        spare = options.max_width - self.GAP * (self.COLUMNS - 1) - sum(ids + 2 + m for m in marks)
        name_width = max(6, min(spare // self.COLUMNS, max(len(n) for _, n, _ in self.cells)))
        yield Text(self.title, style="italic", justify="center")
        for row in range(rows):
            line = Text(no_wrap=True, overflow="ellipsis")
            for c, column in enumerate(columns):
                if row >= len(column):
                    continue
                space, name, mark = column[row]
                short = name if len(name) <= name_width else name[: name_width - 1] + "…"
                line.append(f"{space:>{ids}} {short:<{name_width}} ")
                line.append_text(mark)
                if c < self.COLUMNS - 1:
                    line.append(" " * (marks[c] - len(mark.plain) + self.GAP))
            yield line


def streets(spaces: Iterable[Any]) -> list[list[int]]:
    """The board's streets as few long walks, each street once: a map drawn from the view's neighbours alone.

    Each walk starts at a space with an odd number of streets left (where a walk must
    end), so the walks are long and few; every street of the board is in exactly one.
    """
    neighbours: dict[int, set[int]] = {}
    for space in spaces:
        for other in space.neighbours:
            if other != space.id:
                neighbours.setdefault(space.id, set()).add(other)
                neighbours.setdefault(other, set()).add(space.id)
    unused = {frozenset((a, b)) for a, near in neighbours.items() for b in near}
    walks: list[list[int]] = []
    while unused:
        degree = Counter(space for street in unused for space in street)
        odd = sorted(space for space, count in degree.items() if count % 2)
        walk = [odd[0] if odd else min(degree)]
        while True:
            here = walk[-1]
            ahead = sorted(n for n in neighbours[here] if frozenset((here, n)) in unused)
            if not ahead:
                break
            # Straight on along a chain (a space with one street left) before branching off.
            step = min(ahead, key=lambda n: (degree[n] != 2, n))
            unused.discard(frozenset((here, step)))
            degree[here] -= 1
            degree[step] -= 1
            walk.append(step)
        walks.append(walk)
    return walks


def token_mark(view: Any, token: Any | None) -> Text:
    """One or two characters for a space's token: ? face down, ✦ creature, R/B/Y/G/W resource, · empty."""
    if token is None:
        return Text("")
    if token.state == beasts_pb2.TOKEN_STATE_HIDDEN:
        return Text("?", style="bold")
    if token.state == beasts_pb2.TOKEN_STATE_CREATURE:
        return Text("✦", style="bold magenta")
    if token.state == beasts_pb2.TOKEN_STATE_RESOURCE:
        letter = beasts_pb2.Colour.Name(token.colour).removeprefix("COLOUR_")[:1]
        return Text(letter, style=COLOUR_STYLE[token.colour])
    return Text("·", style="dim")


class BoardMap:
    """The Beasts map: the streets as chains of space numbers, then every space with its token and standees.

    Fits the console's width (80 columns and more): chains wrap, names are shortened.
    """

    GAP = 2

    def __init__(self, view: Any, marks: dict[int, Text] | None = None, legend: str = "") -> None:
        self.view = view
        self.marks = marks
        self.legend = legend

    def standing(self) -> dict[int, list[int]]:
        """Space -> the seats standing there."""
        at: dict[int, list[int]] = {}
        for player in self.view.players:
            at.setdefault(player.position, []).append(player.seat)
        return at

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        blue = {space.id for space in self.view.board.spaces if space.blue_circle}
        at = self.standing()
        yield Text("Board: the streets between spaces (◎ blue circle: Apparate to any other ◎)", style="italic")
        for walk in streets(self.view.board.spaces):
            line = Text("  ", no_wrap=True)
            for index, space in enumerate(walk):
                piece = Text("─" if index else "", style="dim")
                piece.append(str(space), style="bold cyan" if space in at else ("blue" if space in blue else ""))
                if space in blue:
                    piece.append("◎", style="blue")
                if line.cell_len + piece.cell_len > width:
                    yield line
                    line = Text("   ", no_wrap=True)
                line.append_text(piece)
            yield line
        yield from _SpaceGrid(self.legend or "Spaces", self._cells()).__rich_console__(console, options)

    def _cells(self) -> list[tuple[int, str, Text]]:
        if self.marks is not None:
            return [(space.id, space.name, self.marks.get(space.id, Text())) for space in self.view.board.spaces]
        tokens = {t.space: t for t in self.view.tokens}
        at = self.standing()
        cells = []
        for space in self.view.board.spaces:
            mark = Text("◎" if space.blue_circle else "", style="blue")
            mark.append_text(token_mark(self.view, tokens.get(space.id)))
            if space.id in at:
                mark.append("".join(f"@{seat + 1}" for seat in at[space.id]), style="bold cyan")
            cells.append((space.id, space.name, mark))
        return cells


class BeastsUI:
    """Drawing menagerie.beasts.v1 views."""

    pb2: ModuleType = beasts_pb2

    def stub(self, channel: grpc.Channel) -> beasts_pb2_grpc.BeastsStub:
        return beasts_pb2_grpc.BeastsStub(channel)

    def how_to_play(self) -> str:
        """The short how-to-play kept beside this module (howto.toml, shipped as package data)."""
        return str(tomllib.loads(Path(__file__).with_name("howto.toml").read_text(encoding="utf-8"))["text"])

    def menu(self, view: Any, legal: Any, room: int) -> list[Entry]:
        """The legal actions as the engine lists them (grouped by kind when they are many)."""
        return default_menu(legal, room)

    def status(self, view: Any, names: dict[int, str]) -> RenderableType:
        """Turn and roll; where the viewer stands, what lies there and where its streets lead."""
        line = Text(f"Turn {view.turn}/{view.turn_cap} · {names.get(view.current_seat, view.current_seat)} to play")
        if view.mode == beasts_pb2.MODE_ADVANCED:
            if view.actions_left:
                line.append(f" ({view.actions_left} action{'s' if view.actions_left != 1 else ''} left)")
            line.append(f" · Salem {view.track}/{view.loss_at} · team {view.team_captured}/{view.creatures_to_win}")
        else:
            if view.roll:
                extra = f" (+{view.steps - view.roll})" if view.steps > view.roll else ""
                line.append(f" · rolled {view.roll}{extra}")
            line.append(f" · {view.creatures_to_win} creatures win")
        lines = [line]
        viewer = view.viewer if view.HasField("viewer") else None
        me = next((p for p in view.players if p.seat == viewer), None)
        if me is None:
            where = " · ".join(f"{seat_name(p.seat, names.get(p.seat, ''))} @{p.position}" for p in view.players)
            lines.append(Text(f"Standing: {where}"))
            return Group(*lines)
        tokens = {t.space: t for t in view.tokens}
        here = Text(f"You are at {_space_name(view, me.position)}")
        if me.position in tokens:
            here.append(" (")
            here.append_text(self._token(view, tokens[me.position]))
            here.append(")")
        here.append(" · you hold ")
        here.append_text(_counts(me.resources))
        captured = ", ".join(_creature_name(view, c) for c in me.captured)
        if captured:
            here.append(f" · captured {captured}")
        lines.append(here)
        space = next((s for s in view.board.spaces if s.id == me.position), None)
        if space is not None:
            near = ", ".join(_space_name(view, n) for n in sorted(space.neighbours))
            lines.append(Text(f"Streets lead to {near}" + (" · ◎ Apparate" if space.blue_circle else ""), style="dim"))
        return Group(*lines)

    def _token(self, view: Any, token: Any) -> Text:
        if token.state == beasts_pb2.TOKEN_STATE_HIDDEN:
            return Text("?", style="bold")
        if token.state == beasts_pb2.TOKEN_STATE_CREATURE:
            return Text(_creature_name(view, token.creature), style="bold magenta")
        if token.state == beasts_pb2.TOKEN_STATE_RESOURCE:
            return Text(
                beasts_pb2.Colour.Name(token.colour).removeprefix("COLOUR_").lower(), style=COLOUR_STYLE[token.colour]
            )
        return Text("·", style="dim")

    def draw(self, view: Any, names: dict[int, str]) -> RenderableType:
        if view.mode == beasts_pb2.MODE_ADVANCED:
            return self.draw_advanced(view, names)
        board = BoardMap(view, legend=LEGEND)

        spell_names = {spell.id: spell.name for spell in view.spell_book}
        players = Table(title="Players")
        for header in ("seat", "name", "at", "resources", "creatures", "spells"):
            players.add_column(header)
        for player in view.players:
            marker = "▶ " if player.seat == view.current_seat else ""
            you = " (you)" if view.HasField("viewer") and view.viewer == player.seat else ""
            spells = ", ".join(spell_names.get(s, "?") for s in player.spells) or str(player.spell_count)
            players.add_row(
                f"{marker}@{player.seat + 1}",
                seat_name(player.seat, names.get(player.seat, "")) + you,
                str(player.position),
                _counts(player.resources),
                ", ".join(_creature_name(view, c) for c in player.captured) or "–",
                spells if view.spell_cards else "",
            )

        creatures = Table(title=f"Creatures ({view.creatures_to_win} to win)")
        for header in ("creature", "cost" if view.mode == beasts_pb2.MODE_TRAINING else "", "where"):
            creatures.add_column(header)
        for card in view.creatures:
            if card.HasField("captured_by"):
                where = f"captured by {names.get(card.captured_by, card.captured_by)}"
            elif card.HasField("face_up_on"):
                where = f"face up on {_space_name(view, card.face_up_on)}"
            else:
                where = "hidden"
            creatures.add_row(card.name, _cost(card.cost) if view.mode == beasts_pb2.MODE_TRAINING else "", where)

        status = Text(
            f"Turn {view.turn}/{view.turn_cap} · {names.get(view.current_seat, view.current_seat)} to play · "
            f"supply {view.supply_size} tokens"
        )
        if view.roll:
            status.append(
                f" · rolled {view.roll}" + (f" (+{view.steps - view.roll})" if view.steps > view.roll else "")
            )
        return Group(board, players, creatures, status)

    # ------------------------------------------------------------------ mode III

    def draw_advanced(self, view: Any, names: dict[int, str]) -> RenderableType:
        """Mode III (co-op): the board with Salemers and creatures, the characters, the location bar,
        the Salem track and the team's progress; 80 columns suffice."""
        return Group(
            self._advanced_board(view),
            self._location_bar(view),
            self._characters(view, names),
            self._team(view, names),
            self._salem_track(view),
            self._advanced_status(view, names),
        )

    def _advanced_board(self, view: Any) -> BoardMap:
        salemers = set(view.salemers)
        on_bar = {card: colour for card, colour in zip(view.bar, view.bar_colours, strict=False) if card}
        creatures = {t.space: t.creature for t in view.tokens if t.state == beasts_pb2.TOKEN_STATE_CREATURE}
        standing: dict[int, list[str]] = {}
        for player in view.players:
            standing.setdefault(player.position, []).append(f"@{player.seat + 1}")
        cells = []
        for space in view.board.spaces:
            marks = Text("◎" if space.blue_circle else "")
            if space.id in creatures:
                marks.append("✦", style="bold magenta")
            if space.id in salemers:
                marks.append("S", style="bold red")
            if space.id in on_bar:
                marks.append("■", style=COLOUR_STYLE[on_bar[space.id]])
            if space.id in standing:
                marks.append("".join(standing[space.id]), style="bold cyan")
            cells.append((space.id, space.name, marks))
        by_space = {space: drawn for space, _, drawn in cells}
        return BoardMap(view, by_space, "Spaces: ◎ blue circle · S Salemer · ■ card on the bar · ✦ creature")

    def _location_bar(self, view: Any) -> Table:
        bar = Table(title="Location bar", box=None, padding=(0, 1))
        for colour in view.bar_colours:
            word = beasts_pb2.Colour.Name(colour).removeprefix("COLOUR_").lower()
            bar.add_column(Text(word, style=COLOUR_STYLE[colour]), no_wrap=True, max_width=15, overflow="ellipsis")
        cells = [_space_name(view, card) if card else "—" for card in view.bar]
        if cells:
            bar.add_row(*cells)
        return bar

    def _characters(self, view: Any, names: dict[int, str]) -> Table:
        players = Table(title="Players")
        for header in ("seat", "name", "character", "at", "actions", "resources"):
            players.add_column(header)
        books = {c.id: c.name + (f" ({c.ability})" if c.ability else "") for c in view.character_book}
        for player in view.players:
            current = player.seat == view.current_seat
            you = " (you)" if view.HasField("viewer") and view.viewer == player.seat else ""
            actions = (
                f"{view.actions_left} of {player.actions}" if current and view.actions_left else str(player.actions)
            )
            players.add_row(
                f"{'▶ ' if current else ''}@{player.seat + 1}",
                seat_name(player.seat, names.get(player.seat, "")) + you,
                books.get(player.character, player.character.capitalize()) or "–",
                str(player.position),
                actions if player.character else "–",
                _counts(player.resources),
            )
        return players

    def _team(self, view: Any, names: dict[int, str]) -> Table:
        title = f"Creatures: the team has {view.team_captured} of {view.creatures_to_win}"
        creatures = Table(title=title)
        for header in ("creature", "cost", "where"):
            creatures.add_column(header)
        for card in view.creatures:
            if card.HasField("captured_by"):
                where = Text(f"captured by {names.get(card.captured_by, card.captured_by)}", style="green")
            elif card.HasField("face_up_on"):
                where = Text(f"on {_space_name(view, card.face_up_on)}")
            else:
                continue  # not in this match
            creatures.add_row(card.name, _cost(card.cost), where)
        return creatures

    def _salem_track(self, view: Any) -> Text:
        orange = {box for box in view.orange if box < view.loss_at}  # boxes past the loss never count
        track = Text("Salem track ")
        for box in range(1, view.loss_at + 1):
            filled = box <= view.track
            if box == view.loss_at:
                track.append("■" if filled else "✖", style="bold red")
            else:
                track.append("■" if filled else "□", style="dark_orange" if box in orange else "")
        track.append(f" {view.track}/{view.loss_at} tokens (lost at {view.loss_at})")
        if orange:
            track.append(" · orange boxes ", style="dark_orange")
            track.append(" ".join(str(box) for box in sorted(orange)))
        return track

    def _advanced_status(self, view: Any, names: dict[int, str]) -> Text:
        status = Text(f"Round {view.round + 1} · turn {view.turn}/{view.turn_cap} · ")
        status.append(f"{names.get(view.current_seat, view.current_seat)} to play")
        if view.actions_left:
            status.append(f" ({view.actions_left} action{'s' if view.actions_left != 1 else ''} left)")
        status.append(f" · rounds start with {names.get(view.first_seat, view.first_seat)}")
        status.append("\nSupply ")
        status.append_text(_counts(view.pool))
        status.append(
            f"\nDecks: {view.location_deck_size} locations, {view.event_deck_size} events,"
            f" {view.second_deck_size} Second Salemer cards ({len(view.second_revealed)} revealed)"
        )
        for card in view.second_revealed_cards:
            status.append(f"\nSecond Salemer: {card.name}. {card.text}")
        return status
