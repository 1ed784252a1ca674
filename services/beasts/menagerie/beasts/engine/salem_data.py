"""Mode III's data (Advanced Magizoology): characters, location cards, the event deck, the Salem track
and the Second Salemer cards, each effect from a small vocabulary the engine implements.

The rulebook gives the mechanics but not the cards (see RULES.md, "Mode III"); the files are
`data/characters.toml`, `data/locations.toml`, `data/events.toml` and `data/salem.toml`.
Every effect applies without a decision, so drawing a card never asks anyone anything.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Annotated, Any, Literal

import msgspec

from menagerie.beasts.engine.data import Board, Colour, DataError, load_data, read_data_file

# ------------------------------------------------------------------ characters


class FightAbility(msgspec.Struct, tag="fight", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """Defeats a Salemer on a roll of `wins_from` or more (instead of 3, rulebook "3, 4, 5 or 6")."""

    wins_from: Annotated[int, msgspec.Meta(ge=2, le=2)] = 2


class ApparateAbility(msgspec.Struct, tag="apparate", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """Apparating costs no action (the rulebook: "for one action")."""


class CollectAbility(msgspec.Struct, tag="collect", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """Once per turn, collecting a resource takes one more token of the same colour."""


Ability = FightAbility | ApparateAbility | CollectAbility


class Character(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A character card: its action count ("shown in the upper right corner") and the text that matters in mode III."""

    id: str
    name: str
    actions: Annotated[int, msgspec.Meta(ge=3, le=5)]
    ability: Ability | None = None

    def __post_init__(self) -> None:
        if re.fullmatch(r"[a-z][a-z_]*", self.id) is None:
            raise DataError(f"character {self.id!r}: an id is lowercase letters and underscores")
        if not self.name.strip():
            raise DataError(f"character {self.id}: a name is required")
        # Balance: an ability is worth about one action, so a character with one has at most 4.
        if self.ability is not None and self.actions > 4:
            raise DataError(f"character {self.id}: a character with an ability has at most 4 actions")


# -------------------------------------------------------------- location cards


class LocationCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A location card: the number and name of a board space (1–32)."""

    id: int
    name: str

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise DataError(f"location {self.id}: a name is required")


# ---------------------------------------------------------------- difficulties

# The table option `difficulty` (RULES.md, "Mode III: difficulty"): the event deck's mix and the
# Salem track's orange boxes differ; the rulebook's numbers (goals, Salemers at setup, the loss
# thresholds, a fight won on 3–6) are the same at every difficulty.
Difficulty = Literal["gentle", "standard", "hard"]
DIFFICULTIES: tuple[Difficulty, ...] = ("gentle", "standard", "hard")
DEFAULT_DIFFICULTY: Difficulty = "standard"

Count = Annotated[int, msgspec.Meta(ge=0, le=4)]


class Copies(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An event card's copies in the deck of each difficulty (0: not in that difficulty's deck)."""

    gentle: Count
    standard: Count
    hard: Count

    def of(self, difficulty: Difficulty) -> int:
        """The copies at this difficulty."""
        return int(getattr(self, difficulty))


class OrangeBoxes(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The Salem track's orange boxes (1-based spaces) at each difficulty."""

    gentle: tuple[int, ...]
    standard: tuple[int, ...]
    hard: tuple[int, ...]

    def of(self, difficulty: Difficulty) -> tuple[int, ...]:
        """The boxes at this difficulty."""
        boxes: tuple[int, ...] = getattr(self, difficulty)
        return boxes


# --------------------------------------------------------------------- effects


class Calm(msgspec.Struct, tag="calm", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """Nothing happens."""


class Gain(msgspec.Struct, tag="gain", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """The active player takes a token of `colour` from the supply (if one is left)."""

    colour: Colour


class Lose(msgspec.Struct, tag="lose", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """The active player (`everyone`: each player) returns `count` tokens to the supply, most-held colour first."""

    count: Annotated[int, msgspec.Meta(ge=1, le=2)] = 1
    everyone: bool = False


class Actions(msgspec.Struct, tag="actions", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """The active player's actions left this turn change by `delta` (never below 0)."""

    delta: Annotated[int, msgspec.Meta(ge=-2, le=2)]


class NewSalemers(msgspec.Struct, tag="salemers", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """`count` times: the top location card shows where a Salemer token goes, then returns under the deck."""

    count: Annotated[int, msgspec.Meta(ge=1, le=3)] = 1


class Track(msgspec.Struct, tag="track", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """`count` Salemer tokens go straight onto the first free spaces of the Salem track."""

    count: Annotated[int, msgspec.Meta(ge=1, le=2)] = 1


class ClearBar(msgspec.Struct, tag="clear_bar", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """Every location card on the location bar goes under the deck (the bar refills at the end of the round)."""


Effect = Calm | Gain | Lose | Actions | NewSalemers | Track | ClearBar


class EventCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An event card, revealed after a won fight or a collected resource."""

    id: int
    name: str
    effect: Effect
    copies: Copies

    def __post_init__(self) -> None:
        if self.id < 1 or not self.name.strip():
            raise DataError(f"event {self.id}: ids count from 1 and a name is required")
        if not any(self.copies.of(d) for d in DIFFICULTIES):
            raise DataError(f"event {self.id}: a card in no difficulty's deck is not a card of the game")


class SecondSalemerCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A Second Salemer card, revealed when a token reaches an orange box of the Salem track."""

    id: int
    name: str
    effect: Effect

    def __post_init__(self) -> None:
        if self.id < 1 or not self.name.strip():
            raise DataError(f"second salemer {self.id}: ids count from 1 and a name is required")
        # Revealed when the track reaches an orange box — possibly at the end of a round, when
        # nobody is the active player: so no card may change actions or hit only one player.
        if isinstance(self.effect, Actions) or (isinstance(self.effect, Lose) and not self.effect.everyone):
            raise DataError(f"second salemer {self.id}: its effect may not need an active player")


class SalemTrack(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The Salem track: its spaces, the orange boxes, and the Salemer token supply."""

    spaces: int
    orange: OrangeBoxes  # per difficulty, the 1-based track spaces that reveal a Second Salemer card
    salemer_tokens: int

    def __post_init__(self) -> None:
        if self.spaces < 1 or self.salemer_tokens < 1:
            raise DataError("track: spaces and salemer_tokens are positive")
        for difficulty in DIFFICULTIES:
            boxes = list(self.orange.of(difficulty))
            if boxes != sorted(set(boxes)):
                raise DataError(f"track: {difficulty} orange boxes {boxes} must be distinct and ascending")
            # The last space always ends the game (its token is the largest loss threshold), so a
            # box there could never be applied; boxes on smaller thresholds are allowed but pointless
            # for the player count that loses on them.
            if any(not 1 <= box < self.spaces for box in boxes):
                raise DataError(f"track: {difficulty} orange boxes {boxes} must lie within 1..{self.spaces - 1}")
        # The view carries no table option: the track's boxes, which are on the table, tell the
        # difficulty (and with it the event deck's contents, which determinization deals).
        if len({self.orange.of(d) for d in DIFFICULTIES}) != len(DIFFICULTIES):
            raise DataError("track: each difficulty needs its own orange boxes (a view tells the difficulty by them)")

    def difficulty_of(self, orange: Sequence[int]) -> Difficulty:
        """The difficulty whose orange boxes these are (a view's `orange`)."""
        return next((d for d in DIFFICULTIES if self.orange.of(d) == tuple(orange)), DEFAULT_DIFFICULTY)


BarColour = Literal["wild", "blue", "green", "yellow", "red"]
# The location bar's spaces, left to right (rulebook setup step 7: "multicoloured, blue, green,
# yellow, red"); the rightmost is the space of the Second Salemer (its card shows where a new
# Salemer appears). A resource collected there is of the space's colour; multicoloured is wild.
BAR: tuple[BarColour, ...] = ("wild", "blue", "green", "yellow", "red")
# "You lose as soon as you place the 7th / 9th / 11th Salemer token on the track."
LOSS_AT: dict[int, int] = {2: 7, 3: 9, 4: 11, 5: 11, 6: 11}
# "With 2 players you must capture 2 creatures; with 3 players ... 3; with 4, 5 or 6 players ... 4."
CREATURES_GOAL: dict[int, int] = {2: 2, 3: 3, 4: 4, 5: 4, 6: 4}
# Setup step 6: "Reveal 10 location cards with 2 or 3 players, or 12 location cards with 4, 5 or 6 players."
STARTING_SALEMERS: dict[int, int] = {2: 10, 3: 10, 4: 12, 5: 12, 6: 12}
FIGHT_WINS_FROM = 3  # "If you roll a 3, 4, 5 or 6, you defeat the Salemer."


class SalemData(msgspec.Struct, frozen=True):
    """Mode III's cards and track, validated together (see the loader in engine/data.py)."""

    characters: tuple[Character, ...]
    locations: tuple[LocationCard, ...]
    events: tuple[EventCard, ...]
    second_salemers: tuple[SecondSalemerCard, ...]
    track: SalemTrack

    def event(self, card_id: int) -> EventCard:
        """The event card with this id."""
        return next(e for e in self.events if e.id == card_id)

    def second_salemer(self, card_id: int) -> SecondSalemerCard:
        """The Second Salemer card with this id."""
        return next(c for c in self.second_salemers if c.id == card_id)

    def event_deck(self, difficulty: Difficulty = DEFAULT_DIFFICULTY) -> list[int]:
        """Every event card of the difficulty's deck, by id (copies repeated)."""
        return [e.id for e in self.events for _ in range(e.copies.of(difficulty))]


def describe_effect(effect: Effect) -> str:
    """A card's effect in words (the one home of this text: cards, events and clients read it)."""
    if isinstance(effect, Calm):
        return "Nothing happens."
    if isinstance(effect, Gain):
        return f"The active player takes a {effect.colour} resource token from the supply."
    if isinstance(effect, Lose):
        who = "Every player returns" if effect.everyone else "The active player returns"
        tokens = "a resource token" if effect.count == 1 else f"{effect.count} resource tokens"
        return f"{who} {tokens} to the supply (of the colour held most)."
    if isinstance(effect, Actions):
        more = "more" if effect.delta > 0 else "fewer"
        n = abs(effect.delta)
        return f"The active player has {n} {more} action{'s' if n > 1 else ''} this turn."
    if isinstance(effect, NewSalemers):
        many = "a new Salemer appears" if effect.count == 1 else f"{effect.count} new Salemers appear"
        return f"From the top of the location deck, {many} (then the card goes under the deck)."
    if isinstance(effect, Track):
        many = "A Salemer token goes" if effect.count == 1 else f"{effect.count} Salemer tokens go"
        return f"{many} straight onto the Salem track."
    return "Every location card on the location bar goes under the deck."


def describe_ability(ability: Ability | None) -> str:
    """A character's ability in words ("" for none)."""
    if isinstance(ability, FightAbility):
        return f"Defeats a Salemer on a roll of {ability.wins_from}–6 (instead of 3–6)."
    if isinstance(ability, ApparateAbility):
        return "Once per turn, Apparating between the blue circles costs no action."
    if isinstance(ability, CollectAbility):
        return "Once per turn, collecting a resource takes a second token of the same colour."
    return ""


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
    salem = read_data_file("salem.toml")
    return {
        "characters": read_data_file("characters.toml")["characters"],
        "locations": read_data_file("locations.toml")["locations"],
        "events": read_data_file("events.toml")["events"],
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
