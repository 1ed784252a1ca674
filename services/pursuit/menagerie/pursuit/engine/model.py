"""The dice game's data types: actions, state and view (msgspec structs).

Field names match the protobuf messages of menagerie.pursuit.v1, which is how the
generic codec translates them.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from menagerie.pursuit.engine.data import ACTIONS, ActionName, Beast, Character, Face, InsightCard
from menagerie.rules.contract import Outcome
from menagerie.rules.rng import Rng

Difficulty = Literal["easy", "normal", "hard"]
Phase = Literal["roll", "help", "assign", "discard", "before_beast", "beast", "finished"]
Color = Literal["black", "teal"]

# ----------------------------------------------------------------------------- actions


class Reroll(msgspec.Struct, frozen=True, tag="reroll", tag_field="kind"):
    """Keep these black faces (and the teal die if keep_teal); roll the other dice again."""

    keep: tuple[Face, ...]
    keep_teal: bool


class StopRolling(msgspec.Struct, frozen=True, tag="stop_rolling", tag_field="kind"):
    """Keep the dice as they are and go on to assigning them."""


class PlayReroll(msgspec.Struct, frozen=True, tag="play_reroll", tag_field="kind"):
    """Play a Reroll card: the active player gets one more roll this turn."""

    card: int


class Contribute(msgspec.Struct, frozen=True, tag="contribute", tag_field="kind"):
    """Give the active player a dice card's dice to assign this turn."""

    card: int


class Pass(msgspec.Struct, frozen=True, tag="pass", tag_field="kind"):
    """Play nothing in the open reaction window."""


class Ready(msgspec.Struct, frozen=True, tag="ready", tag_field="kind"):
    """Ready an action of your board with its full pattern of dice."""

    action: ActionName


class SetAction(msgspec.Struct, frozen=True, tag="set", tag_field="kind"):
    """Set a Ready action of your board with one die showing `face`."""

    action: ActionName
    face: Face


class Activate(msgspec.Struct, frozen=True, tag="activate", tag_field="kind"):
    """Activate an action on `seat`'s board with one die of the action's face (or a wild)."""

    seat: int
    action: ActionName


class PlayDieCard(msgspec.Struct, frozen=True, tag="play_die_card", tag_field="kind"):
    """Add your own dice card's dice to the dice you assign."""

    card: int


class EndAssign(msgspec.Struct, frozen=True, tag="end_assign", tag_field="kind"):
    """Stop assigning; the activated actions take effect."""


class Discard(msgspec.Struct, frozen=True, tag="discard", tag_field="kind"):
    """Discard an insight card (you hold more than three)."""

    card: int


class PlayMuffliato(msgspec.Struct, frozen=True, tag="play_muffliato", tag_field="kind"):
    """Before the beast rolls: it rolls two fewer black dice."""

    card: int


class PlayProtego(msgspec.Struct, frozen=True, tag="play_protego", tag_field="kind"):
    """After the beast rolls: ignore one of its dice showing `face`."""

    card: int
    face: Face


Action = (
    Reroll
    | StopRolling
    | PlayReroll
    | Contribute
    | Pass
    | Ready
    | SetAction
    | Activate
    | PlayDieCard
    | EndAssign
    | Discard
    | PlayMuffliato
    | PlayProtego
)


# ------------------------------------------------------------------------------- state


class Die(msgspec.Struct):
    """One of the six dice and the face it shows."""

    color: Color
    face: Face


class PoolDie(msgspec.Struct):
    """A die the active player may assign: a rolled die, or one of a dice card's dice."""

    face: Face
    color: Color
    card: int = 0  # the dice card it comes from; 0 for a rolled die


class Activation(msgspec.Struct, frozen=True):
    """An action activated this turn: on whose board, which, and with what die."""

    seat: int
    action: ActionName
    color: Color


class Player(msgspec.Struct):
    """One seat: its board, health, shields and insight cards."""

    character: str
    health: int
    shields: int = 0
    ready: list[str] = []
    set: list[str] = []
    hand: list[int] = []


class PursuitState(msgspec.Struct):
    """The whole truth of a match, hidden parts included."""

    difficulty: Difficulty
    rng: Rng
    players: list[Player]
    # The beasts still to come, the next one first; `beast` is the one being chased.
    beasts: list[str]
    beast: str
    position: int
    deck: list[int]
    active: int
    turn: int = 0
    phase: Phase = "roll"
    dice: list[Die] = []
    kept: list[bool] = []
    rolls: int = 0
    roll_limit: int = 3
    pool: list[PoolDie] = []
    # A dice card's dice go on one board: card -> the board its first die went to.
    card_boards: dict[int, int] = {}
    activations: list[Activation] = []
    window: list[int] = []
    muffled: int = 0
    beast_dice: list[Die] = []
    ignored: list[int] = []
    discard: list[int] = []
    captured: list[str] = []
    escaped: list[str] = []
    outcome: Outcome | None = None


# -------------------------------------------------------------------------------- view


class ReadyPattern(msgspec.Struct, frozen=True):
    """The faces that Ready one action of a board."""

    action: ActionName
    faces: list[str]


class CharacterView(msgspec.Struct, frozen=True):
    """A player board: its character and the Ready pattern of each action."""

    id: str
    name: str
    ready: list[ReadyPattern]

    @classmethod
    def of(cls, character: Character) -> CharacterView:
        """The view of a character card."""
        patterns = [ReadyPattern(a, list(character.ready[a])) for a in ACTIONS]
        return cls(character.id, character.name, patterns)


class PlayerView(msgspec.Struct, frozen=True):
    """One seat as anyone sees it; its cards only for itself."""

    seat: int
    character: CharacterView
    health: int
    shields: int
    ready: list[str]
    set: list[str]
    hand_size: int
    hand: list[InsightCard]


class BeastTrack(msgspec.Struct, frozen=True):
    """The beast being chased and where its marker stands."""

    beast: Beast
    # Spaces from the far end of the track; it escapes below 0 and is captured at length.
    position: int
    length: int


class PursuitView(msgspec.Struct, frozen=True):
    """Exactly what one seat (or a spectator) may know."""

    difficulty: Difficulty
    viewer: int | None
    players: list[PlayerView]
    active: int
    turn: int
    phase: Phase
    track: BeastTrack
    beasts_to_come: list[Beast]
    captured: list[str]
    escaped: list[str]
    escapes_allowed: int
    dice: list[Die]
    kept: list[bool]
    rolls: int
    roll_limit: int
    pool: list[PoolDie]
    card_boards: dict[int, int]
    activations: list[Activation]
    # Seats that may still play an insight card in the open reaction window.
    window: list[int]
    muffled: int
    beast_dice: list[Die]
    ignored: list[int]
    deck_size: int
    discard: list[InsightCard]
    to_act: list[int]
    outcome: Outcome | None = None
