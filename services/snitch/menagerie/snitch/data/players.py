"""The Players (players.toml): the Positions, the Traits of unique Players and the Player cards."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Annotated, Literal

import msgspec

from menagerie.snitch.data.dice import DicePool
from menagerie.snitch.data.records import Count, DataError, Id, Positive, Record
from menagerie.snitch.data.rulebook import (
    DICE_PER_COLOUR,
    EVERY_PITCH_PLAYER_REACTS,
    HOUSES,
    ONLY,
    PLAYER_CARDS,
    POSITIONS,
    RACE_ACTIONS,
    TEAM,
    UNIQUE_MARK,
    ActionName,
    House,
    Position,
    ReactionName,
)

# --- Players: Positions ---------------------------------------------------------------


class PositionSpec(Record, frozen=True):
    """A Position: how many a Team fields, and the Actions and Reactions its cards list."""

    team: Positive
    actions: tuple[ActionName, ...]
    reactions: tuple[ReactionName, ...]


# --- Traits of unique Players ---------------------------------------------------------

# The rolls a Trait may name: the Actions a card lists (the race Actions for a Seeker) and
# its Reactions, the Steal Reaction being `steal_reaction` (as in cards.RollName).
TraitRoll = Literal[
    "pass",
    "shoot",
    "steal",
    "beat",
    "accelerate",
    "dodge",
    "glimpse",
    "obstruct",
    "steal_reaction",
    "manoeuvre",
    "defense",
    "catch",
]
REACTION_ROLLS: frozenset[str] = frozenset({"steal_reaction", "manoeuvre", "defense", "catch"})
# l.556–561: the Actions that earn a Tempo Point when performed successfully.
TempoOn = Literal["pass", "shoot", "steal", "beat"]
OneOrTwo = Annotated[int, msgspec.Meta(ge=1, le=2)]
UpToThree = Annotated[int, msgspec.Meta(ge=1, le=3)]


class RollBonusTrait(Record, tag="roll_bonus", tag_field="kind", frozen=True):
    """Not Locked: +1 to every `roll` of this Player. Locked: once, +`amount` (1 or 2) after the roll."""

    roll: TraitRoll
    amount: OneOrTwo = 1
    locked: bool = False

    def __post_init__(self) -> None:
        if not self.locked and self.amount != 1:
            raise DataError("roll_bonus: a lasting bonus (not Locked) adds 1; only a Locked one adds 2")


class RerollTrait(Record, tag="reroll", tag_field="kind", frozen=True):
    """Locked: once, after this Player's `roll`, re-roll up to `dice` of its dice."""

    roll: TraitRoll
    dice: UpToThree = 1

    @property
    def locked(self) -> bool:
        """A re-roll Trait always shows the Locked icon."""
        return True


class TempoTrait(Record, tag="tempo", tag_field="kind", frozen=True):
    """Each time this Player succeeds at the Action `on`, its Coach gains 1 extra Tempo Point."""

    on: TempoOn

    @property
    def locked(self) -> bool:
        """Not Locked: it works every time."""
        return False


class SteadyTrait(Record, tag="steady", tag_field="kind", frozen=True):
    """This Player ignores Disadvantage (and Severe Disadvantage) on its own rolls (overrides l.419–420)."""

    @property
    def locked(self) -> bool:
        """Not Locked: it works every time."""
        return False


class ToughTrait(Record, tag="tough", tag_field="kind", frozen=True):
    """Stunned tokens deduct at most 1 from this Player's rolls (overrides l.544's maximum of 3)."""

    @property
    def locked(self) -> bool:
        """Not Locked: it works every time."""
        return False


Trait = RollBonusTrait | RerollTrait | TempoTrait | SteadyTrait | ToughTrait

_ROLL_WORDS: dict[str, str] = {
    "pass": "Pass",
    "shoot": "Shoot",
    "steal": "Steal Action",
    "beat": "Beat",
    "accelerate": "Accelerate",
    "dodge": "Dodge",
    "glimpse": "Glimpse",
    "obstruct": "Obstruct",
    "steal_reaction": "Steal Reaction",
    "manoeuvre": "Manoeuvre",
    "defense": "Defense",
    "catch": "Catch",
}


def _units(roll: str, n: int) -> str:
    if roll in REACTION_ROLLS:
        return f"{n} Opportunity" if n == 1 else f"{n} Opportunities"
    return f"{n} Success" if n == 1 else f"{n} Successes"


def describe_trait(trait: Trait) -> str:
    """The Trait's rules text as the card prints it; a Locked Trait starts with "Locked:"."""
    match trait:
        case RollBonusTrait(roll=roll, amount=n, locked=True):
            return f"Locked: once, after this Player's {_ROLL_WORDS[roll]} roll, add {_units(roll, n)} to it."
        case RollBonusTrait(roll=roll, amount=n):
            return f"This Player adds {_units(roll, n)} to every {_ROLL_WORDS[roll]} roll it makes."
        case RerollTrait(roll=roll, dice=n):
            dice = "1 of its dice" if n == 1 else f"{n} of its dice"
            return f"Locked: once, after this Player's {_ROLL_WORDS[roll]} roll, re-roll up to {dice}."
        case TempoTrait(on=action):
            done = f"successfully performs a {action.capitalize()} Action"
            return f"Each time this Player {done}, gain 1 extra Tempo Point."
        case SteadyTrait():
            return "This Player ignores Disadvantage and Severe Disadvantage on its rolls."
        case ToughTrait():
            return "Stunned tokens deduct at most 1 Success or Opportunity from this Player's rolls."
    raise AssertionError(trait)  # pragma: no cover


def trait_roll_listed(trait: Trait, actions: Iterable[str], reactions: Iterable[str]) -> bool:
    """Whether the roll (or, for `tempo`, the Action) a Trait names is one the card lists."""
    match trait:
        case RollBonusTrait(roll=roll) | RerollTrait(roll=roll):
            if roll == "steal_reaction":
                return "steal" in set(reactions)
            return roll in set(reactions if roll in REACTION_ROLLS else actions)
        case TempoTrait(on=action):
            return action in set(actions)
    return True


# --- Player cards ---------------------------------------------------------------------


class PlayerCard(Record, frozen=True):
    """A Player card: name, Position, Affiliation, Galleon cost, dice per Action and per Reaction, Trait.

    A basic card (cost 0, the box's 28) has no Trait and a plain name; a unique card (cost ≥ 1,
    the collection beyond the box) has exactly one Trait, one copy and a name ending in " ✷".
    """

    id: Id
    name: str
    position: Position
    affiliation: tuple[House, ...]
    cost: Count
    copies: Positive
    actions: dict[ActionName, DicePool]
    reactions: dict[ReactionName, DicePool]
    trait: Trait | None = None

    def __post_init__(self) -> None:
        if not self.affiliation or len(set(self.affiliation)) != len(self.affiliation):
            raise DataError("one or more distinct Houses in its affiliation")
        self._check_unique()
        for kind, pools in (("action", self.actions), ("reaction", self.reactions)):
            for name, pool in pools.items():
                if pool.size == 0:
                    raise DataError(f"{kind} {name} rolls no dice")
                if max(pool.by_colour().values()) > DICE_PER_COLOUR:
                    raise DataError(f"{kind} {name} rolls more than {DICE_PER_COLOUR} dice of a colour")
        if self.trait is not None:
            self._check_trait(self.trait)

    @property
    def unique(self) -> bool:
        """A unique Player (cost ≥ 1, a ✷ name, a Trait), not one of the box's basic cards."""
        return self.cost > 0

    def _check_unique(self) -> None:
        marked = self.name.endswith(UNIQUE_MARK)
        if not self.unique:
            if self.trait is not None:
                raise DataError("a basic card (cost 0) has no Trait ('Traits are what make Players unique', l.225)")
            if "✷" in self.name:
                raise DataError("a basic card (cost 0) has no ✷ in its name (l.215: it reiterates Team and Position)")
            return
        if not marked or not self.name.removesuffix(UNIQUE_MARK).strip():
            raise DataError(f"a unique Player (cost ≥ 1) has a character's name ending in '{UNIQUE_MARK}' (l.707)")
        if self.copies != 1:
            raise DataError("a unique Player (cost ≥ 1) is one card: copies = 1")
        if self.trait is None:
            raise DataError("a unique Player (cost ≥ 1) has exactly one Trait (l.225)")

    def _check_trait(self, trait: Trait) -> None:
        if not trait_roll_listed(trait, self.actions, self.reactions):
            what = trait.on if isinstance(trait, TempoTrait) else getattr(trait, "roll", "")
            raise DataError(f"trait {type(trait).__struct_config__.tag}: its card does not list {what}")
        if self.position == "seeker" and isinstance(trait, SteadyTrait | ToughTrait):
            raise DataError("a Seeker is never at a Disadvantage nor Stunned: no steady or tough Trait")
        if isinstance(trait, RerollTrait):
            pool = self.pool(trait.roll)
            if pool is not None and trait.dice > pool.size:
                raise DataError(f"trait reroll: {trait.dice} dice, but its {trait.roll} pool rolls {pool.size}")

    def pool(self, roll: str) -> DicePool | None:
        """The dice pool of a roll named as in a Trait (`steal_reaction` the Steal Reaction); None if not listed."""
        if roll == "steal_reaction":
            return self.reactions.get("steal")
        pools = self.reactions.items() if roll in REACTION_ROLLS else self.actions.items()
        return next((pool for name, pool in pools if name == roll), None)


class Players(Record, frozen=True):
    """The Houses, the Positions and the Player cards: the box's 28 basic ones and the unique ones."""

    houses: tuple[House, ...]
    positions: dict[Position, PositionSpec]
    players: tuple[PlayerCard, ...]

    def __post_init__(self) -> None:
        if sorted(self.houses) != sorted(HOUSES) or len(self.houses) != len(HOUSES):
            raise DataError(f"houses: exactly {', '.join(HOUSES)}")
        self._check_positions()
        ids = [p.id for p in self.players]
        if len(set(ids)) != len(ids):
            raise DataError(f"players: an id used twice: {sorted(i for i, n in Counter(ids).items() if n > 1)}")
        for card in self.players:
            spec = self.positions[card.position]
            if set(card.actions) != set(spec.actions):
                raise DataError(f"player {card.id}: a {card.position} lists the Actions {', '.join(spec.actions)}")
            if set(card.reactions) != set(spec.reactions):
                raise DataError(
                    f"player {card.id}: a {card.position} lists the Reactions {', '.join(spec.reactions) or 'none'}"
                )
        for house in self.houses:
            basic = Counter({p.position: p.copies for p in self.players if p.cost == 0 and house in p.affiliation})
            if len([p for p in self.players if p.cost == 0 and house in p.affiliation]) != len(basic):
                raise DataError(f"players: {house} has two basic card designs for one Position")
            if basic != Counter(TEAM):
                raise DataError(f"players: {house}'s basic cards (cost 0) are not a Team of {dict(TEAM)}")
        if sum(p.copies for p in self.basic) != PLAYER_CARDS:
            raise DataError(f"players: the box holds {PLAYER_CARDS} basic Player cards (cost 0), l.96")

    @property
    def basic(self) -> tuple[PlayerCard, ...]:
        """The box's basic cards (cost 0), in file order."""
        return tuple(p for p in self.players if not p.unique)

    @property
    def unique(self) -> tuple[PlayerCard, ...]:
        """The unique Players (cost ≥ 1, ✷), in file order."""
        return tuple(p for p in self.players if p.unique)

    def card(self, card_id: str) -> PlayerCard:
        """The Player card with this id (KeyError if none)."""
        for card in self.players:
            if card.id == card_id:
                return card
        raise KeyError(card_id)

    def _check_positions(self) -> None:
        if {p: s.team for p, s in self.positions.items()} != TEAM:
            raise DataError(f"positions: a Team is {TEAM}")
        for position, spec in self.positions.items():
            listed = set(spec.actions) | set(spec.reactions)
            if len(set(spec.actions)) != len(spec.actions) or len(set(spec.reactions)) != len(spec.reactions):
                raise DataError(f"positions.{position}: an Action or Reaction listed twice")
            for name in listed:
                if ONLY.get(name, position) != position:
                    raise DataError(f"positions.{position}: only a {ONLY[name]} lists {name}")
            if position == "seeker":
                if set(spec.actions) != RACE_ACTIONS or spec.reactions:
                    raise DataError("positions.seeker: a Seeker only races (Accelerate, Dodge, Glimpse, Obstruct)")
            elif listed & RACE_ACTIONS or not set(spec.reactions) >= EVERY_PITCH_PLAYER_REACTS:
                raise DataError(f"positions.{position}: a Pitch Player never races; it Reacts with Steal and Manoeuvre")

    def lineup(self, house: House) -> tuple[PlayerCard, ...]:
        """The seven basic cards (cost 0) of a House's Team: Keeper, 2 Beaters, 3 Chasers, Seeker."""
        cards = {p.position: p for p in self.players if p.cost == 0 and house in p.affiliation}
        return tuple(cards[position] for position in POSITIONS for _ in range(cards[position].copies))
