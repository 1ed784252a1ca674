"""Pending decisions: what a game is waiting for, kept as a stack in its state.

A match is always waiting for one decision: the top of `state.decisions`. A decision
says which seats must decide, which may (a reaction window: passing is a decision
too), and which kinds of action it accepts. An action may push a decision on top (a
reaction window after a roll, an interrupt after a goal) and popping it returns to
the decision underneath, so windows and interrupts nest without phase strings.

Each kind of action has one `Rule`: how its options are listed, why an instance is
refused, and how it is performed. `RulesEngine` (menagerie.rules.engine) derives
to_act, legal_actions, check and the refusal from the top decision and these rules,
so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

import msgspec

from menagerie.rules.events import GameEvent

S = TypeVar("S")
A = TypeVar("A")
E = TypeVar("E", bound=GameEvent)

# The rules menagerie.rules.engine itself may name in a refusal, whatever the game (every RULES.md reads them).
TURN_ORDER = "Turn order"
END_OF_THE_GAME = "End of the game"
SEATS = "Seats"
ACTIONS = "Actions"
ENGINE_RULES = (TURN_ORDER, END_OF_THE_GAME, SEATS, ACTIONS)


class Decision(msgspec.Struct, kw_only=True, tag_field="decision"):
    """One pending decision; a game subclasses it once per kind (tag = the kind's id).

    `must` and `may` shrink as seats decide; an engine pops the decision once both are
    empty (or earlier, when the rules say so). `actor` is the seat whose action opened
    it, when one did (a reaction window names whose roll it reacts to).
    """

    must: list[int] = []
    may: list[int] = []
    actor: int | None = None
    # The action types this decision accepts.
    accepts: ClassVar[tuple[type, ...]] = ()

    @classmethod
    def kind(cls) -> str:
        """The decision's stable id (its tag)."""
        return str(cls.__struct_config__.tag)

    def seats(self) -> tuple[int, ...]:
        """Every seat that must or may decide, in seat order."""
        return tuple(sorted({*self.must, *self.may}))

    def done(self, seat: int) -> None:
        """`seat` has decided (or passed): it need not decide again."""
        if seat in self.must:
            self.must.remove(seat)
        if seat in self.may:
            self.may.remove(seat)

    def settled(self) -> bool:
        """True once nobody is left to decide."""
        return not self.must and not self.may


class Refusal(msgspec.Struct, frozen=True):
    """Why an action is refused: the rule, and what it says here."""

    rule: str
    detail: str


@dataclass(frozen=True)
class Rule(Generic[S, A, E]):
    """How one kind of action is listed, checked and performed.

    name: the rule a refusal names ("Movement", "Spell cards").
    options: every candidate of this kind for a seat now; those without a problem are
        the legal ones, so listing a few too many is safe, missing one is not.
    problem: why this action is refused now (a detail, or a Refusal naming another
        rule), or None when it is allowed. Called only when the top decision accepts
        the action's type and the seat is one of its deciders.
    perform: does it, trusting that it is legal; returns the events.
    canonical: the spelling the options use, for actions that have several (kept dice in
        any order, any of several identical cards); it sees the state, and must leave an
        action it cannot place as it is, for `problem` to refuse.
    not_now: why the action is refused while another kind of decision is pending (a detail
        under this rule's name, or a Refusal naming the pending decision's rule).
    exact: the options are exactly the legal actions of this kind whenever the decision
        accepts them, computed from the same helper as `problem` (a move's destinations
        within the roll), so listing them skips the re-check; the property tests still
        check every listed action against `problem` (tests/support/rules_properties.py).
    """

    name: str
    options: Callable[[S, int], Iterable[A]]
    problem: Callable[[S, int, A], str | Refusal | None]
    perform: Callable[[S, int, A], Sequence[E]]
    canonical: Callable[[S, int, A], A] | None = None
    not_now: Callable[[S, int, Decision], str | Refusal] | None = None
    exact: bool = False


def no_problem(state: Any, seat: int, action: Any) -> None:
    """The `problem` of a rule whose options are all legal whenever it is accepted."""
    return None
