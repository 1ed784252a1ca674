"""The components of the beast-capture dice game as validated data.

The rulebook's dice icons are missing, so faces, board patterns, beasts and insight
cards are authored (see RULES.md); the loader refuses anything outside this schema.
"""

from __future__ import annotations

import tomllib
from collections import Counter
from functools import cache
from importlib import resources
from typing import Annotated, Literal, get_args

import msgspec

# The faces of the dice, written once: the board's four symbols, the black dice's wild
# face, and the teal die's beast-reaction face. Every list of faces derives from these.
Symbol = Literal["protect", "capture", "distract", "insight"]
PoolFace = Literal[Symbol, "wild"]  # a face a die to assign may show
Face = Literal[PoolFace, "reaction"]
SYMBOLS: tuple[Symbol, ...] = get_args(Symbol)
POOL_FACES: tuple[PoolFace, ...] = get_args(PoolFace)
FACES: tuple[Face, ...] = get_args(Face)
ActionName = Literal["protect", "capture_1", "distract", "insight", "capture_3"]
ACTIONS: tuple[ActionName, ...] = get_args(ActionName)
# The face that activates each action.
ACTIVATED_BY: dict[str, Symbol] = {
    "protect": "protect",
    "capture_1": "capture",
    "distract": "distract",
    "insight": "insight",
    "capture_3": "capture",
}
# Spaces each capture action moves the beast toward the suitcase.
CAPTURE_STEPS: dict[str, int] = {"capture_1": 1, "capture_3": 3}
DIE_COUNT = 6
BEASTS_PER_LEVEL = 4
INSIGHT_CARDS = 30

Positive = Annotated[int, msgspec.Meta(ge=1)]
Amount = Annotated[int, msgspec.Meta(ge=0)]


class DataError(ValueError):
    """A data file breaks one of its invariants."""


class Dice(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The faces of one kind of die, and how many dice of that kind."""

    faces: tuple[Face, ...]
    count: int = 1

    def __post_init__(self) -> None:
        if len(self.faces) != 6:
            raise DataError("a die has six faces")


class DiceSet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Five black dice and the teal die."""

    black: Dice
    teal: Dice

    def __post_init__(self) -> None:
        if self.black.count + self.teal.count != DIE_COUNT or self.teal.count != 1:
            raise DataError("the game has six dice: black ones and one teal")
        if "reaction" in self.black.faces or "reaction" not in self.teal.faces:
            raise DataError("the beast-reaction face is on the teal die only")
        if "wild" in self.teal.faces or "wild" not in self.black.faces:
            raise DataError("the wild face is on black dice only")


class Character(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A player board: the pattern of faces that Readies each action."""

    id: str
    name: str
    ready: dict[ActionName, tuple[Symbol, ...]]

    def __post_init__(self) -> None:
        if set(self.ready) != set(ACTIONS):
            raise DataError(f"character {self.id}: a Ready pattern for each of {', '.join(ACTIONS)}")
        if any(not 1 <= len(p) <= DIE_COUNT for p in self.ready.values()):
            raise DataError(f"character {self.id}: a pattern has 1 to 6 faces")


class FaceEffect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What one face of the beast's roll does."""

    escape: Amount = 0
    attack: Amount = 0


class Reaction(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The beast's own reaction (the teal die's reaction face)."""

    escape: Amount = 0
    attack: Amount = 0
    attack_all: Amount = 0
    strip_shields: bool = False

    def __post_init__(self) -> None:
        if not (self.escape or self.attack or self.attack_all or self.strip_shields):
            raise DataError("a reaction must do something")


class Beast(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A beast card: its capture track, its dice and what each face does."""

    id: str
    name: str
    level: Literal[1, 2, 3]
    to_suitcase: Positive
    to_escape: Amount
    black_dice: Annotated[int, msgspec.Meta(ge=0, le=5)]
    teal: bool
    faces: dict[PoolFace, FaceEffect]
    reaction: Reaction


class InsightCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An insight card: extra dice, or an action card any player may play when it applies."""

    id: int
    kind: Literal["die", "reroll", "muffliato", "protego"]
    face: PoolFace | None = None
    dice: Literal[1, 2] = 1

    def __post_init__(self) -> None:
        if (self.kind == "die") != (self.face is not None):
            raise DataError(f"insight card {self.id}: die cards, and only they, show a face")
        if self.kind != "die" and self.dice != 1:
            raise DataError(f"insight card {self.id}: only die cards count as two dice")


class PursuitData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """All components, validated together."""

    dice: DiceSet
    characters: tuple[Character, ...]
    beasts: tuple[Beast, ...]
    cards: tuple[InsightCard, ...]

    def __post_init__(self) -> None:
        if len(self.characters) != 4 or len({c.id for c in self.characters}) != 4:
            raise DataError("characters: four boards with distinct ids")
        levels = Counter(b.level for b in self.beasts)
        if levels != {1: BEASTS_PER_LEVEL, 2: BEASTS_PER_LEVEL, 3: BEASTS_PER_LEVEL}:
            raise DataError("beasts: 12 beasts, 4 of each level")
        if len({b.id for b in self.beasts}) != len(self.beasts):
            raise DataError("beasts: distinct ids")
        if [c.id for c in self.cards] != list(range(1, INSIGHT_CARDS + 1)):
            raise DataError(f"insight cards: exactly {INSIGHT_CARDS}, numbered 1..{INSIGHT_CARDS}")
        kinds = {c.kind for c in self.cards}
        if kinds != {"die", "reroll", "muffliato", "protego"} or not any(c.dice == 2 for c in self.cards):
            raise DataError("insight cards: dice cards (×1 and ×2) and each action card")


def _read(name: str) -> dict[str, object]:
    return tomllib.loads((resources.files("menagerie.pursuit.data") / name).read_text())


def read_files() -> dict[str, object]:
    """The data files as read, before validation."""
    return {
        "dice": _read("dice.toml"),
        "characters": _read("characters.toml")["characters"],
        "beasts": _read("beasts.toml")["beasts"],
        "cards": _read("insight.toml")["cards"],
    }


def parse(files: dict[str, object]) -> PursuitData:
    """Validated components from the files' contents; DataError names what is wrong."""
    try:
        return msgspec.convert(files, PursuitData)
    except msgspec.ValidationError as exc:
        raise DataError(str(exc)) from exc


@cache
def load_data() -> PursuitData:
    """The validated components (read once per process)."""
    return parse(read_files())
