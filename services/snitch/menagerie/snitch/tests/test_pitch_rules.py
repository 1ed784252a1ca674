"""Where players, balls and Bludgers may go (engine/pitch.py), rule by rule, with the rulebook line each follows.

`layout_problems` is this module's oracle: what the rules say a layout may never show, checked
on the layouts the functions under test produce.
"""

from __future__ import annotations

import random

import msgspec
import pytest

from menagerie.snitch.data import Pitch, load_data
from menagerie.snitch.engine.pitch import (
    KICK_OFF_MOVES,
    PITCH_LINEUP,
    Deploy,
    Layout,
    PlayerRef,
    beat_targets,
    beaten_bludger_zones,
    beaters,
    bludger_destinations,
    bludger_placements,
    bludger_targets,
    defense_beaters,
    deployment_options,
    disadvantage,
    keeper_kick_off,
    loose_quaffle_zones,
    may_be_in,
    may_shoot,
    move_destinations,
    must_shift_out,
    pass_disadvantage,
    pass_targets,
    picks_up,
    setup_layout,
    shift_destinations,
    shift_out_zones,
    stealers,
    zone_disadvantage,
    zones_within,
)

PITCH = load_data().pitch
# Team 0 (say Gryffindor) picked the west half, Team 1 (Slytherin) the east.
HALVES = ("west", "east")
KEEPER, BEATER, BEATER_2, CHASER, CHASER_2, CHASER_3 = range(6)
G = {i: PlayerRef(0, i) for i in range(6)}
S = {i: PlayerRef(1, i) for i in range(6)}
START = setup_layout(PITCH, HALVES, G[CHASER])


def layout_problems(pitch: Pitch, layout: Layout) -> tuple[str, ...]:
    """What is wrong with a layout (unknown Zones, a Player where it may not be, a Quaffle Loose in a Scoring Area)."""
    problems: list[str] = []
    known = {z.id for z in pitch.zones}
    halves = {h.id for h in pitch.halves}
    if set(layout.halves) != halves:
        problems.append(f"the Teams' halves {layout.halves} are not the two halves {sorted(halves)}")
        return tuple(problems)
    for team in (0, 1):
        if len(layout.players[team]) != len(PITCH_LINEUP):
            problems.append(f"team {team} has {len(layout.players[team])} Pitch Players, not {len(PITCH_LINEUP)}")
            return tuple(problems)
    for player in layout.all_players():
        zone = layout.zone_of(player)
        if zone not in known:
            problems.append(f"{player}: unknown zone {zone}")
        elif not may_be_in(pitch, layout, player, zone):
            problems.append(f"{player}: a {player.position} may not be in {zone} (l.123)")
    if isinstance(layout.quaffle, PlayerRef):
        if layout.quaffle not in layout.all_players():
            problems.append(f"the Quaffle is held by an unknown Player {layout.quaffle}")
    elif layout.quaffle not in known:
        problems.append(f"the Quaffle is Loose in an unknown zone {layout.quaffle}")
    elif layout.quaffle in pitch.scoring_areas:
        problems.append("a Loose Quaffle is never in a Scoring Area (l.476)")
    if len(layout.bludgers) > 2 or not set(layout.bludgers) <= known:
        problems.append(f"bludgers {layout.bludgers}: at most two, in known zones")
    return tuple(problems)


def placed(
    west: dict[int, str] | None = None,
    east: dict[int, str] | None = None,
    quaffle: PlayerRef | str = G[CHASER],
    bludgers: tuple[str, ...] = (),
) -> Layout:
    """The Setup layout with some Players moved, the Quaffle and the Bludgers placed; it must be a legal layout."""
    layout = START.with_quaffle(quaffle)
    for team, moves in ((0, west or {}), (1, east or {})):
        for index, zone in moves.items():
            layout = layout.moved(PlayerRef(team, index), zone)
    for i, zone in enumerate(bludgers):
        layout = layout.with_bludger(i, zone)
    assert layout_problems(PITCH, layout) == ()
    return layout


# --- The value ---------------------------------------------------------------------


def test_pitch_lineup_is_the_data_lineup_without_the_seeker() -> None:
    """l.131 a Team is 1 Keeper, 2 Beaters, 3 Chasers and 1 Seeker; Seekers "can only be in the Snitch Race" (l.139)."""
    lineup = load_data().players.lineup("gryffindor")
    assert tuple(card.position for card in lineup[:6]) == PITCH_LINEUP
    assert lineup[6].position == "seeker"


def test_setup_layout() -> None:
    """l.237: "Keeper in the Scoring Area of their own half ... the rest of their Players in their half's Deployment
    Zone"; l.241: the Quaffle goes to a Chaser of the advantaged Coach."""
    assert START.zone_of(G[KEEPER]) == "west_scoring_area"
    assert START.zone_of(S[KEEPER]) == "east_scoring_area"
    assert {START.zone_of(G[i]) for i in range(1, 6)} == {"west_deployment"}
    assert {START.zone_of(S[i]) for i in range(1, 6)} == {"east_deployment"}
    assert START.holder == G[CHASER] and START.quaffle_zone == "west_deployment"
    assert layout_problems(PITCH, START) == ()
    with pytest.raises(ValueError, match="Chasers"):
        setup_layout(PITCH, HALVES, G[BEATER])


def test_the_quaffle_moves_with_its_holder_and_the_layout_round_trips() -> None:
    """l.271 "The Quaffle always moves with the Player it was assigned to"; the engine keeps the layout in its state."""
    moved = START.moved(G[CHASER], "north_midfield")
    assert moved.quaffle_zone == "north_midfield"
    assert msgspec.json.decode(msgspec.json.encode(moved), type=Layout) == moved
    loose = moved.with_quaffle("west_centre")
    assert loose.holder is None and loose.quaffle_zone == "west_centre"
    assert msgspec.json.decode(msgspec.json.encode(loose), type=Layout) == loose


def test_zones_within() -> None:
    """Passes and Beats reach "up to 2 Zones away" (l.356, l.380): the Zone itself, its neighbours, theirs."""
    assert zones_within(PITCH, "west_centre", 0) == ("west_centre",)
    assert set(zones_within(PITCH, "west_centre", 1)) == {"west_centre", *PITCH.zone("west_centre").adjacent}
    two = set(zones_within(PITCH, "west_scoring_area", 2))
    assert two == {"west_scoring_area", "west_centre", "west_north", "west_south", "west_deployment"} | {
        "north_midfield",
        "south_midfield",
    }
    assert len(zones_within(PITCH, "west_scoring_area", 4)) == 12


# --- Who may be inside a Scoring Area -------------------------------------------------


def test_scoring_area_occupants() -> None:
    """l.123 / l.498: "Only the Keeper of the Defending Team and up to one Chaser of the Attacking Team in Possession
    of the Quaffle may occupy this Zone ... No other Player may enter a Scoring Area by any means"."""
    layout = placed(west={CHASER: "east_north"})
    area = "east_scoring_area"
    assert may_be_in(PITCH, layout, S[KEEPER], area)  # the owner's Keeper
    assert may_be_in(PITCH, layout, G[CHASER], area)  # a rival Chaser with the Quaffle
    assert not may_be_in(PITCH, layout, G[CHASER_2], area)  # ... but not without it
    assert may_be_in(PITCH, layout, G[CHASER_2], area, with_quaffle=True)
    assert not may_be_in(PITCH, layout, G[KEEPER], area, with_quaffle=True)  # a rival Keeper: not a Chaser
    assert not may_be_in(PITCH, layout, G[BEATER], area, with_quaffle=True)
    for i in (BEATER, BEATER_2, CHASER, CHASER_2, CHASER_3):  # the owner's other Players never
        assert not may_be_in(PITCH, layout, S[i], area, with_quaffle=True)
    for zone in PITCH.zones:  # every other Zone takes anyone
        if zone.id not in PITCH.scoring_areas:
            assert all(may_be_in(PITCH, layout, p, zone.id) for p in layout.all_players())


def test_only_one_attacking_chaser_in_a_scoring_area() -> None:
    """l.123 "up to one Chaser of the Attacking Team": with one inside, no second Chaser may be there."""
    layout = placed(west={CHASER: "east_scoring_area", CHASER_2: "east_north"})
    assert not may_be_in(PITCH, layout, G[CHASER_2], "east_scoring_area", with_quaffle=True)


# --- Move, Shift and Disadvantage ---------------------------------------------------------


def test_move_to_any_adjacent_zone() -> None:
    """l.346 "move it to an adjacent Zone"; l.348 "any of the adjacent Zones"."""
    assert move_destinations(PITCH, START, G[BEATER]) == PITCH.zone("west_deployment").adjacent


def test_move_into_a_scoring_area_respects_the_occupants() -> None:
    """l.123: the Chaser with the Quaffle may Move into the rival Scoring Area; without it, or a Beater, may not."""
    layout = placed(west={CHASER: "east_north", CHASER_2: "east_north", BEATER: "east_north"})
    assert "east_scoring_area" in move_destinations(PITCH, layout, G[CHASER])
    assert "east_scoring_area" not in move_destinations(PITCH, layout, G[CHASER_2])
    assert "east_scoring_area" not in move_destinations(PITCH, layout, G[BEATER])
    # The Keeper may leave its Scoring Area and come back, but never enter the rival's.
    out = placed(west={KEEPER: "west_centre"}, east={KEEPER: "east_centre"})
    assert "west_scoring_area" in move_destinations(PITCH, out, G[KEEPER])
    assert "west_scoring_area" not in move_destinations(PITCH, out.moved(S[KEEPER], "west_north"), S[KEEPER])


def test_disadvantage_levels() -> None:
    """l.416: Players from both Teams in a Zone, the minority at a Disadvantage; 2 or more fewer: Severe."""
    zone = "north_midfield"
    layout = placed(west={BEATER: zone, CHASER_2: zone}, east={CHASER: zone})
    assert zone_disadvantage(layout, zone) == (0, 1)
    assert disadvantage(layout, S[CHASER]) == 1 and disadvantage(layout, G[BEATER]) == 0
    layout = layout.moved(G[CHASER_3], zone)
    assert disadvantage(layout, S[CHASER]) == 2
    layout = layout.moved(G[BEATER_2], zone)
    assert disadvantage(layout, S[CHASER]) == 2  # Severe is the worst there is (l.420 deducts 2)
    even = placed(west={BEATER: zone}, east={CHASER: zone})
    assert zone_disadvantage(layout=even, zone=zone) == (0, 0)
    alone = placed(west={BEATER: zone, BEATER_2: zone})
    assert zone_disadvantage(alone, zone) == (0, 0)  # no rival there: no one is at a Disadvantage


def test_disadvantage_blocks_move_not_shift() -> None:
    """l.418 "cannot Move out of their Zone"; l.350 Shift "ignoring Disadvantage"; l.352's example: the Slytherin
    Player at a Disadvantage cannot Move, but a Shift moves it into an adjacent Zone."""
    zone = "south_midfield"
    layout = placed(west={BEATER: zone, CHASER_2: zone}, east={CHASER: zone})
    assert move_destinations(PITCH, layout, S[CHASER]) == ()
    assert shift_destinations(PITCH, layout, S[CHASER]) == PITCH.zone(zone).adjacent
    assert move_destinations(PITCH, layout, G[BEATER]) == PITCH.zone(zone).adjacent  # the majority moves freely


def test_shift_not_into_a_scoring_area() -> None:
    """l.516 the Keeper's Kick-Off Shift goes "to an adjacent Zone (not a Scoring Area)"."""
    layout = placed(west={KEEPER: "west_centre"})
    assert "west_scoring_area" in shift_destinations(PITCH, layout, G[KEEPER])
    assert "west_scoring_area" not in shift_destinations(PITCH, layout, G[KEEPER], scoring_areas=False)


# --- Pass, Shoot, Steal, Beat, Recover ----------------------------------------------------


def test_pass_to_any_friendly_player_within_two_zones() -> None:
    """l.356 "Target a friendly model up to 2 Zones away" (any Position, not only a Chaser as l.755 says);
    l.360's example: a Gryffindor Chaser passes to a teammate within 2 Zones."""
    layout = placed(west={CHASER: "west_centre", CHASER_2: "north_midfield", CHASER_3: "east_centre"})
    targets = pass_targets(PITCH, layout, G[CHASER])
    assert G[KEEPER] in targets  # 1 Zone away, in its own Scoring Area
    assert G[BEATER] in targets and G[BEATER_2] in targets  # Beaters too, in the next Zone
    assert G[CHASER_2] in targets  # 2 Zones away
    assert G[CHASER_3] not in targets  # 3 Zones away
    assert G[CHASER] not in targets and all(p.team == 0 for p in targets)
    assert pass_targets(PITCH, layout, G[BEATER]) == ()  # only the Player with the Quaffle passes


def test_pass_within_the_same_zone() -> None:
    """l.356 "up to 2 Zones away" includes the passer's own Zone."""
    assert G[CHASER_2] in pass_targets(PITCH, START, G[CHASER])


def test_pass_disadvantage_example() -> None:
    """l.358 a Pass suffers the Disadvantage if either Player is at one; l.426-428's example: the Chaser is not,
    the target is, and the roll deducts 1 Success."""
    layout = placed(west={CHASER_2: "north_midfield"}, east={BEATER: "north_midfield", CHASER: "north_midfield"})
    assert disadvantage(layout, G[CHASER]) == 0 and disadvantage(layout, G[CHASER_2]) == 1
    assert G[CHASER_2] in pass_targets(PITCH, layout, G[CHASER])
    assert pass_disadvantage(layout, G[CHASER], G[CHASER_2]) == 1


def test_shoot_only_a_chaser_with_the_quaffle_in_the_rival_scoring_area() -> None:
    """l.364 "only ... a Chaser in Possession of the Quaffle in the Scoring Area"; l.484 "the rival's Scoring Area"."""
    inside = placed(west={CHASER: "east_scoring_area"})
    assert may_shoot(PITCH, inside, G[CHASER])
    assert not may_shoot(PITCH, placed(west={CHASER: "east_north"}), G[CHASER])
    assert not may_shoot(PITCH, START, G[CHASER])
    keeper_holds = placed(quaffle=G[KEEPER])  # in its own Scoring Area: a Keeper never Shoots
    assert not may_shoot(PITCH, keeper_holds, G[KEEPER])


def test_steal_in_the_same_zone_by_the_defending_team() -> None:
    """l.374 "Only a Player on the Defending Team ... in the same Zone as the Player with the Quaffle";
    l.376's example: the Gryffindor Chaser steals from the Slytherin Chaser in its Zone."""
    zone = "south_midfield"
    layout = placed(west={CHASER: zone, BEATER: "west_south"}, east={CHASER: zone, CHASER_2: zone}, quaffle=S[CHASER])
    assert stealers(layout) == (G[CHASER],)
    assert stealers(layout.with_quaffle(zone)) == ()  # a Loose Quaffle is picked up, not stolen
    keeper = placed(west={CHASER: "east_scoring_area"})  # the Keeper steals from the Chaser in its area
    assert stealers(keeper) == (S[KEEPER],)


def test_beat_from_a_zone_with_a_bludger_up_to_two_zones() -> None:
    """l.380 "one of your Beaters in the same Zone as a Bludger ... targets a rival Player up to 2 Zones away";
    l.384's example: the Slytherin Beater beats the Bludger up to 2 Zones at a Gryffindor Player."""
    layout = placed(
        west={CHASER: "north_midfield", CHASER_2: "west_north"},
        east={BEATER: "east_north"},
        bludgers=("east_north", "west_south"),
    )
    assert beaters(layout, 1) == (S[BEATER],)  # the other Beater has no Bludger in its Zone
    targets = beat_targets(PITCH, layout, S[BEATER])
    assert G[CHASER] in targets and G[CHASER_2] in targets  # 1 and 2 Zones away
    assert G[KEEPER] not in targets  # 3 Zones away
    assert all(p.team == 0 for p in targets)
    assert beat_targets(PITCH, layout, S[BEATER_2]) == ()


def test_beaten_bludger_goes_to_the_target_zone_or_one_adjacent() -> None:
    """l.382 "your rival places the beaten Bludger in the Zone containing their target Player, or an adjacent Zone"."""
    zones = beaten_bludger_zones(PITCH, "west_centre")
    assert set(zones) == {"west_centre", *PITCH.zone("west_centre").adjacent}
    assert "west_scoring_area" in zones  # l.123 limits Players, not Bludgers


def test_pick_up_a_loose_quaffle_in_ones_zone() -> None:
    """l.478 "Any Player in the same Zone as a Loose Quaffle during one of their Actions (including a Shift)"."""
    layout = START.with_quaffle("west_centre").moved(S[BEATER], "west_centre")
    assert picks_up(layout, S[BEATER]) and not picks_up(layout, G[BEATER])
    assert not picks_up(START, G[CHASER_2])  # held, not Loose


# --- Losing the Quaffle -------------------------------------------------------------------


def test_loose_quaffle_never_in_a_scoring_area() -> None:
    """l.476 "a Coach can never place a Loose Quaffle in a Scoring Area" — whatever the cause, wherever it happens."""
    for zone in PITCH.zones:
        for cause in ("pass", "beat", "bludger", "shoot"):
            zones = loose_quaffle_zones(PITCH, cause, zone.id)
            assert zones and not set(zones) & PITCH.scoring_areas


def test_loose_quaffle_after_a_failed_pass_beat_or_bludger() -> None:
    """l.356 (Pass), l.380 (Beat), l.536 (Bludger): "in the target Player's Zone, or a Zone adjacent to it"."""
    for cause in ("pass", "beat", "bludger"):
        assert set(loose_quaffle_zones(PITCH, cause, "north_midfield")) == {
            "north_midfield",
            *PITCH.zone("north_midfield").adjacent,
        }
        # A Pass to the Keeper in its Scoring Area: the Quaffle goes Loose next to it, not inside.
        next_to_area = {"west_centre", "west_north", "west_south"}
        assert set(loose_quaffle_zones(PITCH, cause, "west_scoring_area")) == next_to_area
        assert set(loose_quaffle_zones(PITCH, cause, "west_centre")) == {
            "west_centre",
            "west_deployment",
            "west_north",
            "west_south",
        }


def test_loose_quaffle_after_a_missed_shot_with_no_keeper() -> None:
    """l.370 "your rival places the Quaffle Loose in a Zone adjacent to that Scoring Area"."""
    assert set(loose_quaffle_zones(PITCH, "shoot", "east_scoring_area")) == {"east_centre", "east_north", "east_south"}


def test_chaser_losing_the_quaffle_in_a_scoring_area_shifts_out() -> None:
    """l.480 "A Chaser in Possession of the Quaffle within the Scoring Area that loses the Possession, must immediately
    Shift to an adjacent Zone outside the Scoring Area" — here after a Beat puts the Quaffle Loose."""
    inside = placed(west={CHASER: "east_scoring_area"})
    assert must_shift_out(PITCH, inside) == ()
    lost = inside.with_quaffle("east_centre")
    assert must_shift_out(PITCH, lost) == (G[CHASER],)
    assert set(shift_out_zones(PITCH, lost, G[CHASER])) == {"east_centre", "east_north", "east_south"}
    passed = inside.with_quaffle(G[CHASER_2])  # a successful Pass out loses the Possession too
    assert must_shift_out(PITCH, passed) == (G[CHASER],)


def test_keepers_kick_off_example() -> None:
    """l.512-518 and l.522's example: the Slytherin Keeper takes the Quaffle from the Gryffindor Chaser who shot; the
    Chaser is Shifted outside the Scoring Area; each Team Shifts a Player (not into a Scoring Area); the Keeper passes
    to a friendly Player within 2 Zones."""
    shot = placed(west={CHASER: "east_scoring_area"}, east={CHASER: "east_centre", BEATER: "west_deployment"})
    assert may_shoot(PITCH, shot, G[CHASER])
    saved = shot.with_quaffle(S[KEEPER])  # l.370: a missed shot goes to the Keeper inside
    assert keeper_kick_off(PITCH, saved)
    assert must_shift_out(PITCH, saved) == (G[CHASER],)  # step 1
    for zone in shift_out_zones(PITCH, saved, G[CHASER]):
        after = saved.moved(G[CHASER], zone)
        assert layout_problems(PITCH, after) == () and must_shift_out(PITCH, after) == ()
    after = saved.moved(G[CHASER], "east_north")
    # Step 2: a Shift to an adjacent Zone, not a Scoring Area: the Gryffindor Chaser cannot go back in.
    assert "east_scoring_area" not in shift_destinations(PITCH, after, G[CHASER], scoring_areas=False)
    # Step 3: the free Pass, to a friendly Player within 2 Zones.
    targets = pass_targets(PITCH, after, S[KEEPER])
    assert S[CHASER] in targets and S[BEATER] not in targets  # west_deployment is 3 Zones away


def test_no_keepers_kick_off_elsewhere() -> None:
    """l.512: only "the Keeper within their own Scoring Area" with the Quaffle."""
    assert not keeper_kick_off(PITCH, START)
    assert not keeper_kick_off(PITCH, placed(west={KEEPER: "west_centre"}, quaffle=G[KEEPER]))
    assert keeper_kick_off(PITCH, placed(quaffle=G[KEEPER]))


# --- Kick-Off -------------------------------------------------------------------------------


def test_bludger_placement_in_the_rival_half() -> None:
    """l.257 "places one Bludger in their rival's half ... not ... within a Deployment Zone, or the Scoring Area"."""
    assert set(bludger_placements(PITCH, START, 0)) == {
        "east_centre",
        "east_north",
        "east_south",
        "north_midfield",
        "south_midfield",
    }
    assert set(bludger_placements(PITCH, START, 1)) == {
        "west_centre",
        "west_north",
        "west_south",
        "north_midfield",
        "south_midfield",
    }


def test_kick_off_moves_are_two_one_one_two() -> None:
    """l.261-267: the Attacking Coach moves two Players, the Defending one, the Attacking one more, the Defending 2."""
    assert KICK_OFF_MOVES == ((True, 2), (False, 1), (True, 1), (False, 2))


def test_a_full_deployment() -> None:
    """l.259-269: each step moves Players from their Deployment Zone to an adjacent Zone, no Player twice."""
    layout, moved = START, frozenset[PlayerRef]()
    steps = [
        (0, (Deploy(G[CHASER], "north_midfield"), Deploy(G[BEATER], "east_deployment"))),
        (1, (Deploy(S[CHASER], "east_centre"),)),
        (0, (Deploy(G[CHASER_2], "west_south"),)),
        (1, (Deploy(S[BEATER], "west_deployment"), Deploy(S[CHASER_2], "south_midfield"))),
    ]
    for (attacking, count), (team, moves) in zip(KICK_OFF_MOVES, steps, strict=True):
        assert attacking == (team == 0) and len(moves) == count
        for move in moves:  # one at a time, as the engine asks them (its Deployment decision)
            assert move in deployment_options(PITCH, layout, team, moved)
            layout = layout.moved(move.player, move.to)
            moved |= {move.player}
    assert layout.quaffle_zone == "north_midfield"  # l.271: the Quaffle went with its Chaser
    assert layout_problems(PITCH, layout) == ()


def test_deployment_refusals() -> None:
    """l.261 Players "in their Deployment Zone ... to an adjacent Zone"; l.269 "no Player may be moved more than
    once, by any means" (the engine offers only `deployment_options`; the 2/1/1/2 count: test_engine)."""
    ok = Deploy(G[CHASER], "west_centre")
    assert ok in deployment_options(PITCH, START, 0, frozenset())
    assert ok not in deployment_options(PITCH, START, 0, frozenset({G[CHASER]}))  # moved before
    assert ok not in deployment_options(PITCH, START.moved(G[CHASER], "west_centre"), 0, frozenset())  # left home
    assert Deploy(G[KEEPER], "west_centre") not in deployment_options(PITCH, START, 0, frozenset())
    assert Deploy(G[CHASER], "east_centre") not in deployment_options(PITCH, START, 0, frozenset())  # not adjacent
    assert Deploy(S[CHASER], "east_centre") not in deployment_options(PITCH, START, 0, frozenset())  # a rival


def test_deployment_options() -> None:
    """l.261: every unmoved Player in the Deployment Zone, to every adjacent Zone (never the Keeper, l.237)."""
    options = deployment_options(PITCH, START, 0, frozenset({G[BEATER]}))
    assert {o.player for o in options} == {G[BEATER_2], G[CHASER], G[CHASER_2], G[CHASER_3]}
    assert {o.to for o in options} == set(PITCH.zone("west_deployment").adjacent)


# --- Bludger Movement ----------------------------------------------------------------------


def test_bludger_moves_to_an_adjacent_zone_with_players() -> None:
    """l.528 "If there are any Players in an adjacent Zone ... the Bludger must be moved to one of those Zones";
    l.538's example: the Slytherin Coach moves Bludger B into a Zone and targets the Gryffindor Chaser there."""
    layout = placed(west={CHASER: "north_midfield"}, bludgers=("east_north", "west_centre"))
    # east_north touches east_deployment (Slytherin), north_midfield (the Gryffindor Chaser), the east Scoring Area
    # (the Slytherin Keeper) and east_centre (empty).
    assert set(bludger_destinations(PITCH, layout, 0)) == {"east_deployment", "north_midfield", "east_scoring_area"}
    assert bludger_targets(layout, "north_midfield") == (G[CHASER],)
    # Even with Players in its own Zone, a Bludger with Players next to it must move.
    here = layout.moved(S[BEATER], "east_north")
    assert "east_north" not in bludger_destinations(PITCH, here, 0)


def test_bludger_stays_when_no_adjacent_zone_has_players() -> None:
    """l.530 "If there are no Players in an adjacent Zone, the Bludger remains where it is"; l.532 it then hits a
    Player in its own Zone, if any."""
    # Both Teams' Players but the Keepers in the west North Wing; the Slytherin Keeper alone in its Scoring Area.
    crowd = {i: "west_north" for i in range(1, 6)}
    layout = placed(west=crowd, east=crowd, quaffle=G[CHASER], bludgers=("east_scoring_area", "south_midfield"))
    assert bludger_destinations(PITCH, layout, 0) == ("east_scoring_area",)
    assert bludger_targets(layout, "east_scoring_area") == (S[KEEPER],)
    # south_midfield: every neighbour empty and no one in it: it stays, with no one to hit.
    assert bludger_destinations(PITCH, layout, 1) == ("south_midfield",)
    assert bludger_targets(layout, "south_midfield") == ()


def test_bludger_hits_any_player_and_beaters_defend_their_team() -> None:
    """l.532 the Coach "chooses one Player in the Bludger's Zone" (either Team: l.149 "attacking any Player"); a
    friendly Beater in the Zone, or the target itself if a Beater, may Defend (l.408-410)."""
    zone = "south_midfield"
    layout = placed(west={CHASER: zone, BEATER: zone}, east={BEATER: zone}, bludgers=(zone,))
    assert set(bludger_targets(layout, zone)) == {G[CHASER], G[BEATER], S[BEATER]}
    assert defense_beaters(layout, G[CHASER]) == (G[BEATER],)
    assert defense_beaters(layout, S[BEATER]) == (S[BEATER],)


# --- Checks -----------------------------------------------------------------------------------


def test_layout_problems() -> None:
    """l.123 no one else inside a Scoring Area; l.476 never a Loose Quaffle there."""
    assert layout_problems(PITCH, START.moved(G[BEATER], "east_scoring_area"))
    assert layout_problems(PITCH, START.with_quaffle("west_scoring_area"))
    assert layout_problems(PITCH, START.moved(G[BEATER], "nowhere"))


def test_random_moves_keep_the_layout_legal() -> None:
    """Any Moves, Shifts, Passes and Quaffle losses these functions allow leave a legal layout (l.123, l.476)."""
    rng = random.Random(11)
    layout = START.with_bludger(0, "north_midfield").with_bludger(1, "south_midfield")
    for _ in range(400):
        player = rng.choice(layout.all_players())
        roll = rng.random()
        if roll < 0.6:
            zones = move_destinations(PITCH, layout, player) or shift_destinations(PITCH, layout, player)
            if zones:
                layout = layout.moved(player, rng.choice(zones))
        elif roll < 0.8 and layout.holder is not None:
            targets = pass_targets(PITCH, layout, layout.holder)
            if targets:
                layout = layout.with_quaffle(rng.choice(targets))
        elif layout.holder is not None:
            lost = layout.holder
            layout = layout.with_quaffle(rng.choice(loose_quaffle_zones(PITCH, "beat", layout.zone_of(lost))))
        for leaving in must_shift_out(PITCH, layout):
            layout = layout.moved(leaving, rng.choice(shift_out_zones(PITCH, layout, leaving)))
        if isinstance(layout.quaffle, str):
            takers = [p for p in layout.all_players() if picks_up(layout, p)]
            if takers:
                layout = layout.with_quaffle(rng.choice(takers))
        assert layout_problems(PITCH, layout) == ()
        for i in range(2):
            layout = layout.with_bludger(i, rng.choice(bludger_destinations(PITCH, layout, i)))
