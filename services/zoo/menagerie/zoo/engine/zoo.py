"""A player's zoo: the row of enclosure cards, where animals may go, and what it counts.

Pure functions over `Player` and the card data: the one home of the zoo's rules, used by
the engine (placements, effects, goals, the view) and by the bots (planning). Positions:
the character sheet is 0, cards to its right are 1, 2, …, cards to its left −1, −2, …
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Self, TypeVar

from menagerie.zoo.engine.data import (
    HABITATS,
    VALUES,
    Animal,
    Card,
    ChooseOne,
    Connector,
    Count,
    Enclosures,
    EnclosureType,
    Exchange,
    Gain,
    Habitat,
    IfCountAtLeast,
    IfValueAtMost,
    Metric,
    PerCount,
    Plain,
    ValueName,
)
from menagerie.zoo.engine.model import End, Level, Mode, NegativeValues, Placed, Player

# The character sheet's paths leave it in the middle of both edges.
SHEET_CONNECTOR: Connector = "middle"
LEVELS: tuple[Level, Level] = ("top", "bottom")
ENDS: tuple[End, End] = ("left", "right")
VALUE_FLOOR = -3
# A change to the three values, in the order of VALUES (dangerous, cute, rare).
Change = tuple[int, int, int]
NO_CHANGE: Change = (0, 0, 0)
# Values as the rules read them: exact (int) in the engine, estimated (float) in a bot's plans.
N = TypeVar("N", int, float)


# ------------------------------------------------------------------------------ the row


def paths_connect(mode: Mode) -> bool:
    """Paths between enclosure cards must connect: in advanced mode only."""
    return mode == "advanced"


def card_at(player: Player, position: int) -> Placed | None:
    """The enclosure card at `position`, if any."""
    for placed in player.row:
        if placed.position == position:
            return placed
    return None


def open_ends(player: Player) -> tuple[End, ...]:
    """Where the next enclosure card may go: either edge of the sheet at first, then only the end the zoo grows at.

    ("Start building your zoo from one edge of your Character Sheet"; "New Enclosure Cards
    can only be added to an open end of your zoo".)
    """
    return ENDS if player.side is None else (player.side,)


def end_position(player: Player, end: End) -> int:
    """Where a card built at `end` goes."""
    positions = [p.position for p in player.row]
    if end == "right":
        return max([0, *positions]) + 1
    return min([0, *positions]) - 1


def edge(enclosures: Enclosures, side: End) -> Connector:
    """Where the path leaves a card's left or right edge."""
    return enclosures.left if side == "left" else enclosures.right


def opposite(end: End) -> End:
    """The other end."""
    return "left" if end == "right" else "right"


def end_connector(player: Player, end: End, cards: Mapping[int, Card]) -> Connector:
    """The path a card built at `end` must meet (advanced mode)."""
    position = end_position(player, end)
    neighbour = card_at(player, position - 1 if end == "right" else position + 1)
    if neighbour is None:
        return SHEET_CONNECTOR
    return edge(cards[neighbour.card].enclosures, end)


def meets(enclosures: Enclosures, end: End, needed: Connector) -> bool:
    """A card built at `end` meets the path `needed` there with its inner edge (advanced mode)."""
    return edge(enclosures, opposite(end)) == needed


def homes(habitat: Habitat) -> tuple[EnclosureType, EnclosureType]:
    """The enclosure types an animal of `habitat` may live in: its own, and mystic."""
    return (habitat, "mystic")


def fits(habitat: Habitat, kind: EnclosureType) -> bool:
    """An animal of `habitat` may live in an enclosure of type `kind`."""
    return kind in homes(habitat)


def animal_slots(player: Player, card: Card, cards: Mapping[int, Card]) -> Iterator[tuple[int, Level]]:
    """Every (position, level) where the card's animal may be placed now.

    A small animal needs an enclosure of its habitat (or mystic) that is empty or holds
    animals of the same name. A large one needs that on two neighbouring cards on the
    same side of the sheet, at the same level: both empty, or both holding the same
    stack of its name; its position is the left one of the two.
    """
    animal = card.animal
    for placed in sorted(player.row, key=lambda p: p.position):
        for level in LEVELS:
            here = placed.level(level)
            if not fits(animal.habitat, here.type):
                continue
            if animal.size == "small":
                if not here.animals or (not here.large and cards[here.animals[0]].animal.name == animal.name):
                    yield placed.position, level
                continue
            neighbour = card_at(player, placed.position + 1)  # None across the sheet (position 0)
            if neighbour is None:
                continue
            there = neighbour.level(level)
            if not fits(animal.habitat, there.type):
                continue
            if (not here.animals and not there.animals) or (
                here.large and here.animals == there.animals and cards[here.animals[0]].animal.name == animal.name
            ):
                yield placed.position, level


# ----------------------------------------------------------------------------- counting


def animals(player: Player) -> list[int]:
    """Card ids of every animal in the zoo (a large animal counted once)."""
    seen: dict[int, None] = {}
    for placed in player.row:
        for level in LEVELS:
            for card in placed.level(level).animals:
                seen[card] = None
    return list(seen)


@dataclass
class Counts:
    """What effects and goals count in one zoo."""

    animals: Counter[str] = field(default_factory=Counter)  # by habitat
    names: set[str] = field(default_factory=set)
    large: int = 0
    largest_stack: int = 0  # the most animals of one name in a single enclosure
    enclosures: Counter[str] = field(default_factory=Counter)  # by type, two per card

    @classmethod
    def of(cls, player: Player, cards: Mapping[int, Card]) -> Self:
        """The counts of one zoo (a large animal counted once)."""
        counts = cls()
        for placed in player.row:
            for level in LEVELS:
                here = placed.level(level)
                counts.enclosures[here.type] += 1
                counts.largest_stack = max(counts.largest_stack, len(here.animals))
        for animal in animals(player):
            counts.add_animal(cards[animal].animal)
        return counts

    def count(self, of: str, kind: str | None) -> int:
        """Animals (of a habitat) or enclosures (of a type), as effects and goals count them."""
        counted = self.animals if of == "animals" else self.enclosures
        return counted.total() if kind is None else counted[kind]

    def add_animal(self, animal: Animal) -> None:
        """One more animal in the zoo."""
        self.animals[animal.habitat] += 1
        self.names.add(animal.name)
        self.large += animal.size == "large"

    def add_enclosures(self, enclosures: Enclosures) -> None:
        """One more enclosure card in the row."""
        self.enclosures[enclosures.top] += 1
        self.enclosures[enclosures.bottom] += 1


def measure_counts(counts: Counts, metric: Metric, values: Mapping[str, N]) -> N:
    """A goal's metric on a zoo with these counts and values."""
    kind = metric.kind
    if kind in ("animals", "enclosures"):
        return counts.count(kind, metric.type)
    if kind == "largest_stack":
        return counts.largest_stack
    if kind == "distinct_names":
        return len(counts.names)
    if kind == "large_animals":
        return counts.large
    if kind == "each_habitat_animals":
        return min(counts.animals[h] for h in HABITATS)
    if kind == "each_habitat_enclosures":
        return min(counts.enclosures[h] for h in HABITATS)
    assert metric.value is not None
    return values[metric.value]


def measure(player: Player, metric: Metric, cards: Mapping[int, Card]) -> int:
    """A goal's metric on one zoo."""
    return measure_counts(Counts.of(player, cards), metric, player.values)


# ------------------------------------------------------------------------------ effects


def counted_by(count: Count, animal: Animal, counts: Counts) -> int:
    """What a count effect counts once the animal lives in the zoo (the animal itself included)."""
    counted = counts.count(count.of, count.type)
    if count.of == "animals" and count.type in (None, animal.habitat):
        counted += 1
    return counted


def effect_count(card: Card, counts: Counts) -> int | None:
    """What the card's effect would count if its animal were placed now (None: it counts nothing)."""
    effect = card.animal.effect
    if isinstance(effect, (IfCountAtLeast, PerCount)):
        return counted_by(effect.count, card.animal, counts)
    return None


def effect_applies(card: Card, counts: Counts, values: Mapping[str, N]) -> bool:
    """Whether a conditional effect's condition holds if the animal is placed now (judged before it applies)."""
    effect = card.animal.effect
    if isinstance(effect, IfValueAtMost):
        return values[effect.value] <= effect.at_most
    if isinstance(effect, IfCountAtLeast):
        return counted_by(effect.count, card.animal, counts) >= effect.at_least
    return True


def change_of(gain: Gain) -> Change:
    """A gain as a change to the three values."""
    return (gain.dangerous, gain.cute, gain.rare)


def one(value: ValueName, amount: int) -> Change:
    """A change to a single value."""
    index = VALUES.index(value)
    return (amount if index == 0 else 0, amount if index == 1 else 0, amount if index == 2 else 0)


def effect_change(
    card: Card,
    counts: Counts,
    values: Mapping[str, N],
    increase: ValueName | None = None,
    decrease: ValueName | None = None,
) -> Change:
    """What placing the card's animal now changes: counts include the animal, conditions are judged first.

    `increase` and `decrease` are the player's choices for exchange and choose-one effects.
    """
    effect = card.animal.effect
    if isinstance(effect, Plain):
        return change_of(effect.gain)
    if isinstance(effect, (IfValueAtMost, IfCountAtLeast)):
        return change_of(effect.gain) if effect_applies(card, counts, values) else NO_CHANGE
    if isinstance(effect, PerCount):
        return one(effect.value, effect.per * counted_by(effect.count, card.animal, counts))
    if isinstance(effect, Exchange):
        assert increase is not None and decrease is not None
        down, up = one(decrease, -1), one(increase, 1)
        return (down[0] + up[0], down[1] + up[1], down[2] + up[2])
    assert isinstance(effect, ChooseOne) and increase is not None
    return one(increase, 1)


# ------------------------------------------------------------------------------- values


def add(player: Player, value: ValueName, amount: int) -> None:
    """Changes a value; no value drops below −3."""
    player.values[value] = max(VALUE_FLOOR, player.values[value] + amount)


def apply_change(player: Player, change: Change) -> None:
    """Applies a change value by value (each floored at −3)."""
    for value, amount in zip(VALUES, change, strict=True):
        if amount:
            add(player, value, amount)


def gain(player: Player, reward: Gain) -> None:
    """Adds a reward (or an effect's gain) to the values."""
    apply_change(player, change_of(reward))


def score_factors(values: Mapping[str, N], negatives: NegativeValues) -> tuple[N, N]:
    """The two values the score multiplies, the higher first: the two lower values.

    With `count_as_zero` (the match option) a negative value counts as 0; by default
    (`multiply`) it counts as it is, as the rulebook says.
    """
    low, middle, _ = sorted(values.values())
    if negatives == "count_as_zero":
        return max(middle, 0), max(low, 0)
    return middle, low


def score(values: Mapping[str, N], negatives: NegativeValues) -> N:
    """The product of the two lower values, the highest disregarded (the rulebook: 4 × 9 = 36).

    `negatives` is the match option: `multiply` (the rulebook, the default) multiplies a
    negative value as it is (Dangerous 2, Cute 1, Rare −1 scores 1 × −1 = −1; −3 × −2 = 6),
    `count_as_zero` counts it as 0. See RULES.md.
    """
    middle, low = score_factors(values, negatives)
    return middle * low
