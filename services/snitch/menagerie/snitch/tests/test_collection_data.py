"""The collection beyond the box: unique Players (✷) with their Traits, and the Spectator cards.

The rulebook's facts and the authored rules (RULES.md "Unique Players and Traits" and
"Spectator cards") are restated here, not imported from the loader, so a vocabulary or a
limit widened by mistake fails here.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from menagerie.snitch.data import (
    HOUSES,
    POSITIONS,
    DataError,
    PlayerCard,
    RerollTrait,
    RollBonusTrait,
    SpectatorCard,
    SteadyTrait,
    TempoTrait,
    ToughTrait,
    Trait,
    describe_trait,
    load_data,
    load_spectators,
    parse,
    parse_spectators,
    read_files,
    read_toml,
)
from menagerie.snitch.data.cards import (
    Bludger,
    DiceTokens,
    Effect,
    FreeAction,
    Shift,
    Tempo,
    Upwind,
    describe_effect,
    effect_worth,
)
from menagerie.snitch.engine.rules import SnitchEngine
from menagerie.snitch.engine.views import spectator_card_view

PLAYERS = load_data().players
UNIQUE = [p for p in PLAYERS.players if p.cost > 0]
BASIC = [p for p in PLAYERS.players if p.cost == 0]
SPECTATORS = load_spectators()
MARK = " ✷"  # l.707

# RULES.md "Basic players": the template of each Position, as (Actions, Reactions) pools.
O1P1 = {"orange": 1, "purple": 1}
P1B1 = {"purple": 1, "black": 1}
P1 = {"purple": 1}
TEMPLATE: dict[str, tuple[dict[str, dict[str, int]], dict[str, dict[str, int]]]] = {
    "keeper": ({"pass": O1P1, "steal": O1P1}, {"catch": P1B1, "steal": P1B1, "manoeuvre": P1B1}),
    "beater": ({"beat": O1P1, "pass": P1, "steal": P1}, {"defense": P1B1, "manoeuvre": P1B1, "steal": P1}),
    "chaser": ({"pass": O1P1, "shoot": O1P1, "steal": O1P1}, {"steal": P1B1, "manoeuvre": P1B1}),
    "seeker": ({"accelerate": O1P1, "dodge": O1P1, "glimpse": O1P1, "obstruct": O1P1}, {}),
}
TRAIT_KINDS = {"roll_bonus", "reroll", "tempo", "steady", "tough"}


def kind(thing: Trait | Effect) -> str:
    return str(type(thing).__struct_config__.tag)


def extra_dice(card: PlayerCard) -> Counter[str]:
    """The dice a card rolls beyond its Position's template, as "side roll colour" → count (negative: fewer)."""
    actions, reactions = TEMPLATE[card.position]
    out: Counter[str] = Counter()
    for side, pools, template in (("action", card.actions, actions), ("reaction", card.reactions, reactions)):
        assert set(pools) == set(template), card.id
        for name, pool in pools.items():
            for colour, n in pool.by_colour().items():
                if n != template[name].get(colour, 0):
                    out[f"{side} {name} {colour}"] = n - template[name].get(colour, 0)
    return out


def major(trait: Trait | None) -> bool:
    """The cost-3 Traits: a lasting roll_bonus, a Locked roll_bonus of 2, a re-roll of 3 dice."""
    match trait:
        case RollBonusTrait(locked=False) | RollBonusTrait(amount=2) | RerollTrait(dice=3):
            return True
    return False


# --- Unique Players -------------------------------------------------------------------


def test_twenty_unique_players_five_per_house() -> None:
    assert len(UNIQUE) == 20
    assert Counter(p.affiliation[0] for p in UNIQUE) == dict.fromkeys(HOUSES, 5)
    # Authored: every House's five cost 10 Galleons in all.
    assert {h: sum(p.cost for p in UNIQUE if p.affiliation[0] == h) for h in HOUSES} == dict.fromkeys(HOUSES, 10)


def test_every_position_among_every_houses_unique_players() -> None:
    for house in HOUSES:
        assert {p.position for p in UNIQUE if p.affiliation[0] == house} == set(POSITIONS), house


def test_two_unique_players_serve_two_houses() -> None:
    dual = {p.id: p.affiliation for p in UNIQUE if len(p.affiliation) > 1}
    assert dual == {"viktor_krum": ("slytherin", "ravenclaw"), "ludo_bagman": ("hufflepuff", "gryffindor")}
    assert all(len(p.affiliation) == 1 for p in BASIC)


def test_unique_names_and_copies() -> None:
    """l.707: a ✷ name; a unique card is one card with one Trait; basic cards have neither."""
    for card in UNIQUE:
        assert card.name.endswith(MARK) and card.name.count("✷") == 1, card.id
        assert card.copies == 1 and card.trait is not None and 1 <= card.cost <= 3, card.id
    for card in BASIC:
        assert "✷" not in card.name and card.trait is None, card.id
    assert sum(p.copies for p in BASIC) == 28  # l.96


def test_two_cards_share_the_name_harry_potter() -> None:
    """'you may have more than one Harry Potter Player miniature in your collection' (l.707)."""
    names = Counter(p.name for p in UNIQUE)
    assert {n: c for n, c in names.items() if c > 1} == {"Harry Potter ✷": 2}
    harry = {p.id: p for p in UNIQUE if p.name == "Harry Potter ✷"}
    assert set(harry) == {"harry_potter_seeker", "harry_potter_veteran"}
    assert {p.position for p in harry.values()} == {"seeker"}
    assert harry["harry_potter_seeker"].cost != harry["harry_potter_veteran"].cost


def test_costs_spread_over_one_to_three() -> None:
    assert Counter(p.cost for p in UNIQUE) == {1: 5, 2: 10, 3: 5}


def test_dice_are_the_template_plus_one_die_from_cost_two() -> None:
    """Cost 1: the template's dice; cost 2 and 3: one extra die, on one pool (at most one per Galleon)."""
    for card in UNIQUE:
        extra = extra_dice(card)
        assert all(n > 0 for n in extra.values()), f"{card.id} rolls fewer dice than its template: {extra}"
        assert sum(extra.values()) == (0 if card.cost == 1 else 1) <= card.cost, f"{card.id}: {extra}"
        for pool in (*card.actions.values(), *card.reactions.values()):
            assert pool.size <= 3 and max(pool.by_colour().values()) <= 2, card.id  # room for a Bonus die


def test_extra_dice_roll_the_right_symbols() -> None:
    """An extra die on an Action is orange or purple (Successes), on a Reaction black or purple."""
    for card in UNIQUE:
        for key in extra_dice(card):
            side, _, colour = key.split()
            assert colour in ({"orange", "purple"} if side == "action" else {"black", "purple"}), (card.id, key)


def test_major_traits_cost_three() -> None:
    for card in UNIQUE:
        assert major(card.trait) == (card.cost == 3), card.id


def test_each_trait_kind_at_least_twice() -> None:
    kinds = Counter(kind(p.trait) for p in UNIQUE if p.trait is not None)
    assert set(kinds) == TRAIT_KINDS and min(kinds.values()) >= 2, kinds
    bonuses = [p.trait for p in UNIQUE if isinstance(p.trait, RollBonusTrait)]
    assert {b.locked for b in bonuses} == {True, False} and {b.amount for b in bonuses} == {1, 2}


def test_traits_name_rolls_their_card_lists() -> None:
    for card in UNIQUE:
        trait = card.trait
        if isinstance(trait, RollBonusTrait | RerollTrait):
            assert card.pool(trait.roll) is not None, card.id
        if isinstance(trait, RerollTrait):
            pool = card.pool(trait.roll)
            assert pool is not None and trait.dice <= pool.size, card.id
        if isinstance(trait, TempoTrait):
            assert trait.on in card.actions, card.id
        if isinstance(trait, SteadyTrait | ToughTrait):
            assert card.position != "seeker", card.id


def test_locked_traits() -> None:
    """l.231: a Locked Trait is used once, then a Locked token goes on the card; its text says so."""
    assert RerollTrait(roll="catch", dice=2).locked
    assert RollBonusTrait(roll="shoot", amount=2, locked=True).locked
    assert not RollBonusTrait(roll="shoot").locked
    assert not TempoTrait(on="steal").locked and not SteadyTrait().locked and not ToughTrait().locked
    for card in UNIQUE:
        assert card.trait is not None
        assert describe_trait(card.trait).startswith("Locked:") == card.trait.locked, card.id


@pytest.mark.parametrize(
    ("trait", "text"),
    [
        (
            RollBonusTrait(roll="shoot", amount=2, locked=True),
            "Locked: once, after this Player's Shoot roll, add 2 Successes to it.",
        ),
        (
            RollBonusTrait(roll="catch", locked=True),
            "Locked: once, after this Player's Catch roll, add 1 Opportunity to it.",
        ),
        (RollBonusTrait(roll="pass"), "This Player adds 1 Success to every Pass roll it makes."),
        (
            RollBonusTrait(roll="steal_reaction"),
            "This Player adds 1 Opportunity to every Steal Reaction roll it makes.",
        ),
        (
            RerollTrait(roll="accelerate", dice=3),
            "Locked: once, after this Player's Accelerate roll, re-roll up to 3 of its dice.",
        ),
        (
            TempoTrait(on="steal"),
            "Each time this Player successfully performs a Steal Action, gain 1 extra Tempo Point.",
        ),
        (SteadyTrait(), "This Player ignores Disadvantage and Severe Disadvantage on its rolls."),
        (ToughTrait(), "Stunned tokens deduct at most 1 Success or Opportunity from this Player's rolls."),
    ],
)
def test_trait_text(trait: Trait, text: str) -> None:
    assert describe_trait(trait) == text


def test_the_lineup_is_still_the_seven_basic_cards() -> None:
    for house in HOUSES:
        lineup = PLAYERS.lineup(house)
        assert len(lineup) == 7 and all(p.cost == 0 and p.trait is None for p in lineup)


def test_lookups() -> None:
    assert PLAYERS.card("cedric_diggory").position == "seeker"
    assert len(PLAYERS.unique) == 20 and len(PLAYERS.basic) == 16
    with pytest.raises(KeyError):
        PLAYERS.card("gilderoy_lockhart")


# --- Spectator cards ------------------------------------------------------------------

IMMEDIATE = (Shift, FreeAction, DiceTokens, Tempo, Bludger, Upwind)
MAGIC_KINDS = {"bludger", "dice_tokens", "upwind"}
ENCOURAGEMENT_KINDS = {"tempo", "shift", "free_action"}


def test_the_fervent_fan_is_free_for_every_coach() -> None:
    """l.699, l.717: 'each Coach receives a Fervent Fan card at no cost'."""
    fan = SPECTATORS.card("fervent_fan")
    assert (fan.id, fan.name, fan.cost, fan.copies) == ("fervent_fan", "Fervent Fan", 0, 2)
    assert set(fan.affiliation) == set(HOUSES) and set(fan.zones) == {"magic", "encouragement"}
    assert (kind(fan.first), kind(fan.second)) == ("tempo", "free_action")
    assert [c for c in SPECTATORS.spectators if c.cost == 0] == [fan]


def test_two_bought_spectators_per_house() -> None:
    bought = SPECTATORS.bought
    assert len(bought) == 8 and len(SPECTATORS.spectators) == 9
    for house in HOUSES:
        mine = [c for c in bought if c.affiliation == (house,)]
        assert len(mine) == 2, house
        assert sorted(c.cost for c in mine) == [1, 2], house
    for card in bought:
        assert card.copies == 1 and card.name.endswith(MARK) and 1 <= card.cost <= 2, card.id


def test_a_spectator_shares_a_unique_players_name() -> None:
    """l.707: 'you may only ever use one of them in a Team at any one time: As a Player, or as a Spectator'."""
    shared = {c.name for c in SPECTATORS.spectators} & {p.name for p in UNIQUE}
    assert shared == {"Cedric Diggory ✷"}
    cedric = PLAYERS.card("cedric_diggory")
    assert cedric.affiliation == SPECTATORS.card("cedric_diggory").affiliation == ("hufflepuff",)


def test_spectator_effects_are_immediate() -> None:
    """A Spectator's effect applies when it is placed (l.719): no lasting roll change, re-roll or Tempo 'each time'."""
    for card in SPECTATORS.spectators:
        for effect in (card.first, card.second):
            assert isinstance(effect, IMMEDIATE), card.id
            assert not isinstance(effect, Tempo) or effect.on is None, card.id
        assert card.first != card.second, card.id
        assert card.zones and set(card.zones) <= {"magic", "encouragement"}, card.id


def test_zones_lean_as_authored() -> None:
    """Magic Zone cards: Bludgers, Dice tokens, Upwind; Encouragement Zone cards: Tempo, Shifts, free Actions."""
    zones = Counter(card.zones for card in SPECTATORS.bought)
    assert zones[("magic",)] >= 2 and zones[("encouragement",)] >= 2 and zones[("magic", "encouragement")] >= 1
    for card in SPECTATORS.bought:
        kinds = {kind(card.first), kind(card.second)}
        if card.zones == ("magic",):
            assert kinds <= MAGIC_KINDS, card.id
        if card.zones == ("encouragement",):
            assert kinds <= ENCOURAGEMENT_KINDS, card.id
        if len(card.zones) == 2:
            assert card.cost == 2, card.id


def test_the_second_effect_pays_for_displacing_a_rival() -> None:
    """The second effect is different and, for a bought Spectator, worth at least the first; costlier is better."""
    for card in SPECTATORS.bought:
        assert effect_worth(card.second) >= effect_worth(card.first), card.id
    bands = {1: (1.0, 1.5), 2: (1.5, 2.0)}  # the first effect's worth, by cost
    for card in SPECTATORS.bought:
        low, high = bands[card.cost]
        assert low <= effect_worth(card.first) <= high, card.id
    mean = {cost: sum(effect_worth(c.first) for c in SPECTATORS.bought if c.cost == cost) / 4 for cost in (1, 2)}
    assert mean[2] > mean[1]


def test_spectator_text() -> None:
    """A Spectator card as the engine shows it (views.py): its Stand Zones, its first and its second effect (l.719)."""
    engine = SnitchEngine()
    fan = spectator_card_view(engine, "fervent_fan")
    assert (fan.name, fan.cost, fan.zones) == ("Fervent Fan", 0, ["magic", "encouragement"])
    assert (fan.first, fan.second) == ("Gain 1 Tempo Point.", "Perform a free Move Action.")
    lee = spectator_card_view(engine, "lee_jordan")
    assert (lee.zones, lee.first) == (["encouragement"], "Gain 1 Tempo Point.")
    for card in SPECTATORS.spectators:
        view = spectator_card_view(engine, card.id)
        assert (view.first, view.second) == (describe_effect(card.first), describe_effect(card.second)), card.id
        assert view.first != view.second and view.zones == list(card.zones), card.id


def test_load_spectators_is_cached() -> None:
    assert load_spectators() is SPECTATORS
    assert parse_spectators(read_toml("spectators.toml")) == SPECTATORS
    assert isinstance(SPECTATORS.spectators[0], SpectatorCard)
    with pytest.raises(KeyError):
        SPECTATORS.card("moaning_myrtle")


# --- RULES.md lists every card as the data has it -------------------------------------

RULES_MD = Path(__file__).resolve().parents[3] / "RULES.md"


def test_rules_md_lists_every_unique_player_and_spectator() -> None:
    text = RULES_MD.read_text(encoding="utf-8")
    for card in UNIQUE:
        assert card.trait is not None
        row = f"| `{card.id}` | {card.name} | {', '.join(h.title() for h in card.affiliation)} | "
        assert row + f"{card.position.title()} | {card.cost} | " in text, card.id
        assert f" | {describe_trait(card.trait)} |" in text, card.id
    for spectator in SPECTATORS.spectators:
        cells = f" | {describe_effect(spectator.first)} | {describe_effect(spectator.second)} |"
        assert f"| {spectator.name} (`{spectator.id}`)" in text and cells in text, spectator.id


# --- The loader refuses broken data ---------------------------------------------------


def _player(d: dict[str, Any], player_id: str) -> dict[str, Any]:
    return next(p for p in d["players"]["players"] if p["id"] == player_id)


def _entry(d: dict[str, Any], player_id: str) -> str:
    index = next(i for i, p in enumerate(d["players"]["players"]) if p["id"] == player_id)
    return rf"players\[{index}\] \(id '{player_id}'\)"


PLAYER_FAULTS: dict[str, tuple[str, str, Callable[[dict[str, Any]], object]]] = {
    # fault: (the entry named, text the error must contain, how to break the data)
    "a trait on a basic card": (
        "gryffindor_chaser",
        "basic card .* no Trait",
        lambda d: _player(d, "gryffindor_chaser").update(trait={"kind": "steady"}),
    ),
    "a star on a basic card": (
        "slytherin_keeper",
        "no ✷",
        lambda d: _player(d, "slytherin_keeper").update(name="Slytherin Keeper ✷"),
    ),
    "a unique card without a star": (
        "oliver_wood",
        "ending in ' ✷'",
        lambda d: _player(d, "oliver_wood").update(name="Oliver Wood"),
    ),
    "a unique card in two copies": ("cho_chang", "copies = 1", lambda d: _player(d, "cho_chang").update(copies=2)),
    "a unique card without a trait": (
        "marcus_flint",
        "exactly one Trait",
        lambda d: _player(d, "marcus_flint").pop("trait"),
    ),
    "a roll the card does not list": (
        "angelina_johnson",
        "does not list catch",
        lambda d: _player(d, "angelina_johnson").update(trait={"kind": "roll_bonus", "roll": "catch"}),
    ),
    "a seeker's bonus on a pitch roll": (
        "harry_potter_seeker",
        "does not list shoot",
        lambda d: _player(d, "harry_potter_seeker").update(trait={"kind": "reroll", "roll": "shoot"}),
    ),
    "a steal reaction for a seeker": (
        "draco_malfoy",
        "does not list steal_reaction",
        lambda d: _player(d, "draco_malfoy").update(trait={"kind": "roll_bonus", "roll": "steal_reaction"}),
    ),
    "a lasting bonus of two": (
        "roger_davies",
        "only a Locked one adds 2",
        lambda d: _player(d, "roger_davies")["trait"].update(amount=2),
    ),
    "a locked bonus of three": (
        "viktor_krum",
        "<= 2",
        lambda d: _player(d, "viktor_krum")["trait"].update(amount=3),
    ),
    "a reroll of four dice": ("cedric_diggory", "<= 3", lambda d: _player(d, "cedric_diggory")["trait"].update(dice=4)),
    "a reroll of more dice than the pool": (
        "oliver_wood",
        "3 dice, but its catch pool rolls 2",
        lambda d: (
            _player(d, "oliver_wood")["reactions"].update(catch={"purple": 1, "black": 1})
            or _player(d, "oliver_wood")["trait"].update(dice=3)
        ),
    ),
    "tempo on an action the card lacks": (
        "tamsin_applebee",
        "does not list beat",
        lambda d: _player(d, "tamsin_applebee")["trait"].update(on="beat"),
    ),
    "tempo on a reaction": (
        "fred_weasley",
        "Invalid enum value 'defense'",
        lambda d: _player(d, "fred_weasley")["trait"].update(on="defense"),
    ),
    "a steady seeker": (
        "cho_chang",
        "no steady or tough",
        lambda d: _player(d, "cho_chang").update(trait={"kind": "steady"}),
    ),
    "an unknown trait kind": (
        "jason_samuels",
        "Invalid value 'lucky'",
        lambda d: _player(d, "jason_samuels").update(trait={"kind": "lucky"}),
    ),
    "a misspelt trait field": (
        "lucian_bole",
        "unknown field `amout`",
        lambda d: _player(d, "lucian_bole")["trait"].update(amout=1),
    ),
    "a free-text trait": (
        "miles_bletchley",
        "Expected `object | null`, got `str`",
        lambda d: _player(d, "miles_bletchley").update(trait="Tough as nails"),
    ),
}


@pytest.mark.parametrize("fault", sorted(PLAYER_FAULTS))
def test_the_loader_refuses_broken_players(fault: str) -> None:
    player_id, expected, breaks = PLAYER_FAULTS[fault]
    data = copy.deepcopy(read_files())
    entry = _entry(data, player_id)
    breaks(data)
    with pytest.raises(DataError, match=expected) as caught:
        parse(data)
    assert str(caught.value).startswith("players.toml: "), str(caught.value)
    assert caught.match(entry)


def test_the_box_still_holds_twenty_eight_basic_cards() -> None:
    """A unique card made basic (cost 0) is refused: it would carry a Trait and a ✷."""
    data = copy.deepcopy(read_files())
    _player(data, "fred_weasley").update(cost=0)
    with pytest.raises(DataError, match=r"players.toml: .*fred_weasley.*no Trait"):
        parse(data)


def _spectator(d: dict[str, Any], card_id: str) -> dict[str, Any]:
    return next(c for c in d["spectators"] if c["id"] == card_id)


SPECTATOR_FAULTS: dict[str, tuple[str, Callable[[dict[str, Any]], object]]] = {
    # fault: (text the error must contain, after "spectators.toml: "; how to break the data)
    "a lasting roll change": (
        r"spectators\[1\] \(id 'lee_jordan'\).*first: modify_roll is not an immediate effect",
        lambda d: _spectator(d, "lee_jordan").update(first={"kind": "modify_roll", "roll": "pass", "whose": "rival"}),
    ),
    "a reroll": (
        r"\(id 'severus_snape'\).*second: reroll is not an immediate effect",
        lambda d: _spectator(d, "severus_snape").update(second={"kind": "reroll", "roll": "beat", "whose": "rival"}),
    ),
    "tempo each time": (
        r"\(id 'cedric_diggory'\).*first: tempo with on is not an immediate effect",
        lambda d: _spectator(d, "cedric_diggory")["first"].update(on="shoot"),
    ),
    "no zone": (r"\(id 'luna_lovegood'\).*zones", lambda d: _spectator(d, "luna_lovegood").update(zones=[])),
    "a zone twice": (
        r"\(id 'luna_lovegood'\).*zones",
        lambda d: _spectator(d, "luna_lovegood").update(zones=["magic", "magic"]),
    ),
    "an unknown zone": (
        r"\(id 'pomona_sprout'\).*Invalid enum value 'pitch'",
        lambda d: _spectator(d, "pomona_sprout").update(zones=["pitch"]),
    ),
    "the same effect twice": (
        r"\(id 'pomona_sprout'\).*second: .*differs",
        lambda d: _spectator(d, "pomona_sprout").update(second=_spectator(d, "pomona_sprout")["first"]),
    ),
    "a fervent fan for a galleon": (
        r"\(id 'fervent_fan'\).*Fervent Fan costs 0",
        lambda d: _spectator(d, "fervent_fan").update(cost=1),
    ),
    "a fervent fan for one coach only": (
        r"\(id 'fervent_fan'\).*one per Coach",
        lambda d: _spectator(d, "fervent_fan").update(copies=1),
    ),
    "a fervent fan of one house": (
        r"\(id 'fervent_fan'\).*every House",
        lambda d: _spectator(d, "fervent_fan").update(affiliation=["gryffindor"]),
    ),
    "no fervent fan": ("Fervent Fan", lambda d: d["spectators"].pop(0)),
    "a free spectator": (
        r"\(id 'hermione_granger'\).*only the Fervent Fan is free",
        lambda d: _spectator(d, "hermione_granger").update(cost=0),
    ),
    "a spectator for three galleons": (
        r"\(id 'hermione_granger'\).*<= 2",
        lambda d: _spectator(d, "hermione_granger").update(cost=3),
    ),
    "a bought spectator without a star": (
        r"\(id 'pansy_parkinson'\).*✷",
        lambda d: _spectator(d, "pansy_parkinson").update(name="Pansy Parkinson"),
    ),
    "two copies of a bought spectator": (
        r"\(id 'pansy_parkinson'\).*copies = 1",
        lambda d: _spectator(d, "pansy_parkinson").update(copies=2),
    ),
    "an id twice": ("an id used twice", lambda d: d["spectators"].append(dict(_spectator(d, "lee_jordan")))),
    "a house with one spectator to buy": (
        "ravenclaw may buy 2",
        lambda d: _spectator(d, "filius_flitwick").update(affiliation=["slytherin"]),
    ),
    "a misspelt field": (
        r"\(id 'filius_flitwick'\).*unknown field `zone`",
        lambda d: _spectator(d, "filius_flitwick").update(zone=["magic"]),
    ),
}


@pytest.mark.parametrize("fault", sorted(SPECTATOR_FAULTS))
def test_the_loader_refuses_broken_spectators(fault: str) -> None:
    expected, breaks = SPECTATOR_FAULTS[fault]
    data = copy.deepcopy(read_toml("spectators.toml"))
    breaks(data)
    with pytest.raises(DataError, match=expected) as caught:
        parse_spectators(data)
    assert str(caught.value).startswith("spectators.toml: "), str(caught.value)
