"""The dice rolls of Actions and Reactions (engine/rolls.py), each rule with its rulebook line (l.)."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from menagerie.rules.rng import Rng
from menagerie.snitch.data import COLOURS, Colour, DicePool, Symbol, load_data
from menagerie.snitch.data.cards import RollName
from menagerie.snitch.engine.rolls import (
    BLUDGER_HIT,
    DISADVANTAGE,
    MAX_STUNNED,
    SEVERE_DISADVANTAGE,
    Roll,
    RolledDie,
    RollError,
    RollKind,
    aim_bonus,
    aim_outcomes,
    can_use_goal_token,
    count,
    count_outcomes,
    draw_reroll,
    goal_token_reroll,
    modifier,
    net_outcomes,
    pass_disadvantage,
    reroll,
    rerollable,
    resolution_order,
    resolve,
    roll_die,
    stunned_penalty,
    success_chance,
    with_dice_tokens,
)

DATA = load_data()
DICE = DATA.dice
ATTACK = DicePool(orange=1, purple=1)  # the Actions' template (RULES.md "Basic players")
DEFENCE = DicePool(purple=1, black=1)  # the Reactions' template


def action(*faces: Symbol, seat: int = 0) -> Roll:
    """An Action roll showing these faces (on purple dice: the colour does not change the count)."""
    return Roll("action", seat, tuple(RolledDie("purple", f) for f in faces))


def reaction(*faces: Symbol, seat: int = 1) -> Roll:
    """A Reaction roll showing these faces."""
    return Roll("reaction", seat, tuple(RolledDie("purple", f) for f in faces))


def roll_pool(rng: Rng, dice: Any, pool: DicePool, kind: RollKind, seat: int) -> Roll:
    """A pool rolled die by die with `roll_die` (orange, purple, black): a roll to re-roll and resolve.

    The match rolls an exchange's dice as a chance node (tests/test_chance_nodes.py); these
    tests need a roll of their own.
    """
    counts = pool.by_colour()
    return Roll(kind, seat, tuple(RolledDie(c, roll_die(rng, dice, c)) for c in COLOURS for _ in range(counts[c])))


def rerolled(rng: Rng, roll: Roll, seat: int, indexes: list[int], limit: int | None = None) -> Roll:
    """Coach `seat` rerolls these dice, their new faces drawn as the match's chance node draws them."""
    fallen = draw_reroll(rng, DICE, roll, indexes) if all(0 <= i < len(roll.dice) for i in indexes) else ()
    return reroll(roll, seat, indexes, fallen, limit)


def goal_rerolled(rng: Rng, roll: Roll, seat: int, index: int) -> Roll:
    """Coach `seat` flips a Goal token to reroll die `index`, its new face drawn as the match draws it."""
    return goal_token_reroll(roll, seat, index, draw_reroll(rng, DICE, roll, [index])[0])


# ----------------------------------------------------------------------- counting


def test_successes_count_on_actions_and_opportunities_on_reactions_doubles_as_two() -> None:
    """l.163: "on Actions each result of the Success symbol on a die is 1 Success and, on Reactions, each result of
    the Opportunity symbol on a die is 1 Opportunity ... the double Success symbol counts as two Successes ..., and
    the crossed symbol counts as 2 Opportunities"."""
    faces: tuple[Symbol, ...] = ("success", "double_success", "opportunity", "double_opportunity", "blank")
    assert count(DICE, action(*faces)) == 3, "an Opportunity on an Action roll counts nothing"
    assert count(DICE, reaction(*faces)) == 3, "a Success on a Reaction roll counts nothing"
    assert count(DICE, action()) == 0


def test_rolled_faces_follow_the_dice() -> None:
    """Seeded: each face of a die comes up about 1 time in 6 (the data's faces are what is rolled)."""
    rng = Rng(2024)
    for colour in COLOURS:
        seen: dict[str, int] = {}
        for _ in range(3000):
            face = roll_die(rng, DICE, colour)
            seen[face] = seen.get(face, 0) + 1
        for face in set(DICE.colours[colour].faces):
            expected = 3000 * DICE.colours[colour].faces.count(face) / 6
            assert abs(seen[face] - expected) < 0.15 * expected + 30, (colour, face)


# ---------------------------------------------------------------------- resolving


def test_an_action_succeeds_with_at_least_one_success_remaining() -> None:
    """l.171: "if the Player performing the Action obtains at least one Success remaining, the Action is
    successfull. If not, it is considered to be a fail." l.398: "For each Opportunity result you roll, remove one
    Success result from the rival's roll."""
    assert resolve(DICE, action("success")).success
    assert not resolve(DICE, action("blank")).success, "no Success: a fail"
    tie = resolve(DICE, action("double_success"), reaction("double_opportunity"))
    assert (tie.net, tie.success) == (0, False), "as many Opportunities as Successes: none remains, a fail"
    win = resolve(DICE, action("double_success", "success"), reaction("opportunity", "blank"))
    assert (win.successes, win.opportunities, win.net, win.success) == (3, 1, 2, True)
    lose = resolve(DICE, action("success"), reaction("double_opportunity"))
    assert (lose.net, lose.remaining, lose.success) == (-1, 0, False)


def test_a_bludgers_hit_is_one_success_that_an_opportunity_avoids() -> None:
    """l.536: "The hit from a moving Bludger is resolved as if a Player had rolled a Success on the dice; in other
    words, an Opportunity result on a Reaction roll would avoid this hit."""
    assert resolve(DICE, BLUDGER_HIT).success
    assert not resolve(DICE, BLUDGER_HIT, reaction("opportunity")).success
    assert resolve(DICE, BLUDGER_HIT, reaction("success", "blank")).success, "no Opportunity: hit"


def test_the_rolls_must_be_an_action_then_a_reaction() -> None:
    """l.169: the rival "performs a corresponding Reaction"; l.400: "No more than one Reaction" (one argument)."""
    with pytest.raises(RollError):
        resolve(DICE, reaction("success"))
    with pytest.raises(RollError):
        resolve(DICE, action("success"), action("opportunity"))


# ---------------------------------------------------------------------- modifiers


@pytest.mark.parametrize("roll", ["pass", "shoot", "steal", "steal_reaction", "manoeuvre", "defense", "catch"])
def test_disadvantage_deducts_one_and_severe_disadvantage_two(roll: RollName) -> None:
    """l.419: "Players at a Disadvantage deduct 1 Success from their Action rolls, or 1 Opportunity from their
    Reaction rolls." l.420: "Players at a Severe Disadvantage deduct 2 Successes ... or 2 Opportunities"."""
    assert modifier(roll, disadvantage=0) == 0
    assert modifier(roll, disadvantage=DISADVANTAGE) == -1
    assert modifier(roll, disadvantage=SEVERE_DISADVANTAGE) == -2


def test_a_beat_ignores_disadvantage_but_not_stunned_tokens() -> None:
    """l.424: "The exception to the rule is the Beat Action – this Action ignores the Disadvantage and Severe
    Disadvantage rules." l.542: Stunned Players "deduct 1 Success from their Action rolls" (no exception)."""
    assert modifier("beat", disadvantage=SEVERE_DISADVANTAGE) == 0
    assert modifier("beat", disadvantage=DISADVANTAGE, stunned=2) == -2
    # The Reaction to a Beat is the reacting Player's own roll: its Disadvantage counts.
    assert modifier("manoeuvre", disadvantage=DISADVANTAGE) == -1
    with pytest.raises(RollError):
        modifier("pass", disadvantage=3)


def test_the_rulebooks_pass_example_target_at_disadvantage_deducts_one() -> None:
    """l.358: a Pass "suffers the Disadvantage rule if either Player (the Player performing the Pass, or the target
    of the Pass) is at a Disadvantage". l.426–428 (example): "Although the Chaser is not at a Disadvantage, the target
    Player is. The dice roll result deducts 1 Success."""
    assert modifier("pass", disadvantage=pass_disadvantage(0, DISADVANTAGE)) == -1
    assert pass_disadvantage(DISADVANTAGE, 0) == DISADVANTAGE
    # Read: the rule applies once, at the worse of the two, not once per Player.
    assert pass_disadvantage(DISADVANTAGE, SEVERE_DISADVANTAGE) == SEVERE_DISADVANTAGE
    assert pass_disadvantage(DISADVANTAGE, DISADVANTAGE) == DISADVANTAGE
    result = resolve(DICE, action("success"), action_modifier=modifier("pass", disadvantage=pass_disadvantage(0, 1)))
    assert not result.success, "one Success, less the target's Disadvantage, leaves none"


def test_stunned_tokens_deduct_one_each_at_most_three() -> None:
    """l.542–544: Stunned Players "deduct 1 Success from their Action rolls, or 1 Opportunity from their Reaction
    rolls"; "to a maximum of 3 – the effect is cumulative (so a Player with 3 Stunned tokens reduces the result of
    their dice rolls by 3)"."""
    assert [stunned_penalty(n) for n in range(6)] == [0, 1, 2, 3, 3, 3]
    assert MAX_STUNNED == 3
    assert modifier("steal", stunned=3) == modifier("steal", stunned=5) == -3
    with pytest.raises(RollError):
        stunned_penalty(-1)


def test_modifiers_are_cumulative() -> None:
    """l.422: "these bonuses or penalties are cumulative with the Disadvantage or Severe Disadvantage rule";
    l.544: Stunned reductions "are also cumulative with the Disadvantaged rule"."""
    assert modifier("shoot", disadvantage=SEVERE_DISADVANTAGE, stunned=3, effects=1) == -4
    assert modifier("catch", disadvantage=DISADVANTAGE, stunned=1, effects=2) == 0
    assert modifier("accelerate", effects=-1) == -1, "a race card's modifier (l.588)"


def test_the_rulebooks_stunned_example_a_stunned_chaser_reacting_to_a_beat() -> None:
    """l.548 (example): "The Slytherin Beater performs a Beat Action, targeting the Gryffindor Chaser. Because the
    Chaser is Stunned, they must deduct 1 Opportunity from their Reaction roll to avoid getting another Stunned
    token!"""
    beat = action("success")
    manoeuvre = reaction("opportunity")
    assert not resolve(DICE, beat, manoeuvre).success, "unstunned, one Opportunity avoids it"
    stunned = resolve(DICE, beat, manoeuvre, reaction_modifier=modifier("manoeuvre", stunned=1))
    assert (stunned.cancelled, stunned.success) == (0, True)


def test_penalties_on_a_reaction_never_add_successes_to_the_action() -> None:
    """l.419 / l.542: Disadvantage and Stunned deduct Opportunities "from their Reaction rolls": a Reaction left with
    fewer than none removes nothing (read: clamped at 0), so it cannot help the rival's Action."""
    result = resolve(DICE, action("blank"), reaction("blank"), reaction_modifier=-3)
    assert (result.cancelled, result.net, result.success) == (0, 0, False)
    assert resolve(DICE, action("success"), reaction("opportunity"), reaction_modifier=-2).net == 1


def test_an_action_bonus_alone_can_succeed_and_a_penalty_alone_can_fail() -> None:
    """l.171: "After applying all bonuses or penalties ..., if the Player ... obtains at least one Success remaining":
    a bonus counts as a Success remaining even with no Success rolled (e.g. Aim at the Hoop's "one additional
    Success", l.492)."""
    assert resolve(DICE, action("blank"), action_modifier=1).success
    assert not resolve(DICE, action("double_success"), action_modifier=-2).success


# --------------------------------------------------------------------- dice tokens


def test_bonus_dice_tokens_add_a_die_and_penalty_tokens_take_one_away() -> None:
    """l.454: "one Purple Bonus Dice token adds one die to the roll"; l.456: "an Orange Penalty Dice token means the
    Player must discard one die before rolling the dice"."""
    assert with_dice_tokens(DICE, ATTACK, bonus=["purple"]) == DicePool(orange=1, purple=2)
    assert with_dice_tokens(DICE, ATTACK, penalty=["orange"]) == DicePool(purple=1)
    assert with_dice_tokens(DICE, ATTACK, bonus=["black"], penalty=["black"]) == ATTACK, "bonus dice first"
    assert with_dice_tokens(DICE, DicePool(orange=1), penalty=["orange"]) == DicePool(), "no dice left: no Success"
    with pytest.raises(RollError):
        with_dice_tokens(DICE, ATTACK, penalty=["black"])  # no black die to discard
    with pytest.raises(RollError):
        # l.81 "9 Dice (3 black dice, 3 purple dice, 3 orange dice)": no fourth orange die.
        with_dice_tokens(DICE, DicePool(orange=2), bonus=["orange", "orange"])


# ------------------------------------------------------------------------ rerolls


def test_a_coach_rerolls_any_dice_of_a_roll_but_never_the_same_die_twice() -> None:
    """l.173: "the rules allow you to 're-roll' your dice, or even your rival's dice. Simply pick up all the dice
    you wish to reroll, and roll them again." l.175: "A die cannot be rerolled more than once by the same Coach.
    The rerolled score always counts, even if it is worse than the original."""
    rng = Rng(11)
    roll = roll_pool(rng, DICE, DicePool(orange=2, purple=1), "action", 0)
    assert rerollable(roll, 0) == rerollable(roll, 1) == (0, 1, 2)
    once = rerolled(rng, roll, 0, [0, 2])
    assert [d.rerolled_by for d in once.dice] == [(0,), (), (0,)]
    assert once.dice[1] == roll.dice[1], "a die not picked up keeps its face"
    assert rerollable(once, 0) == (1,)
    assert rerollable(once, 1) == (0, 1, 2), "the rival Coach may still reroll any die"
    with pytest.raises(RollError):
        rerolled(rng, once, 0, [0])
    rival = rerolled(rng, once, 1, [0])
    assert rival.dice[0].rerolled_by == (0, 1) and rerollable(rival, 1) == (1, 2)
    for bad in ([], [1, 1], [3], [-1]):
        with pytest.raises(RollError):
            rerolled(rng, roll, 0, bad)
    with pytest.raises(RollError):
        rerolled(rng, roll, 0, [0, 1], limit=1)  # an Intrepid Move's "up to 1 die"


def test_the_rerolled_face_counts_even_when_worse() -> None:
    """l.175: "The rerolled score always counts, even if it is worse than the original." (seeded search)"""
    roll = action("double_success")
    worse = next(r for seed in range(100) if count(DICE, r := rerolled(Rng(seed), roll, 0, [0])) < count(DICE, roll))
    assert count(DICE, worse) < 2 and resolve(DICE, worse).successes == count(DICE, worse)


def test_a_goal_token_rerolls_one_die_of_your_own_roll_once_per_roll() -> None:
    """l.504: "Once per Action or Reaction, one of your Players (including the Seeker) may re-roll a dice by flipping
    over one of your Uncelebrated Goal tokens to its Celebrated side." Read: a die of that Player's own roll, and
    it is a reroll by its Coach (l.175)."""
    rng = Rng(5)
    roll = roll_pool(rng, DICE, ATTACK, "action", 0)
    assert can_use_goal_token(roll, 0) and not can_use_goal_token(roll, 1)
    with pytest.raises(RollError):
        goal_rerolled(rng, roll, 1, 0)  # not the rival's roll
    flipped = goal_rerolled(rng, roll, 0, 1)
    assert flipped.goal_token and flipped.dice[1].rerolled_by == (0,) and flipped.dice[0] == roll.dice[0]
    assert not can_use_goal_token(flipped, 0)
    with pytest.raises(RollError):
        goal_rerolled(rng, flipped, 0, 0)  # once per roll
    # A die the Coach already rerolled (an Intrepid Move) cannot be taken again by a Goal token.
    both = rerolled(rng, roll, 0, [0, 1])
    assert not can_use_goal_token(both, 0)
    with pytest.raises(RollError):
        goal_rerolled(rng, both, 0, 0)
    # The Reaction's Coach has their own Goal token for their own roll.
    answer = roll_pool(rng, DICE, DEFENCE, "reaction", 1)
    assert can_use_goal_token(answer, 1) and not can_use_goal_token(answer, 0)


def test_the_active_coach_resolves_first_else_the_last_to_act() -> None:
    """l.179: "If two or more rules would ever appear to resolve at the same time (such re-rolls, ...), the active
    Coach resolves first, then the other Coach. If not, the Player who played an Action the last time resolves
    first."""
    assert resolution_order(0, last_to_act=1) == (0, 1)
    assert resolution_order(1, last_to_act=1) == (1, 0)
    assert resolution_order(None, last_to_act=1) == (1, 0), "e.g. the Bludger Movement: no active Coach"


# ---------------------------------------------------------------- Aim at the Hoop


def test_aim_at_the_hoop_different_numbers_add_one_success() -> None:
    """l.492: "If the cards display the same number, the Shoot Action proceeds as normal. If the cards display
    different numbers, the Chaser adds one additional Success to their Action roll."""
    hoops = DATA.hoops
    for shooter, keeper in itertools.product(hoops.numbers, repeat=2):
        assert aim_bonus(hoops, shooter, keeper) == (0 if shooter == keeper else 1)
    with pytest.raises(RollError):
        aim_bonus(hoops, 4, 1)
    assert aim_outcomes(hoops) == [(0, Fraction(1, 3)), (1, Fraction(2, 3))]
    shot = resolve(DICE, action("success"), reaction("opportunity"), action_modifier=aim_bonus(hoops, 1, 2))
    assert shot.success


# -------------------------------------------------------------------------- chance


def brute_net(action_pool: DicePool, reaction_pool: DicePool | None, am: int, rm: int) -> dict[int, Fraction]:
    """Every face of every die, counted one by one, resolved with `resolve`."""
    action_dice = [c for c in COLOURS for _ in range(action_pool.by_colour()[c])]
    reaction_dice = [c for c in COLOURS for _ in range(reaction_pool.by_colour()[c])] if reaction_pool else []
    colours: list[Colour] = action_dice + reaction_dice
    rolls = list(itertools.product(*(DICE.colours[c].faces for c in colours)))
    out: dict[int, Fraction] = {}
    for faces in rolls:
        split = len(action_dice)
        a = Roll("action", 0, tuple(RolledDie(c, f) for c, f in zip(action_dice, faces[:split], strict=True)))
        r = Roll("reaction", 1, tuple(RolledDie(c, f) for c, f in zip(reaction_dice, faces[split:], strict=True)))
        result = resolve(DICE, a, r if reaction_pool else None, action_modifier=am, reaction_modifier=rm)
        out[result.net] = out.get(result.net, Fraction(0)) + Fraction(1, len(rolls))
    return out


@pytest.mark.parametrize(
    ("action_pool", "reaction_pool", "am", "rm"),
    [
        (ATTACK, None, 0, 0),
        (ATTACK, DEFENCE, 0, 0),
        (DicePool(orange=2), DicePool(black=2), -1, 0),
        (DicePool(orange=1, purple=1, black=1), DicePool(purple=2), 1, -2),
        (DicePool(purple=3), DicePool(black=1), -3, -1),
        (DicePool(), DicePool(black=2), 1, 0),
    ],
)
def test_the_net_distribution_is_every_roll_counted_once(
    action_pool: DicePool, reaction_pool: DicePool | None, am: int, rm: int
) -> None:
    """The exact chances agree with counting every face of every die (the rules of `resolve`, clamp included)."""
    exact = dict(net_outcomes(DICE, action_pool, reaction_pool, action_modifier=am, reaction_modifier=rm))
    assert exact == brute_net(action_pool, reaction_pool, am, rm)
    assert sum(exact.values()) == 1
    chance = success_chance(DICE, action_pool, reaction_pool, action_modifier=am, reaction_modifier=rm)
    assert chance == sum((p for net, p in exact.items() if net >= 1), Fraction(0))


def test_success_chance_matches_a_seeded_monte_carlo() -> None:
    """Rolled with the match Rng and resolved, the frequency of success is the exact chance (generous bound)."""
    rng = Rng(99)
    action_pool, reaction_pool = DicePool(orange=2, purple=1), DicePool(purple=1, black=2)
    am = modifier("steal", disadvantage=DISADVANTAGE)
    rm = modifier("steal_reaction", stunned=1)
    trials = 20_000
    wins = sum(
        resolve(
            DICE,
            roll_pool(rng, DICE, action_pool, "action", 0),
            roll_pool(rng, DICE, reaction_pool, "reaction", 1),
            action_modifier=am,
            reaction_modifier=rm,
        ).success
        for _ in range(trials)
    )
    exact = success_chance(DICE, action_pool, reaction_pool, action_modifier=am, reaction_modifier=rm)
    assert abs(wins / trials - float(exact)) < 0.02


def test_the_known_chances_of_the_template_dice() -> None:
    """RULES.md "Dice": one orange and one purple die succeed unopposed 78% of the time, 36% against purple and
    black; "Goal Hoop cards": a Shoot of those dice against that Catch 64% with the extra Success."""
    assert success_chance(DICE, ATTACK) == Fraction(7, 9)
    assert round(float(success_chance(DICE, ATTACK, DEFENCE)), 2) == 0.36
    assert round(float(success_chance(DICE, ATTACK, DEFENCE, action_modifier=1)), 2) == 0.64
    assert success_chance(DICE, BLUDGER_HIT) == 1
    assert success_chance(DICE, BLUDGER_HIT, DicePool(black=1)) == Fraction(2, 6), "a blank or a Success: hit"


def test_count_outcomes_of_one_die_are_its_faces() -> None:
    """One die's count is its faces' values, each 1 in 6 (l.163 values on the data's faces)."""
    assert dict(count_outcomes(DICE, DicePool(orange=1), "action")) == {
        2: Fraction(1, 6),
        1: Fraction(3, 6),
        0: Fraction(2, 6),
    }
    assert dict(count_outcomes(DICE, DicePool(black=1), "reaction")) == {
        2: Fraction(1, 6),
        1: Fraction(3, 6),
        0: Fraction(2, 6),
    }
    assert count_outcomes(DICE, DicePool(), "action") == [(0, Fraction(1))]
