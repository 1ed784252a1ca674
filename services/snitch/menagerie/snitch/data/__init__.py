"""Authored data of Catch the Golden Snitch: pitch, Snitch race track, dice, basic players, Goal Hoops (see RULES.md).

The rulebook (`catch-the-golden-snitch.txt`) is explicit about the kinds of things on the
board and the cards; the shapes and numbers it leaves open are authored in the TOML files
beside this module. The loader refuses data that breaks the rulebook or the authored
invariants, with a `DataError` naming the file and the entry. Pure: it reads package data
(importlib.resources) and nothing else.

The helpers `DataError`, `read_toml` and `convert` are shared with the package's other
loaders (the tactical decks and the Snitch race deck).
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter, deque
from collections.abc import Callable
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

    def zone_index(self) -> dict[str, Zone]:
        """The Zones by id."""
        return _zone_index(self)

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


# --- Basic players --------------------------------------------------------------------


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


class PlayerCard(Record, frozen=True):
    """A Player card: name, Position, Affiliation, Galleon cost, dice per Action and per Reaction."""

    id: Id
    name: str
    position: Position
    affiliation: tuple[House, ...]
    cost: Count
    copies: Positive
    actions: dict[ActionName, DicePool]
    reactions: dict[ReactionName, DicePool]
    trait: str | None = None

    def __post_init__(self) -> None:
        if not self.affiliation or len(set(self.affiliation)) != len(self.affiliation):
            raise DataError("one or more distinct Houses in its affiliation")
        for kind, pools in (("action", self.actions), ("reaction", self.reactions)):
            for name, pool in pools.items():
                if pool.size == 0:
                    raise DataError(f"{kind} {name} rolls no dice")
                if max(pool.by_colour().values()) > DICE_PER_COLOUR:
                    raise DataError(f"{kind} {name} rolls more than {DICE_PER_COLOUR} dice of a colour")


class Players(Record, frozen=True):
    """The Houses, the Positions and the Player cards."""

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
        if sum(p.copies for p in self.players) != PLAYER_CARDS:
            raise DataError(f"players: the box holds {PLAYER_CARDS} Player cards")

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
