"""The pitch, track, dice, basic players and Goal Hoop cards load, hold the rulebook's facts; bad data is refused."""

from __future__ import annotations

import copy
from collections import Counter, deque
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from menagerie.snitch.data import (
    COLOURS,
    HOUSES,
    POSITIONS,
    DataError,
    DicePool,
    PlayerCard,
    load_data,
    parse,
    read_files,
)

DATA = load_data()
PITCH = DATA.pitch
ADJACENT = {z.id: set(z.adjacent) for z in PITCH.zones}


def reachable(start: str, adjacent: dict[str, set[str]]) -> dict[str, int]:
    """Zones reachable from `start`, with their distance (computed here, not by the loader)."""
    seen, queue = {start: 0}, deque([start])
    while queue:
        here = queue.popleft()
        for there in adjacent[here] - seen.keys():
            seen[there] = seen[here] + 1
            queue.append(there)
    return seen


# --- The pitch ------------------------------------------------------------------------


def test_twelve_zones_with_symmetric_adjacency() -> None:
    assert len(ADJACENT) == 12
    for zone, neighbours in ADJACENT.items():
        assert zone not in neighbours
        for other in neighbours:
            assert zone in ADJACENT[other], f"{zone} → {other} but not back"


def test_the_pitch_is_connected() -> None:
    assert reachable("west_scoring_area", ADJACENT).keys() == ADJACENT.keys()


def test_two_halves_share_exactly_the_orange_zones() -> None:
    west, east = (set(h.zones) for h in PITCH.halves)
    orange = {z.id for z in PITCH.zones if z.orange}
    assert orange and west & east == orange
    assert west | east == ADJACENT.keys()
    assert len(west) == len(east)


def test_each_half_has_its_own_scoring_area_and_deployment_zone() -> None:
    assert len(PITCH.scoring_areas) == 2 and len(PITCH.deployment_zones) == 2
    for half in PITCH.halves:
        other = next(h for h in PITCH.halves if h is not half)
        for zone in (half.scoring_area, half.deployment_zone):
            assert zone in half.zones and zone not in other.zones
        assert half.scoring_area != half.deployment_zone


def test_scoring_areas_are_at_the_ends_of_the_pitch() -> None:
    """A Scoring Area touches only its own half, and is the zone of its half farthest from the rival's."""
    for half in PITCH.halves:
        other = next(h for h in PITCH.halves if h is not half)
        own_only = set(half.zones) - set(other.zones)
        assert ADJACENT[half.scoring_area] <= own_only
        distance = reachable(other.deployment_zone, ADJACENT)
        assert distance[half.scoring_area] == max(distance[z] for z in half.zones)
        assert distance[half.scoring_area] > max(distance[z] for z in half.zones if z != half.scoring_area)
    west, east = sorted(PITCH.scoring_areas)
    assert reachable(west, ADJACENT)[east] >= 4


def test_deployment_zones_either_side_of_the_centre() -> None:
    """The Deployment Zones meet at the central circle and touch every orange zone, never a Scoring Area."""
    first, second = sorted(PITCH.deployment_zones)
    assert second in ADJACENT[first]
    for zone in PITCH.deployment_zones:
        assert PITCH.orange_zones <= ADJACENT[zone]
        assert not ADJACENT[zone] & PITCH.scoring_areas


def test_neither_half_is_favoured() -> None:
    """Swapping west and east maps the pitch onto itself (orange zones onto themselves)."""

    def mirror(zone: str) -> str:
        if zone.startswith("west_"):
            return "east_" + zone.removeprefix("west_")
        if zone.startswith("east_"):
            return "west_" + zone.removeprefix("east_")
        return zone

    for zone, neighbours in ADJACENT.items():
        assert {mirror(n) for n in neighbours} == ADJACENT[mirror(zone)]
        assert PITCH.zone(mirror(zone)).orange == PITCH.zone(zone).orange
    west, east = PITCH.half("west"), PITCH.half("east")
    assert {mirror(z) for z in west.zones} == set(east.zones)
    assert (mirror(west.scoring_area), mirror(west.deployment_zone)) == (east.scoring_area, east.deployment_zone)


def test_the_kick_off_and_loose_quaffles_have_room() -> None:
    """A Bludger can start in each half off the Deployment Zone and Scoring Area; a Loose Quaffle always has a zone."""
    for half in PITCH.halves:
        assert set(half.zones) - {half.scoring_area, half.deployment_zone}
    for zone, neighbours in ADJACENT.items():
        assert neighbours - PITCH.scoring_areas, f"a Quaffle Loose next to {zone} has nowhere to go"


def test_the_loaders_distance_agrees() -> None:
    for zone in ADJACENT:
        assert {z: PITCH.distance(zone, z) for z in ADJACENT} == reachable(zone, ADJACENT)


def test_only_the_defending_keeper_and_one_attacking_chaser_with_the_quaffle_enter_a_scoring_area() -> None:
    allowed = {(o.team, o.position): (o.max, o.needs_quaffle) for o in PITCH.scoring_area_occupants}
    assert allowed == {("owner", "keeper"): (1, False), ("rival", "chaser"): (1, True)}


# --- The Snitch race track ------------------------------------------------------------


def test_the_snitch_starts_on_the_last_space_and_the_seekers_on_the_first() -> None:
    track = DATA.track
    assert track.spaces == 20
    assert track.snitch_start == track.spaces and track.seekers_start == 1


# --- Dice -----------------------------------------------------------------------------


def test_three_dice_of_each_colour_with_six_faces() -> None:
    assert {c: d.count for c, d in DATA.dice.colours.items()} == {"orange": 3, "purple": 3, "black": 3}
    assert all(len(d.faces) == 6 for d in DATA.dice.colours.values())
    assert {f for d in DATA.dice.colours.values() for f in d.faces} == {
        "success",
        "double_success",
        "opportunity",
        "double_opportunity",
        "blank",
    }


def test_orange_rolls_the_most_successes_black_the_most_opportunities_purple_between() -> None:
    dice = DATA.dice
    assert dice.expected_successes("orange") > dice.expected_successes("purple") > dice.expected_successes("black")
    assert (
        dice.expected_opportunities("black")
        > dice.expected_opportunities("purple")
        > dice.expected_opportunities("orange")
    )
    assert [dice.expected_successes(c) for c in COLOURS] == [Fraction(5, 6), Fraction(1, 2), Fraction(1, 6)]
    assert [dice.expected_opportunities(c) for c in COLOURS] == [Fraction(1, 6), Fraction(1, 2), Fraction(5, 6)]


def test_doubles_count_two() -> None:
    symbols = DATA.dice.symbols
    assert (symbols["double_success"].successes, symbols["double_opportunity"].opportunities) == (2, 2)
    assert (symbols["success"].successes, symbols["opportunity"].opportunities) == (1, 1)
    assert symbols["blank"].successes == symbols["blank"].opportunities == 0


def test_the_setup_roll_is_fair() -> None:
    """The advantage roll's die shows the Success symbol as often as the Opportunity symbol."""
    faces = DATA.dice.colours[DATA.dice.setup_roll.colour].faces
    success = sum(DATA.dice.symbols[f].successes > 0 for f in faces)
    opportunity = sum(DATA.dice.symbols[f].opportunities > 0 for f in faces)
    assert success == opportunity > 0
    assert DATA.dice.setup_roll.reroll_blank


# --- Basic players --------------------------------------------------------------------


def test_twenty_eight_basic_cards_seven_per_house() -> None:
    """The box's 28 cards are the basic ones (cost 0); the unique Players are tested in test_collection_data."""
    players = DATA.players
    assert sum(p.copies for p in players.players if p.cost == 0) == 28
    for house in HOUSES:
        lineup = players.lineup(house)
        assert len(lineup) == 7
        assert Counter(p.position for p in lineup) == {"keeper": 1, "beater": 2, "chaser": 3, "seeker": 1}
        for card in lineup:
            assert card.cost == 0 and card.affiliation == (house,) and card.trait is None
            assert card.name == f"{house.title()} {card.position.title()}"


def test_who_does_what_is_the_rulebooks() -> None:
    for card in DATA.players.players:
        listed = set(card.actions) | set(card.reactions)
        assert ("shoot" in listed) == (card.position == "chaser")
        assert ("beat" in listed) == ("defense" in listed) == (card.position == "beater")
        assert ("catch" in listed) == (card.position == "keeper")
        if card.position == "seeker":
            assert set(card.actions) == {"accelerate", "dodge", "glimpse", "obstruct"} and not card.reactions
        else:
            assert {"pass", "steal"} <= set(card.actions) and {"steal", "manoeuvre"} <= set(card.reactions)
            assert "move" not in listed and "recover" not in listed


def _card(house: str, position: str) -> PlayerCard:
    return next(p for p in DATA.players.players if p.cost == 0 and p.position == position and house in p.affiliation)


def _successes(pool: DicePool) -> Fraction:
    return sum((n * DATA.dice.expected_successes(c) for c, n in pool.by_colour().items()), Fraction(0))


def _opportunities(pool: DicePool) -> Fraction:
    return sum((n * DATA.dice.expected_opportunities(c) for c, n in pool.by_colour().items()), Fraction(0))


@pytest.mark.parametrize("position", POSITIONS)
def test_houses_are_balanced_position_by_position(position: str) -> None:
    """Per Position, every House rolls as many dice and expects as many Successes (Actions) and Opportunities."""
    cards = [_card(house, position) for house in HOUSES]
    assert len({sum(p.size for p in c.actions.values()) for c in cards}) == 1
    assert len({sum(p.size for p in c.reactions.values()) for c in cards}) == 1
    assert len({sum(map(_successes, c.actions.values())) for c in cards}) == 1
    assert len({sum(map(_opportunities, c.reactions.values())) for c in cards}) == 1


@pytest.mark.parametrize("position", POSITIONS)
def test_houses_differ(position: str) -> None:
    """Balanced is not identical: the Houses' cards for a Position are not all the same."""
    cards = [_card(house, position) for house in HOUSES]
    assert len({(tuple(sorted(c.actions.items())), tuple(sorted(c.reactions.items()))) for c in cards}) > 1


def test_every_house_has_a_speciality() -> None:
    """Each House has some Action or Reaction it rolls better than every other House."""
    for house in HOUSES:
        best = False
        for position in POSITIONS:
            mine = _card(house, position)
            others = [_card(h, position) for h in HOUSES if h != house]
            for action, pool in mine.actions.items():
                best |= all(_successes(pool) > _successes(o.actions[action]) for o in others)
            for reaction, pool in mine.reactions.items():
                best |= all(_opportunities(pool) > _opportunities(o.reactions[reaction]) for o in others)
        assert best, house


def test_reactions_expect_at_least_as_many_opportunities_as_successes() -> None:
    for card in DATA.players.players:
        for name, pool in card.reactions.items():
            assert _opportunities(pool) >= _successes(pool), f"{card.id} {name}"


# --- Goal Hoop cards ------------------------------------------------------------------


def test_six_goal_hoop_cards_numbered_one_to_three_per_coach() -> None:
    hoops = DATA.hoops
    assert hoops.numbers == (1, 2, 3) and hoops.sets * len(hoops.numbers) == 6
    assert (hoops.bonus_if_same, hoops.bonus_if_different) == (0, 1)


# --- The loader refuses broken data ---------------------------------------------------


def _zone(d: dict[str, Any], zone_id: str) -> dict[str, Any]:
    return next(z for z in d["pitch"]["zones"] if z["id"] == zone_id)


def _player(d: dict[str, Any], player_id: str) -> dict[str, Any]:
    return next(p for p in d["players"]["players"] if p["id"] == player_id)


def _cut_off_the_west_end(d: dict[str, Any]) -> None:
    """Remove the edges joining the west end (Scoring Area, Centre, wings) to the rest of the pitch."""
    for a, b in [
        ("west_centre", "west_deployment"),
        ("west_north", "west_deployment"),
        ("west_south", "west_deployment"),
        ("west_north", "north_midfield"),
        ("west_south", "south_midfield"),
    ]:
        _zone(d, a)["adjacent"].remove(b)
        _zone(d, b)["adjacent"].remove(a)


BROKEN: dict[str, tuple[str, Callable[[dict[str, Any]], object]]] = {
    # fault: (text the error must contain, how to break the data)
    "one-way adjacency": ("west_north", lambda d: _zone(d, "west_north")["adjacent"].append("east_north")),
    "an unknown adjacent zone": ("west_centre", lambda d: _zone(d, "west_centre")["adjacent"].append("stands")),
    "a zone adjacent to itself": (
        "west_centre.*not adjacent to itself",
        lambda d: _zone(d, "west_centre")["adjacent"].append("west_centre"),
    ),
    "a thirteenth zone": ("12 zones", lambda d: d["pitch"]["zones"].append({**d["pitch"]["zones"][0], "id": "x"})),
    "a disconnected pitch": ("not connected", lambda d: _cut_off_the_west_end(d)),
    "an orange zone in one half": ("orange", lambda d: d["pitch"]["halves"][0]["zones"].remove("north_midfield")),
    "a shared zone not orange": ("orange", lambda d: _zone(d, "north_midfield").update(orange=False)),
    "an orange scoring area": ("orange", lambda d: _zone(d, "west_scoring_area").update(orange=True)),
    "a scoring area outside its half": (
        "scoring_area",
        lambda d: d["pitch"]["halves"][0].update(scoring_area="east_scoring_area"),
    ),
    "a beater allowed in a scoring area": (
        "scoring_area_occupants",
        lambda d: d["pitch"]["scoring_area_occupants"].append(
            {"team": "rival", "position": "beater", "max": 1, "needs_quaffle": False}
        ),
    ),
    "two attacking chasers in a scoring area": (
        "scoring_area_occupants",
        lambda d: d["pitch"]["scoring_area_occupants"][1].update(max=2),
    ),
    "a chaser without the quaffle in a scoring area": (
        "scoring_area_occupants",
        lambda d: d["pitch"]["scoring_area_occupants"][1].update(needs_quaffle=False),
    ),
    "the snitch short of the last space": ("last space", lambda d: d["track"].update(snitch_start=19)),
    "seekers ahead of the first space": ("first space", lambda d: d["track"].update(seekers_start=2)),
    "a four-sided die": (
        "orange: a die has 6 faces",
        lambda d: d["dice"]["colours"]["orange"].update(faces=["success"] * 4),
    ),
    "four orange dice": ("3 orange", lambda d: d["dice"]["colours"]["orange"].update(count=4)),
    "an unknown face": ("triple", lambda d: d["dice"]["colours"]["black"]["faces"].__setitem__(0, "triple")),
    "black outscoring orange": (
        "orange > purple > black",
        lambda d: d["dice"]["colours"]["black"].update(faces=d["dice"]["colours"]["orange"]["faces"]),
    ),
    "a double success worth three": ("symbols", lambda d: d["dice"]["symbols"]["double_success"].update(successes=3)),
    "a chaser who beats": (
        "gryffindor_chaser",
        lambda d: _player(d, "gryffindor_chaser")["actions"].update(beat={"orange": 1}),
    ),
    "a chaser without a shot": ("slytherin_chaser", lambda d: _player(d, "slytherin_chaser")["actions"].pop("shoot")),
    "a seeker who manoeuvres": (
        "positions.seeker",
        lambda d: d["players"]["positions"]["seeker"].update(reactions=["manoeuvre"]),
    ),
    "a keeper who shoots": (
        "positions.keeper",
        lambda d: d["players"]["positions"]["keeper"]["actions"].append("shoot"),
    ),
    "a team of two chasers": ("hufflepuff", lambda d: _player(d, "hufflepuff_chaser").update(copies=2)),
    "four dice of a colour": (
        "ravenclaw_keeper.*action pass rolls more than 3",
        lambda d: _player(d, "ravenclaw_keeper")["actions"]["pass"].update(orange=4),
    ),
    "an empty dice pool": (
        "ravenclaw_seeker.*action dodge rolls no dice",
        lambda d: _player(d, "ravenclaw_seeker")["actions"].update(dodge={}),
    ),
    "a fifth house": ("houses", lambda d: d["players"]["houses"].append("durmstrang")),
    "a misspelt field": ("west_south", lambda d: _zone(d, "west_south").update(adjacnet=[])),
    "hoops numbered 0 to 2": ("numbers", lambda d: d["hoops"].update(numbers=[0, 1, 2])),
    "a hoop bonus of two": ("bonus", lambda d: d["hoops"].update(bonus_if_different=2)),
}


@pytest.mark.parametrize("fault", sorted(BROKEN))
def test_the_loader_refuses_broken_data(fault: str) -> None:
    expected, breaks = BROKEN[fault]
    data = copy.deepcopy(read_files())
    breaks(data)
    with pytest.raises(DataError, match=expected) as caught:
        parse(data)
    file = next(key for key in data if data[key] != read_files()[key])
    assert str(caught.value).startswith(f"{file}.toml: "), str(caught.value)


def test_the_files_as_read_are_valid() -> None:
    assert parse(read_files()) == DATA
