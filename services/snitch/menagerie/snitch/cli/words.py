"""The Snitch board's words and marks, shared by its modules: a seat's name (or "you"), the Teams'
one-letter marks and styles, a capital, a title, a Zone's name fitted to its column, a rolled die.
"""

from __future__ import annotations

from rich.text import Text

from menagerie.rules.text import seat_name
from menagerie.snitch.v1 import snitch_pb2

View = snitch_pb2.View
TEAM_STYLE = ("bold red", "bold green")  # seat 0, seat 1
FACE: dict[int, str] = {
    snitch_pb2.SYMBOL_SUCCESS: "S",
    snitch_pb2.SYMBOL_DOUBLE_SUCCESS: "SS",
    snitch_pb2.SYMBOL_OPPORTUNITY: "O",
    snitch_pb2.SYMBOL_DOUBLE_OPPORTUNITY: "OO",
    snitch_pb2.SYMBOL_BLANK: "-",
}
COLOUR: dict[int, str] = {snitch_pb2.COLOUR_ORANGE: "o", snitch_pb2.COLOUR_PURPLE: "p", snitch_pb2.COLOUR_BLACK: "b"}
COLOUR_STYLE: dict[int, str] = {
    snitch_pb2.COLOUR_ORANGE: "dark_orange",
    snitch_pb2.COLOUR_PURPLE: "magenta",
    snitch_pb2.COLOUR_BLACK: "bold",
}
# Shorter and shorter forms of the Zones' names, for narrower columns (each step applies after the last).
SHORTER: tuple[tuple[tuple[str, str], ...], ...] = (
    (
        ("West ", "W "),
        ("East ", "E "),
        (" Deployment Zone", " Deployment"),
        (" Scoring Area", " Scoring"),
        (" Wing", ""),
    ),
    ((" Deployment", " Deploy"),),
)


# ----------------------------------------------------------------- presentation


def name(names: dict[int, str], seat: int) -> str:
    return seat_name(seat, names.get(seat, ""))


def viewer(view: View) -> int | None:
    return view.viewer if view.HasField("viewer") else None


def who(view: View, names: dict[int, str], seat: int) -> str:
    """ "you" for the viewer, else the seat's name."""
    return "you" if viewer(view) == seat else name(names, seat)


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def title(word: str) -> str:
    return word.replace("_", " ").capitalize()


def marks(view: View) -> tuple[str, str]:
    """A one-letter mark per Team: its House's initial (the seat number if both share one)."""
    houses = [c.house for c in view.coaches] if len(view.coaches) == 2 else ["", ""]
    initials = [h[:1].upper() for h in houses]
    if not all(initials) or initials[0] == initials[1]:
        return ("1", "2")
    return (initials[0], initials[1])


def fitted(name: str, room: int) -> str:
    """A Zone's name, shortened as far as a column of `room` characters needs ("West Deployment Zone" → "W Deploy")."""
    for words in SHORTER:
        if len(name) <= room:
            return name
        for long, short in words:
            name = name.replace(long, short)
    return name


def roll_die(die: snitch_pb2.RolledDie) -> Text:
    """ "o:S" in the die's colour (a re-rolled die marked ′)."""
    mark = "′" if len(die.rerolled_by) else ""
    return Text(
        f"{COLOUR.get(die.colour, '?')}:{FACE.get(die.face, '?')}{mark}", style=COLOUR_STYLE.get(die.colour, "")
    )
