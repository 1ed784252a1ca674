"""The Tactical card libraries and the Snitch race deck load, keep the rulebook's counts and the authored balance.

The expected sets below are copied from the rulebook's text (not imported from the loader), so
a vocabulary widened by mistake fails here.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from typing import Any, get_args

import msgspec
import pytest

from menagerie.snitch.data import HOUSES, DataError, House, read_toml
from menagerie.snitch.data.cards import (
    SNITCH_TYPES,
    TRIGGER_ROLLS,
    Accelerate,
    Bludger,
    DiceTokens,
    Dodge,
    Effect,
    FreeAction,
    Glimpse,
    GoldenSnitchCard,
    Impulse,
    IntrepidMove,
    ModifyRoll,
    Obstruct,
    RaceDiceToken,
    Reroll,
    Shift,
    SlipstreamingCard,
    SnitchCard,
    Step,
    TacticalCard,
    Tempo,
    Upwind,
    UpwindToken,
    card_worth,
    describe_impulse,
    describe_intrepid,
    intrepid_worth,
    load_snitch_deck,
    load_tactics,
    parse_snitch_deck,
    parse_tactics,
)

TACTICS = load_tactics()
SNITCH = load_snitch_deck()

# "Actions List: Move*, Pass, Shoot, Beat, Recover*, Steal".
RULEBOOK_ACTIONS = {"move", "pass", "shoot", "beat", "recover", "steal"}
# "Tempo Points: Pass, Beat, Steal (As an Action, not a Reaction), Shoot".
RULEBOOK_TEMPO_ACTIONS = {"pass", "beat", "steal", "shoot"}
# Actions that roll dice, and "The Reactions available to Players are: Steal, Manoeuvre, Defense, Catch".
RULEBOOK_ROLLS = {"pass", "shoot", "steal", "beat", "steal_reaction", "manoeuvre", "defense", "catch"}
# "9 Dice (3 black dice, 3 purple dice, 3 orange dice)".
RULEBOOK_COLOURS = {"orange", "purple", "black"}
RULEBOOK_RACE_ACTIONS = {Accelerate, Dodge, Glimpse, Obstruct}  # "The Snitch Race": the Seeker's Actions
SIGNATURE: dict[House, set[str]] = {
    "gryffindor": {"shoot"},
    "slytherin": {"beat", "steal"},
    "ravenclaw": {"pass"},
    "hufflepuff": {"recover"},
}


def icons(cards: tuple[TacticalCard, ...]) -> Counter[str]:
    return Counter(a for c in cards for block in c.blocks for a in block)


def intrepid_moves(cards: tuple[TacticalCard, ...]) -> list[IntrepidMove]:
    return [c.intrepid for c in cards if c.intrepid is not None]


def library_cards(house: House) -> tuple[TacticalCard, ...]:
    """A house's cards beyond its basic deck (ids 16 on), the ones that cost Galleons."""
    return TACTICS.library(house)[15:]


# The nominal worth that prices the libraries lives in data/cards.py (the bots buy by it too).
worth = intrepid_worth


def mean(values: list[float]) -> float:
    return sum(values) / len(values)


# "106 Tactical Cards (25 Gryffindor, 28 Slytherin, 28 Ravenclaw, 25 Hufflepuff)".
RULEBOOK_LIBRARY = {"gryffindor": 25, "slytherin": 28, "ravenclaw": 28, "hufflepuff": 25}
# The authored cost spread of the cards beyond the basic deck: Galleons -> cards.
COST_SPREAD: dict[House, dict[int, int]] = {
    "gryffindor": {1: 4, 2: 4, 3: 2},
    "slytherin": {1: 5, 2: 5, 3: 3},
    "ravenclaw": {1: 5, 2: 5, 3: 3},
    "hufflepuff": {1: 4, 2: 4, 3: 2},
}
# Every card that costs Galleons lies in its cost's band of worth, and the mean worth per
# cost (0: the basic decks) is the figure RULES.md quotes.
WORTH_BANDS = {1: (5.25, 5.5), 2: (5.75, 6.25), 3: (6.5, 7.0)}
WORTH_MEANS = {0: 4.03, 1: 5.46, 2: 6.01, 3: 6.80}


# ------------------------------------------------------------------ tactical decks


def test_four_houses_with_fifteen_basic_cards_each() -> None:
    assert set(HOUSES) == {"gryffindor", "slytherin", "ravenclaw", "hufflepuff"}
    for house in HOUSES:
        deck = TACTICS.deck(house)
        assert len(deck) == 15, f"{house}: 'The Tactical card deck must always contain 15 cards.'"
        assert [c.id for c in deck] == list(range(1, 16))
        assert all(c.cost == 0 for c in deck), f"{house}: the basic deck costs 0 Galleons"
        assert len({c.name for c in deck}) == 15


def test_the_library_holds_the_rulebooks_106_cards() -> None:
    assert sum(RULEBOOK_LIBRARY.values()) == 106
    for house in HOUSES:
        library = TACTICS.library(house)
        assert len(library) == RULEBOOK_LIBRARY[house], house
        assert [c.id for c in library] == list(range(1, RULEBOOK_LIBRARY[house] + 1))
        assert library[:15] == TACTICS.deck(house), f"{house}: the basic deck is the library's first 15 cards"
        assert len({c.name for c in library}) == len(library), f"{house}: card names are distinct"
        assert all(TACTICS.card(house, c.id) == c for c in library)
        for missing in (0, len(library) + 1):
            with pytest.raises(KeyError):
                TACTICS.card(house, missing)
    assert sum(len(TACTICS.library(house)) for house in HOUSES) == 106


def test_basic_cards_cost_nothing_and_every_other_card_one_to_three_galleons() -> None:
    for house in HOUSES:
        for card in TACTICS.library(house):
            if card.id <= 15:
                assert card.cost == 0 and card.basic, f"{house} {card.id}: a basic card costs 0 Galleons"
            else:
                assert 1 <= card.cost <= 3 and not card.basic, f"{house} {card.id}: costs 1-3 Galleons"


def test_every_house_has_the_same_spread_of_costs() -> None:
    for house in HOUSES:
        spread = Counter(c.cost for c in library_cards(house))
        assert spread == COST_SPREAD[house], f"{house}: {dict(spread)}"
    shares = {house: {cost: n / sum(s.values()) for cost, n in s.items()} for house, s in COST_SPREAD.items()}
    for cost in (1, 2, 3):
        values = [shares[house][cost] for house in HOUSES]
        assert max(values) - min(values) <= 0.05, f"cost {cost}: the houses' shares {values} differ"
    assert all(s[1] >= s[2] >= s[3] for s in COST_SPREAD.values()), "cheaper cards are at least as many"


def test_worth_rises_with_cost() -> None:
    by_cost: dict[int, list[float]] = {0: [], 1: [], 2: [], 3: []}
    for house in HOUSES:
        for card in TACTICS.library(house):
            by_cost[card.cost].append(card_worth(card))
    means = {cost: mean(values) for cost, values in by_cost.items()}
    assert means[0] < means[1] < means[2] < means[3], means
    assert means == pytest.approx(WORTH_MEANS, abs=0.005), "RULES.md quotes these figures"
    for cost, (low, high) in WORTH_BANDS.items():
        assert all(low <= w <= high for w in by_cost[cost]), f"cost {cost}: worths {sorted(by_cost[cost])}"
        assert min(by_cost[cost]) >= max(by_cost[cost - 1]), f"no cost-{cost} card is worth less than a cheaper one"
    for house in HOUSES:
        house_means = [mean([card_worth(c) for c in library_cards(house) if c.cost == cost]) for cost in (1, 2, 3)]
        assert house_means == sorted(house_means) and len(set(house_means)) == 3, f"{house}: {house_means}"
    for cost in (1, 2, 3):
        per_house = [mean([card_worth(c) for c in library_cards(h) if c.cost == cost]) for h in HOUSES]
        assert max(per_house) - min(per_house) <= 0.25, f"cost {cost}: the houses' mean worths {per_house}"


def test_every_library_card_carries_an_intrepid_move_with_its_text() -> None:
    for house in HOUSES:
        for card in library_cards(house):
            assert card.intrepid is not None, f"{house} {card.id}: a card bought with Galleons has an Intrepid Move"
            text = describe_intrepid(card.intrepid)
            assert len(text) > 10 and text.endswith("."), f"{house} {card.id}: {text!r}"
            assert text.startswith("⚡") == (card.intrepid.swift is not None), text
            assert 0.5 <= worth(card.intrepid) <= 2.0, f"{house} {card.id}: {worth(card.intrepid)}"


def test_every_action_block_names_only_actions_the_rulebook_lists() -> None:
    for house in HOUSES:
        for card in TACTICS.library(house):
            assert 1 <= len(card.blocks) <= 3, f"{house} {card.id}: 1-3 Action Blocks"
            for block in card.blocks:
                assert 1 <= len(block) <= 3, f"{house} {card.id}: a block shows 1-3 Actions"
                assert set(block) <= RULEBOOK_ACTIONS, f"{house} {card.id}: {block}"
            assert 2 <= card.actions <= 5
        assert set(icons(TACTICS.deck(house))) == RULEBOOK_ACTIONS, f"{house}: every Action is on some card"


def test_the_houses_are_balanced_in_shape() -> None:
    """Each deck has the same spread of Actions per card, 48 Action icons and 10 Intrepid Moves."""
    shapes = {house: sorted(c.actions for c in TACTICS.deck(house)) for house in HOUSES}
    assert len({tuple(shape) for shape in shapes.values()}) == 1, shapes
    for house in HOUSES:
        deck = TACTICS.deck(house)
        assert sum(icons(deck).values()) == 48, house
        moves = intrepid_moves(deck)
        assert len(moves) == 10, f"{house}: 'Some Tactical cards include rules text for Intrepid Moves'"
        assert 2 <= sum(m.swift is not None for m in moves) <= 3, f"{house}: two or three Swift Intrepid Moves"


def test_fewer_actions_buy_an_intrepid_move() -> None:
    for house in HOUSES:
        for card in TACTICS.deck(house):
            if card.actions <= 2:
                assert card.intrepid is not None, f"{house} {card.id}: a two-Action card carries an Intrepid Move"
            if card.actions == 5:
                assert card.intrepid is None, f"{house} {card.id}: the five-Action card carries none"


def test_intrepid_moves_are_worth_about_the_same_in_every_house() -> None:
    totals = {house: sum(worth(m) for m in intrepid_moves(TACTICS.deck(house))) for house in HOUSES}
    assert max(totals.values()) <= 1.2 * min(totals.values()), totals
    for house in HOUSES:
        for card in TACTICS.deck(house):
            if card.intrepid is not None:
                assert 0.5 <= worth(card.intrepid) <= 2.0, f"{house} {card.id}: {worth(card.intrepid)}"


@pytest.mark.parametrize("scope", ["basic deck", "library"])
def test_each_house_has_its_recognisable_style(scope: str) -> None:
    def cards(house: House) -> tuple[TacticalCard, ...]:
        return TACTICS.deck(house) if scope == "basic deck" else library_cards(house)

    counts = {house: icons(cards(house)) for house in HOUSES}
    for house, signature in SIGNATURE.items():
        mine = sum(counts[house][a] for a in signature)
        for other in HOUSES:
            if other != house:
                theirs = sum(counts[other][a] for a in signature)
                assert mine > theirs, f"{scope}: {house} shows more {'+'.join(sorted(signature))} than {other}"
    kinds = {house: Counter(type(m.effect) for m in intrepid_moves(cards(house))) for house in HOUSES}
    assert kinds["slytherin"][Bludger] >= 2 and kinds["slytherin"][DiceTokens] >= 2
    assert kinds["ravenclaw"][Upwind] >= 2 and kinds["ravenclaw"][Reroll] >= 2
    assert kinds["hufflepuff"][FreeAction] >= 1
    swift_rolls = [m.effect for m in intrepid_moves(cards("hufflepuff")) if m.swift]
    defended = sum(isinstance(e, ModifyRoll | Reroll) and e.roll in {"defense", "catch"} for e in swift_rolls)
    assert defended >= 2, f"{scope}: Hufflepuff's Swift moves protect (Defense, Catch)"
    slytherin = [m.effect for m in intrepid_moves(cards("slytherin"))]
    assert sum(map(hurts_the_rival, slytherin)) >= len(slytherin) / 2, f"{scope}: Slytherin's moves hurt the rival"


def hurts_the_rival(effect: Effect) -> bool:
    """A Bludger move, Penalty Dice, a rival Shift or a deduction from rival rolls."""
    match effect:
        case Bludger():
            return True
        case DiceTokens(token=token):
            return token == "penalty"
        case Shift(whose=whose) | ModifyRoll(whose=whose):
            return whose == "rival"
    return False


def test_every_effect_parameter_is_one_the_rulebook_knows() -> None:
    seen: set[type] = set()
    for house in HOUSES:
        for move in intrepid_moves(TACTICS.library(house)):
            effect = move.effect
            seen.add(type(effect))
            if isinstance(effect, FreeAction):
                assert effect.action in RULEBOOK_ACTIONS - {"shoot"} and 1 <= effect.count <= 2
            elif isinstance(effect, ModifyRoll | Reroll):
                assert effect.roll in RULEBOOK_ROLLS and effect.whose in {"friendly", "rival"}
            elif isinstance(effect, DiceTokens):
                assert effect.colour in RULEBOOK_COLOURS and effect.token in {"bonus", "penalty"}
            elif isinstance(effect, Tempo):
                assert effect.on is None or effect.on in RULEBOOK_TEMPO_ACTIONS
            elif isinstance(effect, Shift):
                assert effect.role in {None, "chaser", "beater", "keeper"}, "a Seeker is never Shifted"
            if move.swift is not None and move.swift != "loose_quaffle":
                assert isinstance(effect, ModifyRoll | Reroll)
                assert (effect.whose, effect.roll) in TRIGGER_ROLLS[move.swift]
            text = describe_intrepid(move)
            assert text.endswith(".") and text.startswith("⚡") == (move.swift is not None), text
            assert msgspec.convert(msgspec.to_builtins(effect), Effect) == effect  # round-trips
    kinds = set(get_args(Effect))
    assert seen == kinds, f"every effect kind is on some card, missing {kinds - seen}"


# ---------------------------------------------------------------- Snitch race deck


def nominal(impulse: Impulse, roll: float = 1.5) -> float:
    """Spaces an Impulse gains on the rival, nominally (a roll is worth `roll` Successes)."""
    total = 0.0
    for step in impulse:
        if isinstance(step, UpwindToken | RaceDiceToken):
            total += 0.5
            continue
        successes = roll + step.modifier if step.successes is None else step.successes
        total += successes * {Accelerate: 1.0, Dodge: 1.0, Glimpse: 0.75, Obstruct: 1.0}[type(step)]
        total += 0.25 if isinstance(step, Dodge) else 0.0
    return total


def test_the_snitch_deck_is_sixteen_cards() -> None:
    kinds = Counter(type(c) for c in SNITCH.cards)
    assert len(SNITCH.cards) == 16
    assert kinds == {SnitchCard: 12, SlipstreamingCard: 2, GoldenSnitchCard: 2}
    assert [c.id for c in SNITCH.cards] == list(range(1, 17))


def test_every_snitch_card_has_a_type_and_three_impulses() -> None:
    for card in SNITCH.snitch_cards:
        assert card.type in {"dive", "climb", "loop", "sprint"}
        for impulse in (card.rushed, card.fast, card.perfect):
            assert 1 <= len(impulse) <= 2 and type(impulse[0]) in RULEBOOK_RACE_ACTIONS, card.name
            assert all(type(step) in get_args(Step) for step in impulse)
            for step in impulse:
                if isinstance(step, Accelerate | Dodge | Glimpse | Obstruct):
                    assert (step.successes is None) or step.modifier == 0, f"{card.name}: fixed or rolled"
                    assert step.successes is None or 1 <= step.successes <= 4
                    assert -2 <= step.modifier <= 2
        assert len(set(card.fast_types)) == 2 and card.type not in card.fast_types
        assert {card.type, *card.fast_types, rushed_type(card)} == {"dive", "climb", "loop", "sprint"}


def rushed_type(card: SnitchCard) -> str:
    """The one Type that matches neither the card's Type nor its Fast Types (a drawn card of it: Rushed, l.670)."""
    return next(t for t in SNITCH_TYPES if t != card.type and t not in card.fast_types)


def test_types_are_spread_evenly_and_each_leaves_a_different_type_to_rushed() -> None:
    types = Counter(c.type for c in SNITCH.snitch_cards)
    assert types == {"dive": 3, "climb": 3, "loop": 3, "sprint": 3}
    for snitch_type in types:
        rushed = {rushed_type(c) for c in SNITCH.snitch_cards if c.type == snitch_type}
        assert len(rushed) == 3, f"{snitch_type}: its three cards leave three different Types to the Rushed Impulse"


def test_impulses_grow_from_rushed_to_fast_to_perfect() -> None:
    for card in SNITCH.snitch_cards:
        for roll in (1.0, 1.5, 2.0):
            rushed, fast, perfect = (nominal(i, roll) for i in (card.rushed, card.fast, card.perfect))
            assert rushed < fast < perfect, f"{card.name} (a roll worth {roll}): {rushed} < {fast} < {perfect}"
        assert nominal(card.perfect) <= 5, f"{card.name}: no Perfect Impulse wins the race alone"
    actions = {type(s) for c in SNITCH.snitch_cards for i in (c.rushed, c.fast, c.perfect) for s in i}
    assert actions >= RULEBOOK_RACE_ACTIONS | {UpwindToken}, "every race Action and the Upwind token are used"


def test_the_rulebook_example_card_and_the_special_cards_are_printed_as_quoted() -> None:
    # "on the example card, Accelerate 2" / "Accelerate 3 and Upwind" / "Dodge 3 and Upwind".
    example = SNITCH.snitch_cards[0]
    assert describe_impulse(example.rushed) == "Accelerate 2"
    assert describe_impulse(example.fast) == "Accelerate 3 and Upwind"
    assert describe_impulse(example.perfect) == "Dodge 3 and Upwind"
    for card in SNITCH.cards:
        if isinstance(card, GoldenSnitchCard):
            assert card.on_reveal == (Glimpse(),) and describe_impulse(card.on_reveal) == "Glimpse"
        if isinstance(card, SlipstreamingCard):
            assert describe_impulse(card.if_lagged) == "Obstruct 1"


# ------------------------------------------------------------------------ the loader

Breaker = Callable[[dict[str, Any]], object]

BROKEN_TACTICS: dict[str, tuple[Breaker, str]] = {
    "an Action outside the list": (lambda d: d["gryffindor"][2]["blocks"][0].append("fly"), "gryffindor[2] (id 3)"),
    "a twenty-ninth card": (
        lambda d: d["slytherin"].append({**d["slytherin"][27], "id": 29, "name": "Extra Serpent"}),
        "slytherin: exactly 28 cards",
    ),
    "a twenty-six-card Hufflepuff library": (
        lambda d: d["hufflepuff"].append({**d["hufflepuff"][24], "id": 26, "name": "Extra Badger"}),
        "hufflepuff: exactly 25 cards",
    ),
    "a library one card short": (lambda d: d["ravenclaw"].pop(), "ravenclaw: exactly 28 cards"),
    "library cards out of order": (
        lambda d: d["gryffindor"].insert(16, d["gryffindor"].pop(17)),
        "gryffindor: exactly 25 cards",
    ),
    "a library card without a cost": (lambda d: d["gryffindor"][15].pop("cost"), "gryffindor[15] (id 16)"),
    "a library card costing 0": (lambda d: d["slytherin"][20].update(cost=0), "slytherin[20] (id 21)"),
    "a library card costing 4": (lambda d: d["ravenclaw"][27].update(cost=4), "ravenclaw[27] (id 28).cost"),
    "a basic card costing 3": (lambda d: d["hufflepuff"][14].update(cost=3), "hufflepuff[14] (id 15)"),
    "a library card named like a basic one": (
        lambda d: d["gryffindor"][24].update(name="Lion's Leap"),
        "gryffindor: card names are distinct",
    ),
    "a library card of six Actions": (
        lambda d: d["ravenclaw"][25]["blocks"].append(["move"]),
        "ravenclaw[25] (id 26)",
    ),
    "a library card's lasting +2": (
        lambda d: d["gryffindor"][19]["intrepid"]["effect"].update(amount=2),
        "gryffindor[19] (id 20)",
    ),
    "an empty Action Block": (lambda d: d["hufflepuff"][4]["blocks"].append([]), "hufflepuff[4] (id 5)"),
    "six Actions": (lambda d: d["gryffindor"][14]["blocks"].append(["move"]), "gryffindor[14] (id 15)"),
    "four Action Blocks": (lambda d: d["gryffindor"][0].update(blocks=[["move"]] * 4), "gryffindor[0] (id 1)"),
    "a Galleon cost": (lambda d: d["slytherin"][3].update(cost=1), "slytherin[3] (id 4)"),
    "an unknown effect kind": (
        lambda d: d["ravenclaw"][0]["intrepid"]["effect"].update(kind="teleport"),
        "ravenclaw[0] (id 1)",
    ),
    "a misspelt parameter": (
        lambda d: d["ravenclaw"][0]["intrepid"]["effect"].update(token=1),
        "ravenclaw[0] (id 1)",
    ),
    "three free Actions": (
        lambda d: d["gryffindor"][1]["intrepid"]["effect"].update(count=3),
        "gryffindor[1] (id 2)",
    ),
    "a free Shoot": (
        lambda d: d["gryffindor"][1]["intrepid"]["effect"].update(action="shoot"),
        "gryffindor[1] (id 2)",
    ),
    "a lasting +2": (
        lambda d: d["gryffindor"][0]["intrepid"]["effect"].update(amount=2),
        "gryffindor[0] (id 1)",
    ),
    "a Swift move on a roll it does not trigger": (
        lambda d: d["ravenclaw"][5]["intrepid"]["effect"].update(roll="catch"),
        "ravenclaw[5] (id 6)",
    ),
    "a Swift Shift on a Steal": (
        lambda d: d["hufflepuff"][11]["intrepid"].update(swift="rival_steal"),
        "hufflepuff[11] (id 12)",
    ),
    "an unknown trigger": (lambda d: d["hufflepuff"][11]["intrepid"].update(swift="whenever"), "hufflepuff[11]"),
    "a Tempo Point for Moving": (
        lambda d: d["gryffindor"][3]["intrepid"]["effect"].update(on="move"),
        "gryffindor[3] (id 4)",
    ),
    "a white die": (lambda d: d["gryffindor"][6]["intrepid"]["effect"].update(colour="white"), "gryffindor[6]"),
    "two rival Players Shifted": (
        lambda d: d["slytherin"][3]["intrepid"]["effect"].update(players=2),
        "slytherin[3] (id 4)",
    ),
    "a Seeker Shifted": (lambda d: d["gryffindor"][4]["intrepid"]["effect"].update(role="seeker"), "gryffindor[4]"),
    "a deck without Recover": (lambda d: d["gryffindor"][12]["blocks"].__setitem__(2, ["move"]), "recover"),
    "a fifth house": (lambda d: d.update(durmstrang=[]), "durmstrang"),
}

BROKEN_SNITCH: dict[str, tuple[Breaker, str]] = {
    "a seventeenth card": (lambda d: d["cards"].append({**d["cards"][15], "id": 17}), "16 cards"),
    "a third Golden Snitch": (
        lambda d: d["cards"].__setitem__(13, {"id": 14, "kind": "golden_snitch", "on_reveal": [{"kind": "glimpse"}]}),
        "2 Golden Snitch",
    ),
    "a fifth Type": (lambda d: d["cards"][0].update(type="hover"), "cards[0] (id 1)"),
    "four cards of one Type": (lambda d: d["cards"][3].update(type="dive", fast_types=["loop", "sprint"]), "Type"),
    "a card's own Type among its Fast Types": (lambda d: d["cards"][0].update(fast_types=["dive", "loop"]), "(id 1)"),
    "a missing Impulse": (lambda d: d["cards"][2].pop("perfect"), "cards[2] (id 3)"),
    "an empty Impulse": (lambda d: d["cards"][2].update(rushed=[]), "cards[2] (id 3)"),
    "an Impulse of three steps": (
        lambda d: d["cards"][1]["perfect"].extend([{"kind": "upwind"}, {"kind": "dodge"}]),
        "cards[1] (id 2)",
    ),
    "an Impulse led by a token": (lambda d: d["cards"][0].update(rushed=[{"kind": "upwind"}]), "cards[0] (id 1)"),
    "an unknown race Action": (lambda d: d["cards"][0]["rushed"][0].update(kind="teleport"), "cards[0] (id 1)"),
    "fixed Successes with a modifier": (lambda d: d["cards"][0]["rushed"][0].update(modifier=1), "cards[0] (id 1)"),
    "a +3 modifier": (lambda d: d["cards"][4]["fast"][0].update(modifier=3), "cards[4] (id 5)"),
    "five fixed Successes": (lambda d: d["cards"][9]["perfect"][0].update(successes=5), "cards[9] (id 10)"),
    "Golden Snitch with a bonus": (lambda d: d["cards"][14]["on_reveal"][0].update(modifier=1), "cards[14] (id 15)"),
    "Slipstreaming with Obstruct 2": (lambda d: d["cards"][12]["if_lagged"][0].update(successes=2), "(id 13)"),
    "a misspelt field": (lambda d: d["cards"][5].update(fast_type=["dive"]), "cards[5] (id 6)"),
}


@pytest.mark.parametrize("fault", sorted(BROKEN_TACTICS))
def test_the_loader_refuses_broken_tactics_naming_the_file_and_entry(fault: str) -> None:
    data = copy.deepcopy(read_toml("tactics.toml"))
    breaker, where = BROKEN_TACTICS[fault]
    breaker(data)
    with pytest.raises(DataError) as error:
        parse_tactics(data)
    assert str(error.value).startswith("tactics.toml: ") and where in str(error.value), str(error.value)


@pytest.mark.parametrize("fault", sorted(BROKEN_SNITCH))
def test_the_loader_refuses_a_broken_snitch_deck_naming_the_file_and_entry(fault: str) -> None:
    data = copy.deepcopy(read_toml("snitch_deck.toml"))
    breaker, where = BROKEN_SNITCH[fault]
    breaker(data)
    with pytest.raises(DataError) as error:
        parse_snitch_deck(data)
    assert str(error.value).startswith("snitch_deck.toml: ") and where in str(error.value), str(error.value)


def test_the_files_as_read_are_valid() -> None:
    assert parse_tactics(read_toml("tactics.toml")) == TACTICS
    assert parse_snitch_deck(read_toml("snitch_deck.toml")) == SNITCH
