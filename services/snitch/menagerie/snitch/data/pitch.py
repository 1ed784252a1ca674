"""The Pitch (pitch.toml): its Zones, its two halves and who may enter a Scoring Area.

The tables derived from a Pitch (Zones by id, distances, the orange Zones, ...) are
computed once per Pitch and kept here.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from menagerie.snitch.data.records import Count, DataError, Id, Positive, Record
from menagerie.snitch.data.rulebook import SCORING_AREA_OCCUPANTS, ZONE_COUNT, Position, Side

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
