"""Fantasy Zoo in the terminal: zoos, values, hands and goals as the view shows them.

Everything comes from menagerie.zoo.v1 views: every sentence (events, the prompt, action
labels) comes from the engine through the service, and so do the words for every rule
printed on what the view shows (`view.texts`: each card's animal effect, each goal's
condition and rewards, the mode, how the score counts; each open end's path need). Every
fact of the rules (the open ends of a row, the edge it grows from, the score's factors)
comes in the view too. This module only draws names, numbers and tags; it never words a
rule, and it never imports the engine.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import grpc
from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from menagerie.cli.menu import Entry, default_menu
from menagerie.cli.results import result_word
from menagerie.rules.text import seat_name
from menagerie.zoo.v1 import zoo_pb2, zoo_pb2_grpc

Card = zoo_pb2.Card
HABITAT: dict[int, str] = {
    zoo_pb2.HABITAT_FOREST: "forest",
    zoo_pb2.HABITAT_MOUNTAIN: "mountain",
    zoo_pb2.HABITAT_DESERT: "desert",
    zoo_pb2.HABITAT_WATER: "water",
}
TYPE_TAG: dict[int, str] = {
    zoo_pb2.ENCLOSURE_TYPE_FOREST: "Fo",
    zoo_pb2.ENCLOSURE_TYPE_MOUNTAIN: "Mo",
    zoo_pb2.ENCLOSURE_TYPE_DESERT: "De",
    zoo_pb2.ENCLOSURE_TYPE_WATER: "Wa",
    zoo_pb2.ENCLOSURE_TYPE_MYSTIC: "My",
}
TYPE_STYLE: dict[int, str] = {
    zoo_pb2.ENCLOSURE_TYPE_FOREST: "green",
    zoo_pb2.ENCLOSURE_TYPE_MOUNTAIN: "grey70",
    zoo_pb2.ENCLOSURE_TYPE_DESERT: "yellow",
    zoo_pb2.ENCLOSURE_TYPE_WATER: "blue",
    zoo_pb2.ENCLOSURE_TYPE_MYSTIC: "magenta",
}
CONNECTOR: dict[int, str] = {
    zoo_pb2.CONNECTOR_UPPER: "up",
    zoo_pb2.CONNECTOR_MIDDLE: "mid",
    zoo_pb2.CONNECTOR_LOWER: "low",
}
# The edge a zoo grows from, drawn under the entrance.
GROWS: dict[int, str] = {zoo_pb2.END_LEFT: "← grows", zoo_pb2.END_RIGHT: "grows →"}
# The widest a card's column in a drawn row may be (longer cells wrap), and the label column.
CELL_WIDTH = 18
LABEL_WIDTH = 12
SHOWN_DISCARDS = 6
# One card's column in a drawn row: its header (the position) and its cells, one per label.
Column = tuple[str, list[RenderableType]]


# ----------------------------------------------------------------- presentation


def _values(values: zoo_pb2.Values) -> str:
    """ "D 3 · C 2 · R 1"."""
    return f"D {values.dangerous} · C {values.cute} · R {values.rare}"


def _score_sum(zoo: zoo_pb2.PlayerZoo) -> str:
    """ "score 6 (3×2)": the score and the two values it multiplies."""
    return f"score {zoo.score} ({'×'.join(str(f) for f in zoo.score_factors)})"


def _tag(kind: int) -> Text:
    """The short, coloured tag of an enclosure type ("Fo")."""
    return Text(TYPE_TAG.get(kind, "??"), style=TYPE_STYLE.get(kind, ""))


def _paths(left: int, right: int) -> str:
    """ "L mid · R up": where the paths leave the card's edges."""
    return f"L {CONNECTOR.get(left, '?')} · R {CONNECTOR.get(right, '?')}"


def _card_name(card: Card) -> str:
    """ "Griffin #12"."""
    return f"{card.animal.name} #{card.id}"


# -------------------------------------------------------------------- the row


class ZooRow:
    """A zoo's row of cards, left to right, in as many bands as the console's width needs."""

    def __init__(self, labels: list[str], columns: list[Column], full: bool) -> None:
        self.labels = labels
        self.columns = columns
        self.full = full

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        band: list[Column] = []
        used = LABEL_WIDTH
        for column in self.columns:
            width = self._width(console, options, column)
            if band and used + width > options.max_width:
                yield self._band(band)
                band, used = [], LABEL_WIDTH
            band.append(column)
            used += width
        if band:
            yield self._band(band)

    @staticmethod
    def _width(console: Console, options: ConsoleOptions, column: Column) -> int:
        """The width a column takes: its widest cell (at most CELL_WIDTH), padding and border."""
        header, cells = column
        widest = max(Measurement.get(console, options, cell).maximum for cell in [header, *cells])
        return min(widest, CELL_WIDTH) + 3

    def _band(self, columns: list[Column]) -> Table:
        table = Table(box=box.ROUNDED if self.full else box.SIMPLE, padding=(0, 1), show_edge=self.full)
        table.add_column("pos", style="dim", no_wrap=True)
        for header, _ in columns:
            table.add_column(header, max_width=CELL_WIDTH)
        for index, label in enumerate(self.labels):
            table.add_row(label, *(cells[index] for _, cells in columns))
        return table


# --------------------------------------------------------------------------- UI


class ZooUI:
    """Drawing menagerie.zoo.v1 views."""

    pb2: ModuleType = zoo_pb2

    def stub(self, channel: grpc.Channel) -> zoo_pb2_grpc.ZooStub:
        """The Zoo service's stub on `channel`."""
        return zoo_pb2_grpc.ZooStub(channel)

    def how_to_play(self) -> str:
        """The short how-to-play kept beside this module (howto.toml, shipped as package data)."""
        return str(tomllib.loads(Path(__file__).with_name("howto.toml").read_text(encoding="utf-8"))["text"])

    def status(self, view: Any, names: dict[int, str]) -> RenderableType:
        """The header and the viewer's zoo in one line (values, score, animals)."""
        viewer = view.viewer if view.HasField("viewer") else None
        parts: list[RenderableType] = [self._header(view, names, viewer)]
        mine = next((zoo for zoo in view.zoos if zoo.seat == viewer), None)
        if mine is not None:
            line = Text(f"Your zoo: {_values(mine.values)} · ")
            line.append(_score_sum(mine), style="bold green")
            line.append(f" · {mine.animals} animal{'s' if mine.animals != 1 else ''} · {self._status(view, mine)}")
            parts.append(line)
        return Group(*parts)

    def menu(self, view: Any, legal: Any, room: int) -> list[Entry]:
        """The legal actions as the engine lists them (grouped by kind when they are many)."""
        return default_menu(legal, room)

    # ------------------------------------------------------------- drawing

    def draw(self, view: Any, names: dict[int, str]) -> RenderableType:
        """Header, the viewer's zoo, the other zoos, the viewer's cards, goals, pile, results."""
        viewer = view.viewer if view.HasField("viewer") else None
        parts: list[RenderableType] = [self._header(view, names, viewer)]
        zoos = sorted(view.zoos, key=lambda z: (z.seat - (viewer or 0)) % max(1, len(view.zoos)))
        for zoo in zoos:
            parts += self._zoo(view, zoo, names, full=zoo.seat == viewer)
        if viewer is not None:
            parts += self._own_cards(view)
        parts += self._goals(view, viewer)
        parts.append(self._pile(view))
        if len(view.outcome.seats) > 0:
            parts.append(self._results(view, names))
        return Group(*parts)

    def _header(self, view: zoo_pb2.View, names: dict[int, str], viewer: int | None) -> Text:
        phase = view.prompt.title or "?"
        text = Text(f"Fantasy Zoo · round {view.round}/{view.rounds} · {phase}", style="bold")
        if view.prompt.kind == "drafting":
            text.append(f" · pick {view.pick}")
        if view.texts.mode:
            text.append(f" · {view.texts.mode}", style="dim")
        if view.texts.score:
            text.append(f" · {view.texts.score}", style="dim")
        waiting = [_who(s, viewer, names, start=False) for s in view.prompt.must]
        if waiting:
            text.append(f"\nStill to act: {', '.join(waiting)}", style="cyan")
        return text

    def _zoo(
        self, view: zoo_pb2.View, zoo: zoo_pb2.PlayerZoo, names: dict[int, str], full: bool
    ) -> list[RenderableType]:
        """A zoo's summary line and its row of cards."""
        viewer = view.viewer if view.HasField("viewer") else None
        you = " (you)" if zoo.seat == viewer else ""
        line = Text(seat_name(zoo.seat, names.get(zoo.seat, "")) + you, style="bold")
        line.append(f" · {_values(zoo.values)} · ")
        line.append(_score_sum(zoo), style="bold green")
        line.append(f" · {zoo.animals} animal{'s' if zoo.animals != 1 else ''} · {self._status(view, zoo)}")
        if zoo.secret_goals and not full:
            scored = zoo.scored_secret_goal if zoo.HasField("scored_secret_goal") else None
            goals = ", ".join(g.title + (" ✓" if g.id == scored else "") for g in zoo.secret_goals)
            line.append(f"\n  secret goals: {goals}", style="dim")
        needs = [end.text for end in zoo.ends if end.text]
        if full and needs:
            line.append(f"\n  paths: {', '.join(needs)}", style="dim")
        return [line, self._row(view, zoo, full)]

    @staticmethod
    def _status(view: zoo_pb2.View, zoo: zoo_pb2.PlayerZoo) -> str:
        kind = view.prompt.kind
        if kind == "drafting":
            state = "picking" if zoo.seat in view.prompt.must else "has picked"
            status = f"{state} · {zoo.hand_size} in hand · {zoo.picked} picked"
        elif kind == "construction":
            status = "finished building" if zoo.finished else f"building · {zoo.picked} cards to play"
        elif zoo.reward_choices:
            status = f"choosing a reward for {', '.join(_goal_title(view, g) for g in zoo.reward_choices)}"
        elif zoo.secret_goal_choices:
            status = "choosing which secret goal scores"
        elif kind in ("rewards", "secret_goals"):
            status = "waiting"
        else:
            return "done"
        return status + (" · keeps a card" if zoo.keeps_a_card else "")

    def _row(self, view: zoo_pb2.View, zoo: zoo_pb2.PlayerZoo, full: bool) -> ZooRow:
        """The zoo's cards left to right, the sheet at 0: top and bottom enclosures (and ids, paths)."""
        paths = _paths_matter(view)
        labels = ["top", "bottom"] + (["card"] if full else []) + (["paths"] if full and paths else [])
        placed = sorted(zoo.row, key=lambda p: p.position)
        columns: list[Column] = []
        for card in [p for p in placed if p.position < 0]:
            columns.append((str(card.position), self._card_cells(card, labels)))
        sheet: dict[str, RenderableType] = {
            "top": Text("[ENTRANCE]", style="bold"),
            "bottom": Text(GROWS.get(zoo.side, ""), style="dim"),
            "card": "sheet",
            "paths": _paths(view.sheet_connector, view.sheet_connector),
        }
        columns.append(("0", [sheet.get(label, "") for label in labels]))
        for card in [p for p in placed if p.position > 0]:
            columns.append((str(card.position), self._card_cells(card, labels)))
        return ZooRow(labels, columns, full)

    def _card_cells(self, placed: zoo_pb2.PlacedCard, labels: list[str]) -> list[RenderableType]:
        enclosures = placed.card.enclosures
        cells: dict[str, RenderableType] = {
            "top": self._enclosure(placed.top),
            "bottom": self._enclosure(placed.bottom),
            "card": f"#{placed.card.id}",
            "paths": _paths(enclosures.left, enclosures.right),
        }
        return [cells.get(label, "") for label in labels]

    def _enclosure(self, enclosure: zoo_pb2.Enclosure) -> Text:
        """ "Fo Moss Troll ×2", "Wa Kraken (large)", "De ·"."""
        text = _tag(enclosure.type)
        if not enclosure.animals:
            return text.append(" ·", style="dim")
        text.append(f" {enclosure.animals[0].animal.name}", style="bold")
        if len(enclosure.animals) > 1:
            text.append(f" ×{len(enclosure.animals)}")
        if enclosure.large:
            text.append(" (large)", style="italic")
        return text

    def _own_cards(self, view: zoo_pb2.View) -> list[RenderableType]:
        """The viewer's hand, picks and kept card (both sides), and what it passed on."""
        paths = _paths_matter(view)
        parts: list[RenderableType] = []
        if view.hand:
            parts.append(_cards_table(f"Your hand (pick {view.pick})", view.hand, view.texts, paths))
        if view.picks:
            parts.append(_cards_table("Your cards to play this round", view.picks, view.texts, paths))
        if view.HasField("kept"):
            parts.append(_cards_table("Kept for the next round", [view.kept], view.texts, paths))
        if view.passed:
            parts.append(Text("You passed on: " + ", ".join(_card_name(c) for c in view.passed), style="dim"))
        return parts

    def _goals(self, view: zoo_pb2.View, viewer: int | None) -> list[RenderableType]:
        """The open goals, and the viewer's secret goals (advanced mode)."""
        parts: list[RenderableType] = []
        texts = view.texts
        if view.open_goals:
            table = Table(title="Open goals", box=box.SIMPLE, title_justify="left")
            for header in ("goal", "needs", "rewards", "status"):
                table.add_column(header)
            for state in view.open_goals:
                words = _goal_words(texts.open_goals, state.goal.id)
                status = Text("open", style="green") if state.open else Text("met", style="dim")
                table.add_row(state.goal.title, words.needs, words.rewards, status)
            parts.append(table)
        mine = next((z for z in view.zoos if z.seat == viewer), None)
        if mine is not None and mine.secret_goals:
            scored = mine.scored_secret_goal if mine.HasField("scored_secret_goal") else None
            table = Table(title="Your secret goals", box=box.SIMPLE, title_justify="left")
            for header in ("goal", "needs", "reward", "status"):
                table.add_column(header)
            for goal in mine.secret_goals:
                words = _goal_words(texts.secret_goals, goal.id)
                status = Text("scored", style="bold green") if goal.id == scored else Text("secret", style="dim")
                table.add_row(goal.title, words.needs, words.rewards, status)
            parts.append(table)
        return parts

    def _pile(self, view: zoo_pb2.View) -> Text:
        text = Text(f"Draw pile: {view.draw_pile_size} cards")
        if view.HasField("draw_pile_top"):
            top = view.draw_pile_top
            text.append(" · top shows ")
            text.append_text(_tag(top.top))
            text.append(" over ")
            text.append_text(_tag(top.bottom))
            if _paths_matter(view):
                text.append(f" ({_paths(top.left, top.right)})")
        if view.discards:
            last = ", ".join(_card_name(c) for c in view.discards[-SHOWN_DISCARDS:])
            text.append(f"\nDiscards: {len(view.discards)} (latest: {last})", style="dim")
        return text

    @staticmethod
    def _results(view: zoo_pb2.View, names: dict[int, str]) -> Table:
        table = Table(title="Results", box=box.SIMPLE, title_justify="left")
        for header in ("#", "player", "result", "score", "animals"):
            table.add_column(header)
        animals = {z.seat: z.animals for z in view.zoos}
        for seat in sorted(view.outcome.seats, key=lambda s: s.rank):
            who = seat_name(seat.seat, names.get(seat.seat, ""))
            table.add_row(str(seat.rank), who, result_word(seat.result), f"{seat.score:g}", str(animals.get(seat.seat)))
        return table


# ------------------------------------------------------------------- helpers


def _who(seat: int, viewer: int | None, names: dict[int, str], start: bool) -> str:
    """ "You"/"you" for the viewer, else the seat's name."""
    if seat == viewer:
        return "You" if start else "you"
    return seat_name(seat, names.get(seat, ""))


def _goal_title(view: zoo_pb2.View, goal_id: int) -> str:
    """An open goal's title in quotes (its id if the view does not show it)."""
    for state in view.open_goals:
        if state.goal.id == goal_id:
            return f"“{state.goal.title}”"
    return f"#{goal_id}"


def _goal_words(texts: Mapping[int, zoo_pb2.GoalText], goal_id: int) -> zoo_pb2.GoalText:
    """The engine's words for a goal ("?" if the view has none; indexing a message map would add an entry)."""
    words = texts.get(goal_id)
    return words if words is not None else zoo_pb2.GoalText(needs="?", rewards="?")


def _paths_matter(view: zoo_pb2.View) -> bool:
    """Paths must connect (advanced mode): the view names the character sheet's connector."""
    return view.sheet_connector != zoo_pb2.CONNECTOR_UNSPECIFIED


def _cards_table(title: str, cards: Iterable[Card], texts: zoo_pb2.Texts, paths: bool) -> Table:
    """Both sides of each card: the animal (habitat, size, the engine's words for its effect) and the enclosures."""
    table = Table(title=title, box=box.SIMPLE_HEAD, title_justify="left", padding=(0, 1))
    for header in ("#", "animal", "habitat", "effect", "top / bottom"):
        table.add_column(header, no_wrap=header not in ("animal", "effect"))
    if paths:
        table.add_column("paths", no_wrap=True)
    for card in cards:
        animal = card.animal
        name = Text(animal.name, style="bold")
        if animal.size == zoo_pb2.SIZE_LARGE:
            name.append(" (large)", style="italic")
        sides = _tag(card.enclosures.top).append(" / ").append_text(_tag(card.enclosures.bottom))
        effect = texts.effects.get(card.id, "?")
        row: list[RenderableType] = [f"#{card.id}", name, HABITAT.get(animal.habitat, "?"), effect]
        row.append(sides)
        if paths:
            row.append(_paths(card.enclosures.left, card.enclosures.right))
        table.add_row(*row)
    return table
