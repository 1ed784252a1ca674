"""The dice of an exchange are a chance node (menagerie.rules.procedure): stated, drawn, or chosen.

A Pass is played with its dice's outcomes listed before they fall, then with every die
forced blank (the Pass fails: l.171, "if not, it is considered to be a fail").
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from menagerie.rules.procedure import Step, choosing_outcomes
from menagerie.snitch.engine.model import ExchangeResolved, FreeAction, PassQuaffle, RollDice
from menagerie.snitch.engine.pitch import PlayerRef
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
