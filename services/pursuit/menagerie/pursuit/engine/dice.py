"""The dice rules, in one place: the engine rolls and resolves with these, the bot plans with them.

- which faces a die shows, and the exact distribution of a roll (`roll_outcomes`: the
  engine's chance nodes state it) and of the beast's roll's effect (`beast_roll_outcomes`),
  built on menagerie.rules.chance over the dice data;
- how many dice the beast rolls after Distract and Muffliato (`beast_dice`);
- what each die of the beast's roll does (`die_effect`);
- how a Ready pattern is paid, wilds filling in (`pay_pattern`, `pattern_dice`);
- which die an activation spends (`spent_die`);
- the distinct choices of dice to keep when rolling again (`reroll_choices`).

Dice to assign are counted as small tuples (`Counts`, one number per face of
POOL_FACES) so that search can memoize on them.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from functools import cache
from typing import NamedTuple

from menagerie.pursuit.engine.data import POOL_FACES, Beast, DiceSet, Face
from menagerie.pursuit.engine.model import Activation, Color, Die, PoolDie, Reroll
from menagerie.rules.chance import Distribution, combine, dice_outcomes
from menagerie.rules.rng import Rng

# Dice by face, in the order of POOL_FACES (protect, capture, distract, insight, wild).
Counts = tuple[int, ...]
WILD = POOL_FACES.index("wild")
NO_DICE: Counts = (0,) * len(POOL_FACES)
MUFFLIATO_DICE = 2  # black dice a Muffliato card takes from the beast's roll


# ----------------------------------------------------------------------- rolling


def die_faces(dice: DiceSet, color: Color) -> tuple[Face, ...]:
    """The six faces of a black or the teal die."""
    return dice.teal.faces if color == "teal" else dice.black.faces


def roll_die(rng: Rng, dice: DiceSet, color: Color) -> Face:
    """One roll of a die of that colour."""
    return rng.choice(die_faces(dice, color))


def reroll_choices(dice: Sequence[Die]) -> list[Reroll]:
    """Every distinct choice of dice to keep, rolling at least one again (identical black faces are one choice)."""
    black = tuple(sorted(d.face for d in dice if d.color == "black"))
    return list(_reroll_choices(black, len(dice)))


@cache
def _reroll_choices(black: tuple[Face, ...], dice: int) -> tuple[Reroll, ...]:
    """reroll_choices for the black faces rolled (sorted) among `dice` dice: a few hundred rolls ever differ."""
    counted = Counter(black)
    faces = sorted(counted)
    options = []
    for counts in itertools.product(*(range(counted[f] + 1) for f in faces)):
        keep = tuple(f for f, n in zip(faces, counts, strict=True) for _ in range(n))
        for keep_teal in (False, True):
            if len(keep) + keep_teal < dice:
                options.append(Reroll(keep, keep_teal))
    return tuple(options)


def is_reroll_choice(dice: Sequence[Die], keep: Sequence[str], keep_teal: bool) -> bool:
    """True when `keep` are black faces rolled (as a multiset) and at least one die is rolled again."""
    if len(keep) + keep_teal >= len(dice):
        return False
    black: Counter[str] = Counter(d.face for d in dice if d.color == "black")
    return not Counter(keep) - black


def canonical_reroll(action: Reroll) -> Reroll:
    """The same Reroll as the legal list spells it: the kept faces in order."""
    return Reroll(tuple(sorted(action.keep)), action.keep_teal)


# --------------------------------------------------------------------- assigning


def counts_of(faces: Iterable[str]) -> Counts:
    """Dice by face (a reaction face is not a die to assign: it does not count)."""
    listed = Counter(faces)
    return tuple(listed[face] for face in POOL_FACES)


def plus(a: Counts, b: Counts) -> Counts:
    """Two sets of dice together."""
    return tuple(x + y for x, y in zip(a, b, strict=True))


def pay_pattern(have: Counts, need: Counts) -> Counts | None:
    """The dice left once a Ready pattern is paid from `have`: its own faces first, wilds for the rest.

    None when `have` cannot pay it.
    """
    left = list(have)
    for i, wanted in enumerate(need):
        if i == WILD:
            continue
        own = min(wanted, left[i])
        left[i] -= own
        left[WILD] -= wanted - own
    left[WILD] -= need[WILD]
    return tuple(left) if left[WILD] >= 0 else None


def usable(die: PoolDie, board: int, card_boards: Mapping[int, int]) -> bool:
    """A dice card's second die must go on the board its first one went to."""
    return die.card == 0 or card_boards.get(die.card, board) == board


def spend_order(pool: Sequence[PoolDie]) -> list[int]:
    """The order dice are taken in when several would do: rolled dice before dice cards' dice."""
    return sorted(range(len(pool)), key=lambda i: pool[i].card != 0)


def spent_die(
    pool: Sequence[PoolDie],
    card_boards: Mapping[int, int],
    face: str,
    board: int,
    exact: bool = False,
    color: str | None = None,
) -> int | None:
    """The die (pool index) spent on `board` for `face`: one showing it before a wild, in spend order.

    With `exact` (Setting an action with a named face) a wild does not stand in; with
    `color` only a die of that colour will do (a card's dice are black). Which die it is
    matters for Distract: a teal die there takes the teal die off the beast's roll.
    """
    order = [
        i
        for i in spend_order(pool)
        if usable(pool[i], board, card_boards) and (color is None or pool[i].color == color)
    ]
    found = next((i for i in order if pool[i].face == face), None)
    if found is not None or exact:
        return found
    return next((i for i in order if pool[i].face == "wild"), None)


def pattern_dice(
    pool: Sequence[PoolDie], card_boards: Mapping[int, int], board: int, pattern: Sequence[str]
) -> list[int] | None:
    """The dice (pool indexes, in pattern order) that Ready `pattern` on `board`, or None if they are missing."""
    free = [i for i in spend_order(pool) if usable(pool[i], board, card_boards)]
    if pay_pattern(counts_of(pool[i].face for i in free), counts_of(pattern)) is None:
        return None
    chosen: list[int] = []
    for face in pattern:
        exact = next((i for i in free if i not in chosen and pool[i].face == face), None)
        wild = next((i for i in free if i not in chosen and pool[i].face == "wild"), None)
        found = exact if exact is not None else wild
        assert found is not None  # pay_pattern said the pool pays it
        chosen.append(found)
    return chosen


# ------------------------------------------------------------------------- beast


class DieEffect(NamedTuple):
    """What one die of the beast's roll does, or all of them together."""

    escape: int = 0
    attack: int = 0
    reacts: bool = False


def die_effect(beast: Beast, face: str) -> DieEffect:
    """One die of the beast's roll: its face's effect on the beast card; the reaction face triggers the reaction.

    Faces the card does not list do nothing.
    """
    if face == "reaction":
        return DieEffect(reacts=True)
    effect = beast.faces.get(face)  # type: ignore[call-overload]
    return DieEffect(effect.escape, effect.attack) if effect is not None else DieEffect()


def harms(beast: Beast, face: str) -> bool:
    """Whether a die of the beast's roll showing `face` may do anything (so Protego may ignore it)."""
    return face == "reaction" or face in beast.faces


def beast_dice(
    beast: Beast,
    activations: Iterable[Activation],
    muffled: int,
    black_distracted: int = 0,
    teal_distracted: bool = False,
) -> tuple[int, bool]:
    """How many black dice the beast rolls, and whether it rolls the teal one.

    Its card's dice, less one black die per black die (or card die) on a Distract space,
    the teal die if the teal die is on one, and `muffled` black dice; never fewer than
    none. `black_distracted` and `teal_distracted` add distractions still to come (plans).
    """
    for activation in activations:
        if activation.action == "distract":
            if activation.color == "teal":
                teal_distracted = True
            else:
                black_distracted += 1
    return max(0, beast.black_dice - black_distracted - muffled), beast.teal and not teal_distracted


def roll_effect(beast: Beast, faces: Iterable[str]) -> DieEffect:
    """Every die of a roll together: steps the beast runs, attack on the active player, whether it reacts."""
    escape = attack = 0
    reacts = False
    for face in faces:
        effect = die_effect(beast, face)
        escape, attack, reacts = escape + effect.escape, attack + effect.attack, reacts or effect.reacts
    return DieEffect(escape, attack, reacts)


def roll_outcomes(dice: DiceSet, black: int, teal: bool) -> Distribution[tuple[Face, ...]]:
    """Every way `black` black dice (then the teal die if `teal`) may fall, with its chance.

    Faces in rolling order, the black ones before the teal one; equal black dice count
    once (their faces listed in the die's face order), as menagerie.rules.chance lists them.
    """
    rolls = dice_outcomes(die_faces(dice, "black"), black)
    if teal:
        rolls = combine(rolls, dice_outcomes(die_faces(dice, "teal"), 1))
    return rolls


def beast_roll_outcomes(beast: Beast, dice: DiceSet, black: int, teal: bool) -> Distribution[DieEffect]:
    """Every outcome of the beast rolling `black` black dice (and the teal die if `teal`), with its chance."""
    merged: dict[DieEffect, Fraction] = {}
    for faces, chance in roll_outcomes(dice, black, teal):
        effect = roll_effect(beast, faces)
        merged[effect] = merged.get(effect, Fraction(0)) + chance
    return list(merged.items())
