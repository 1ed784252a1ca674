"""Fantasy Zoo's data types: actions, state and view (msgspec structs).

Field names match the protobuf messages of menagerie.zoo.v1, which is how the generic
codec translates them.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from menagerie.rules.contract import Outcome
from menagerie.rules.rng import Rng
from menagerie.zoo.engine.data import Card, Enclosures, EnclosureType, OpenGoal, SecretGoal, ValueName

Mode = Literal["beginner", "advanced"]
Phase = Literal["drafting", "construction", "rewards", "secret_goals", "finished"]
Level = Literal["top", "bottom"]
End = Literal["left", "right"]

# ----------------------------------------------------------------------------- actions


class Pick(msgspec.Struct, frozen=True, tag="pick", tag_field="kind"):
    """Take a card from the hand in front of you."""

    card: int


class Build(msgspec.Struct, frozen=True, tag="build", tag_field="kind"):
    """Play a card as an enclosure card at an open end of your row."""

    card: int
    end: End


class Place(msgspec.Struct, frozen=True, tag="place", tag_field="kind"):
    """Play a card as an animal into the enclosure at (position, level)."""

    card: int
    position: int
    level: Level
    increase: ValueName | None = None
    decrease: ValueName | None = None


class Keep(msgspec.Struct, frozen=True, tag="keep", tag_field="kind"):
    """Set a card aside for the next round."""

    card: int


class Finish(msgspec.Struct, frozen=True, tag="finish", tag_field="kind"):
    """End construction; unused cards (but the kept one) are discarded."""


class ChooseReward(msgspec.Struct, frozen=True, tag="choose_reward", tag_field="kind"):
    """Take one of the two rewards of an open goal met together with others."""

    goal: int
    option: int


class ChooseSecretGoal(msgspec.Struct, frozen=True, tag="choose_secret_goal", tag_field="kind"):
    """Score this one of your two met secret goals."""

    goal: int


Action = Pick | Build | Place | Keep | Finish | ChooseReward | ChooseSecretGoal


# ------------------------------------------------------------------------------- state


class Enclosure(msgspec.Struct):
    """One enclosure: its type and the animals in it (one name only)."""

    type: EnclosureType
    animals: list[int] = []
    # Large animals fill this enclosure and the same level of the next card to the right.
    large: bool = False


class Placed(msgspec.Struct):
    """An enclosure card in a row; the character sheet is position 0."""

    position: int
    card: int
    top: Enclosure
    bottom: Enclosure

    def level(self, level: Level) -> Enclosure:
        """The top or the bottom enclosure."""
        return self.top if level == "top" else self.bottom


class Player(msgspec.Struct):
    """One seat: its zoo, values, cards and pending decisions."""

    values: dict[str, int]
    row: list[Placed] = []
    hand: list[int] = []
    picks: list[int] = []
    kept: int | None = None
    picked: bool = False
    finished: bool = False
    passed: list[int] = []
    secret_goals: list[int] = []
    reward_choices: list[int] = []
    secret_goal_choices: list[int] = []
    scored_secret_goal: int | None = None


class ZooState(msgspec.Struct):
    """The whole truth of a match, hidden parts included."""

    mode: Mode
    rng: Rng
    rounds: int
    players: list[Player]
    # Face down; the next card dealt is the last one (its enclosure side is visible).
    draw_pile: list[int]
    round: int = 0
    phase: Phase = "drafting"
    pick: int = 0
    discards: list[int] = []
    open_goals: list[int] = []
    open_in_play: list[int] = []
    outcome: Outcome | None = None


# -------------------------------------------------------------------------------- view


class Values(msgspec.Struct, frozen=True):
    """The three zoo values."""

    dangerous: int
    cute: int
    rare: int


class EnclosureView(msgspec.Struct, frozen=True):
    """An enclosure as anyone sees it."""

    type: EnclosureType
    animals: list[Card]
    large: bool


class PlacedCard(msgspec.Struct, frozen=True):
    """An enclosure card of a row, with its animals."""

    position: int
    card: Card
    top: EnclosureView
    bottom: EnclosureView


class PlayerZoo(msgspec.Struct, frozen=True):
    """One player's public zoo; secret goals only for the player (or once revealed)."""

    seat: int
    row: list[PlacedCard]
    values: Values
    score: int
    animals: int
    hand_size: int
    picked: int
    finished: bool
    secret_goals: list[SecretGoal]
    scored_secret_goal: int | None
    keeps_a_card: bool
    reward_choices: list[int]
    secret_goal_choices: list[int]


class OpenGoalState(msgspec.Struct, frozen=True):
    """A revealed open goal and whether it is still in play."""

    goal: OpenGoal
    open: bool


class ZooView(msgspec.Struct, frozen=True):
    """Exactly what one seat (or a spectator) may know."""

    mode: Mode
    viewer: int | None
    round: int
    rounds: int
    phase: Phase
    pick: int
    zoos: list[PlayerZoo]
    hand: list[Card]
    picks: list[Card]
    kept: Card | None
    passed: list[Card]
    open_goals: list[OpenGoalState]
    draw_pile_size: int
    draw_pile_top: Enclosures | None
    discards: list[Card]
    to_act: list[int]
    outcome: Outcome | None = None
