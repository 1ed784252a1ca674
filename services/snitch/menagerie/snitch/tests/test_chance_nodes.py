"""The dice of an exchange are a chance node (menagerie.rules.procedure): stated, drawn, or chosen.

A Pass is played with its dice's outcomes listed before they fall, then with every die
forced blank (the Pass fails: l.171, "if not, it is considered to be a fail").
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from menagerie.rules.contract import MatchSetup
from menagerie.rules.procedure import Step, choosing_outcomes
from menagerie.rules.rng import Rng
from menagerie.snitch.engine.model import (
    AdvantageRoll,
    AdvantageRolled,
    DiceRerolled,
    ExchangeResolved,
    FreeAction,
    GoalReroll,
    GoalTokenFlipped,
    PassQuaffle,
    Reroll,
    RerollDice,
    RerollGrant,
    RollDice,
    RollWindow,
)
from menagerie.snitch.engine.pitch import PlayerRef
from menagerie.snitch.engine.rolls import RolledDie, roll_die
from menagerie.snitch.tests.test_rulebook_fidelity import ENGINE, basic_match, not_placing, pending


def pass_position() -> Any:
    """Seat 0's Chaser 1 holds the Quaffle beside Chaser 2 in its own half; a free Pass is to be made."""
    state = basic_match()
    zone = "west_centre"
    state.layout = state.layout.moved(PlayerRef(0, 3), zone).moved(PlayerRef(0, 4), zone).with_quaffle(PlayerRef(0, 3))
    state.attacking = 0
    pending(state, FreeAction(must=[0], action="pass"))
    return state


def test_the_dice_of_a_pass_are_a_chance_node_whose_outcomes_add_up_to_one() -> None:
    """The outcomes are every way the Passer's dice may fall; equal dice of a colour count once."""
    state = pass_position()
    seen: list[tuple[Step, list[tuple[tuple[str, ...], Fraction]]]] = []

    def record(node: Step, outcomes: list[tuple[tuple[str, ...], Fraction]]) -> tuple[str, ...]:
        seen.append((node, outcomes))
        return outcomes[0][0]

    with choosing_outcomes(record):
        ENGINE.apply(state, 0, PassQuaffle(player=3, target=4))
        while state.exchange is not None:
            seat = ENGINE.to_act(state).seats()[0]
            ENGINE.apply(state, seat, not_placing(list(ENGINE.legal_actions(state, seat))))
    assert len(seen) == 1 and isinstance(seen[0][0], RollDice)
    outcomes = seen[0][1]
    pool = ENGINE.pool(state, 0, 3, "pass")
    assert sum(p for _, p in outcomes) == 1
    assert all(len(faces) == pool.orange + pool.purple + pool.black for faces, _ in outcomes)


def test_dice_forced_blank_make_the_pass_fail_and_draw_nothing() -> None:
    """l.171: without one Success remaining the Action fails; a chosen outcome uses none of the match's Rng."""
    state = pass_position()
    counter = state.rng.counter
    events: list[Any] = []
    with choosing_outcomes(lambda node, outcomes: tuple("blank" for _ in outcomes[0][0])):
        events += ENGINE.apply(state, 0, PassQuaffle(player=3, target=4))
        while state.exchange is not None:
            seat = ENGINE.to_act(state).seats()[0]
            events += ENGINE.apply(state, seat, not_placing(list(ENGINE.legal_actions(state, seat))))
    resolved = next(e for e in events if isinstance(e, ExchangeResolved))
    assert not resolved.success and resolved.successes == 0
    assert state.rng.counter == counter


# ------------------------------------------------------------------- Setup step 4: the advantage


def advantage(seed: int, choose: Any = None) -> tuple[Any, list[Any], list[tuple[Step, Any]]]:
    """A basic match set up with `seed` (its advantage roll chosen by `choose` if given); the nodes drawn."""
    seen: list[tuple[Step, Any]] = []

    def record(node: Step, outcomes: Any) -> Any:
        seen.append((node, outcomes))
        return choose(node, outcomes)

    if choose is None:
        state, events = ENGINE.setup(MatchSetup("basic", 2), seed)
    else:
        with choosing_outcomes(record):
            state, events = ENGINE.setup(MatchSetup("basic", 2), seed)
    return state, events, seen


def without_blank() -> dict[str, Fraction]:
    """The setup die's faces but the blank, each by how many of them it has (the blank is rolled again)."""
    faces = ENGINE.data.dice.colours[ENGINE.data.dice.setup_roll.colour].faces
    assert "blank" in faces and ENGINE.data.dice.setup_roll.reroll_blank
    shown = [face for face in faces if face != "blank"]
    return {face: Fraction(shown.count(face), len(shown)) for face in shown}


def test_the_advantage_roll_is_a_chance_node_of_the_die_without_its_blank() -> None:
    """l.241 with RULES.md "The Setup roll": the purple die, a blank rolled again; each other face by its count."""
    _, _, seen = advantage(1, lambda node, outcomes: outcomes[0][0])
    [(node, outcomes)] = seen
    assert isinstance(node, AdvantageRoll)
    assert dict(outcomes) == without_blank() and sum(p for _, p in outcomes) == 1


def test_a_drawn_advantage_roll_rolls_again_while_blank_with_the_matchs_rng() -> None:
    """The same draws as always: the die rolled with the match's Rng until it is not blank; a stated outcome."""
    outcomes = without_blank()
    colour = ENGINE.data.dice.setup_roll.colour
    blank_first = 0
    for seed in range(20):
        rng = Rng(seed)
        expected = roll_die(rng, ENGINE.data.dice, colour)
        blank_first += expected == "blank"
        while expected == "blank":
            expected = roll_die(rng, ENGINE.data.dice, colour)
        _, events, _ = advantage(seed)
        rolled = next(e for e in events if isinstance(e, AdvantageRolled))
        assert rolled.face == expected and rolled.face in outcomes
    assert blank_first, "some seed rolled a blank first, and rolled again"


def test_a_chosen_advantage_roll_gives_the_advantage_to_its_symbols_coach() -> None:
    """Seat 0 took the Success symbol, seat 1 the Opportunity (RULES.md): the chosen face decides, as drawn would."""
    for face, attacking in [("opportunity", 1), ("double_success", 0), ("double_opportunity", 1), ("success", 0)]:
        state, events, _ = advantage(3, lambda node, outcomes, face=face: face)
        rolled = next(e for e in events if isinstance(e, AdvantageRolled))
        assert (rolled.face, rolled.attacking) == (face, attacking) and state.attacking == attacking
        assert state.layout.quaffle == PlayerRef(attacking, rolled.chaser), "the Quaffle goes to their Chaser"


def test_next_chance_reports_the_advantage_roll_once_it_is_next() -> None:
    state, _ = ENGINE.setup(MatchSetup("basic", 2), 1)
    ENGINE.restart(state)
    ENGINE.then(state, AdvantageRoll())
    chance = ENGINE.next_chance(state)
    assert chance is not None and chance[0] == AdvantageRoll()
    assert dict(chance[1]) == without_blank()


# --------------------------------------------------------------------- re-rolls (l.173–175, l.504)


def at_the_roll_window() -> Any:
    """The free Pass of `pass_position`, its dice drawn, up to seat 0's window after the roll (with a Goal token)."""
    state = pass_position()
    state.players[0].goals = 1
    ENGINE.apply(state, 0, PassQuaffle(player=3, target=4))
    for _ in range(50):
        top = ENGINE.top(state)
        if isinstance(top, RollWindow) and top.must == [0]:
            return state
        seat = ENGINE.to_act(state).seats()[0]
        ENGINE.apply(state, seat, not_placing(list(ENGINE.legal_actions(state, seat))))
    raise AssertionError("no roll window for the Passer's Coach")


def every_fall(dice: list[RolledDie]) -> dict[tuple[str, ...], Fraction]:
    """Every face of every die picked up, one combination at a time, counted once per run of equal dice.

    Equal dice: next to each other, of one colour and rerolled by the same Coaches (the convention).
    """
    faces = [ENGINE.data.dice.colours[die.colour].faces for die in dice]
    combos = list(itertools.product(*faces))
    counted: dict[tuple[str, ...], Fraction] = {}
    for combo in combos:
        key = as_stated(dice, combo)
        counted[key] = counted.get(key, Fraction(0)) + Fraction(1, len(combos))
    return counted


def as_stated(dice: list[RolledDie], fallen: Sequence[str]) -> tuple[str, ...]:
    """Faces as the outcomes list them: within each run of equal dice, in the die's face order."""
    out: list[str] = []
    start = 0
    for _, run in itertools.groupby(dice, key=lambda die: (die.colour, die.rerolled_by)):
        n = len(list(run))
        order: list[str] = list(dict.fromkeys(ENGINE.data.dice.colours[dice[start].colour].faces))
        out += sorted(fallen[start : start + n], key=order.index)
        start += n
    return tuple(out)


class Recording:
    """A chooser that records each node and its outcomes and answers `answer(node, outcomes)`."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.seen: list[tuple[Step, Any]] = []

    def __call__(self, node: Step, outcomes: Any) -> Any:
        self.seen.append((node, outcomes))
        return self.answer(node, outcomes)


def test_a_goal_token_reroll_is_a_chance_node_of_its_die_and_applies_a_chosen_face() -> None:
    """l.504: one die of the Coach's own roll; the face chosen is the die's new face, drawing nothing."""
    state = at_the_roll_window()
    roll = state.exchange.action_roll
    die = roll.dice[0]
    counter = state.rng.counter
    chooser = Recording(lambda node, outcomes: ("blank",))
    with choosing_outcomes(chooser):
        events = ENGINE.apply(state, 0, GoalReroll(die=0))
    [(node, outcomes)] = chooser.seen
    assert node == RerollDice(seat=0, side="action", dice=[0], goal_token=True)
    assert dict(outcomes) == every_fall([die]) and sum(p for _, p in outcomes) == 1
    new = state.exchange.action_roll
    assert new.dice[0] == RolledDie(die.colour, "blank", (0,)) and new.goal_token and new.dice[1:] == roll.dice[1:]
    flipped, rerolled = events
    assert isinstance(flipped, GoalTokenFlipped) and isinstance(rerolled, DiceRerolled) and rerolled.roll == new
    assert state.rng.counter == counter and state.players[0].goals == 0
    top = ENGINE.top(state)
    assert isinstance(top, RollWindow) and top.must == [0], "the window is asked again once the die has fallen"
    assert ENGINE.pending_step(state) is not None and ENGINE.next_chance(state) is None


def test_an_intrepid_reroll_states_every_way_the_dice_picked_up_may_fall() -> None:
    """l.173–175: a Swift Intrepid Move's re-roll of two dice; equal dice count once; the chosen faces land."""
    state = at_the_roll_window()
    state.exchange.swift_rerolls = [RerollGrant(seat=0, side="action", dice=2)]
    roll = state.exchange.action_roll
    picked = [0, 1]
    chooser = Recording(lambda node, outcomes: ("double_success", "blank"))
    with choosing_outcomes(chooser):
        events = ENGINE.apply(state, 0, Reroll(side="action", dice=(0, 1)))
    [(node, outcomes)] = chooser.seen
    assert node == RerollDice(seat=0, side="action", dice=picked)
    assert dict(outcomes) == every_fall([roll.dice[i] for i in picked]) and sum(p for _, p in outcomes) == 1
    assert len(outcomes) == len(every_fall([roll.dice[i] for i in picked])), "each outcome listed once"
    new = state.exchange.action_roll
    assert [(d.face, d.rerolled_by) for d in new.dice[:2]] == [("double_success", (0,)), ("blank", (0,))]
    [rerolled] = [e for e in events if isinstance(e, DiceRerolled)]
    assert rerolled.dice == picked and rerolled.roll == new and not rerolled.goal_token
    assert state.exchange.swift_rerolls == [], "the grant is used"
    assert isinstance(ENGINE.top(state), RollWindow)


def test_a_drawn_reroll_draws_the_dice_picked_up_in_index_order_with_the_matchs_rng() -> None:
    """The same draws as always: one `roll_die` per die picked up, in index order; a stated outcome."""
    for seed in range(5):
        state = at_the_roll_window()
        state.rng = Rng(seed)
        state.exchange.swift_rerolls = [RerollGrant(seat=0, side="action", dice=2)]
        roll = state.exchange.action_roll
        twin = Rng(seed)
        expected = [roll_die(twin, ENGINE.data.dice, roll.dice[i].colour) for i in (0, 1)]
        events = ENGINE.apply(state, 0, Reroll(side="action", dice=(0, 1)))
        [rerolled] = [e for e in events if isinstance(e, DiceRerolled)]
        fallen = [d.face for d in rerolled.roll.dice[:2]]
        assert fallen == expected and state.rng == twin
        picked = [roll.dice[0], roll.dice[1]]
        assert as_stated(picked, fallen) in every_fall(picked)


def test_next_chance_reports_a_reroll_once_it_is_next() -> None:
    """Once the window is settled and the node pushed (as a re-roll does), the node is next."""
    state = at_the_roll_window()
    node = RerollDice(seat=0, side="action", dice=[1], goal_token=True)
    ENGINE.then(state, node)
    assert ENGINE.next_chance(state) is None, "the window is still pending"
    ENGINE.settle(state)
    chance = ENGINE.next_chance(state)
    assert chance is not None and chance[0] == node
    assert dict(chance[1]) == every_fall([state.exchange.action_roll.dice[1]])
