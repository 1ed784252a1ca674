"""A tiny game on the rules contract, for testing the contract itself.

Seats take turns adding 1 or 2 to a shared count; after each addition every other
seat may shout "stop" (a reaction window pushed on the decision stack) which ends the
match as a win for the shouter, or pass. Reaching 10 wins for the adder. Each seat
holds one secret token (hidden from the others), revealed by nothing.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

import msgspec

from menagerie.rules.contract import GameInfo, Label, MatchSetup, ModeInfo, Outcome, SeatResult
from menagerie.rules.decisions import Decision, Refusal, Rule, no_problem
from menagerie.rules.engine import RulesEngine
from menagerie.rules.events import GameEvent, SeenBy
from menagerie.rules.hidden import BySeat, Hidden
from menagerie.rules.rng import Rng
from menagerie.rules.text import Narrator

TARGET = 10


class Add(msgspec.Struct, frozen=True, tag="add", tag_field="kind"):
    amount: int


class Shout(msgspec.Struct, frozen=True, tag="shout", tag_field="kind"):
    pass


class Pass(msgspec.Struct, frozen=True, tag="pass", tag_field="kind"):
    pass


Action = Add | Shout | Pass


class AddTurn(Decision, tag="add"):
    accepts = (Add,)


class ShoutWindow(Decision, tag="shout_window"):
    accepts = (Shout, Pass)


class Added(GameEvent, frozen=True, tag="added"):
    seat: int
    count: int


class Dealt(GameEvent, frozen=True, tag="dealt"):
    seat: int
    token: Annotated[int | None, SeenBy("seat")] = None
    concerns: ClassVar[str | None] = "seat"


class Finished(GameEvent, frozen=True, tag="finished"):
    outcome: Outcome


Event = Added | Dealt | Finished


class Player(msgspec.Struct):
    token: Annotated[int, Hidden("tokens", owner_sees=True)]


class State(msgspec.Struct):
    rng: Rng
    players: Annotated[list[Player], BySeat()]
    decisions: list[AddTurn | ShoutWindow]
    count: int = 0
    current: int = 0
    outcome: Outcome | None = None


class View(msgspec.Struct, frozen=True):
    count: int
    my_token: int | None


class Toy(RulesEngine[State, Action, View, Event]):
    info: ClassVar[GameInfo] = GameInfo("toy", "Toy", (ModeInfo("plain", "Plain", 2, 4),))
    state_type: ClassVar[Any] = State
    action_type: ClassVar[Any] = Action
    view_type: ClassVar[Any] = View
    event_type: ClassVar[Any] = Event

    def rulebook(self) -> dict[type, Rule[State, Any, Event]]:
        return {
            Add: Rule("Adding", lambda s, seat: [Add(1), Add(2)], self._add_problem, self._add),
            Shout: Rule("Shouting", lambda s, seat: [Shout()], no_problem, self._shout, not_now=self._quiet),
            Pass: Rule("Passing", lambda s, seat: [Pass()], no_problem, self._pass),
        }

    def setup(self, setup: MatchSetup, seed: int) -> tuple[State, list[Event]]:
        self.info.validate(setup)
        rng = Rng(seed)
        players = [Player(token=rng.below(100)) for _ in range(setup.seats)]
        state = State(rng=rng, players=players, decisions=[AddTurn(must=[0])])
        return state, [Dealt(seat=s, token=p.token) for s, p in enumerate(players)]

    def out_of_turn(self, state: State, seat: int, decision: Decision) -> Refusal:
        return Refusal("Turn order", f"seat {seat} waits")

    def _quiet(self, state: State, seat: int, decision: Decision) -> str:
        return "shout only right after someone adds"

    def _add_problem(self, state: State, seat: int, action: Add) -> str | None:
        return None if action.amount in (1, 2) else "add 1 or 2"

    def _add(self, state: State, seat: int, action: Add) -> list[Event]:
        state.count += action.amount
        events: list[Event] = [Added(seat=seat, count=state.count)]
        if state.count >= TARGET:
            return events + self._finish(state, seat, "reached the target")
        state.decisions.pop()
        state.current = (seat + 1) % len(state.players)
        state.decisions.append(AddTurn(must=[state.current]))
        others = [s for s in range(len(state.players)) if s != seat]
        state.decisions.append(ShoutWindow(may=others, actor=seat))
        return events

    def _shout(self, state: State, seat: int, action: Shout) -> list[Event]:
        return self._finish(state, seat, "shouted")

    def _pass(self, state: State, seat: int, action: Pass) -> list[Event]:
        window = state.decisions[-1]
        window.done(seat)
        if window.settled():
            state.decisions.pop()
        return []

    def _finish(self, state: State, winner: int, reason: str) -> list[Event]:
        seats = [SeatResult(s, "win" if s == winner else "loss") for s in range(len(state.players))]
        state.outcome = Outcome(seats, reason)
        state.decisions = []
        return [Finished(outcome=state.outcome)]

    def view(self, state: State, seat: int | None) -> View:
        return View(state.count, state.players[seat].token if seat is not None else None)

    def state_from_view(self, view: View, seat: int | None) -> State:
        raise NotImplementedError

    def describe_action(self, view: View, action: Action, narrator: Narrator) -> Label:
        return Label(type(action).__name__, type(action).__name__[0].lower())

    def describe_event(self, event: Event, narrator: Narrator) -> str | None:
        return event.kind

    def describe_prompt(self, view: View, narrator: Narrator) -> str:
        return "decide"
