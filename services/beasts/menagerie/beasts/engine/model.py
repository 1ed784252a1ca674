"""The Beasts engine's data types: actions, state and view (msgspec structs).

Field names match the protobuf messages of menagerie.beasts.v1, which is how the
generic codec translates them.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from menagerie.beasts.engine.data import Board, Colour
from menagerie.rules.contract import Outcome
from menagerie.rules.rng import Rng

Mode = Literal["capture", "training"]
Phase = Literal["roll", "move", "stopped", "finished"]


# ----------------------------------------------------------------------------- actions


class Roll(msgspec.Struct, frozen=True, tag="roll", tag_field="kind"):
    """Roll the die."""


class Move(msgspec.Struct, frozen=True, tag="move", tag_field="kind"):
    """Stop on space `to`, within the steps allowed."""

    to: int


class Capture(msgspec.Struct, frozen=True, tag="capture", tag_field="kind"):
    """Capture the face-up creature on your space (mode II)."""


class EndTurn(msgspec.Struct, frozen=True, tag="end_turn", tag_field="kind"):
    """End your turn after stopping."""


class FelixFelicis(msgspec.Struct, frozen=True, tag="felix_felicis", tag_field="kind"):
    """Reroll the die."""


class WingardiumLeviosa(msgspec.Struct, frozen=True, tag="wingardium_leviosa", tag_field="kind"):
    """Two more steps this move."""


class Revelio(msgspec.Struct, frozen=True, tag="revelio", tag_field="kind"):
    """Turn a face-down token face up."""

    space: int


class Accio(msgspec.Struct, frozen=True, tag="accio", tag_field="kind"):
    """Collect a face-up resource token from any space."""

    space: int


class Expelliarmus(msgspec.Struct, frozen=True, tag="expelliarmus", tag_field="kind"):
    """Take one resource of a colour from another player."""

    target_seat: int
    colour: Colour


class Portkey(msgspec.Struct, frozen=True, tag="portkey", tag_field="kind"):
    """Travel to a blue-circle space before rolling."""

    space: int


Action = Roll | Move | Capture | EndTurn | FelixFelicis | WingardiumLeviosa | Revelio | Accio | Expelliarmus | Portkey
SPELL_ACTIONS: dict[str, type[msgspec.Struct]] = {
    "felix_felicis": FelixFelicis,
    "wingardium_leviosa": WingardiumLeviosa,
    "revelio": Revelio,
    "accio": Accio,
    "expelliarmus": Expelliarmus,
    "portkey": Portkey,
}


# ------------------------------------------------------------------------------- state


class Player(msgspec.Struct):
    """One seat's standee, tokens, creatures and spells."""

    position: int
    resources: dict[str, int]
    captured: list[str] = []
    spells: list[str] = []


class BeastsState(msgspec.Struct):
    """The whole truth of a match, hidden parts included."""

    mode: Mode
    spell_cards: bool
    rng: Rng
    # Per space id: the token lying there (a creature id or a colour), or None.
    tokens: list[str | None]
    face_up: list[bool]
    # Face-down supply; the next token drawn is the last one.
    supply: list[str]
    players: list[Player]
    current: int
    phase: Phase
    turn: int
    turn_cap: int
    roll: int = 0
    bonus: int = 0
    spells_played: int = 0
    spell_deck: list[str] = []
    spell_discard: list[str] = []
    set_aside: list[str] = []
    outcome: Outcome | None = None


# -------------------------------------------------------------------------------- view


class ResourceCounts(msgspec.Struct, frozen=True):
    """Tokens per colour."""

    red: int = 0
    blue: int = 0
    yellow: int = 0
    green: int = 0
    wild: int = 0


class SpaceToken(msgspec.Struct, frozen=True):
    """What a viewer can tell about the token on one space."""

    space: int
    state: Literal["empty", "hidden", "creature", "resource"]
    creature: str | None = None
    colour: Colour | None = None


class CreatureCard(msgspec.Struct, frozen=True):
    """A creature card, its cost, and where it is if anyone can tell."""

    id: str
    name: str
    cost: ResourceCounts
    captured_by: int | None = None
    face_up_on: int | None = None


class PlayerView(msgspec.Struct, frozen=True):
    """One seat as a viewer sees it; `spells` only for the viewer's own seat."""

    seat: int
    position: int
    resources: ResourceCounts
    captured: list[str]
    spell_count: int
    spells: list[str]


class BeastsView(msgspec.Struct, frozen=True):
    """Exactly what one seat (or a spectator) may know."""

    mode: Mode
    spell_cards: bool
    viewer: int | None
    board: Board
    tokens: list[SpaceToken]
    players: list[PlayerView]
    creatures: list[CreatureCard]
    current_seat: int
    phase: Phase
    roll: int
    steps: int
    spells_played: int
    spells_per_turn: int
    turn: int
    turn_cap: int
    supply_size: int
    spell_deck_size: int
    spell_discard: list[str]
    set_aside: ResourceCounts
    to_act: list[int]
    creatures_to_win: int
    outcome: Outcome | None = None
