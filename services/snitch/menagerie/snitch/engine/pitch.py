"""Where players, balls and Bludgers may go, in one place: the engine moves with these, the bots plan with them.

- where things are (`Layout`: each Pitch Player's Zone, the Quaffle held or Loose, the
  Bludgers) and the Setup positions (`setup_layout`);
- Zones within N moves (`zones_within`), who may be inside a Scoring Area (`may_be_in`);
- Disadvantage (`disadvantage`, `pass_disadvantage`);
- the Actions' targets: Move and Shift (`move_destinations`, `shift_destinations`), Pass
  (`pass_targets`), Shoot (`may_shoot`), Steal (`stealers`), Beat (`beaters`,
  `beat_targets`, `beaten_bludger_zones`), picking up a Loose Quaffle (`picks_up`);
- losing the Quaffle: where it may go Loose (`loose_quaffle_zones`), who must Shift out
  of a Scoring Area and where (`must_shift_out`, `shift_out_zones`), when a Keeper's
  Kick-Off starts (`keeper_kick_off`);
- the Kick-Off: Bludger placement (`bludger_placements`) and the 2/1/1/2 deployment
  moves (`KICK_OFF_MOVES`, `deployment_options`);
- the Bludger Movement (`bludger_destinations`, `bludger_targets`, `defense_beaters`).

Rulebook line numbers (l.) are of `catch-the-golden-snitch.txt`; RULES.md ("Movement and
zones") records each reading. Teams are seats 0 and 1; a Player is its Team and its index
in the lineup's Pitch Players (`PITCH_LINEUP`). Seekers are never on the Pitch (l.139).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

import msgspec

from menagerie.snitch.data import POSITIONS, TEAM, Half, Pitch, Position

# The Pitch Players of a Team in lineup order (`Players.lineup` without the Seeker):
# Keeper, 2 Beaters, 3 Chasers (l.131). A Player is identified by its index here.
PITCH_LINEUP: tuple[Position, ...] = tuple(p for p in POSITIONS if p != "seeker" for _ in range(TEAM[p]))
PASS_RANGE = 2  # l.356 "Target a friendly model up to 2 Zones away"
BEAT_RANGE = 2  # l.380 "targets a rival Player up to 2 Zones away"
DISADVANTAGE = 1  # l.416, l.419: deduct 1 Success or Opportunity
SEVERE_DISADVANTAGE = 2  # l.416 "difference ... is 2 or more", l.420: deduct 2
# The Kick-Off deployment (l.261-267), in order: (is it the Attacking Coach?, how many Players).
KICK_OFF_MOVES: tuple[tuple[bool, int], ...] = ((True, 2), (False, 1), (True, 1), (False, 2))

# How the Quaffle was lost, for where it may go Loose: a failed Pass (l.356), a Beat
# (l.380), a Bludger Movement hit (l.536), a failed Shoot with no Keeper inside (l.370).
LossCause = Literal["pass", "beat", "bludger", "shoot"]


class PlayerRef(msgspec.Struct, frozen=True, order=True, array_like=True):
    """A Pitch Player: its Team (seat 0 or 1) and its index in `PITCH_LINEUP`."""

    team: int
    index: int

    @property
    def position(self) -> Position:
        """Keeper, Beater or Chaser."""
        return PITCH_LINEUP[self.index]


class Deploy(msgspec.Struct, frozen=True):
    """One Player's Kick-Off deployment move: from its Deployment Zone to an adjacent Zone."""

    player: PlayerRef
    to: str


class Layout(msgspec.Struct, frozen=True):
    """Where things are: each Team's half, its Pitch Players' Zones, the Quaffle, the Bludgers."""

    halves: tuple[str, str]  # the half each Team picked at Setup (l.235), by seat
    players: tuple[tuple[str, ...], tuple[str, ...]]  # each Team's Pitch Players' Zones, by lineup index
    quaffle: PlayerRef | str  # in Possession of a Player, or Loose in that Zone
    bludgers: tuple[str, ...] = ()  # the Bludgers' Zones, once placed at the Kick-Off (l.257)

    def zone_of(self, player: PlayerRef) -> str:
        """The Zone a Player is in."""
        return self.players[player.team][player.index]

    def all_players(self) -> tuple[PlayerRef, ...]:
        """Every Pitch Player, Team 0 first."""
        return tuple(PlayerRef(t, i) for t in (0, 1) for i in range(len(self.players[t])))

    def team_players(self, team: int) -> tuple[PlayerRef, ...]:
        """A Team's Pitch Players."""
        return tuple(PlayerRef(team, i) for i in range(len(self.players[team])))

    def players_in(self, zone: str) -> tuple[PlayerRef, ...]:
        """The Players in a Zone, Team 0 first."""
        return tuple(PlayerRef(t, i) for t in (0, 1) for i, z in enumerate(self.players[t]) if z == zone)

    @property
    def holder(self) -> PlayerRef | None:
        """The Player in Possession of the Quaffle, or None if it is Loose."""
        return self.quaffle if isinstance(self.quaffle, PlayerRef) else None

    @property
    def quaffle_zone(self) -> str:
        """The Zone the Quaffle is in (with its holder, l.271, or Loose)."""
        return self.zone_of(self.quaffle) if isinstance(self.quaffle, PlayerRef) else self.quaffle

    def moved(self, player: PlayerRef, zone: str) -> Layout:
        """This layout with one Player in another Zone (the Quaffle moves with its holder, l.271)."""
        zones = list(self.players[player.team])
        zones[player.index] = zone
        both = list(self.players)
        both[player.team] = tuple(zones)
        return msgspec.structs.replace(self, players=(both[0], both[1]))

    def with_quaffle(self, quaffle: PlayerRef | str) -> Layout:
        """This layout with the Quaffle held by a Player or Loose in a Zone."""
        return msgspec.structs.replace(self, quaffle=quaffle)

    def with_bludger(self, bludger: int, zone: str) -> Layout:
        """This layout with a Bludger in a Zone (a new one if `bludger` is the next index)."""
        zones = list(self.bludgers)
        if bludger == len(zones):
            zones.append(zone)
        else:
            zones[bludger] = zone
        return msgspec.structs.replace(self, bludgers=tuple(zones))


# --------------------------------------------------------------------------- zones


def _ordered(pitch: Pitch, zones: Iterable[str]) -> tuple[str, ...]:
    """Zones in the pitch's order, so listings are stable."""
    wanted = set(zones)
    return tuple(z.id for z in pitch.zones if z.id in wanted)


def adjacent(pitch: Pitch, zone: str) -> tuple[str, ...]:
    """The Zones next to a Zone."""
    return pitch.zone(zone).adjacent


def zones_within(pitch: Pitch, zone: str, moves: int) -> tuple[str, ...]:
    """The Zones at most `moves` Zones away (the Zone itself included)."""
    return tuple(z.id for z in pitch.zones if pitch.distance(zone, z.id) <= moves)


def own_half(pitch: Pitch, layout: Layout, team: int) -> Half:
    """The half a Team picked at Setup (l.235)."""
    return pitch.half(layout.halves[team])


def scoring_area_owner(pitch: Pitch, layout: Layout, zone: str) -> int | None:
    """The Team whose Hoops a Scoring Area holds (its Keeper defends it), or None for any other Zone."""
    return _scoring_area_owners(pitch, layout.halves).get(zone)


# Scoring Area -> its Team, by pitch and the halves picked: asked for every Zone a Player might
# enter, so computed once. Keyed by the pitch's id, holding the pitch so an id is never reused.
_OWNERS: dict[tuple[int, tuple[str, str]], tuple[Pitch, dict[str, int]]] = {}


def _scoring_area_owners(pitch: Pitch, halves: tuple[str, str]) -> dict[str, int]:
    entry = _OWNERS.get((id(pitch), halves))
    if entry is None or entry[0] is not pitch:
        # Team 0 written last: it keeps a Zone both halves would name (as a search from Team 0 did).
        owners = {pitch.half(halves[team]).scoring_area: team for team in (1, 0)}
        entry = _OWNERS[(id(pitch), halves)] = (pitch, owners)
    return entry[1]


def rival(team: int) -> int:
    """The other Team."""
    return 1 - team


def may_be_in(pitch: Pitch, layout: Layout, player: PlayerRef, zone: str, with_quaffle: bool | None = None) -> bool:
    """Whether a Player may be in a Zone: only a Scoring Area limits who (l.123, l.498), per the pitch data.

    `with_quaffle` says whether the Player would hold the Quaffle there (default: whether it
    holds it now); other Players already in the Zone count towards each occupant's maximum.
    """
    owner = scoring_area_owner(pitch, layout, zone)
    if owner is None:
        return True
    side = "owner" if player.team == owner else "rival"
    carrying = layout.holder == player if with_quaffle is None else with_quaffle
    for occupant in pitch.scoring_area_occupants:
        if occupant.team == side and occupant.position == player.position:
            if occupant.needs_quaffle and not carrying:
                return False
            others = [
                p
                for p in layout.players_in(zone)
                if p != player and p.team == player.team and p.position == player.position
            ]
            return len(others) < occupant.max
    # l.123: "No other Player may enter a Scoring Area by any means".
    return False


# -------------------------------------------------------------------- Disadvantage


def zone_disadvantage(layout: Layout, zone: str) -> tuple[int, int]:
    """Each Team's Disadvantage in a Zone: 0, DISADVANTAGE or SEVERE_DISADVANTAGE (l.416)."""
    counts = [layout.players[0].count(zone), layout.players[1].count(zone)]
    if not counts[0] or not counts[1]:
        # l.416 "When there are Players from both Teams in the same Zone": alone, no one is.
        return (0, 0)
    return (
        min(max(counts[1] - counts[0], 0), SEVERE_DISADVANTAGE),
        min(max(counts[0] - counts[1], 0), SEVERE_DISADVANTAGE),
    )


def disadvantage(layout: Layout, player: PlayerRef) -> int:
    """A Player's Disadvantage: 0, 1 or 2 (Severe), the Successes or Opportunities it deducts (l.416-420)."""
    return zone_disadvantage(layout, layout.zone_of(player))[player.team]


def pass_disadvantage(layout: Layout, passer: PlayerRef, target: PlayerRef) -> int:
    """The Disadvantage a Pass suffers: the worse of the passer's and the target's (l.358, l.428)."""
    # l.358 "suffers the Disadvantage rule if either Player ... is at a Disadvantage": the
    # rule applies once, at the level of the Player who is worse off (not summed).
    return max(disadvantage(layout, passer), disadvantage(layout, target))


# ---------------------------------------------------------------------------- Move


def shift_destinations(
    pitch: Pitch, layout: Layout, player: PlayerRef, *, scoring_areas: bool = True
) -> tuple[str, ...]:
    """The adjacent Zones a Player may Shift to: a Move ignoring Disadvantage (l.350).

    `scoring_areas=False` for a Shift "to an adjacent Zone (not a Scoring Area)" (the
    Keeper's Kick-Off, l.516).
    """
    owners = _scoring_area_owners(pitch, layout.halves)  # any other Zone is open to every Player
    return tuple(
        zone
        for zone in adjacent(pitch, layout.zone_of(player))
        if (zone not in owners or may_be_in(pitch, layout, player, zone))
        and (scoring_areas or zone not in pitch.scoring_areas)
    )


def move_destinations(pitch: Pitch, layout: Layout, player: PlayerRef) -> tuple[str, ...]:
    """The adjacent Zones a Player may Move to (l.346); none at a Disadvantage (l.418)."""
    if disadvantage(layout, player):
        return ()
    return shift_destinations(pitch, layout, player)


# ------------------------------------------------------------ Pass, Shoot, Steal, Beat


def pass_targets(pitch: Pitch, layout: Layout, passer: PlayerRef) -> tuple[PlayerRef, ...]:
    """The friendly Players (any Position, l.356) up to 2 Zones from the passer, who must hold the Quaffle."""
    if layout.holder != passer:
        return ()
    here = layout.zone_of(passer)
    return tuple(
        p
        for p in layout.team_players(passer.team)
        if p != passer
        and pitch.distance(here, layout.zone_of(p)) <= PASS_RANGE
        and may_be_in(pitch, layout, p, layout.zone_of(p), with_quaffle=True)
    )


def may_shoot(pitch: Pitch, layout: Layout, player: PlayerRef) -> bool:
    """Whether a Player may Shoot: a Chaser with the Quaffle in the rival's Scoring Area (l.364, l.484)."""
    return (
        player.position == "chaser"
        and layout.holder == player
        and layout.zone_of(player) == own_half(pitch, layout, rival(player.team)).scoring_area
    )


def stealers(layout: Layout) -> tuple[PlayerRef, ...]:
    """The Players who may Steal: the Defending Team's, in the holder's Zone (l.374); none if the Quaffle is Loose."""
    holder = layout.holder
    if holder is None:
        return ()
    return tuple(p for p in layout.players_in(layout.zone_of(holder)) if p.team != holder.team)


def bludgers_in(layout: Layout, zone: str) -> tuple[int, ...]:
    """The Bludgers (by index) in a Zone."""
    return tuple(i for i, z in enumerate(layout.bludgers) if z == zone)


def beaters(layout: Layout, team: int) -> tuple[PlayerRef, ...]:
    """A Team's Beaters who may Beat: those in the same Zone as a Bludger (l.380)."""
    return tuple(
        p for p in layout.team_players(team) if p.position == "beater" and bludgers_in(layout, layout.zone_of(p))
    )


def beat_targets(pitch: Pitch, layout: Layout, beater: PlayerRef) -> tuple[PlayerRef, ...]:
    """The rival Players up to 2 Zones from a Beater with a Bludger in its Zone (l.380)."""
    if beater not in beaters(layout, beater.team):
        return ()
    here = layout.zone_of(beater)
    return tuple(
        p for p in layout.team_players(rival(beater.team)) if pitch.distance(here, layout.zone_of(p)) <= BEAT_RANGE
    )


def beaten_bludger_zones(pitch: Pitch, target_zone: str) -> tuple[str, ...]:
    """Where the target's Coach may place the beaten Bludger: the target's Zone or one adjacent (l.382)."""
    # Scoring Areas included: l.123 limits Players, and only the Kick-Off placement (l.257)
    # keeps a Bludger out of them.
    return _ordered(pitch, (target_zone, *adjacent(pitch, target_zone)))


def picks_up(layout: Layout, player: PlayerRef) -> bool:
    """Whether a Player in the same Zone as the Loose Quaffle may pick it up during its Action, a Shift too (l.478)."""
    return isinstance(layout.quaffle, str) and layout.quaffle == layout.zone_of(player)


# ------------------------------------------------------------- losing the Quaffle


def loose_quaffle_zones(pitch: Pitch, cause: LossCause, zone: str) -> tuple[str, ...]:
    """Where the Quaffle may go Loose, never in a Scoring Area (l.476).

    `zone` is the Pass target's Zone ("pass", l.356), the hit Player's Zone ("beat", l.380;
    "bludger", l.536) — that Zone or one adjacent — or the Scoring Area shot at ("shoot",
    l.370) — a Zone adjacent to it.
    """
    candidates = adjacent(pitch, zone) if cause == "shoot" else (zone, *adjacent(pitch, zone))
    return _ordered(pitch, (z for z in candidates if z not in pitch.scoring_areas))


def shift_out_zones(pitch: Pitch, layout: Layout, player: PlayerRef) -> tuple[str, ...]:
    """Where a Player leaving a Scoring Area Shifts: an adjacent Zone outside the Scoring Area (l.480, l.514)."""
    return tuple(z for z in adjacent(pitch, layout.zone_of(player)) if z not in pitch.scoring_areas)


def must_shift_out(pitch: Pitch, layout: Layout) -> tuple[PlayerRef, ...]:
    """The Players who may no longer be in their Scoring Area — a Chaser that lost the Quaffle there (l.480, l.514)."""
    return tuple(
        p
        for p in layout.all_players()
        if layout.zone_of(p) in pitch.scoring_areas and not may_be_in(pitch, layout, p, layout.zone_of(p))
    )


def keeper_kick_off(pitch: Pitch, layout: Layout) -> bool:
    """Whether the Quaffle is with a Keeper in its own Scoring Area, which starts a Keeper's Kick-Off (l.512)."""
    holder = layout.holder
    return (
        holder is not None
        and holder.position == "keeper"
        and layout.zone_of(holder) == own_half(pitch, layout, holder.team).scoring_area
    )


# ------------------------------------------------------------------- Setup, Kick-Off


def setup_layout(pitch: Pitch, halves: tuple[str, str], quaffle: PlayerRef) -> Layout:
    """Setup: Keepers in their Scoring Areas, the rest in Deployment Zones (l.237), the Quaffle to a Chaser (l.241)."""
    if quaffle.position != "chaser":
        raise ValueError("the Quaffle is given to one of the advantaged Coach's Chasers (l.241)")
    zones = []
    for team in (0, 1):
        half = pitch.half(halves[team])
        zones.append(tuple(half.scoring_area if p == "keeper" else half.deployment_zone for p in PITCH_LINEUP))
    return Layout(halves=halves, players=(zones[0], zones[1]), quaffle=quaffle)


def bludger_placements(pitch: Pitch, layout: Layout, team: int) -> tuple[str, ...]:
    """Where a Coach may place its Kick-Off Bludger: the rival's half, not a Deployment Zone or Scoring Area (l.257)."""
    half = own_half(pitch, layout, rival(team))
    banned = pitch.deployment_zones | pitch.scoring_areas
    return _ordered(pitch, (z for z in half.zones if z not in banned))


def deployment_options(pitch: Pitch, layout: Layout, team: int, moved: frozenset[PlayerRef]) -> tuple[Deploy, ...]:
    """Every single deployment move: an unmoved Player in its Deployment Zone to an adjacent Zone (l.261, l.269)."""
    home = own_half(pitch, layout, team).deployment_zone
    owners = _scoring_area_owners(pitch, layout.halves)  # any other Zone is open to every Player
    return tuple(
        Deploy(p, zone)
        for p in layout.team_players(team)
        if p not in moved and layout.zone_of(p) == home
        for zone in adjacent(pitch, home)
        if zone not in owners or may_be_in(pitch, layout, p, zone)
    )


# --------------------------------------------------------------- Bludger Movement


def bludger_destinations(pitch: Pitch, layout: Layout, bludger: int) -> tuple[str, ...]:
    """Where a Bludger moves: one of the adjacent Zones with Players (l.528), else it stays (l.530)."""
    here = layout.bludgers[bludger]
    occupied = tuple(z for z in adjacent(pitch, here) if layout.players_in(z))
    return _ordered(pitch, occupied) if occupied else (here,)


def bludger_targets(layout: Layout, zone: str) -> tuple[PlayerRef, ...]:
    """The Players a moved Bludger may hit: any Player in its Zone, of either Team (l.532, l.149)."""
    return layout.players_in(zone)


def defense_beaters(layout: Layout, target: PlayerRef) -> tuple[PlayerRef, ...]:
    """The Beaters who may Defend a Player from a Bludger: its Team's in its Zone, itself too (l.408-410, l.532)."""
    zone = layout.zone_of(target)
    return tuple(p for p in layout.team_players(target.team) if p.position == "beater" and layout.zone_of(p) == zone)
