"""The Beasts board game in the terminal: board, tokens, players, creatures, actions."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import grpc
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from menagerie.beasts.v1 import beasts_pb2, beasts_pb2_grpc
from menagerie.common.v1 import common_pb2

COLOURS = ("red", "blue", "yellow", "green", "wild")
COLOUR_NAMES = {
    beasts_pb2.COLOUR_RED: "red (suitcase)",
    beasts_pb2.COLOUR_BLUE: "blue (potion)",
    beasts_pb2.COLOUR_YELLOW: "yellow (dragot)",
    beasts_pb2.COLOUR_GREEN: "green (tea kettle)",
    beasts_pb2.COLOUR_WILD: "wild",
}
COLOUR_STYLE = {
    beasts_pb2.COLOUR_RED: "red",
    beasts_pb2.COLOUR_BLUE: "blue",
    beasts_pb2.COLOUR_YELLOW: "yellow",
    beasts_pb2.COLOUR_GREEN: "green",
    beasts_pb2.COLOUR_WILD: "magenta",
}
SPELL_NAMES = {
    beasts_pb2.SPELL_FELIX_FELICIS: "Felix Felicis",
    beasts_pb2.SPELL_WINGARDIUM_LEVIOSA: "Wingardium Leviosa",
    beasts_pb2.SPELL_REVELIO: "Revelio",
    beasts_pb2.SPELL_ACCIO: "Accio",
    beasts_pb2.SPELL_EXPELLIARMUS: "Expelliarmus",
    beasts_pb2.SPELL_PORTKEY: "Portkey",
}
RESULT = {common_pb2.RESULT_WIN: "won", common_pb2.RESULT_LOSS: "lost", common_pb2.RESULT_DRAW: "drew"}


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
    """Drawing and naming for menagerie.beasts.v1."""

    pb2: ModuleType = beasts_pb2

    def stub(self, channel: grpc.Channel) -> beasts_pb2_grpc.BeastsStub:
        return beasts_pb2_grpc.BeastsStub(channel)

    def _token(self, view: Any, token: Any) -> Text:
        if token.state == beasts_pb2.TOKEN_STATE_HIDDEN:
            return Text("?", style="bold")
        if token.state == beasts_pb2.TOKEN_STATE_CREATURE:
            return Text(_creature_name(view, token.creature), style="bold magenta")
        if token.state == beasts_pb2.TOKEN_STATE_RESOURCE:
            return Text(COLOUR_NAMES[token.colour].split()[0], style=COLOUR_STYLE[token.colour])
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

        players = Table(title="Players")
        for header in ("seat", "name", "at", "resources", "creatures", "spells"):
            players.add_column(header)
        for player in view.players:
            marker = "▶ " if player.seat == view.current_seat else ""
            you = " (you)" if view.HasField("viewer") and view.viewer == player.seat else ""
            spells = ", ".join(SPELL_NAMES[s] for s in player.spells) or str(player.spell_count)
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

    def describe_event(self, event: Any, names: dict[int, str], viewer: int | None, view: Any) -> str | None:
        kind = event.WhichOneof("kind")
        body = getattr(event, kind)

        def who(seat: int) -> str:
            return "You" if seat == viewer else names.get(seat, f"Seat {seat}")

        if kind == "match_started":
            return f"The match begins; {who(body.first_seat)} start{'s' if body.first_seat != viewer else ''}."
        if kind == "turn_started":
            return f"— Turn {body.turn}: {who(body.seat)} to play."
        if kind == "die_rolled":
            return f"{who(body.seat)} rolled {body.value}."
        if kind == "moved":
            origin, destination = _space_name(view, body.origin), _space_name(view, body.destination)
            return f"{who(body.seat)} moved from {origin} to {destination}."
        if kind == "token_revealed":
            if body.state == beasts_pb2.TOKEN_STATE_CREATURE:
                found = f"the {_creature_name(view, body.creature)}!"
            else:
                found = f"a {COLOUR_NAMES[body.colour]} token"
            return f"Revealed on {_space_name(view, body.space)}: {found}"
        if kind == "creature_captured":
            return f"{who(body.seat)} captured the {_creature_name(view, body.creature)}!"
        if kind == "resource_collected":
            verb = "set aside" if body.set_aside else "collected"
            return f"{who(body.seat)} {verb} a {COLOUR_NAMES[body.colour]} token."
        if kind == "space_left_empty":
            return f"The supply is empty: {_space_name(view, body.space)} stays empty."
        if kind == "supply_shuffled":
            return f"{body.returned} tokens went back into the supply, which was shuffled."
        if kind == "spell_drawn":
            if body.spell:
                return f"You drew {SPELL_NAMES[body.spell]}."
            return f"{who(body.seat)} drew a spell."
        if kind == "spell_cast":
            target = ""
            if body.HasField("space"):
                target = f" on {_space_name(view, body.space)}"
            if body.HasField("target_seat"):
                target = f": {COLOUR_NAMES[body.colour]} from {who(body.target_seat)}"
            return f"{who(body.seat)} cast {SPELL_NAMES[body.spell]}{target}."
        if kind == "match_finished":
            results = ", ".join(
                f"{who(s.seat)} {RESULT.get(s.result, '?')}" for s in sorted(body.outcome.seats, key=lambda s: s.rank)
            )
            return f"Game over — {body.outcome.reason}. {results}."
        return None  # token_placed, turn_ended: nothing a player needs to read

    def describe_action(self, action: Any, view: Any, names: dict[int, str]) -> str:
        kind = action.WhichOneof("kind")
        body = getattr(action, kind)
        me = view.viewer if view.HasField("viewer") else -1
        position = next((p.position for p in view.players if p.seat == me), 0)
        if kind == "roll":
            return "Roll the die"
        if kind == "move":
            token = next((t for t in view.tokens if t.space == body.to), None)
            hint = ""
            if token is not None:
                hint = f"  [{self._token(view, token).plain}]"
            return f"Move to {_space_name(view, body.to)}{hint}"
        if kind == "capture":
            creature = next((t.creature for t in view.tokens if t.space == position), "")
            return f"Capture the {_creature_name(view, creature)}"
        if kind == "end_turn":
            return "End your turn"
        if kind == "felix_felicis":
            return "Cast Felix Felicis: roll again"
        if kind == "wingardium_leviosa":
            return "Cast Wingardium Leviosa: 2 more steps"
        if kind == "revelio":
            return f"Cast Revelio on {_space_name(view, body.space)}"
        if kind == "accio":
            return f"Cast Accio on {_space_name(view, body.space)}"
        if kind == "expelliarmus":
            return f"Cast Expelliarmus: take {COLOUR_NAMES[body.colour]} from {names.get(body.target_seat)}"
        if kind == "portkey":
            return f"Cast Portkey to {_space_name(view, body.space)}"
        return str(kind)
