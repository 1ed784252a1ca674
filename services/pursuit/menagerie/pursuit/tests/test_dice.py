"""The dice rules the engine rolls and resolves with, and the bot plans with (engine/dice.py)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from menagerie.pursuit.engine.data import Reaction, load_data
from menagerie.pursuit.engine.dice import (
    DieEffect,
    beast_dice,
    beast_roll_outcomes,
    counts_of,
    pattern_dice,
    pay_pattern,
    roll_effect,
    spent_die,
)
from menagerie.pursuit.engine.model import Activation, PoolDie

DATA = load_data()
BEASTS = {b.id: b for b in DATA.beasts}


@pytest.mark.parametrize("beast", ["niffler", "erumpent"])
@pytest.mark.parametrize(("black", "teal"), [(0, True), (2, False), (2, True), (3, True)])
def test_the_beasts_roll_distribution_is_every_roll_counted_once(beast: str, black: int, teal: bool) -> None:
    card = BEASTS[beast]
    faces = [DATA.dice.black.faces] * black + ([DATA.dice.teal.faces] if teal else [])
    counted: dict[DieEffect, Fraction] = {}
    rolls = list(itertools.product(*faces))
    for roll in rolls:
        effect = roll_effect(card, roll)
        counted[effect] = counted.get(effect, Fraction(0)) + Fraction(1, len(rolls))
    outcomes = dict(beast_roll_outcomes(card, DATA.dice, black, teal))
    assert outcomes == counted and sum(outcomes.values()) == 1


def test_distracted_and_muffled_dice_leave_the_beasts_roll() -> None:
    card = BEASTS["erumpent"]
    black = [Activation(0, "distract", "black")]
    teal = [Activation(1, "distract", "teal")]
    assert beast_dice(card, [], 0) == (card.black_dice, card.teal)
    assert beast_dice(card, black, 0) == (card.black_dice - 1, card.teal)
    assert beast_dice(card, black + teal, 0) == (card.black_dice - 1, False)
    assert beast_dice(card, [], 2, black_distracted=1) == (card.black_dice - 3, card.teal)
    assert beast_dice(card, [], 99) == (0, card.teal), "never fewer than none"


def test_the_reaction_face_triggers_the_reaction_and_unlisted_faces_do_nothing() -> None:
    card = BEASTS["niffler"]
    assert card.reaction == Reaction(strip_shields=True, escape=1)
    assert roll_effect(card, ["reaction"]) == DieEffect(reacts=True)
    assert roll_effect(card, ["insight", "distract"]) == DieEffect()
    assert roll_effect(card, ["capture", "capture", "protect"]) == DieEffect(escape=2, attack=1)


def test_a_pattern_takes_its_own_faces_first_and_wilds_for_the_rest() -> None:
    have = counts_of(["capture", "capture", "wild", "wild", "insight"])
    assert pay_pattern(have, counts_of(["capture"] * 3)) == counts_of(["wild", "insight"])
    assert pay_pattern(have, counts_of(["distract"] * 3)) is None
    pool = [PoolDie("wild", "black"), PoolDie("capture", "black", card=7), PoolDie("capture", "black")]
    assert pattern_dice(pool, {}, 0, ["capture", "capture"]) == [2, 1], "rolled dice before a card's dice"
    assert pattern_dice(pool, {7: 1}, 0, ["capture", "capture"]) == [2, 0], "the card's dice went to board 1"


def test_an_activation_spends_its_face_before_a_wild_and_rolled_dice_before_a_cards() -> None:
    pool = [PoolDie("wild", "black"), PoolDie("distract", "black", card=4), PoolDie("distract", "teal")]
    assert spent_die(pool, {}, "distract", 0) == 2, "the teal die, rolled, before the card's die"
    assert spent_die(pool, {4: 1}, "distract", 0) == 2
    assert spent_die(pool[:2], {4: 1}, "distract", 0) == 0, "the card's die went elsewhere: a wild stands in"
    assert spent_die(pool[:2], {4: 1}, "distract", 0, exact=True) is None
