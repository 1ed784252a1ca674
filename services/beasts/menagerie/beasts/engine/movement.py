"""The die and movement (modes I and II): the roll, the die's chance node, and the move to a stop.

Rolling takes the seat's `RollDie` decision and draws the die at once: `DieRoll` is the
game's one chance node (`BeastsEngine.procedure`), and the faces it may show, its draw
with the match's Rng and what the face does (the steps to move, or in mode III a fight's
result) are here. So is the `Move` action: the legal stops are the spaces within the
steps by the board's routes, and moving there resolves the stop (stops.py).
"""

from __future__ import annotations

from menagerie.beasts.engine.data import DIE_FACES
from menagerie.beasts.engine.model import BeastsState, ChooseStop, DieRoll, DieRolled, Event, Move, Moved, Roll, RollDie
from menagerie.beasts.engine.parts import EngineParts
from menagerie.rules.chance import Distribution, die_outcomes
from menagerie.rules.decisions import Decision


class DieAndMovement(EngineParts):
    """The `Roll` action and the die it draws (a chance node), then the `Move` to a stop within its steps."""

    def _roll_not_now(self, state: BeastsState, seat: int, decision: Decision) -> str:
        return "you have already rolled the die this turn"

    def _roll(self, state: BeastsState, seat: int, action: Roll) -> list[Event]:
        return self._roll_die(state, DieRoll(seat=seat))

    def _roll_die(self, state: BeastsState, roll: DieRoll) -> list[Event]:
        """The pending decision is taken; the die (a chance node, drawn at once) decides what is asked next."""
        self.settle(state)
        events: list[Event] = []
        self.draw(state, roll, events)
        return events

    @staticmethod
    def _die_faces(state: BeastsState, roll: DieRoll) -> Distribution[int]:
        return die_outcomes(DIE_FACES)

    @staticmethod
    def _draw_die(state: BeastsState, roll: DieRoll) -> int:
        return state.rng.choice(DIE_FACES)

    def _die_rolled(self, state: BeastsState, roll: DieRoll, value: int, events: list[Event]) -> None:
        """The die shows `value`: the steps to move (asked again after Felix Felicis), or a fight's result."""
        if roll.purpose == "fight":
            events += self._fought(state, roll.seat, value)
            return
        state.roll = value
        events.append(DieRolled(seat=roll.seat, value=value))
        self._decide(state, ChooseStop())

    def _move_options(self, state: BeastsState, seat: int) -> list[Move]:
        """Exactly the legal stops: every space within the steps, by the routes `_move_problem` measures with."""
        origin = state.players[seat].position
        return [self._moves[to] for to in self.routes.destinations(origin, state.roll + state.bonus)]

    def _move_not_now(self, state: BeastsState, seat: int, decision: Decision) -> str:
        if isinstance(decision, RollDie):
            return "roll the die before you move"
        return "you have already moved this turn"

    def _move_problem(self, state: BeastsState, seat: int, action: Move) -> str | None:
        to = action.to
        if not 0 <= to < len(state.tokens):
            return f"there is no space {to}"
        origin = state.players[seat].position
        if to == origin:
            return "you must move at least one step"
        steps = state.roll + state.bonus
        distance = self.routes.distance[origin][to]
        if distance > steps:
            return f"space {to} is {distance} steps away; you may move at most {steps}"
        return None

    def _move(self, state: BeastsState, seat: int, action: Move) -> list[Event]:
        player = state.players[seat]
        events: list[Event] = [Moved(seat=seat, origin=player.position, destination=action.to)]
        player.position = action.to
        return events + self._stop(state, seat)
