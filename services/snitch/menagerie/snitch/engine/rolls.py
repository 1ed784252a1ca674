"""The dice rolls of Actions and Reactions, in one place: the engine rolls and resolves with these, bots plan with them.

- rolling a die (`roll_die`; an exchange's dice are a chance node of the engine) and
  counting a roll (`count`): Successes on an Action roll,
  Opportunities on a Reaction roll;
- the dice a Player rolls after Bonus and Penalty Dice tokens (`with_dice_tokens`);
- the modifiers of a roll (`modifier`): Disadvantage (not on a Beat), Stunned tokens (at
  most 3), effects such as Intrepid Moves and Aim at the Hoop (`aim_bonus`);
- an Action against its Reaction (`resolve` → `Result`): Successes minus the Reaction's
  Opportunities, success with at least one Success remaining;
- rerolls (`rerollable`, `check_reroll`, `reroll`, `goal_token_reroll`,
  `resolution_order`): each die remembers which Coaches rerolled it; the engine draws the
  new faces as a chance node (`reroll_outcomes`, `draw_reroll`);
- exact chances (`count_outcomes`, `net_outcomes`, `success_chance`, `aim_outcomes`),
  built on menagerie.rules.chance.

Line numbers (l.) are of the rulebook, catch-the-golden-snitch.txt; RULES.md "Rolls" records
every reading made here.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache
from itertools import groupby
from typing import Literal

import msgspec

from menagerie.rules.chance import Distribution, combine, dice_outcomes
from menagerie.rules.rng import Rng
from menagerie.snitch.data import Colour, Dice, DicePool, Hoops, Symbol
from menagerie.snitch.data.cards import RacePitchAction, RollName

RollKind = Literal["action", "reaction"]
# Every roll a modifier may apply to: the Pitch Actions and Reactions (the vocabulary of the
# tactical cards' effects) and the Seekers' race Actions.
RollOf = RollName | RacePitchAction

MAX_STUNNED = 3  # l.544 "to a maximum of 3 – the effect is cumulative"
NO_DISADVANTAGE, DISADVANTAGE, SEVERE_DISADVANTAGE = 0, 1, 2  # l.419–420: deduct 1, deduct 2
BLUDGER_HIT = 1  # l.536 "resolved as if a Player had rolled a Success on the dice"


class RollError(ValueError):
    """A roll asked of these rules that they do not allow (a die rerolled twice by a Coach, a token with no die)."""


class RolledDie(msgspec.Struct, frozen=True):
    """One die of a roll: its colour, the face it shows, and the Coaches (seats) who rerolled it, in order."""

    colour: Colour
    face: Symbol
    rerolled_by: tuple[int, ...] = ()


class Roll(msgspec.Struct, frozen=True):
    """An Action or a Reaction roll: whose Player rolled it (seat), its dice, whether its Goal token reroll is used."""

    kind: RollKind
    seat: int
    dice: tuple[RolledDie, ...]
    goal_token: bool = False


class Result(msgspec.Struct, frozen=True):
    """An Action (its Successes and modifier) against its Reaction (Opportunities and modifier), if any.

    `successes` are counted on the Action dice, or fixed (a Bludger's hit, a race Action
    without a roll); `opportunities` on the Reaction dice (0 without a Reaction).
    """

    successes: int
    action_modifier: int = 0
    opportunities: int = 0
    reaction_modifier: int = 0

    @property
    def cancelled(self) -> int:
        """The Successes the Reaction removes: its Opportunities after its own modifiers, never below 0."""
        # l.419 / l.542 deduct Opportunities "from their Reaction rolls": a Reaction with
        # fewer Opportunities than penalties removes nothing; it never adds Successes.
        return max(0, self.opportunities + self.reaction_modifier)

    @property
    def net(self) -> int:
        """Successes after every bonus and penalty (may be negative: nothing remains)."""
        return self.successes + self.action_modifier - self.cancelled

    @property
    def remaining(self) -> int:
        """The Successes remaining (0 when none), e.g. spaces an Accelerate advances."""
        return max(0, self.net)

    @property
    def success(self) -> bool:
        """l.171: successful if "at least one Success remaining"; a tie or less is a fail."""
        return self.net >= 1


# ----------------------------------------------------------------------- rolling


def faces(dice: Dice, colour: Colour) -> tuple[Symbol, ...]:
    """The faces of a die of that colour (from the data)."""
    return dice.colours[colour].faces


def value(dice: Dice, face: Symbol, kind: RollKind) -> int:
    """What one face counts: Successes on an Action roll, Opportunities on a Reaction roll (l.163)."""
    symbol = dice.symbols[face]
    return symbol.successes if kind == "action" else symbol.opportunities


def roll_die(rng: Rng, dice: Dice, colour: Colour) -> Symbol:
    """One roll of a die of that colour."""
    return rng.choice(faces(dice, colour))


def count(dice: Dice, roll: Roll) -> int:
    """The Successes (Action) or Opportunities (Reaction) a roll shows, before modifiers."""
    return sum(value(dice, die.face, roll.kind) for die in roll.dice)


# --------------------------------------------------------------------- dice tokens


def with_dice_tokens(
    dice: Dice, pool: DicePool, bonus: Iterable[Colour] = (), penalty: Iterable[Colour] = ()
) -> DicePool:
    """The pool rolled once Bonus Dice tokens add a die each and Penalty Dice tokens take one away (l.454–456).

    Bonus dice come first, then the Penalty tokens the rival spends. RollError when a
    Bonus token would need a fourth die of a colour (the box has three, l.81) or a
    Penalty token names a colour the pool no longer has.
    """
    counts = pool.by_colour()
    for colour in bonus:
        if counts[colour] >= dice.colours[colour].count:
            raise RollError(f"no {colour} die left to add: the game has {dice.colours[colour].count}")
        counts[colour] += 1
    for colour in penalty:
        if counts[colour] == 0:
            raise RollError(f"no {colour} die to discard")
        counts[colour] -= 1
    return DicePool(**counts)


# ---------------------------------------------------------------------- modifiers


def pass_disadvantage(passer: int, target: int) -> int:
    """A Pass suffers the worse Disadvantage of its passer and its target (l.358; once, not both)."""
    return max(passer, target)


def stunned_penalty(tokens: int) -> int:
    """What Stunned tokens deduct: 1 each, at most 3 counted (l.542–544)."""
    if tokens < 0:
        raise RollError("a negative number of Stunned tokens")
    return min(tokens, MAX_STUNNED)


def modifier(roll: RollOf, *, disadvantage: int = NO_DISADVANTAGE, stunned: int = 0, effects: int = 0) -> int:
    """The signed change to a roll's Successes (an Action) or Opportunities (a Reaction).

    −1 / −2 at Disadvantage / Severe Disadvantage, except on a Beat Action (l.424), −1 per
    Stunned token (at most 3), plus `effects`: Intrepid Moves (+ on friendly rolls, − on
    rival ones), Aim at the Hoop, a race card's modifier. All cumulative (l.422, l.544).
    """
    if disadvantage not in (NO_DISADVANTAGE, DISADVANTAGE, SEVERE_DISADVANTAGE):
        raise RollError(f"Disadvantage is 0, 1 or 2 (Severe), not {disadvantage}")
    deducted = 0 if roll == "beat" else disadvantage
    return effects - deducted - stunned_penalty(stunned)


def aim_bonus(hoops: Hoops, shooter: int, keeper: int) -> int:
    """The Successes Aim at the Hoop adds to the Shoot: one if the revealed numbers differ, none if equal (l.492)."""
    for number in (shooter, keeper):
        if number not in hoops.numbers:
            raise RollError(f"no Goal Hoop card numbered {number}")
    return hoops.bonus_if_same if shooter == keeper else hoops.bonus_if_different


# ---------------------------------------------------------------------- resolving


def resolve(
    dice: Dice,
    action: Roll | int,
    reaction: Roll | None = None,
    *,
    action_modifier: int = 0,
    reaction_modifier: int = 0,
) -> Result:
    """An Action roll (or fixed Successes, e.g. BLUDGER_HIT) against at most one Reaction roll (l.400), resolved."""
    if isinstance(action, Roll):
        if action.kind != "action":
            raise RollError("the first roll is an Action roll")
        successes = count(dice, action)
    else:
        successes = action
    if reaction is not None and reaction.kind != "reaction":
        raise RollError("the second roll is a Reaction roll")
    opportunities = count(dice, reaction) if reaction is not None else 0
    return Result(successes, action_modifier, opportunities, reaction_modifier)


# ------------------------------------------------------------------------ rerolls


def rerollable(roll: Roll, seat: int) -> tuple[int, ...]:
    """The dice (indexes) of a roll that Coach `seat` may still reroll: those they have not rerolled (l.175)."""
    return tuple(i for i, die in enumerate(roll.dice) if seat not in die.rerolled_by)


def check_reroll(roll: Roll, seat: int, indexes: Sequence[int], limit: int | None = None) -> None:
    """Whether Coach `seat` may pick up these dice of a roll (theirs or the rival's) to roll them again (l.173–175).

    RollError if no die is named, a die is named twice, one is not in the roll, one was
    already rerolled by this Coach, or more than `limit` are named (an Intrepid Move's
    "up to N dice").
    """
    chosen = set(indexes)
    if not chosen or len(chosen) != len(indexes):
        raise RollError("name each die to reroll once, at least one")
    if limit is not None and len(chosen) > limit:
        raise RollError(f"at most {limit} dice may be rerolled")
    allowed = set(rerollable(roll, seat))
    for index in sorted(chosen):
        if not 0 <= index < len(roll.dice):
            raise RollError(f"no die {index} in this roll")
        if index not in allowed:
            raise RollError(f"die {index} was already rerolled by this Coach")


def reroll_outcomes(dice: Dice, roll: Roll, indexes: Sequence[int]) -> Distribution[tuple[Symbol, ...]]:
    """Every way the dice picked up may fall (faces in index order), with its chance.

    Equal dice count once, as menagerie.rules.chance lists them: dice next to each other of
    one colour and rerolled by the same Coaches (a face on one or the other is then the same).
    """
    outcome: Distribution[tuple[Symbol, ...]] = [((), Fraction(1))]
    picked = [roll.dice[i] for i in sorted(indexes)]
    for (colour, _), same in groupby(picked, key=lambda die: (die.colour, die.rerolled_by)):
        outcome = combine(outcome, dice_outcomes(faces(dice, colour), len(list(same))))
    return outcome


def draw_reroll(rng: Rng, dice: Dice, roll: Roll, indexes: Sequence[int]) -> tuple[Symbol, ...]:
    """The new faces of the dice picked up, rolled one by one in index order (a seeded match replays them)."""
    return tuple(roll_die(rng, dice, roll.dice[i].colour) for i in sorted(indexes))


def reroll(roll: Roll, seat: int, indexes: Sequence[int], fallen: Sequence[Symbol], limit: int | None = None) -> Roll:
    """Coach `seat` picked up these dice of a roll and they fell on `fallen` (in index order; l.173–175).

    The new faces count even if worse; each die remembers that `seat` rerolled it. RollError
    as `check_reroll`, or when the faces are not one per die.
    """
    check_reroll(roll, seat, indexes, limit)
    chosen = sorted(indexes)
    if len(fallen) != len(chosen):
        raise RollError(f"{len(chosen)} dice rerolled, {len(fallen)} faces")
    face_of = dict(zip(chosen, fallen, strict=True))
    new = tuple(
        RolledDie(die.colour, face_of[i], (*die.rerolled_by, seat)) if i in face_of else die
        for i, die in enumerate(roll.dice)
    )
    return msgspec.structs.replace(roll, dice=new)


def can_use_goal_token(roll: Roll, seat: int) -> bool:
    """Whether Coach `seat` may flip a Goal token to reroll a die of this roll (their own, once per roll, l.504)."""
    return seat == roll.seat and not roll.goal_token and bool(rerollable(roll, seat))


def goal_token_reroll(roll: Roll, seat: int, index: int, face: Symbol) -> Roll:
    """Flip an Uncelebrated Goal token: one die of your Player's own roll rerolled, fallen on `face` (l.504).

    Once per Action or Reaction. It is a reroll by that Coach, so it cannot take a die they
    already rerolled (l.175). The caller flips the token (the Team's Goal tokens are not part
    of a roll).
    """
    if seat != roll.seat:
        raise RollError("a Goal token rerolls a die of your own Player's roll")
    if roll.goal_token:
        raise RollError("a Goal token was already used on this roll")
    return msgspec.structs.replace(reroll(roll, seat, [index], [face]), goal_token=True)


def resolution_order(active: int | None, last_to_act: int) -> tuple[int, int]:
    """Who resolves first when rules meet (rerolls, effects): the active Coach, else the last to act (l.179)."""
    first = last_to_act if active is None else active
    return first, 1 - first


# -------------------------------------------------------------------------- chance


@cache
def _value_outcomes(die_values: tuple[tuple[tuple[int, ...], int], ...]) -> tuple[tuple[int, Fraction], ...]:
    """The total of several dice, each given as the values of its faces and how many are rolled."""
    total: dict[int, Fraction] = {0: Fraction(1)}
    for values, n in die_values:
        counted: dict[int, Fraction] = {}
        for outcome, chance in dice_outcomes(values, n):
            counted[sum(outcome)] = counted.get(sum(outcome), Fraction(0)) + chance
        merged: dict[int, Fraction] = {}
        for a, p in total.items():
            for b, q in counted.items():
                merged[a + b] = merged.get(a + b, Fraction(0)) + p * q
        total = merged
    return tuple(sorted(total.items()))


def count_outcomes(dice: Dice, pool: DicePool, kind: RollKind) -> Distribution[int]:
    """Every count of Successes (Action) or Opportunities (Reaction) a pool can roll, with its chance."""
    key = tuple(
        (tuple(value(dice, face, kind) for face in faces(dice, colour)), n)
        for colour, n in pool.by_colour().items()
        if n
    )
    return list(_value_outcomes(key))


def net_outcomes(
    dice: Dice,
    action: DicePool | int,
    reaction: DicePool | None = None,
    *,
    action_modifier: int = 0,
    reaction_modifier: int = 0,
) -> Distribution[int]:
    """Every net result (`Result.net`) of an Action pool (or fixed Successes) against a Reaction pool, with its chance.

    For a reroll decision, fold the dice kept into the modifiers and pass the dice rolled again as the pools.
    """
    successes = count_outcomes(dice, action, "action") if isinstance(action, DicePool) else [(action, Fraction(1))]
    opportunities = count_outcomes(dice, reaction, "reaction") if reaction is not None else [(0, Fraction(1))]
    merged: dict[int, Fraction] = {}
    for s, p in successes:
        for o, q in opportunities:
            net = Result(s, action_modifier, o, reaction_modifier).net
            merged[net] = merged.get(net, Fraction(0)) + p * q
    return sorted(merged.items())


def success_chance(
    dice: Dice,
    action: DicePool | int,
    reaction: DicePool | None = None,
    *,
    action_modifier: int = 0,
    reaction_modifier: int = 0,
) -> Fraction:
    """The chance an Action pool (or fixed Successes) succeeds against a Reaction pool: P(net ≥ 1), no rerolls."""
    outcomes = net_outcomes(
        dice, action, reaction, action_modifier=action_modifier, reaction_modifier=reaction_modifier
    )
    return sum((chance for net, chance in outcomes if net >= 1), Fraction(0))


def aim_outcomes(hoops: Hoops) -> Distribution[int]:
    """The Aim at the Hoop bonus when both Coaches choose uniformly (each one's best secret choice), with its chance."""
    # The Keeper wants to match, the Shooter to differ: a matching-pennies game whose only
    # equilibrium is both choosing uniformly, so bots use this as the bonus to expect.
    merged: dict[int, Fraction] = {}
    size = len(hoops.numbers) ** 2
    for shooter in hoops.numbers:
        for keeper in hoops.numbers:
            bonus = aim_bonus(hoops, shooter, keeper)
            merged[bonus] = merged.get(bonus, Fraction(0)) + Fraction(1, size)
    return sorted(merged.items())
