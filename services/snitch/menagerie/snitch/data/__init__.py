"""Authored data of Catch the Golden Snitch: pitch, race track, dice, Players, Goal Hoops, Spectators (see RULES.md).

The rulebook (`catch-the-golden-snitch.txt`) is explicit about the kinds of things on the
board and the cards; the shapes and numbers it leaves open are authored in the TOML files
beside this module. The loader refuses data that breaks the rulebook or the authored
invariants, with a `DataError` naming the file and the entry. Pure: it reads package data
(importlib.resources) and nothing else.

The helpers `DataError`, `read_toml` and `convert` are shared with the package's other
loaders (the tactical decks and the Snitch race deck). The Player cards are the 28 basic
cards of the box and the unique Players (✷) with their Traits (`Trait`, `describe_trait`);
the Spectator cards load apart (`load_spectators()`), their effects taken from the Intrepid
Move vocabulary of `cards.py` (and worded by its `describe_effect`).
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter, deque
from collections.abc import Callable, Iterable
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Annotated, Any, Literal, TypeVar, get_args

import msgspec

House = Literal["gryffindor", "slytherin", "ravenclaw", "hufflepuff"]
Position = Literal["keeper", "beater", "chaser", "seeker"]
Colour = Literal["orange", "purple", "black"]
Symbol = Literal["success", "double_success", "opportunity", "double_opportunity", "blank"]
ActionName = Literal["pass", "shoot", "steal", "beat", "accelerate", "dodge", "glimpse", "obstruct"]
ReactionName = Literal["steal", "manoeuvre", "defense", "catch"]
Side = Literal["owner", "rival"]

HOUSES: tuple[House, ...] = get_args(House)
POSITIONS: tuple[Position, ...] = get_args(Position)
COLOURS: tuple[Colour, ...] = get_args(Colour)
SYMBOLS: tuple[Symbol, ...] = get_args(Symbol)

# The rulebook's explicit facts the loader holds the files to (line numbers of
# catch-the-golden-snitch.txt).
ZONE_COUNT = 12  # l.117 "The Pitch is divided into 12 Zones"
TEAM = {"keeper": 1, "beater": 2, "chaser": 3, "seeker": 1}  # l.131, l.698
DICE_PER_COLOUR = 3  # l.81 "9 Dice (3 black dice, 3 purple dice, 3 orange dice)"
FACES_PER_DIE = 6  # authored: the rulebook never counts a die's faces
PLAYER_CARDS = 28  # l.96 "28 Player Cards (7 Gryffindor, 7 Slytherin, 7 Ravenclaw, 7 Hufflepuff)"
UNIQUE_MARK = " ✷"  # l.707 "If a Player or Spectator has the ✷ after their name"
# l.163: a Success symbol is 1 Success, a double Success 2; an Opportunity 1, the crossed symbol 2.
SYMBOL_VALUES: dict[Symbol, tuple[int, int]] = {
    "success": (1, 0),
    "double_success": (2, 0),
    "opportunity": (0, 1),
    "double_opportunity": (0, 2),
    "blank": (0, 0),
}
# Who owns which Action or Reaction (l.364 Shoot "only ... a Chaser", l.380 Beat "one of
# your Beaters", l.408 Defense "When a Beater", l.412 Catch "your Keeper", l.139 and
# l.586 Seekers only race, l.406 Manoeuvre and l.404 Steal: any Player targeted).
RACE_ACTIONS: frozenset[str] = frozenset({"accelerate", "dodge", "glimpse", "obstruct"})
ONLY: dict[str, Position] = {"shoot": "chaser", "beat": "beater", "defense": "beater", "catch": "keeper"}
EVERY_PITCH_PLAYER_REACTS: frozenset[str] = frozenset({"steal", "manoeuvre"})
# l.123 / l.498: the Defending Keeper and up to one attacking Chaser with the Quaffle.
SCORING_AREA_OCCUPANTS: frozenset[tuple[str, str, int, bool]] = frozenset(
    {("owner", "keeper", 1, False), ("rival", "chaser", 1, True)}
)

Count = Annotated[int, msgspec.Meta(ge=0)]
Positive = Annotated[int, msgspec.Meta(ge=1)]
Id = Annotated[str, msgspec.Meta(pattern=r"^[a-z][a-z0-9_]*$")]

T = TypeVar("T")


class DataError(ValueError):
    """A data file breaks one of its invariants; the message names the file and the entry."""


def read_toml(name: str) -> dict[str, Any]:
    """One TOML file of this package's data, as read (not validated)."""
    return tomllib.loads((resources.files(__name__) / name).read_text(encoding="utf-8"))


_AT = re.compile(r"`\$((?:\.\w+|\[\d+\]|\[\.\.\.\])*)`")


def _entry(raw: object, path: str) -> str:
    """The path of a msgspec error, with the id of each list entry it goes through."""
    out, node = "", raw
    for key, index, value in re.findall(r"\.(\w+)|\[(\d+)\]|(\[\.\.\.\])", path):
        if value:  # some key of a table: msgspec does not say which
            out += value
            node = None
        elif key:
            out += f".{key}"
            node = node.get(key) if isinstance(node, dict) else None
        else:
            out += f"[{index}]"
            node = node[int(index)] if isinstance(node, list) and int(index) < len(node) else None
            if isinstance(node, dict) and isinstance(node.get("id"), str | int):
                out += f" (id {node['id']!r})"
    return out.lstrip(".")


def convert(name: str, raw: object, kind: type[T]) -> T:
    """`raw` (the contents of data file `name`) validated as `kind`; DataError names the file and the entry."""
    try:
        return msgspec.convert(raw, kind)
    except msgspec.ValidationError as exc:
        message, _, at = str(exc).rpartition(" - at ")
        if not message or not _AT.fullmatch(at):
            message, at = str(exc), "`$`"
        where = _entry(raw, at.strip("`")[1:])
        raise DataError(f"{name}: {where}: {message}" if where else f"{name}: {message}") from exc


class Record(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The base of every data struct: immutable, and an unknown field (a misspelt key) is an error."""


# --- The pitch ------------------------------------------------------------------------


class Zone(Record, frozen=True):
    """One Zone of the Pitch and the Zones adjacent to it."""

    id: Id
    name: str
    row: Count
    column: Count
    orange: bool
    adjacent: tuple[Id, ...]

    def __post_init__(self) -> None:
        if self.id in self.adjacent:
            raise DataError("a zone is not adjacent to itself")
        if len(set(self.adjacent)) != len(self.adjacent):
            raise DataError("an adjacent zone listed twice")
        if not self.adjacent:
            raise DataError("a zone with no adjacent zone")


class Half(Record, frozen=True):
    """A half of the Pitch: its Zones (orange ones included), its Scoring Area and Deployment Zone."""

    id: Id
    zones: tuple[Id, ...]
    scoring_area: Id
    deployment_zone: Id


class Occupant(Record, frozen=True):
    """Who may be inside a Scoring Area: whose Players (owner or rival), which Position, how many, with the Quaffle?"""

    team: Side
    position: Position
    max: Positive
    needs_quaffle: bool


class Pitch(Record, frozen=True):
    """The 12 Zones, the two halves and who may enter a Scoring Area."""

    zones: tuple[Zone, ...]
    halves: tuple[Half, ...]
    scoring_area_occupants: tuple[Occupant, ...]

    def __post_init__(self) -> None:
        ids = [z.id for z in self.zones]
        if len(ids) != ZONE_COUNT or len(set(ids)) != ZONE_COUNT:
            raise DataError(f"the Pitch has {ZONE_COUNT} zones with distinct ids (found {len(set(ids))} ids)")
        known = set(ids)
        for zone in self.zones:
            for other in zone.adjacent:
                if other not in known:
                    raise DataError(f"zone {zone.id}: unknown adjacent zone {other}")
                if zone.id not in self.zone(other).adjacent:
                    raise DataError(f"zone {zone.id}: adjacent to {other}, but {other} does not list it")
        if len(self._reachable(ids[0])) != ZONE_COUNT:
            raise DataError(f"the Pitch is not connected: from {ids[0]} only {sorted(self._reachable(ids[0]))}")
        self._check_halves(known)
        occupants = {(o.team, o.position, o.max, o.needs_quaffle) for o in self.scoring_area_occupants}
        if occupants != SCORING_AREA_OCCUPANTS or len(self.scoring_area_occupants) != len(occupants):
            raise DataError(
                "scoring_area_occupants: exactly the owner's Keeper and one rival Chaser with the Quaffle "
                "(rulebook: 'No other Player may enter a Scoring Area by any means')"
            )

    def _check_halves(self, known: set[str]) -> None:
        if len(self.halves) != 2 or self.halves[0].id == self.halves[1].id:
            raise DataError("the Pitch has two halves with distinct ids")
        for half in self.halves:
            unknown = set(half.zones) - known
            if unknown:
                raise DataError(f"half {half.id}: unknown zones {sorted(unknown)}")
            if len(set(half.zones)) != len(half.zones):
                raise DataError(f"half {half.id}: a zone listed twice")
            for role, zone in (("scoring_area", half.scoring_area), ("deployment_zone", half.deployment_zone)):
                if zone not in half.zones:
                    raise DataError(f"half {half.id}: its {role} {zone} is not one of its zones")
                if self.zone(zone).orange:
                    raise DataError(f"half {half.id}: its {role} {zone} is orange (in both halves)")
            if half.scoring_area == half.deployment_zone:
                raise DataError(f"half {half.id}: the Scoring Area and the Deployment Zone are one zone")
        first, second = (set(h.zones) for h in self.halves)
        if first | second != known:
            raise DataError(f"zones in neither half: {sorted(known - first - second)}")
        orange = {z.id for z in self.zones if z.orange}
        if first & second != orange:
            raise DataError(
                f"the zones in both halves {sorted(first & second)} must be exactly the orange zones {sorted(orange)}"
            )
        if not orange:
            raise DataError("the Pitch has orange zones (rulebook: 'The orange Zones are considered to be in both')")

    def zone(self, zone_id: str) -> Zone:
        """The Zone with this id (KeyError if none)."""
        return _zone_index(self)[zone_id]

    def half(self, half_id: str) -> Half:
        """The half with this id (KeyError if none)."""
        if (found := _derived(self)[3].get(half_id)) is not None:
            return found
        for half in self.halves:
            if half.id == half_id:
                return half
        raise KeyError(half_id)

    def _reachable(self, start: str) -> dict[str, int]:
        return _reachable(self, start)

    def _search(self, start: str) -> dict[str, int]:
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in self.zone(here).adjacent:
                if there not in seen:
                    seen[there] = seen[here] + 1
                    queue.append(there)
        return seen

    def distance(self, a: str, b: str) -> int:
        """How many Zones apart two Zones are (0 for the same Zone, 1 for adjacent ones)."""
        return _reachable(self, a)[b]

    @property
    def orange_zones(self) -> frozenset[str]:
        """The Zones in both halves."""
        return _zone_set(self, "orange", lambda: frozenset(z.id for z in self.zones if z.orange))

    @property
    def scoring_areas(self) -> frozenset[str]:
        """Both halves' Scoring Areas."""
        return _zone_set(self, "scoring", lambda: frozenset(h.scoring_area for h in self.halves))

    @property
    def deployment_zones(self) -> frozenset[str]:
        """Both halves' Deployment Zones."""
        return _zone_set(self, "deployment", lambda: frozenset(h.deployment_zone for h in self.halves))


# --- The Snitch race track ------------------------------------------------------------


class Track(Record, frozen=True):
    """The Snitch Race: spaces 1 (first) to `spaces` (last), and where the Snitch and the Seekers start."""

    spaces: Annotated[int, msgspec.Meta(ge=2)]
    snitch_start: Positive
    seekers_start: Positive

    def __post_init__(self) -> None:
        if self.snitch_start != self.spaces:
            raise DataError("snitch_start: the Golden Snitch starts 'in the last space of the Snitch Race'")
        if self.seekers_start != 1:
            raise DataError("seekers_start: each Seeker starts 'in the first space of the Snitch Race'")


# --- Dice -----------------------------------------------------------------------------


class SymbolValue(Record, frozen=True):
    """What one symbol counts: Successes on an Action roll, Opportunities on a Reaction roll."""

    successes: Count
    opportunities: Count


class Die(Record, frozen=True):
    """One colour of die: how many the game has and its faces."""

    count: Positive
    faces: tuple[Symbol, ...]


class SetupRoll(Record, frozen=True):
    """The roll for the advantage at Setup (4th Step): which die, and whether a blank is rolled again."""

    colour: Colour
    reroll_blank: bool


class Dice(Record, frozen=True):
    """The symbols, the three colours of dice and the Setup roll."""

    symbols: dict[Symbol, SymbolValue]
    colours: dict[Colour, Die]
    setup_roll: SetupRoll

    def __post_init__(self) -> None:
        values = {s: (v.successes, v.opportunities) for s, v in self.symbols.items()}
        if values != SYMBOL_VALUES:
            raise DataError(f"symbols: the rulebook's values are {SYMBOL_VALUES}")
        if set(self.colours) != set(COLOURS):
            raise DataError(f"colours: exactly {', '.join(COLOURS)}")
        for colour, die in self.colours.items():
            if len(die.faces) != FACES_PER_DIE:
                raise DataError(f"colours.{colour}: a die has {FACES_PER_DIE} faces, not {len(die.faces)}")
            if die.count != DICE_PER_COLOUR:
                raise DataError(f"colours.{colour}: the game has {DICE_PER_COLOUR} {colour} dice")
        if {f for d in self.colours.values() for f in d.faces} != set(SYMBOLS):
            raise DataError(f"the dice between them show every symbol: {', '.join(SYMBOLS)}")
        successes = [self.expected_successes(c) for c in ("orange", "purple", "black")]
        if not successes[0] > successes[1] > successes[2]:
            raise DataError("expected Successes per die must run orange > purple > black (rulebook 'Dice')")
        opportunities = [self.expected_opportunities(c) for c in ("black", "purple", "orange")]
        if not opportunities[0] > opportunities[1] > opportunities[2]:
            raise DataError("expected Opportunities per die must run black > purple > orange (rulebook 'Dice')")
        faces = self.colours[self.setup_roll.colour].faces
        if self.setup_roll.reroll_blank != any(sum(SYMBOL_VALUES[f]) == 0 for f in faces):
            raise DataError("setup_roll: blanks are rolled again exactly when the die has blank faces")

    def expected_successes(self, colour: Colour) -> Fraction:
        """The Successes one die of this colour rolls on average on an Action."""
        faces = self.colours[colour].faces
        return Fraction(sum(self.symbols[f].successes for f in faces), len(faces))

    def expected_opportunities(self, colour: Colour) -> Fraction:
        """The Opportunities one die of this colour rolls on average on a Reaction."""
        faces = self.colours[colour].faces
        return Fraction(sum(self.symbols[f].opportunities for f in faces), len(faces))


# --- Players: dice pools and Positions ------------------------------------------------


class DicePool(Record, frozen=True):
    """The dice a Player card lists for one Action or Reaction, by colour."""

    orange: Count = 0
    purple: Count = 0
    black: Count = 0

    @property
    def size(self) -> int:
        """How many dice the pool rolls."""
        return self.orange + self.purple + self.black

    def by_colour(self) -> dict[Colour, int]:
        """The pool as colour → number of dice."""
        return {"orange": self.orange, "purple": self.purple, "black": self.black}


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


# --- Goal Hoop cards ------------------------------------------------------------------


class Hoops(Record, frozen=True):
    """The Goal Hoop cards: each Coach's numbers, how many sets, and what Aim at the Hoop adds to the Shoot roll."""

    numbers: tuple[Positive, ...]
    sets: Positive
    bonus_if_same: Count
    bonus_if_different: Count

    def __post_init__(self) -> None:
        if self.numbers != (1, 2, 3):
            raise DataError("numbers: each Coach holds three cards numbered 1, 2 and 3")
        if self.sets * len(self.numbers) != 6:
            raise DataError("sets: the game has 6 Goal Hoop cards, one set of three per Coach")
        if (self.bonus_if_same, self.bonus_if_different) != (0, 1):
            raise DataError("bonus: the same numbers add nothing, different numbers add one Success")


# --- Spectator cards ------------------------------------------------------------------
# Their effects are the Intrepid Move effects of cards.py, which imports this module's
# helpers: imported here, once those helpers exist.

from menagerie.snitch.data.cards import (  # noqa: E402
    Bludger,
    DiceTokens,
    Effect,
    FreeAction,
    Shift,
    Tempo,
    Upwind,
)

StandZone = Literal["magic", "encouragement"]  # l.715 "the Magic Zone and the Encouragement Zone"
STAND_ZONES: tuple[StandZone, ...] = get_args(StandZone)
FERVENT_FAN = "fervent_fan"  # l.699, l.717: every Coach receives one at no cost
FERVENT_FANS = 2  # one per Coach
MAX_SPECTATOR_COST = 2  # authored
BOUGHT_SPECTATORS = 2  # l.699 "may purchase up to 2 additional Spectators"
# A Spectator's effect applies when its token is placed (l.719): the immediate kinds only.
IMMEDIATE_EFFECTS: tuple[type, ...] = (Shift, FreeAction, DiceTokens, Tempo, Bludger, Upwind)
SpectatorCost = Annotated[int, msgspec.Meta(ge=0, le=MAX_SPECTATOR_COST)]


def _effect_kind(effect: Effect) -> str:
    return str(type(effect).__struct_config__.tag)


class SpectatorCard(Record, frozen=True):
    """A Spectator card (l.715–721): the Stand Zones it may be placed in, its first effect (placed in an
    empty Zone) and its second (placed on a rival Spectator, which is removed first), cost, Houses, copies."""

    id: Id
    name: str
    cost: SpectatorCost
    affiliation: tuple[House, ...]
    zones: tuple[StandZone, ...]
    first: Effect
    second: Effect
    copies: Positive = 1

    def __post_init__(self) -> None:
        if not self.affiliation or len(set(self.affiliation)) != len(self.affiliation):
            raise DataError("one or more distinct Houses in its affiliation")
        if not self.zones or len(set(self.zones)) != len(self.zones):
            raise DataError("zones: one or both of magic, encouragement, each once (l.719)")
        for which, effect in (("first", self.first), ("second", self.second)):
            if not isinstance(effect, IMMEDIATE_EFFECTS) or (isinstance(effect, Tempo) and effect.on is not None):
                kind = _effect_kind(effect) + (" with on" if isinstance(effect, Tempo) else "")
                raise DataError(
                    f"{which}: {kind} is not an immediate effect; a Spectator's effect applies when it is "
                    "placed (shift, free_action, dice_tokens, tempo without on, bludger, upwind)"
                )
        if self.first == self.second:
            raise DataError("second: the effect on displacing a rival Spectator differs from the first (l.719)")
        if self.id == FERVENT_FAN:
            if self.cost != 0 or self.copies != FERVENT_FANS or set(self.affiliation) != set(HOUSES):
                raise DataError(f"the Fervent Fan costs 0, has {FERVENT_FANS} copies (one per Coach) and every House")
            if "✷" in self.name:
                raise DataError("the Fervent Fan is not unique: no ✷ in its name")
            return
        if self.cost == 0:
            raise DataError("only the Fervent Fan is free; a bought Spectator costs 1 or 2 Galleons (l.717)")
        if self.copies != 1 or not self.name.endswith(UNIQUE_MARK):
            raise DataError(f"a bought Spectator is one card (copies = 1) named with a '{UNIQUE_MARK}' (l.707)")


class Spectators(Record, frozen=True):
    """The Spectator cards (spectators.toml): the Fervent Fan and the Spectators a Coach may buy."""

    spectators: tuple[SpectatorCard, ...]

    def __post_init__(self) -> None:
        ids = [c.id for c in self.spectators]
        if len(set(ids)) != len(ids):
            raise DataError(f"spectators: an id used twice: {sorted(i for i, n in Counter(ids).items() if n > 1)}")
        if FERVENT_FAN not in ids:
            raise DataError(f"spectators: no Fervent Fan ({FERVENT_FAN}), which every Coach receives (l.699)")
        for house in HOUSES:
            if len([c for c in self.bought if house in c.affiliation]) < BOUGHT_SPECTATORS:
                raise DataError(f"spectators: {house} may buy {BOUGHT_SPECTATORS} Spectators (l.699), it has fewer")

    @property
    def bought(self) -> tuple[SpectatorCard, ...]:
        """The Spectators that cost Galleons, in file order."""
        return tuple(c for c in self.spectators if c.id != FERVENT_FAN)

    def card(self, card_id: str) -> SpectatorCard:
        """The Spectator card with this id (KeyError if none)."""
        for card in self.spectators:
            if card.id == card_id:
                return card
        raise KeyError(card_id)


def parse_spectators(raw: dict[str, Any]) -> Spectators:
    """The Spectator cards from spectators.toml's contents; DataError names the file and the card."""
    return convert("spectators.toml", raw, Spectators)


@cache
def load_spectators() -> Spectators:
    """The validated Spectator cards (read once per process)."""
    return parse_spectators(read_toml("spectators.toml"))


# --- All of it ------------------------------------------------------------------------


class BoardData(Record, frozen=True):
    """The pitch, the track, the dice, the basic players and the Goal Hoop cards."""

    pitch: Pitch
    track: Track
    dice: Dice
    players: Players
    hoops: Hoops


FILES: dict[str, tuple[str, type[Any]]] = {
    "pitch": ("pitch.toml", Pitch),
    "track": ("track.toml", Track),
    "dice": ("dice.toml", Dice),
    "players": ("players.toml", Players),
    "hoops": ("hoops.toml", Hoops),
}


def read_files() -> dict[str, dict[str, Any]]:
    """Each of this module's data files as read (keyed pitch, track, dice, players, hoops), before validation."""
    return {key: read_toml(name) for key, (name, _) in FILES.items()}


def parse(files: dict[str, dict[str, Any]]) -> BoardData:
    """Validated data from the files' contents; DataError names the file and the entry at fault."""
    parts = {key: convert(name, files[key], kind) for key, (name, kind) in FILES.items()}
    return BoardData(**parts)


@cache
def load_data() -> BoardData:
    """The validated data (read once per process)."""
    return parse(read_files())


# Tables derived from an (immutable) Pitch, computed once: by the pitch's id, holding the
# pitch itself so that an id is never reused while its entry lives.
_Derived = tuple[Pitch, dict[str, Zone], dict[str, dict[str, int]], dict[str, Half], dict[str, frozenset[str]]]
_DERIVED: dict[int, _Derived] = {}


def _derived(pitch: Pitch) -> _Derived:
    entry = _DERIVED.get(id(pitch))
    if entry is None or entry[0] is not pitch:
        zones = {z.id: z for z in pitch.zones}
        halves = {h.id: h for h in pitch.halves}
        entry = _DERIVED[id(pitch)] = (pitch, zones, {}, halves, {})
    return entry


def _reachable(pitch: Pitch, start: str) -> dict[str, int]:
    """Distances from `start`, searched once per Zone."""
    table = _derived(pitch)[2]
    found = table.get(start)
    if found is None:
        found = table[start] = pitch._search(start)
    return found


def _zone_index(pitch: Pitch) -> dict[str, Zone]:
    return _derived(pitch)[1]


def _zone_set(pitch: Pitch, name: str, build: Callable[[], frozenset[str]]) -> frozenset[str]:
    sets = _derived(pitch)[4]
    found = sets.get(name)
    if found is None:
        found = sets[name] = build()
    return found
