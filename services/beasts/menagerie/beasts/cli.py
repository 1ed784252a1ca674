"""The Beasts board game in the terminal: the board, tokens, players and creatures as the view shows them.

Every sentence (events, the prompt, action labels) comes from the engine through the
service; this module only draws. It never imports the engine.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import grpc
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from menagerie.beasts.v1 import beasts_pb2, beasts_pb2_grpc

COLOURS = ("red", "blue", "yellow", "green", "wild")
# How each colour is drawn (presentation only; the words come from the engine).
COLOUR_STYLE = {
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


class BeastsUI:
    """Drawing menagerie.beasts.v1 views."""

    pb2: ModuleType = beasts_pb2

    def stub(self, channel: grpc.Channel) -> beasts_pb2_grpc.BeastsStub:
        return beasts_pb2_grpc.BeastsStub(channel)

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
        tokens = {t.space: t for t in view.tokens}
        standing: dict[int, list[str]] = {}
        for player in view.players:
            standing.setdefault(player.position, []).append(f"@{player.seat}")
        board = Table(title="Board (◎ = blue circle, ? = face-down token)", show_header=False, box=None, padding=(0, 1))
        columns = 3
        spaces = list(view.board.spaces)
        rows = (len(spaces) + columns - 1) // columns
        for _ in range(columns):
            board.add_column(justify="right")
            board.add_column()
            board.add_column()
        for row in range(rows):
            cells: list[Text | str] = []
            for column in range(columns):
                index = column * rows + row
                if index >= len(spaces):
                    cells += ["", "", ""]
                    continue
                space = spaces[index]
                label = f"{space.name[:22]}{' ◎' if space.blue_circle else ''}"
                token = self._token(view, tokens[space.id]) if space.id in tokens else Text("start", style="dim")
                token.append(" " + " ".join(standing.get(space.id, [])), style="bold cyan")
                cells += [str(space.id), label, token]
            board.add_row(*cells)

        spell_names = {spell.id: spell.name for spell in view.spell_book}
        players = Table(title="Players")
        for header in ("seat", "name", "at", "resources", "creatures", "spells"):
            players.add_column(header)
        for player in view.players:
            marker = "▶ " if player.seat == view.current_seat else ""
            you = " (you)" if view.HasField("viewer") and view.viewer == player.seat else ""
            spells = ", ".join(spell_names.get(s, "?") for s in player.spells) or str(player.spell_count)
            players.add_row(
                f"{marker}@{player.seat}",
                names.get(player.seat, f"Seat {player.seat}") + you,
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
