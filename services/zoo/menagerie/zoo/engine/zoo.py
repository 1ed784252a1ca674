"""A player's zoo: the row of enclosure cards, where animals may go, and what it counts.

Pure functions over `Player` and the card data, shared by the rules, the goals and the
view. Positions: the character sheet is 0, cards to its right are 1, 2, …, cards to
its left −1, −2, …
"""

from __future__ import annotations

from collections.abc import Iterator

from menagerie.zoo.engine.data import HABITATS, Card, Connector, EnclosureType, Metric, ValueName
from menagerie.zoo.engine.model import Enclosure, End, Level, Placed, Player

# The character sheet's paths leave it in the middle of both edges.
SHEET_CONNECTOR: Connector = "middle"
LEVELS: tuple[Level, Level] = ("top", "bottom")
VALUE_FLOOR = -3


def card_at(player: Player, position: int) -> Placed | None:
    """The enclosure card at `position`, if any."""
    for placed in player.row:
        if placed.position == position:
            return placed
    return None


def end_position(player: Player, end: End) -> int:
    """Where a card built at `end` goes."""
    positions = [p.position for p in player.row]
    if end == "right":
        return max([0, *positions]) + 1
    return min([0, *positions]) - 1


def end_connector(player: Player, end: End, cards: dict[int, Card]) -> Connector:
    """The path a card built at `end` must meet (advanced mode)."""
    position = end_position(player, end)
    neighbour = card_at(player, position - 1 if end == "right" else position + 1)
    if neighbour is None:
        return SHEET_CONNECTOR
    enclosures = cards[neighbour.card].enclosures
    return enclosures.right if end == "right" else enclosures.left


def fits(habitat: str, enclosure: Enclosure) -> bool:
    """An animal of `habitat` may live in the enclosure (its habitat, or mystic)."""
    return enclosure.type in (habitat, "mystic")


def animal_slots(player: Player, card: Card, cards: dict[int, Card]) -> Iterator[tuple[int, Level]]:
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
            if not fits(animal.habitat, here):
                continue
            if animal.size == "small":
                if not here.animals or (not here.large and _name(here, cards) == animal.name):
                    yield placed.position, level
                continue
            neighbour = card_at(player, placed.position + 1)  # None across the sheet (position 0)
            if neighbour is None:
                continue
            there = neighbour.level(level)
            if not fits(animal.habitat, there):
                continue
            if (not here.animals and not there.animals) or (
                here.large and here.animals == there.animals and _name(here, cards) == animal.name
            ):
                yield placed.position, level


def _name(enclosure: Enclosure, cards: dict[int, Card]) -> str:
    """The name of the animals living in an occupied enclosure."""
    return cards[enclosure.animals[0]].animal.name


def animals(player: Player) -> list[int]:
    """Card ids of every animal in the zoo (a large animal counted once)."""
    seen: dict[int, None] = {}
    for placed in player.row:
        for level in LEVELS:
            for card in placed.level(level).animals:
                seen[card] = None
    return list(seen)


def count_animals(player: Player, cards: dict[int, Card], habitat: EnclosureType | None = None) -> int:
    """Animals (of a habitat, or of any)."""
    return sum(1 for a in animals(player) if habitat is None or cards[a].animal.habitat == habitat)


def count_enclosures(player: Player, kind: EnclosureType | None = None) -> int:
    """Enclosures (of a type, or of any): two per card."""
    return sum(1 for p in player.row for level in LEVELS if kind is None or p.level(level).type == kind)


def largest_stack(player: Player) -> int:
    """The most animals of one name in a single enclosure."""
    return max((len(p.level(level).animals) for p in player.row for level in LEVELS), default=0)


def measure(player: Player, metric: Metric, cards: dict[int, Card]) -> int:
    """A goal's metric on one zoo."""
    kind = metric.kind
    if kind == "animals":
        return count_animals(player, cards, metric.type)
    if kind == "enclosures":
        return count_enclosures(player, metric.type)
    if kind == "largest_stack":
        return largest_stack(player)
    if kind == "distinct_names":
        return len({cards[a].animal.name for a in animals(player)})
    if kind == "large_animals":
        return sum(1 for a in animals(player) if cards[a].animal.size == "large")
    if kind == "each_habitat_animals":
        return min(count_animals(player, cards, h) for h in HABITATS)
    if kind == "each_habitat_enclosures":
        return min(count_enclosures(player, h) for h in HABITATS)
    assert metric.value is not None
    return player.values[metric.value]


def add(player: Player, value: ValueName, amount: int) -> None:
    """Changes a value; no value drops below −3."""
    player.values[value] = max(VALUE_FLOOR, player.values[value] + amount)


def score(values: dict[str, int]) -> int:
    """The product of the two lower values, the highest ignored; negative values count as 0.

    (The rulebook multiplies the two lower values; read literally, −3 × −2 = 6 would beat
    a balanced 2 × 2. See RULES.md.)
    """
    low, middle, _ = sorted(values.values())
    return max(low, 0) * max(middle, 0)
