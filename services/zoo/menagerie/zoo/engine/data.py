"""Fantasy Zoo's components as validated data: cards, secret goals, open goals.

Every card is double-sided: an animal (name, habitat, size, effect) and an enclosure
card (a top and a bottom enclosure, and the path connectors at its left and right
edges for advanced mode). Effects and goals are built from a small vocabulary that
mirrors the rulebook's icons; the loader refuses anything outside it.
"""

from __future__ import annotations

import tomllib
import typing
from collections import Counter
from functools import cache
from importlib import resources
from typing import Annotated, Literal

import msgspec

Habitat = Literal["forest", "mountain", "desert", "water"]
EnclosureType = Literal["forest", "mountain", "desert", "water", "mystic"]
Connector = Literal["upper", "middle", "lower"]
ValueName = Literal["dangerous", "cute", "rare"]
Size = Literal["small", "large"]

HABITATS: tuple[Habitat, ...] = ("forest", "mountain", "desert", "water")
VALUES: tuple[ValueName, ...] = ("dangerous", "cute", "rare")
CARD_COUNT = 106
SECRET_GOAL_COUNT = 14
OPEN_GOAL_COUNT = 18


class DataError(ValueError):
    """A data file breaks one of its invariants."""


class Gain(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Changes to the three zoo values (negative numbers decrease)."""

    dangerous: int = 0
    cute: int = 0
    rare: int = 0

    def __post_init__(self) -> None:
        if not any((self.dangerous, self.cute, self.rare)):
            raise DataError("a gain must change at least one value")

    def get(self, value: ValueName) -> int:
        """The change to one value."""
        return int(getattr(self, value))


class Count(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Something counted in one's own zoo: animals (of a habitat) or enclosures (of a type)."""

    of: Literal["animals", "enclosures"]
    type: EnclosureType | None = None  # None = of any habitat / type

    def __post_init__(self) -> None:
        if self.of == "animals" and self.type == "mystic":
            raise DataError("no animal lives in the mystic habitat")


# ------------------------------------------------------------------------ effects


class Plain(msgspec.Struct, frozen=True, tag="plain", tag_field="kind", forbid_unknown_fields=True):
    """Change values: "+2 cute, -1 dangerous"."""

    gain: Gain


class IfValueAtMost(msgspec.Struct, frozen=True, tag="if_value_at_most", tag_field="kind", forbid_unknown_fields=True):
    """ "If Rare is not higher than 2, +2 Rare"."""

    value: ValueName
    at_most: int
    gain: Gain


class IfCountAtLeast(
    msgspec.Struct, frozen=True, tag="if_count_at_least", tag_field="kind", forbid_unknown_fields=True
):
    """ "If you have at least 4 desert animals (this one included), +1 Rare +2 Cute"."""

    count: Count
    at_least: Annotated[int, msgspec.Meta(ge=1)]
    gain: Gain


class PerCount(msgspec.Struct, frozen=True, tag="per_count", tag_field="kind", forbid_unknown_fields=True):
    """ "+1 Dangerous per mountain enclosure" (animals counted include this one)."""

    count: Count
    value: ValueName
    per: Annotated[int, msgspec.Meta(ge=1)] = 1


class Exchange(msgspec.Struct, frozen=True, tag="exchange", tag_field="kind", forbid_unknown_fields=True):
    """Decrease one value by 1 and increase another by 1 (the player chooses which)."""


class ChooseOne(msgspec.Struct, frozen=True, tag="choose_one", tag_field="kind", forbid_unknown_fields=True):
    """Increase one of two values by 1 (the player chooses)."""

    options: tuple[ValueName, ValueName]

    def __post_init__(self) -> None:
        if self.options[0] == self.options[1]:
            raise DataError("choose_one needs two different values")


Effect = Plain | IfValueAtMost | IfCountAtLeast | PerCount | Exchange | ChooseOne


# -------------------------------------------------------------------------- cards


class Animal(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The animal side of a card."""

    name: str
    habitat: Habitat
    effect: Effect
    size: Size = "small"


class Enclosures(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The enclosure side of a card: two enclosures and the path at each edge."""

    top: EnclosureType
    bottom: EnclosureType
    left: Connector
    right: Connector


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A double-sided animal/enclosure card."""

    id: int
    animal: Animal
    enclosures: Enclosures


# -------------------------------------------------------------------------- goals


MetricKind = Literal[
    "animals",  # animals (of a habitat, or of any)
    "enclosures",  # enclosures (of a type, or of any)
    "largest_stack",  # most animals of one name in a single enclosure
    "distinct_names",  # different animal names in the zoo
    "large_animals",
    "each_habitat_animals",  # the fewest animals of any one of the four habitats
    "each_habitat_enclosures",  # the fewest enclosures of any one of the four habitat types
    "value",  # one of the zoo's values
]


class Metric(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A number measured on one zoo."""

    kind: MetricKind
    type: EnclosureType | None = None  # for animals / enclosures
    value: ValueName | None = None  # for value

    def __post_init__(self) -> None:
        if self.type is not None and self.kind not in ("animals", "enclosures"):
            raise DataError(f"metric {self.kind} takes no type")
        if (self.value is not None) != (self.kind == "value"):
            raise DataError("a value metric names exactly one value")
        if self.kind == "animals" and self.type == "mystic":
            raise DataError("no animal lives in the mystic habitat")


class OpenGoal(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Checked at the end of every round: reach the threshold, take a reward."""

    id: int
    title: str
    metric: Metric
    at_least: int
    rewards: tuple[Gain, Gain]


class SecretGoal(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Scored at the end of the game: have strictly the most of the metric."""

    id: int
    title: str
    metric: Metric
    reward: Gain


class ZooData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """All components, validated together."""

    cards: tuple[Card, ...]
    secret_goals: tuple[SecretGoal, ...]
    open_goals: tuple[OpenGoal, ...]

    def __post_init__(self) -> None:
        if [c.id for c in self.cards] != list(range(1, CARD_COUNT + 1)):
            raise DataError(f"cards: exactly {CARD_COUNT}, numbered 1..{CARD_COUNT} in order")
        if [g.id for g in self.secret_goals] != list(range(1, SECRET_GOAL_COUNT + 1)):
            raise DataError(f"secret goals: exactly {SECRET_GOAL_COUNT}, numbered 1..{SECRET_GOAL_COUNT}")
        if [g.id for g in self.open_goals] != list(range(1, OPEN_GOAL_COUNT + 1)):
            raise DataError(f"open goals: exactly {OPEN_GOAL_COUNT}, numbered 1..{OPEN_GOAL_COUNT}")
        habitats: dict[str, str] = {}
        sizes: dict[str, str] = {}
        for card in self.cards:
            animal = card.animal
            if habitats.setdefault(animal.name, animal.habitat) != animal.habitat:
                raise DataError(f"card {card.id}: every {animal.name} lives in the same habitat")
            if sizes.setdefault(animal.name, animal.size) != animal.size:
                raise DataError(f"card {card.id}: every {animal.name} has the same size")
        copies = Counter(c.animal.name for c in self.cards)
        if min(copies.values()) < 2:
            raise DataError("cards: every animal name appears at least twice, so stacking matters")
        kinds = {type(c.animal.effect) for c in self.cards}
        if kinds != set(typing.get_args(Effect)):
            raise DataError("cards: every effect kind appears at least once")
        if not any(c.animal.size == "large" for c in self.cards):
            raise DataError("cards: some animals are large")
        metrics = {g.metric.kind for g in self.secret_goals} | {g.metric.kind for g in self.open_goals}
        if metrics != set(typing.get_args(MetricKind)):
            raise DataError("goals: every metric kind appears at least once")


def _read(name: str) -> dict[str, object]:
    return tomllib.loads((resources.files("menagerie.zoo.data") / name).read_text())


@cache
def load_data() -> ZooData:
    """The validated components (read once per process)."""
    goals = _read("goals.toml")
    try:
        return msgspec.convert(
            {
                "cards": _read("cards.toml")["cards"],
                "secret_goals": goals["secret_goals"],
                "open_goals": goals["open_goals"],
            },
            ZooData,
        )
    except msgspec.ValidationError as exc:
        raise DataError(str(exc)) from exc
