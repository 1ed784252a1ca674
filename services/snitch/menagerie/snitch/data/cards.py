"""The Tactical card libraries, their basic decks and the Snitch race deck of Catch the Golden Snitch, validated.

A tactical card shows Action Blocks (each a sequence of Action icons from the rulebook's
Actions List), at most one Intrepid Move built from a small effect vocabulary, and a Galleon
cost. Each House's library holds the rulebook's count of cards (25/28/28/25): cards 1-15 are
its basic deck (cost 0), every later card costs 1 to 3 Galleons. A Snitch card shows a Type,
the two Types that trigger its Fast Impulse, and three Impulses built from the Snitch race
actions. The loader refuses anything outside this schema and names the file and the entry at
fault (see RULES.md, "Tactical cards: the basic decks and the library" and "Snitch race deck").
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Annotated, Any, Literal, get_args

import msgspec

from menagerie.snitch.data.records import DataError, convert, read_toml
from menagerie.snitch.data.rulebook import HOUSES, Colour, House

# ------------------------------------------------------------------------- the vocabulary

# The rulebook's Actions List: "Move*, Pass, Shoot, Beat, Recover*, Steal".
PitchAction = Literal["move", "pass", "shoot", "steal", "beat", "recover"]
PITCH_ACTIONS: tuple[PitchAction, ...] = get_args(PitchAction)
# "Each time one of your Players successfully performs one of the following Actions, add one
# Tempo Point": Pass, Beat, Steal, Shoot (the Actions that take a dice roll).
TempoAction = Literal["pass", "shoot", "steal", "beat"]
TEMPO_ACTIONS: tuple[TempoAction, ...] = get_args(TempoAction)
# A roll an effect may change: the Actions that roll dice, and the four Reactions
# ("Steal", "Manoeuvre", "Defense", "Catch"; the Steal Reaction is `steal_reaction`).
RollName = Literal["pass", "shoot", "steal", "beat", "steal_reaction", "manoeuvre", "defense", "catch"]
Whose = Literal["friendly", "rival"]
DiceToken = Literal["bonus", "penalty"]
Role = Literal["chaser", "beater", "keeper"]  # Seekers never take part in Pitch effects

# When a Swift Intrepid Move (the lightning symbol) may be played from the hand.
Trigger = Literal["rival_steal", "rival_beat", "rival_shoot", "own_steal", "own_shoot", "loose_quaffle"]
# The rolls a Swift Intrepid Move on a roll trigger may change, as (whose roll, which roll):
# the Action that triggered it and the Reaction that answers it.
TRIGGER_ROLLS: dict[Trigger, frozenset[tuple[Whose, RollName]]] = {
    "rival_steal": frozenset({("friendly", "steal_reaction"), ("rival", "steal")}),
    "rival_beat": frozenset({("friendly", "manoeuvre"), ("friendly", "defense"), ("rival", "beat")}),
    "rival_shoot": frozenset({("friendly", "catch"), ("rival", "shoot")}),
    "own_steal": frozenset({("friendly", "steal"), ("rival", "steal_reaction")}),
    "own_shoot": frozenset({("friendly", "shoot"), ("rival", "catch")}),
    "loose_quaffle": frozenset(),
}

DECK_SIZE = 15  # "The Tactical card deck must always contain 15 cards." (l.697)
# "106 Tactical Cards (25 Gryffindor, 28 Slytherin, 28 Ravenclaw, 25 Hufflepuff)" (l.97).
LIBRARY_SIZES: dict[House, int] = {"gryffindor": 25, "slytherin": 28, "ravenclaw": 28, "hufflepuff": 25}
LIBRARY_TOTAL = 106
MAX_COST = 3  # authored: a library card beyond the basic deck costs 1 to 3 Galleons
MAX_BLOCKS = 3
MAX_BLOCK_ACTIONS = 3
MIN_CARD_ACTIONS, MAX_CARD_ACTIONS = 2, 5

SnitchType = Literal["dive", "climb", "loop", "sprint"]  # "4 different Types, represented by 4 different icons"
SNITCH_TYPES: tuple[SnitchType, ...] = get_args(SnitchType)
RacePitchAction = Literal["accelerate", "dodge", "glimpse", "obstruct"]
RACE_ACTIONS: tuple[RacePitchAction, ...] = get_args(RacePitchAction)
SNITCH_CARDS, SLIPSTREAMING_CARDS, GOLDEN_SNITCH_CARDS = 12, 2, 2
SNITCH_DECK_SIZE = SNITCH_CARDS + SLIPSTREAMING_CARDS + GOLDEN_SNITCH_CARDS  # "being always 16 cards"

One = Annotated[int, msgspec.Meta(ge=1, le=1)]
OneOrTwo = Annotated[int, msgspec.Meta(ge=1, le=2)]
UpToThree = Annotated[int, msgspec.Meta(ge=1, le=3)]
FixedSuccesses = Annotated[int, msgspec.Meta(ge=1, le=4)]
Modifier = Annotated[int, msgspec.Meta(ge=-2, le=2)]
Cost = Annotated[int, msgspec.Meta(ge=0, le=MAX_COST)]

# ------------------------------------------------------------- Intrepid Move effects


class Shift(msgspec.Struct, tag="shift", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """Shift `players` Players (of `role`, or any but the Seeker) to an adjacent Zone, ignoring Disadvantage."""

    players: OneOrTwo = 1
    whose: Whose = "friendly"
    role: Role | None = None

    def __post_init__(self) -> None:
        if self.whose == "rival" and self.players != 1:
            raise DataError("shift: at most one rival Player is Shifted")


class FreeAction(msgspec.Struct, tag="free_action", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """Perform `count` free Actions of kind `action` (no Action icon spent), before the Action Blocks."""

    action: PitchAction
    count: OneOrTwo = 1

    def __post_init__(self) -> None:
        if self.action == "shoot":
            raise DataError("free_action: a free Shoot is not authored (a Goal must come from an Action Block)")


class DiceTokens(msgspec.Struct, tag="dice_tokens", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """Place `count` Bonus Dice tokens on friendly Players, or Penalty Dice tokens on rival Players."""

    token: DiceToken
    colour: Colour
    count: OneOrTwo = 1


class ModifyRoll(msgspec.Struct, tag="modify_roll", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """Friendly `roll`s add `amount` Successes (Opportunities for a Reaction); rival ones deduct it."""

    roll: RollName
    whose: Whose
    amount: OneOrTwo = 1


class Reroll(msgspec.Struct, tag="reroll", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """Once, re-roll up to `dice` dice of a friendly or a rival `roll`."""

    roll: RollName
    whose: Whose
    dice: UpToThree = 1


class Tempo(msgspec.Struct, tag="tempo", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """Gain `points` Tempo Points now, or (with `on`) each time a friendly Player succeeds at that Action."""

    points: One = 1
    on: TempoAction | None = None


class Bludger(msgspec.Struct, tag="bludger", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """Move one Bludger up to `zones` Zones; with `attack`, it then hits a rival Player in its Zone."""

    zones: OneOrTwo = 1
    attack: bool = False


class Upwind(msgspec.Struct, tag="upwind", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """Place `tokens` of your Flag tokens in the Snitch Race as Upwind tokens."""

    tokens: OneOrTwo = 1


Effect = Shift | FreeAction | DiceTokens | ModifyRoll | Reroll | Tempo | Bludger | Upwind


class IntrepidMove(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An Intrepid Move: its effect and, for a Swift one, when it may be played from the hand."""

    effect: Effect
    swift: Trigger | None = None

    def __post_init__(self) -> None:
        effect = self.effect
        if self.swift is None:
            if isinstance(effect, ModifyRoll) and effect.amount != 1:
                raise DataError("modify_roll lasting the Game Sequence changes each roll by 1")
            return
        if self.swift == "loose_quaffle":
            if not (isinstance(effect, Shift) and effect.whose == "friendly"):
                raise DataError("swift loose_quaffle: the effect Shifts friendly Players")
            return
        if not isinstance(effect, ModifyRoll | Reroll):
            raise DataError(f"swift {self.swift}: the effect changes the roll that triggered it")
        if (effect.whose, effect.roll) not in TRIGGER_ROLLS[self.swift]:
            allowed = ", ".join(f"{w} {r}" for w, r in sorted(TRIGGER_ROLLS[self.swift]))
            raise DataError(f"swift {self.swift}: a {effect.whose} {effect.roll} roll is not involved ({allowed})")


class TacticalCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A Tactical card: its Action Blocks (in order), an optional Intrepid Move and its Galleon cost.

    Cards 1-15 of a House are its basic deck and cost 0 Galleons; every later card costs 1 to 3.
    """

    id: int
    name: str
    blocks: tuple[tuple[PitchAction, ...], ...]
    intrepid: IntrepidMove | None = None
    cost: Cost = 0

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise DataError("a card has a name")
        if not 1 <= len(self.blocks) <= MAX_BLOCKS:
            raise DataError(f"1 to {MAX_BLOCKS} Action Blocks, got {len(self.blocks)}")
        if any(not 1 <= len(block) <= MAX_BLOCK_ACTIONS for block in self.blocks):
            raise DataError(f"every Action Block shows 1 to {MAX_BLOCK_ACTIONS} Actions")
        if not MIN_CARD_ACTIONS <= self.actions <= MAX_CARD_ACTIONS:
            raise DataError(f"{MIN_CARD_ACTIONS} to {MAX_CARD_ACTIONS} Actions in all, got {self.actions}")
        if self.basic and self.cost != 0:
            raise DataError(f"a basic deck card (ids 1-{DECK_SIZE}) costs 0 Galleons, got {self.cost}")
        if not self.basic and self.cost == 0:
            raise DataError(f"a library card beyond the basic deck (id > {DECK_SIZE}) costs 1 to {MAX_COST} Galleons")

    @property
    def actions(self) -> int:
        """The number of Action icons on the card."""
        return sum(len(block) for block in self.blocks)

    @property
    def basic(self) -> bool:
        """Whether the card belongs to its House's basic deck (ids 1-15, cost 0)."""
        return self.id <= DECK_SIZE


# --------------------------------------------------------------------- the Snitch race


class _RaceAction(msgspec.Struct, tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """A Seeker's race Action: `successes` applied without a roll, or a roll adding `modifier`."""

    successes: FixedSuccesses | None = None
    modifier: Modifier = 0

    def __post_init__(self) -> None:
        if self.successes is not None and self.modifier:
            raise DataError(f"{self.name}: a fixed number of Successes takes no modifier")

    @property
    def name(self) -> RacePitchAction:
        """The race Action's name."""
        return self.__struct_config__.tag  # type: ignore[return-value]

    @property
    def rolled(self) -> bool:
        """Whether the Seeker rolls dice for it."""
        return self.successes is None


class Accelerate(_RaceAction, tag="accelerate", frozen=True):
    """Advance your Seeker towards the Golden Snitch one space per Success."""


class Dodge(_RaceAction, tag="dodge", frozen=True):
    """Accelerate, but the Seeker may ignore the token where they end."""


class Glimpse(_RaceAction, tag="glimpse", frozen=True):
    """Advance the Golden Snitch towards the Seekers one space per Success."""


class Obstruct(_RaceAction, tag="obstruct", frozen=True):
    """Move the rival Seeker back one space per Success (not if they are Lagged)."""


class UpwindToken(msgspec.Struct, tag="upwind", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """Place one of your Flag tokens in the Snitch Race as an Upwind token."""


class RaceDiceToken(msgspec.Struct, tag="dice_token", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """Place an unowned Bonus or Penalty Dice token in the Snitch Race."""

    token: DiceToken
    colour: Colour


RaceAction = Accelerate | Dodge | Glimpse | Obstruct
Step = Accelerate | Dodge | Glimpse | Obstruct | UpwindToken | RaceDiceToken
Impulse = tuple[Step, ...]


def _check_impulse(name: str, impulse: Impulse) -> None:
    if not 1 <= len(impulse) <= 2:
        raise DataError(f"the {name} Impulse has 1 or 2 steps, got {len(impulse)}")
    if not isinstance(impulse[0], RaceAction):
        raise DataError(f"the {name} Impulse starts with a race Action (Accelerate, Dodge, Glimpse, Obstruct)")
    if len({type(step) for step in impulse}) != len(impulse):
        raise DataError(f"the {name} Impulse repeats a step")


class SnitchCard(msgspec.Struct, tag="snitch", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """A Snitch card: its Type, the two Types that trigger its Fast Impulse, and its three Impulses."""

    id: int
    name: str
    type: SnitchType
    fast_types: tuple[SnitchType, SnitchType]
    rushed: Impulse
    fast: Impulse
    perfect: Impulse

    def __post_init__(self) -> None:
        if self.fast_types[0] == self.fast_types[1] or self.type in self.fast_types:
            raise DataError("fast_types are two Types other than the card's own")
        for name, impulse in (("Rushed", self.rushed), ("Fast", self.fast), ("Perfect", self.perfect)):
            _check_impulse(name, impulse)


class SlipstreamingCard(msgspec.Struct, tag="slipstreaming", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """A Slipstreaming card: "If your Seeker is Lagged, ... perform Obstruct 1"."""

    id: int
    if_lagged: Impulse

    def __post_init__(self) -> None:
        if self.if_lagged != (Obstruct(successes=1),):
            raise DataError('a Slipstreaming card\'s Action is "Obstruct 1" (fixed, 1 Success)')


class GoldenSnitchCard(msgspec.Struct, tag="golden_snitch", tag_field="kind", frozen=True, forbid_unknown_fields=True):
    """A Golden Snitch card: "Perform a Glimpse Action with the Seeker of the Coach who revealed this card"."""

    id: int
    on_reveal: Impulse

    def __post_init__(self) -> None:
        if self.on_reveal != (Glimpse(),):
            raise DataError("a Golden Snitch card's Action is a Glimpse Action (a roll, no modifier)")


SnitchDeckCard = SnitchCard | SlipstreamingCard | GoldenSnitchCard


# ------------------------------------------------------------------------------ loading


class TacticalDecks(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The four houses' Tactical card libraries (tactics.toml): 25/28/28/25 cards, the first 15 the basic deck."""

    gryffindor: tuple[TacticalCard, ...]
    slytherin: tuple[TacticalCard, ...]
    ravenclaw: tuple[TacticalCard, ...]
    hufflepuff: tuple[TacticalCard, ...]

    def __post_init__(self) -> None:
        for house in HOUSES:
            cards, size = self.library(house), LIBRARY_SIZES[house]
            if [c.id for c in cards] != list(range(1, size + 1)):
                got = f"got {len(cards)}" if len(cards) != size else "got them out of order"
                raise DataError(f"{house}: exactly {size} cards, numbered 1..{size} in order, {got}")
            if repeated := [name for name, n in Counter(c.name for c in cards).items() if n > 1]:
                raise DataError(f"{house}: card names are distinct, {', '.join(map(repr, repeated))} repeats")
            deck = self.deck(house)
            if missing := set(PITCH_ACTIONS) - {a for c in deck for block in c.blocks for a in block}:
                raise DataError(f"{house}: the basic deck shows every Action, missing {', '.join(sorted(missing))}")
        if (total := sum(len(self.library(house)) for house in HOUSES)) != LIBRARY_TOTAL:
            raise DataError(f"{LIBRARY_TOTAL} Tactical cards in all, got {total}")  # pragma: no cover (sizes sum to it)

    def library(self, house: House) -> tuple[TacticalCard, ...]:
        """All of one house's cards (25 or 28), in id order: the basic deck, then the cards that cost Galleons."""
        cards: tuple[TacticalCard, ...] = getattr(self, house)
        return cards

    def deck(self, house: House) -> tuple[TacticalCard, ...]:
        """One house's basic deck: its 15 cards of cost 0 (ids 1-15), in id order."""
        return self.library(house)[:DECK_SIZE]

    def card(self, house: House, card_id: int) -> TacticalCard:
        """One card of a house's library by its id; KeyError if the house has no such card."""
        cards = self.library(house)
        if not 1 <= card_id <= len(cards):
            raise KeyError(f"{house} has no Tactical card {card_id} (ids 1..{len(cards)})")
        return cards[card_id - 1]


class SnitchDeck(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The Snitch Race deck (snitch_deck.toml): 12 Snitch, 2 Slipstreaming and 2 Golden Snitch cards."""

    cards: tuple[SnitchDeckCard, ...]

    def __post_init__(self) -> None:
        if [c.id for c in self.cards] != list(range(1, SNITCH_DECK_SIZE + 1)):
            raise DataError(f"exactly {SNITCH_DECK_SIZE} cards, numbered 1..{SNITCH_DECK_SIZE} in order")
        kinds = Counter(type(c) for c in self.cards)
        expected = {
            SnitchCard: SNITCH_CARDS,
            SlipstreamingCard: SLIPSTREAMING_CARDS,
            GoldenSnitchCard: GOLDEN_SNITCH_CARDS,
        }
        if kinds != expected:
            raise DataError("12 Snitch cards, 2 Slipstreaming cards and 2 Golden Snitch cards")
        types = Counter(c.type for c in self.snitch_cards)
        if any(types[t] != SNITCH_CARDS // len(SNITCH_TYPES) for t in SNITCH_TYPES):
            raise DataError(f"3 Snitch cards of each Type, got {dict(types)}")
        if len({c.name for c in self.snitch_cards}) != SNITCH_CARDS:
            raise DataError("Snitch card names are distinct")

    @property
    def snitch_cards(self) -> tuple[SnitchCard, ...]:
        """The 12 Snitch cards (with a Type and three Impulses)."""
        return tuple(c for c in self.cards if isinstance(c, SnitchCard))


def parse_tactics(raw: dict[str, Any]) -> TacticalDecks:
    """The Tactical card libraries from tactics.toml's contents; DataError names the file and the card."""
    return convert("tactics.toml", raw, TacticalDecks)


def parse_snitch_deck(raw: dict[str, Any]) -> SnitchDeck:
    """The Snitch Race deck from snitch_deck.toml's contents; DataError names the file and the card."""
    return convert("snitch_deck.toml", raw, SnitchDeck)


@cache
def load_tactics() -> TacticalDecks:
    """The validated Tactical card libraries, with the basic decks (read once per process)."""
    return parse_tactics(read_toml("tactics.toml"))


@cache
def load_snitch_deck() -> SnitchDeck:
    """The validated Snitch Race deck (read once per process)."""
    return parse_snitch_deck(read_toml("snitch_deck.toml"))


# ------------------------------------------------------------------------------- wording

_ROLL_WORDS: dict[RollName, str] = {
    "pass": "Pass Actions",
    "shoot": "Shoot Actions",
    "steal": "Steal Actions",
    "beat": "Beat Actions",
    "steal_reaction": "Steal Reactions",
    "manoeuvre": "Manoeuvre Reactions",
    "defense": "Defense Reactions",
    "catch": "Catch Reactions",
}
_REACTIONS: frozenset[RollName] = frozenset({"steal_reaction", "manoeuvre", "defense", "catch"})


# ------------------------------------------------------------------------ worth


def effect_worth(effect: Effect, swift: bool = False) -> float:
    """A nominal worth of an effect, in Actions (an Action icon is worth 1): the weighing that prices
    the libraries (a card's worth rises with its cost, tests/test_card_data.py) and that bots buy by."""
    match effect:
        case Shift(players=n, whose=whose):
            return n * (1.5 if whose == "rival" else 1.0) * (0.75 if swift else 1.0)
        case FreeAction(count=n, action=action):
            return n * (0.75 if action == "recover" else 1.0)
        case DiceTokens(count=n, colour=colour):
            return n * {"orange": 1.0, "purple": 0.8, "black": 0.6}[colour]
        case ModifyRoll(amount=n):
            return 0.75 * n if swift else 2.0  # a whole Game Sequence of rolls, or one roll
        case Reroll(dice=n):
            return 0.5 * n
        case Tempo(points=n, on=None):
            return 1.5 * n
        case Tempo(points=n):
            return 1.25 * n
        case Bludger(zones=n, attack=attack):
            return 0.5 * n + (1.0 if attack else 0.0)
        case Upwind(tokens=n):
            return 0.75 * n
    raise AssertionError(effect)  # pragma: no cover


def intrepid_worth(move: IntrepidMove) -> float:
    """A nominal worth of an Intrepid Move, in Actions (a Swift one is worth less: one roll)."""
    return effect_worth(move.effect, move.swift is not None)


def card_worth(card: TacticalCard) -> float:
    """A Tactical card's nominal worth, in Actions: its Action icons plus its Intrepid Move's worth (if any)."""
    return card.actions + (intrepid_worth(card.intrepid) if card.intrepid is not None else 0.0)


_TRIGGER_WORDS: dict[Trigger, str] = {
    "rival_steal": "When a rival Player targets one of your Players with a Steal Action",
    "rival_beat": "When a rival Beater targets one of your Players with a Beat Action",
    "rival_shoot": "When a rival Chaser performs a Shoot Action",
    "own_steal": "When one of your Players performs a Steal Action",
    "own_shoot": "When one of your Chasers performs a Shoot Action",
    "loose_quaffle": "When the Quaffle goes Loose",
}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def describe_effect(effect: Effect, swift: bool = False) -> str:
    """The rules text of an Intrepid Move's effect (`swift`: worded for the roll that triggered it)."""
    match effect:
        case Shift(players=n, whose=whose, role=role):
            noun = role.capitalize() if role else "Player"
            if whose == "rival":
                return f"Shift one rival {noun} to an adjacent Zone."
            return f"Shift {'one' if n == 1 else 'two'} of your {noun}s to an adjacent Zone."
        case FreeAction(action=action, count=n):
            return f"Perform {'a' if n == 1 else 'two'} free {action.capitalize()} Action{'s' if n > 1 else ''}."
        case DiceTokens(token=token, colour=colour, count=n):
            tokens = _plural(n, f"{colour.capitalize()} {token.capitalize()} Dice token")
            if token == "bonus":
                return f"Place {tokens} on {'one of your Players' if n == 1 else 'your Players'}."
            return f"Place {tokens} on {'a rival Player' if n == 1 else 'rival Players'}."
        case ModifyRoll(roll=roll, whose=whose, amount=n):
            if roll in _REACTIONS:
                unit = "Opportunity" if n == 1 else "Opportunities"
            else:
                unit = "Success" if n == 1 else "Successes"
            if swift:
                change = f"adds {n} {unit} to" if whose == "friendly" else f"deducts {n} {unit} from"
                return f"{'Your' if whose == 'friendly' else 'The rival'} Player {change} that roll."
            change = (
                f"your Players add {n} {unit} to" if whose == "friendly" else f"rival Players deduct {n} {unit} from"
            )
            return f"Until the end of this Game Sequence, {change} their {_ROLL_WORDS[roll]}."
        case Reroll(roll=roll, whose=whose, dice=n):
            dice = "1 die" if n == 1 else f"{n} dice"
            if swift:
                return f"Re-roll up to {dice} of {'your' if whose == 'friendly' else 'the rival'} Player's roll."
            owner = "your Players'" if whose == "friendly" else "rival Players'"
            return f"Once this Game Sequence, re-roll up to {dice} of one of {owner} {_ROLL_WORDS[roll]}."
        case Tempo(points=n, on=None):
            return f"Gain {_plural(n, 'Tempo Point')}."
        case Tempo(points=n, on=action):
            return (
                f"Each time one of your Players successfully performs a {str(action).capitalize()} Action "
                f"this Game Sequence, gain {_plural(n, 'extra Tempo Point')}."
            )
        case Bludger(zones=n, attack=attack):
            text = f"Move a Bludger up to {_plural(n, 'Zone')}."
            return text + (" It hits a rival Player in its Zone, as in the Bludger Movement." if attack else "")
        case Upwind(tokens=n):
            if n == 1:
                return "Place one of your Flag tokens in the Snitch Race as an Upwind token."
            return f"Place {n} of your Flag tokens in the Snitch Race as Upwind tokens."
    raise AssertionError(effect)  # pragma: no cover


def describe_blocks(card: TacticalCard) -> list[str]:
    """A card's Action Blocks in words, one per block: "Move + Pass"."""
    return [" + ".join(action.capitalize() for action in block) for block in card.blocks]


def describe_intrepid(move: IntrepidMove) -> str:
    """The rules text of an Intrepid Move, a Swift one led by its lightning and its moment."""
    text = describe_effect(move.effect, swift=move.swift is not None)
    return f"⚡ {_TRIGGER_WORDS[move.swift]}: {text}" if move.swift else text


def describe_step(step: Step) -> str:
    """One step of an Impulse as the card prints it ("Accelerate 2", "Dodge +1", "Upwind")."""
    if isinstance(step, UpwindToken):
        return "Upwind"
    if isinstance(step, RaceDiceToken):
        return f"{step.colour.capitalize()} {step.token.capitalize()} Dice token"
    name = step.name.capitalize()
    if step.successes is not None:
        return f"{name} {step.successes}"
    return f"{name} {step.modifier:+d}" if step.modifier else name


def describe_impulse(impulse: Impulse) -> str:
    """An Impulse as the card prints it ("Accelerate 3 and Upwind")."""
    return " and ".join(describe_step(step) for step in impulse)
