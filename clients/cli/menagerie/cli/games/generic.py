"""Any game in the terminal, drawn from the generic service (menagerie.generic.v1.Game).

The CLI uses it for every game that names no renderer of its own in the `menagerie.cli`
entry points. The generic view carries the prompt and the outcome typed and every other
field of the engine's view as a JSON object (hidden zones already hidden by the
service); actions are the engine's tagged JSON, each with the engine's label. So all
that is drawn here is the engine's words and the names of the view's own fields: the
prompt's title, whose turn it is, the fields as an indented outline (an entry of the
`players` list, the rules contract's list of seats, or an entry with a `seat` field, by the
seat's name), the scores and the result. Nothing
here knows a rule: a choice is one of ListLegalActions' actions, sent back as listed.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import grpc
from rich.console import Group, RenderableType
from rich.text import Text

from menagerie.cli.menu import Entry, Pick, Toggles, arrange, label_subject, picks
from menagerie.cli.results import result_word
from menagerie.generic.v1 import generic_pb2, generic_pb2_grpc
from menagerie.rules.text import name_mentions, seat_name

Json = Any  # a value decoded from the view's or an action's JSON
# The field of an action's JSON that names its kind (generic.proto: {"kind": "take", ...}).
KIND = "kind"
# The view's list of seats, one entry per seat in seat order (the rules contract's `players`).
PLAYERS = "players"
# The field of a list's entry that names the seat it belongs to (a zoo, a team).
SEAT = "seat"
# A field whose name holds this word is a score: the status line shows it per seat.
SCORE = "score"
# An object of at most this many plain fields is written on one line.
INLINE_FIELDS = 6
# A set-valued choice may have at most this many ways to mark its items (else it stays a list).
MAX_MARKINGS = 4096

HOW_TO_PLAY = """\
This game ships no terminal board of its own: the CLI draws it from the generic service.

The choice screen shows the decision's title and whose turn it is, the view's main
fields and the scores, the last events in the engine's words, and your choices, each
with the engine's own label. Type a choice's number or its code; `b` draws the whole
view as an outline (the players by name), `q` leaves the match. A long list of choices
comes in groups by kind; a choice of a set (which dice to keep, which cards to give) is
marked item by item, then confirmed with `c`.
"""


def words(name: str) -> str:
    """A field's name as a person reads it ("face_up" -> "face up")."""
    return name.replace("_", " ")


def plain(value: Json) -> str:
    """A JSON scalar as text ("–" for null, "yes"/"no" for booleans, 2.0 as "2")."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def scalar(value: Json) -> bool:
    """True for a value that is neither a list nor an object."""
    return not isinstance(value, list | dict)


def inline(value: Json) -> str | None:
    """`value` on one line when it is short enough to read so (a scalar, a list of scalars, a small flat object)."""
    if scalar(value):
        return plain(value)
    if isinstance(value, list):
        if all(scalar(item) for item in value):
            return ", ".join(plain(item) for item in value) or "none"
        return None
    if not value:
        return "–"
    if len(value) <= INLINE_FIELDS and all(scalar(item) for item in value.values()):
        return " · ".join(f"{words(key)} {plain(item)}" for key, item in value.items())
    return None


def fields_of(view: Any) -> dict[str, Json]:
    """The view's own fields (its JSON object; {} when there is none)."""
    decoded = json.loads(view.fields_json or "{}")
    return decoded if isinstance(decoded, dict) else {"view": decoded}


def viewer_of(view: Any) -> int | None:
    """The seat the view is for (None: a spectator's)."""
    return int(view.viewer) if view.HasField("viewer") else None


@dataclass(frozen=True)
class Readers:
    """Who reads the board: the seats' names and the viewer's seat."""

    names: Mapping[int, str]
    viewer: int | None

    def seat(self, seat: int) -> str:
        """The seat's name, "(you)" after the viewer's."""
        name = seat_name(seat, self.names.get(seat, ""))
        return f"{name} (you)" if seat == self.viewer else name

    def seats(self, seats: Sequence[int]) -> str:
        """ "Ann, Bob (you)"."""
        return ", ".join(self.seat(s) for s in seats)


def outline(fields: Mapping[str, Json], readers: Readers) -> list[str]:
    """The view's fields as an indented outline, one line per field or list item."""
    return [line for key, value in fields.items() for line in _node(words(key), value, readers, 0, key == PLAYERS)]


def _node(label: str, value: Json, readers: Readers, depth: int, by_seat: bool = False) -> list[str]:
    pad = "  " * depth
    flat = inline(value)
    if flat is not None:
        return [f"{pad}{label}: {flat}"]
    lines = [f"{pad}{label}:"]
    if isinstance(value, dict):
        for key, item in value.items():
            lines += _node(words(key), item, readers, depth + 1, key == PLAYERS)
    else:
        for index, item in enumerate(value):
            seat = seat_of(item, index if by_seat else None)
            lines += _node(str(index + 1) if seat is None else readers.seat(seat), item, readers, depth + 1)
    return lines


def seat_of(item: Json, position: int | None) -> int | None:
    """The seat a list's entry belongs to: its own `seat` field, else its place in a by-seat list (None: no seat's)."""
    if isinstance(item, dict) and isinstance(item.get(SEAT), int) and not isinstance(item[SEAT], bool):
        return int(item[SEAT])
    return position


def scores(fields: Mapping[str, Json], readers: Readers) -> str:
    """ "Ann: score 3 · Bob (you): score 5": the score fields of each seat's entry in a top-level list ("" if none)."""
    parts = []
    for key, entries in fields.items():
        if not isinstance(entries, list):
            continue
        for index, entry in enumerate(entries):
            seat = seat_of(entry, index if key == PLAYERS else None)
            if seat is None or not isinstance(entry, dict):
                continue
            found = [
                f"{words(name)} {plain(value)}" for name, value in entry.items() if SCORE in name and scalar(value)
            ]
            if found:
                parts.append(f"{readers.seat(seat)}: {', '.join(found)}")
    return " · ".join(parts)


def headline(view: Any, readers: Readers) -> Text:
    """The decision's title and who decides, or the result once the match is over."""
    prompt = view.prompt
    if len(view.outcome.seats) > 0:
        # The reason is written once for every reader ("Seat 2 reached 10"): the seats' names go in here.
        return Text(f"Game over: {name_mentions(view.outcome.reason, readers.names)}", style="bold")
    text = Text(prompt.title or words(prompt.kind).capitalize() or "The match", style="bold")
    deciding = sorted({*prompt.must, *prompt.may})
    if deciding:
        text.append(f" · to decide: {readers.seats(deciding)}", style="cyan")
    return text


def results(view: Any, readers: Readers) -> list[str]:
    """One line per seat of a finished match, best first: rank, name, result, score."""
    ranked = sorted(view.outcome.seats, key=lambda s: (s.rank, s.seat))
    return [f"{s.rank}. {readers.seat(s.seat)} {result_word(s.result)} (score {s.score:g})" for s in ranked]


# ----------------------------------------------------------------- choices


def decoded(action: Any) -> dict[str, Json]:
    """An Action's JSON as an object ({} when it is not one)."""
    value = json.loads(action.json or "{}")
    return value if isinstance(value, dict) else {}


def kind_name(action: Mapping[str, Json]) -> str:
    """ "Play card": the action's kind in words ("" when it has none)."""
    return words(str(action.get(KIND, ""))).capitalize()


def markable(value: Json) -> bool:
    """True for a field a player can mark item by item: yes/no, or a list of plain values."""
    return isinstance(value, bool) or (isinstance(value, list) and all(scalar(v) for v in value))


def _frozen(value: Json) -> str:
    return json.dumps(value, sort_keys=True)


def _varying(actions: Sequence[Mapping[str, Json]]) -> list[str] | None:
    """The fields in which the actions differ, when each is markable and all actions have the same fields."""
    keys = set(actions[0])
    if any(set(action) != keys for action in actions):
        return None
    varying = [key for key in sorted(keys) if len({_frozen(a[key]) for a in actions}) > 1]
    if not varying or not all(markable(a[key]) for a in actions for key in varying):
        return None
    return varying


@dataclass(frozen=True)
class Item:
    """One thing a set-valued choice marks: a yes/no field, or one value of a list field (repeated values apart)."""

    field: str
    value: Json

    def text(self) -> str:
        """ "keep teal" (a yes/no field) or "keep capture" (a list's value)."""
        return words(self.field) if isinstance(self.value, bool) else f"{words(self.field)} {plain(self.value)}"


def _items(actions: Sequence[Mapping[str, Json]], varying: Sequence[str]) -> list[Item]:
    """The items: each yes/no field once; each list value as often as one action holds it at most."""
    items: list[Item] = []
    for key in varying:
        if all(isinstance(a[key], bool) for a in actions):
            items.append(Item(key, True))
            continue
        most: Counter[str] = Counter()
        values: dict[str, Json] = {}
        for action in actions:
            counts = Counter(_frozen(v) for v in action[key])
            most |= counts
            values.update({_frozen(v): v for v in action[key]})
        items += [Item(key, values[v]) for v in sorted(most) for _ in range(most[v])]
    return items


def _markings(items: Sequence[Item], action: Mapping[str, Json]) -> Iterator[frozenset[int]]:
    """Every set of marked items that means `action` (repeated values: any of their items)."""
    ways: list[list[tuple[int, ...]]] = []
    by_value: dict[tuple[str, str], list[int]] = {}
    for index, item in enumerate(items):
        if isinstance(item.value, bool) and isinstance(action[item.field], bool):
            ways.append([(index,)] if action[item.field] else [()])
        else:
            by_value.setdefault((item.field, _frozen(item.value)), []).append(index)
    for (key, value), places in by_value.items():
        wanted = sum(1 for v in action[key] if _frozen(v) == value)
        ways.append(list(itertools.combinations(places, wanted)))
    for chosen in itertools.product(*ways):
        yield frozenset(index for part in chosen for index in part)


def set_choice(legal: Any, actions: Sequence[Mapping[str, Json]], indexes: Sequence[int]) -> Toggles | None:
    """The actions at `indexes` as toggles, when they differ only in yes/no fields and sets of plain values.

    Each way of marking the items means exactly one action, or the actions stay a list.
    """
    chosen = [actions[i] for i in indexes]
    varying = _varying(chosen)
    if varying is None:
        return None
    items = _items(chosen, varying)
    combos: dict[frozenset[int], int] = {}
    for index, action in zip(indexes, chosen, strict=True):
        for marked in itertools.islice(_markings(items, action), MAX_MARKINGS):
            if combos.setdefault(marked, index) != index:
                return None  # two actions marked alike: not a set-valued choice
        if len(combos) >= MAX_MARKINGS:
            return None
    labels = {i: legal.labels[i].text for i in indexes}
    title = f"{kind_name(chosen[0]) or 'Choose'} ({len(indexes)} ways)"
    return Toggles(title, tuple(item.text() for item in items), combos, labels)


def choices(legal: Any, room: int) -> list[Entry]:
    """ListLegalActions as menu entries: as listed when they fit, else by kind; a long set-valued kind as toggles."""
    actions = [decoded(action) for action in legal.actions]
    by_kind: dict[str, list[int]] = {}
    for index, action in enumerate(actions):
        by_kind.setdefault(kind_name(action), []).append(index)
    toggles: list[Entry] = []
    rest: list[int] = []
    for indexes in by_kind.values():
        marked = set_choice(legal, actions, indexes) if len(indexes) > room else None
        if marked is None:
            rest += indexes
        else:
            toggles.append(marked)

    def kind_of(pick: Pick) -> str | None:
        return kind_name(actions[pick.index]) or None

    return [*toggles, *arrange(picks(legal, sorted(rest)), [kind_of, label_subject], max(1, room - len(toggles)))]


# --------------------------------------------------------------------------- UI


class GenericUI:
    """The terminal board of a game without one of its own, from menagerie.generic.v1.Game."""

    pb2: ModuleType = generic_pb2

    def stub(self, channel: grpc.Channel) -> generic_pb2_grpc.GameStub:
        """The generic service's stub on `channel` (every game service serves it)."""
        return generic_pb2_grpc.GameStub(channel)

    def how_to_play(self) -> str:
        """How the generic board is played (a game's own rules come with its own renderer)."""
        return HOW_TO_PLAY

    def draw(self, view: Any, names: dict[int, str]) -> RenderableType:
        """The headline, the result once the match is over, and the view's fields as an outline."""
        readers = Readers(names, viewer_of(view))
        parts: list[RenderableType] = [headline(view, readers)]
        if len(view.outcome.seats) > 0:
            parts += [Text(line, style="bold") for line in results(view, readers)]
        parts += [Text(line) for line in outline(fields_of(view), readers)]
        return Group(*parts)

    def status(self, view: Any, names: dict[int, str]) -> RenderableType:
        """The headline, the scores, and the view's plain top-level fields on one line."""
        readers = Readers(names, viewer_of(view))
        fields = fields_of(view)
        flat = " · ".join(f"{words(key)} {plain(value)}" for key, value in fields.items() if scalar(value))
        lines = [headline(view, readers)]
        score_line = scores(fields, readers)
        if score_line:
            lines.append(Text(score_line))
        if flat:
            lines.append(Text(flat, style="dim"))
        return Group(*lines)

    def menu(self, view: Any, legal: Any, room: int) -> list[Entry]:
        """ListLegalActions as menu entries for a screen with `room` menu rows (see `choices`)."""
        return choices(legal, room)
