"""Loading and validating the game's data files (board, creatures, tokens, spells; mode III's in `load_salem`)."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Literal

import msgspec

if TYPE_CHECKING:
    from menagerie.beasts.engine.salem_data import SalemData

Colour = Literal["red", "blue", "yellow", "green", "wild"]
COLOURS: tuple[Colour, ...] = ("red", "blue", "yellow", "green", "wild")
SpellId = Literal["felix_felicis", "wingardium_leviosa", "revelio", "accio", "expelliarmus", "portkey"]
Timing = Literal["roll", "move", "stopped"]
BLUE_CIRCLES = (4, 13, 16, 29)


class DataError(ValueError):
    """A data file breaks one of its invariants."""


class Space(msgspec.Struct, frozen=True):
    """A space of the board."""

    id: int
    name: str
    neighbours: tuple[int, ...]
    blue_circle: bool = False


class Board(msgspec.Struct, frozen=True):
    """The board graph."""

    start_space: int
    spaces: tuple[Space, ...]

    def __post_init__(self) -> None:
        ids = [s.id for s in self.spaces]
        if ids != list(range(len(ids))):
            raise DataError("board: spaces must be numbered 0..N-1 in order")
        if self.start_space not in ids:
            raise DataError("board: the start space does not exist")
        for space in self.spaces:
            for other in space.neighbours:
                if other == space.id or other not in ids:
                    raise DataError(f"board: space {space.id} has a bad neighbour {other}")
                if space.id not in self.spaces[other].neighbours:
                    raise DataError(f"board: street {space.id}–{other} is not listed both ways")
        blue = tuple(s.id for s in self.spaces if s.blue_circle)
        if blue != BLUE_CIRCLES:
            raise DataError(f"board: blue circles must be {BLUE_CIRCLES} (the rulebook's), not {blue}")
        seen, frontier = {self.start_space}, [self.start_space]
        while frontier:
            for other in self.spaces[frontier.pop()].neighbours:
                if other not in seen:
                    seen.add(other)
                    frontier.append(other)
        if len(seen) != len(ids):
            raise DataError("board: every space must be reachable from the start by streets")

    @property
    def token_spaces(self) -> tuple[int, ...]:
        """Spaces that hold a token (all but the start)."""
        return tuple(s.id for s in self.spaces if s.id != self.start_space)


class Creature(msgspec.Struct, frozen=True):
    """A creature card and its capture cost in mode II."""

    id: str
    name: str
    cost: dict[Colour, int]

    def __post_init__(self) -> None:
        if "wild" in self.cost or any(n <= 0 for n in self.cost.values()):
            raise DataError(f"creature {self.id}: costs are positive counts of red, blue, yellow or green")


class Spell(msgspec.Struct, frozen=True):
    """A spell of the Spell Card Variant."""

    id: SpellId
    name: str
    count: int
    timing: tuple[Timing, ...]
    text: str


class GameData(msgspec.Struct, frozen=True):
    """Everything the engine reads from data files, validated together."""

    board: Board
    creatures: tuple[Creature, ...]
    resources: dict[Colour, int]
    spells: tuple[Spell, ...]

    def __post_init__(self) -> None:
        ids = [c.id for c in self.creatures]
        if len(ids) != 10 or len(set(ids)) != 10:
            raise DataError("creatures: exactly 10 creatures with distinct ids")
        if set(ids) & set(COLOURS):
            raise DataError("creatures: an id may not be a colour name")
        thunderbird = next((c for c in self.creatures if c.id == "thunderbird"), None)
        if thunderbird is None or thunderbird.cost != {"red": 2, "blue": 3, "yellow": 3, "green": 2}:
            raise DataError("creatures: the Thunderbird costs 2 red, 3 blue, 3 yellow and 2 green (rulebook)")
        if set(self.resources) != set(COLOURS):
            raise DataError("tokens: give a count for each of red, blue, yellow, green and wild")
        if len(self.all_tokens()) <= len(self.board.token_spaces):
            raise DataError("tokens: there must be more tokens than board spaces, so a supply remains")
        for creature in self.creatures:
            for colour, need in creature.cost.items():
                if need > self.resources[colour] + self.resources["wild"]:
                    raise DataError(f"creature {creature.id}: costs more {colour} than the game holds")
        spell_ids = sorted(s.id for s in self.spells)
        if spell_ids != sorted(SpellId.__args__):  # type: ignore[attr-defined]
            raise DataError("spells: one entry per spell the engine implements")

    def all_tokens(self) -> list[str]:
        """Every token of the game: creature ids and resource colours."""
        tokens = [c.id for c in self.creatures]
        for colour in COLOURS:
            tokens += [colour] * self.resources[colour]
        return tokens

    def spell_deck(self) -> list[str]:
        """Every spell card of the deck."""
        return [s.id for s in self.spells for _ in range(s.count)]


def _read(name: str) -> dict[str, object]:
    return tomllib.loads((resources.files("menagerie.beasts.data") / name).read_text())


@cache
def load_data() -> GameData:
    """The validated game data (read once per process)."""
    try:
        return msgspec.convert(
            {
                "board": _read("board.toml"),
                "creatures": _read("creatures.toml")["creatures"],
                "resources": _read("tokens.toml")["resources"],
                "spells": _read("spells.toml")["spells"],
            },
            GameData,
        )
    except msgspec.ValidationError as exc:
        raise DataError(str(exc)) from exc


# ------------------------------------------------------------------- mode III

SALEM_FILES: dict[str, str] = {
    "characters": "characters.toml",
    "locations": "locations.toml",
    "events": "events.toml",
    "second_salemers": "salem.toml",
}
SALEM_CHARACTERS = 6  # the box's character cards (one per player, up to 6)
SALEM_EVENTS = 20  # distinct event cards (with copies, more)
SALEM_SECOND_SALEMERS = 6


def salem_raw() -> dict[str, Any]:
    """Mode III's files as read: characters, locations, events, second_salemers (lists) and track."""
    salem = _read("salem.toml")
    return {
        "characters": _read("characters.toml")["characters"],
        "locations": _read("locations.toml")["locations"],
        "events": _read("events.toml")["events"],
        "second_salemers": salem["second_salemers"],
        "track": salem["track"],
    }


def _entries(raw: dict[str, Any], key: str, kind: type[Any]) -> tuple[Any, ...]:
    """Convert one file's list entry by entry, so an error names the file and the entry."""
    file = SALEM_FILES[key]
    entries = raw.get(key)
    if not isinstance(entries, list):
        raise DataError(f"{file}: a list of [[{key}]] entries is required")
    out = []
    for number, entry in enumerate(entries, 1):
        label = entry.get("id") if isinstance(entry, dict) else None
        try:
            out.append(msgspec.convert(entry, kind))
        except msgspec.ValidationError as exc:
            raise DataError(f"{file}: [[{key}]] entry {number} (id {label!r}): {exc}") from exc
    return tuple(out)


def salem_from(raw: dict[str, Any], board: Board) -> SalemData:
    """Validate mode III's data (`salem_raw()`'s shape) against the board; DataError on any fault."""
    from menagerie.beasts.engine.salem_data import (
        DIFFICULTIES,
        LOSS_AT,
        STARTING_SALEMERS,
        Character,
        EventCard,
        LocationCard,
        SalemData,
        SalemTrack,
        SecondSalemerCard,
    )

    characters: tuple[Character, ...] = _entries(raw, "characters", Character)
    locations: tuple[LocationCard, ...] = _entries(raw, "locations", LocationCard)
    events: tuple[EventCard, ...] = _entries(raw, "events", EventCard)
    second: tuple[SecondSalemerCard, ...] = _entries(raw, "second_salemers", SecondSalemerCard)
    try:
        track = msgspec.convert(raw.get("track"), SalemTrack)
    except msgspec.ValidationError as exc:
        raise DataError(f"salem.toml: [track]: {exc}") from exc

    ids = [c.id for c in characters]
    if len(ids) != SALEM_CHARACTERS or len(set(ids)) != SALEM_CHARACTERS:
        raise DataError(f"characters.toml: exactly {SALEM_CHARACTERS} characters with distinct ids, not {ids}")
    names = {s.id: s.name for s in board.spaces if s.id != board.start_space}
    numbers = [loc.id for loc in locations]
    if numbers != sorted(names):
        raise DataError(f"locations.toml: one card per board space {min(names)}..{max(names)}, in order")
    for loc in locations:
        if loc.name != names[loc.id]:
            raise DataError(f"locations.toml: location {loc.id} is {loc.name!r}, the board says {names[loc.id]!r}")
    for file, cards, count in (("events.toml", events, SALEM_EVENTS), ("salem.toml", second, SALEM_SECOND_SALEMERS)):
        card_ids = [c.id for c in cards]
        if len(card_ids) != count or len(set(card_ids)) != count:
            raise DataError(f"{file}: exactly {count} cards with distinct ids, not {card_ids}")
    for difficulty in DIFFICULTIES:
        if len([e for e in events if e.copies.of(difficulty)]) < 2:
            raise DataError(f"events.toml: the {difficulty} deck needs at least two different cards")
    if track.spaces < max(LOSS_AT.values()):
        raise DataError(f"salem.toml: [track] needs {max(LOSS_AT.values())} spaces (the largest loss threshold)")
    # At least setup's Salemers plus a full track; anything beyond is for new Salemers on the board.
    need = max(STARTING_SALEMERS.values()) + max(LOSS_AT.values())
    if track.salemer_tokens < need:
        raise DataError(f"salem.toml: [track] salemer_tokens must be at least {need} (setup plus a full track)")
    return SalemData(characters, locations, events, second, track)


@cache
def load_salem() -> SalemData:
    """Mode III's validated data (read once per process): characters, location cards, events, Salem track."""
    return salem_from(salem_raw(), load_data().board)
