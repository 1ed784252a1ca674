"""Loading and validating the game's data files (board, creatures, tokens, spells; mode III's: salem_data.py)."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Any, Literal

import msgspec

Colour = Literal["red", "blue", "yellow", "green", "wild"]
COLOURS: tuple[Colour, ...] = ("red", "blue", "yellow", "green", "wild")
SpellId = Literal["felix_felicis", "wingardium_leviosa", "revelio", "accio", "expelliarmus", "portkey"]
Timing = Literal["roll", "move", "stopped"]
BLUE_CIRCLES = (4, 13, 16, 29)
DIE_FACES = (1, 2, 3, 4, 5, 6)  # the die: each face equally likely (menagerie.rules.chance.die_outcomes)


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


def read_data_file(name: str) -> dict[str, Any]:
    """One of the game's TOML data files, parsed."""
    return tomllib.loads((resources.files("menagerie.beasts.data") / name).read_text())


@cache
def load_data() -> GameData:
    """The validated game data (read once per process)."""
    try:
        return msgspec.convert(
            {
                "board": read_data_file("board.toml"),
                "creatures": read_data_file("creatures.toml")["creatures"],
                "resources": read_data_file("tokens.toml")["resources"],
                "spells": read_data_file("spells.toml")["spells"],
            },
            GameData,
        )
    except msgspec.ValidationError as exc:
        raise DataError(str(exc)) from exc
