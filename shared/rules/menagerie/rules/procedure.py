"""The procedure between decisions: pending decisions, automatic steps, chance nodes and interrupts.

A match kept by a `RulesEngine` is always at one of three kinds of node:

- **a decision** is pending: the top of `state.decisions` says who must or may decide and
  what it accepts (`menagerie.rules.decisions`). The match waits for it.
- nothing is asked and the top of `state.flow` is **an automatic step**: something the
  rulebook does by itself (refill a row, end a round, resolve an effect). It runs at once
  and may ask decisions and push further steps.
- nothing is asked and the top of `state.flow` is **a chance node**: a draw (dice, a card).
  Its engine states the outcomes and their chances (`Chance.outcomes`), draws one with the
  match's Rng (`Chance.sample`, in the engine's own order of draws, so a match replays
  exactly from its seed) and applies it (`Chance.resolve`). A search or a test may pick the
  outcome instead: `next_chance` shows the distribution of the node about to be drawn, and
  inside `choosing_outcomes(choose)` every draw is `choose(node, distribution)`.

**Interrupts.** A decision pushed over a pending one (`interrupt`: a reaction window, a
Swift Intrepid Move's window after a Loose Quaffle) is asked first; once it is settled the
one underneath is asked again. Steps pushed meanwhile run once no decision is left. Steps are a stack too: `then(a, b)`
runs a, then b, before whatever was pending, so a step that interrupts the flow (a Keeper's
Kick-Off, a Snitch card after a Tempo Point) pushes itself on top and play "picks up where you
left off" by itself.

Engines never touch the two stacks directly; they call `ask`, `then`, `interrupt`,
`settle`, `decided`, `replace`, `restart`, `clear`, `advance` and `draw` (a chance node
resolved at once, where nothing pending could come first); a test scans every
engine for it: tests/unit/rules/test_procedure_contract.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import msgspec

from menagerie.rules.chance import Distribution
from menagerie.rules.decisions import Decision

S = TypeVar("S")
E = TypeVar("E")
T = TypeVar("T")
Out = TypeVar("Out")


class Step(msgspec.Struct, tag_field="step"):
    """One automatic step or chance node of a game's flow; a game subclasses it once per kind (tag = its id)."""

    @classmethod
    def kind(cls) -> str:
        """The step's stable id (its tag)."""
        return str(cls.__struct_config__.tag)


@dataclass(frozen=True)
class Automatic(Generic[S, T, E]):
    """How a kind of automatic step runs: `run(state, step, events)` does it, and may ask or push more."""

    run: Callable[[S, T, list[E]], None]


@dataclass(frozen=True)
class Chance(Generic[S, T, Out, E]):
    """How a kind of chance node is drawn.

    outcomes: every outcome with its probability (they add up to 1), for search and tests.
    sample: the outcome drawn with the state's Rng, the way the game always draws it.
    resolve: applies an outcome (drawn or chosen) and records what happened.
    """

    outcomes: Callable[[S, T], Distribution[Out]]
    sample: Callable[[S, T], Out]
    resolve: Callable[[S, T, Out, list[E]], None]


# Picks a chance node's outcome from its distribution (a search, a test); see `choosing_outcomes`.
ChooseOutcome = Callable[[Step, Distribution[Any]], Any]
_CHOOSER: ContextVar[ChooseOutcome | None] = ContextVar("menagerie_chance_chooser", default=None)


@contextmanager
def choosing_outcomes(choose: ChooseOutcome) -> Iterator[None]:
    """Within the block, every chance node is resolved with `choose(node, distribution)` instead of a draw."""
    token = _CHOOSER.set(choose)
    try:
        yield
    finally:
        _CHOOSER.reset(token)


class Procedure(Generic[S, E]):
    """The two stacks of a match, kept by the contract alone (a part of RulesEngine)."""

    _handlers: dict[type, Automatic[Any, Any, Any] | Chance[Any, Any, Any, Any]] | None = None

    # ------------------------------------------------------------ the game's part

    def procedure(self) -> dict[type, Automatic[Any, Any, Any] | Chance[Any, Any, Any, Any]]:
        """How each kind of step runs: an `Automatic` or a `Chance` per Step subclass (none by default)."""
        return {}

    # ------------------------------------------------------------ decisions

    def ask(self, state: S, decision: Decision, *then: Step) -> None:
        """Waits for `decision`; the steps `then` run once it (and all it asks) is settled, first listed first."""
        if then:
            self.then(state, *then)
        state.decisions.append(decision)  # type: ignore[attr-defined]

    def interrupt(self, state: S, decision: Decision) -> None:
        """Asks `decision` before the pending one, which is asked again once this one is settled."""
        state.decisions.append(decision)  # type: ignore[attr-defined]

    def settle(self, state: S) -> Decision:
        """The pending decision is over (every seat has decided, or the rules close it): returns it."""
        return state.decisions.pop()  # type: ignore[attr-defined, no-any-return]

    def decided(self, state: S, seat: int) -> bool:
        """`seat` has decided the pending decision; it is settled (and gone) once nobody is left. True when gone."""
        stack: list[Decision] = state.decisions  # type: ignore[attr-defined]
        top = stack[-1]
        top.done(seat)
        if top.settled():
            stack.pop()
            return True
        return False

    def replace(self, state: S, decision: Decision) -> None:
        """The pending decision becomes `decision` (the same turn goes on with another kind of choice)."""
        state.decisions[-1] = decision  # type: ignore[attr-defined]

    def restart(self, state: S, *decisions: Decision) -> None:
        """Nothing else is pending but `decisions` (the last asked first): a new turn or phase begins."""
        state.decisions[:] = decisions  # type: ignore[attr-defined]

    def clear(self, state: S) -> None:
        """Nothing is pending any more, decision or step (the match is over)."""
        _decisions(state).clear()
        flow = _flow(state, required=False)
        if flow is not None:
            flow.clear()

    # ------------------------------------------------------------ steps

    def then(self, state: S, *steps: Step) -> None:
        """Runs `steps` next, in the order listed, before whatever was pending."""
        if len(steps) == 1:
            _flow(state).append(steps[0])
        elif steps:
            _flow(state).extend(reversed(steps))

    def pending(self, state: S) -> tuple[list[Decision], list[Step]]:
        """Copies of both stacks, bottom first (to record the procedure, never to change it)."""
        flow = _flow(state, required=False)
        return list(_decisions(state)), list(flow or ())

    def pending_step(self, state: S) -> Step | None:
        """The step that runs next once no decision is pending (None: the flow is empty)."""
        flow = _flow(state, required=False)
        return flow[-1] if flow else None

    def next_chance(self, state: S) -> tuple[Step, Distribution[Any]] | None:
        """The chance node about to be drawn and its outcomes, when no decision is pending and one is next."""
        step = self.pending_step(state)
        if step is None or _decisions(state):
            return None
        handler = self._handler(type(step))
        return (step, handler.outcomes(state, step)) if isinstance(handler, Chance) else None

    def advance(self, state: S, events: list[E]) -> None:
        """Runs steps until a decision is pending, the flow is empty or the match is over."""
        flow = _flow(state, required=False)
        decisions: list[Decision] = state.decisions  # type: ignore[attr-defined]
        # Searches and random playouts run this at every move: the handlers are looked up once.
        handlers = self._handlers if self._handlers is not None else self._handler_table()
        while flow and not decisions and state.outcome is None:  # type: ignore[attr-defined]
            step = flow.pop()
            handler = handlers[type(step)]
            if isinstance(handler, Automatic):
                handler.run(state, step, events)
                continue
            choose = _CHOOSER.get()
            outcome = choose(step, handler.outcomes(state, step)) if choose else handler.sample(state, step)
            handler.resolve(state, step, outcome, events)

    def draw(self, state: S, node: Step, events: list[E]) -> None:
        """Resolves the chance node `node` now, as `advance` would once it came up (drawn, or chosen in
        `choosing_outcomes`): for a draw that nothing else pending may come before (a die rolled by an action)."""
        handler = self._handler(type(node))
        if not isinstance(handler, Chance):
            raise TypeError(f"{type(node).__name__} is not a chance node")
        choose = _CHOOSER.get()
        outcome = choose(node, handler.outcomes(state, node)) if choose else handler.sample(state, node)
        handler.resolve(state, node, outcome, events)

    def _handler(self, kind: type) -> Automatic[Any, Any, Any] | Chance[Any, Any, Any, Any]:
        handlers = self._handlers if self._handlers is not None else self._handler_table()
        return handlers[kind]

    def _handler_table(self) -> dict[type, Automatic[Any, Any, Any] | Chance[Any, Any, Any, Any]]:
        self._handlers = self.procedure()
        return self._handlers


def _decisions(state: Any) -> list[Decision]:
    stack: list[Decision] = state.decisions
    return stack


def _flow(state: Any, required: bool = True) -> list[Step]:
    flow: list[Step] | None = getattr(state, "flow", None)
    if flow is None and required:
        raise TypeError(f"{type(state).__name__} has no flow: a game with steps keeps `flow: list[...]` in its state")
    return flow  # type: ignore[return-value]
