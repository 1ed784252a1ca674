"""The procedure model (menagerie.rules.procedure): decisions, automatic steps, chance nodes, interrupts.

A tiny dice game on the contract: a turn is an automatic step (announce the turn), a chance
node (roll a die whose faces say 1, 2 or "again"), then the seat's decision (bank the roll or
pass); "again" interrupts the flow with one more roll first. After a bank every other seat
may object (a window pushed over the next turn's decision); the first to 6 points wins.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, ClassVar

import msgspec
import pytest

from menagerie.rules.chance import Distribution, die_outcomes
from menagerie.rules.contract import GameInfo, MatchSetup, ModeInfo, Outcome, SeatResult
from menagerie.rules.decisions import Decision, Rule, no_problem
from menagerie.rules.engine import RulesEngine
from menagerie.rules.events import GameEvent
from menagerie.rules.procedure import Automatic, Chance, Step, choosing_outcomes
from menagerie.rules.rng import Rng

FACES = ("1", "1", "2", "2", "2", "again")
GOAL = 6


class Bank(msgspec.Struct, frozen=True, tag="bank", tag_field="kind"):
    pass


class Object(msgspec.Struct, frozen=True, tag="object", tag_field="kind"):
    pass


class Pass(msgspec.Struct, frozen=True, tag="pass", tag_field="kind"):
    pass


class Banking(Decision, tag="banking"):
    accepts = (Bank, Pass)


class Objection(Decision, tag="objection"):
    accepts = (Object, Pass)


class StartTurn(Step, tag="start_turn"):
    seat: int


class RollDie(Step, tag="roll_die"):
    seat: int


class Happened(GameEvent, frozen=True, tag="happened"):
    what: str


class State(msgspec.Struct):
    rng: Rng
    players: list[int]
    decisions: list[Banking | Objection] = []
    flow: list[StartTurn | RollDie] = []
    rolled: int = 0
    outcome: Outcome | None = None


class Dice(RulesEngine[State, Any, Any, Happened]):
    info: ClassVar[GameInfo] = GameInfo("dice", "Dice", (ModeInfo("plain", "Plain", 2, 3),))

    def rulebook(self) -> dict[type, Rule[State, Any, Happened]]:
        return {
            Bank: Rule("Banking", lambda s, seat: [Bank()], no_problem, self._bank),
            Object: Rule("Objecting", lambda s, seat: [Object()], no_problem, self._object),
            Pass: Rule("Passing", lambda s, seat: [Pass()], no_problem, self._pass),
        }

    def procedure(self) -> dict[type, Automatic[Any, Any, Any] | Chance[Any, Any, Any, Any]]:
        return {StartTurn: Automatic(self._start_turn), RollDie: Chance(self._faces, self._draw, self._rolled)}

    def setup(self, setup: MatchSetup, seed: int) -> tuple[State, list[Happened]]:
        state = State(rng=Rng(seed), players=[0] * setup.seats)
        events: list[Happened] = []
        self.then(state, StartTurn(seat=0))
        self.advance(state, events)
        return state, events

    def _start_turn(self, state: State, step: StartTurn, events: list[Happened]) -> None:
        events.append(Happened(f"turn of seat {step.seat}"))
        state.rolled = 0
        self.then(state, RollDie(seat=step.seat))

    def _faces(self, state: State, step: RollDie) -> Distribution[str]:
        return die_outcomes(FACES)

    def _draw(self, state: State, step: RollDie) -> str:
        return FACES[state.rng.below(len(FACES))]

    def _rolled(self, state: State, step: RollDie, face: str, events: list[Happened]) -> None:
        events.append(Happened(f"rolled {face}"))
        if face == "again":
            self.then(state, RollDie(seat=step.seat))  # one more roll before anything else
            return
        state.rolled += int(face)
        self.ask(state, Banking(must=[step.seat]))

    def _bank(self, state: State, seat: int, action: Bank) -> list[Happened]:
        self.settle(state)
        state.players[seat] += state.rolled
        if state.players[seat] >= GOAL:
            state.outcome = Outcome(
                [SeatResult(s, "win" if s == seat else "loss") for s in range(len(state.players))], "6"
            )
            self.clear(state)
            return [Happened("won")]
        others = [s for s in range(len(state.players)) if s != seat]
        self.then(state, StartTurn(seat=(seat + 1) % len(state.players)))
        events: list[Happened] = []
        self.advance(state, events)
        self.interrupt(state, Objection(may=others, actor=seat))
        return events

    def _object(self, state: State, seat: int, action: Object) -> list[Happened]:
        top = self.top(state)
        assert top is not None and top.actor is not None
        state.players[top.actor] -= 1
        return self._pass(state, seat, action)

    def _pass(self, state: State, seat: int, action: Pass | Object) -> list[Happened]:
        if isinstance(self.top(state), Banking):
            self.settle(state)
            self.then(state, StartTurn(seat=(seat + 1) % len(state.players)))
            events: list[Happened] = []
            self.advance(state, events)
            return events
        self.decided(state, seat)
        return []


DICE = Dice()


def test_an_automatic_step_runs_and_a_chance_node_is_drawn_with_the_matchs_rng() -> None:
    """Setup runs the first turn's step and draws its die; the same seed draws the same faces."""
    state, events = DICE.setup(MatchSetup("plain", 2), 3)
    twin, twin_events = DICE.setup(MatchSetup("plain", 2), 3)
    assert events[0] == Happened("turn of seat 0") and events[-1].what.startswith("rolled ")
    assert (state, events) == (twin, twin_events)
    assert DICE.to_act(state).must == (0,) and DICE.pending_step(state) is None


def test_a_chance_nodes_outcomes_are_stated_and_may_be_chosen() -> None:
    """`next_chance` shows the node about to be drawn; `choosing_outcomes` picks each outcome instead of a draw."""
    state = State(rng=Rng(1), players=[0, 0])
    DICE.then(state, RollDie(seat=1))
    node = DICE.next_chance(state)
    assert node is not None and node[0] == RollDie(seat=1)
    assert dict(node[1]) == {"1": Fraction(1, 3), "2": Fraction(1, 2), "again": Fraction(1, 6)}
    seen: list[Any] = []

    def choose(step: Step, outcomes: Any) -> str:
        seen.append(step)
        return "again" if len(seen) == 1 else "2"

    events: list[Happened] = []
    with choosing_outcomes(choose):
        DICE.advance(state, events)
    assert [e.what for e in events] == ["rolled again", "rolled 2"], "'again' pushed one more roll first"
    assert state.rolled == 2 and DICE.to_act(state).must == (1,)
    assert state.rng.counter == 0, "chosen outcomes draw nothing"


def test_a_chance_node_drawn_at_once_is_drawn_or_chosen_as_in_the_flow() -> None:
    """`draw` resolves a node now, with the same draws as `advance` would make, or the outcome chosen."""
    drawn, flowed = State(rng=Rng(4), players=[0, 0]), State(rng=Rng(4), players=[0, 0])
    drawn_events: list[Happened] = []
    flowed_events: list[Happened] = []
    DICE.draw(drawn, RollDie(seat=0), drawn_events)
    DICE.then(flowed, RollDie(seat=0))
    DICE.advance(flowed, flowed_events)
    assert drawn_events[0] == flowed_events[0] and drawn.rng.counter == flowed.rng.counter == 1
    chosen = State(rng=Rng(4), players=[0, 0])
    events: list[Happened] = []
    with choosing_outcomes(lambda step, outcomes: "2"):
        DICE.draw(chosen, RollDie(seat=1), events)
    assert events == [Happened("rolled 2")] and chosen.rolled == 2 and chosen.rng.counter == 0
    with pytest.raises(TypeError, match="not a chance node"):
        DICE.draw(chosen, StartTurn(seat=0), events)


def test_an_interrupt_is_asked_first_and_the_decision_underneath_is_asked_again() -> None:
    """A window pushed over the next turn's decision; once every seat in it has decided, that turn goes on."""
    state, _ = DICE.setup(MatchSetup("plain", 3), 5)
    DICE.apply(state, 0, Bank())
    assert DICE.prompt(state).kind == "objection" and DICE.prompt(state).stack == ["banking"]
    assert DICE.to_act(state).may == (1, 2)
    DICE.apply(state, 2, Pass())
    assert DICE.to_act(state).may == (1,), "a seat that decided leaves the window"
    DICE.apply(state, 1, Object())
    assert DICE.prompt(state).kind == "banking" and DICE.to_act(state).must == (1,)


def test_steps_wait_while_a_decision_is_pending_and_run_once_none_is() -> None:
    """`then` pushes steps that run in the order listed, and only when nothing is asked."""
    state = State(rng=Rng(2), players=[0, 0])
    DICE.ask(state, Banking(must=[0]), StartTurn(seat=1))
    events: list[Happened] = []
    DICE.advance(state, events)
    assert events == [] and DICE.pending_step(state) == StartTurn(seat=1)
    assert DICE.next_chance(state) is None, "a decision is pending"
    DICE.settle(state)
    DICE.advance(state, events)
    assert events[0] == Happened("turn of seat 1") and DICE.to_act(state).must == (1,)


def test_replace_restart_and_clear_keep_the_stacks_for_the_engine() -> None:
    """The pending decision is swapped, the stack reset for a new phase, and everything cleared at the end."""
    state = State(rng=Rng(3), players=[0, 0])
    DICE.restart(state, Banking(must=[0]), Objection(may=[1]))
    assert DICE.prompt(state).kind == "objection"
    DICE.replace(state, Banking(must=[1]))
    assert DICE.prompt(state).stack == ["banking"] and DICE.to_act(state).must == (1,)
    DICE.then(state, StartTurn(seat=0))
    DICE.clear(state)
    assert DICE.top(state) is None and DICE.pending_step(state) is None


def test_a_state_without_a_flow_cannot_take_steps() -> None:
    """A game with no steps keeps no flow; pushing one says what is missing."""

    class Flat(msgspec.Struct):
        decisions: list[Banking] = []

    with pytest.raises(TypeError, match="has no flow"):
        DICE.then(Flat(), StartTurn(seat=0))  # type: ignore[arg-type]
