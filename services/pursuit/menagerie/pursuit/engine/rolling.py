"""Rolling: the active player's dice, up to three rolls keeping any, and the Reroll card.

Each roll is a chance node of the flow (`RollDice`, in `PursuitEngine.procedure`): the ways
the dice not kept may fall, their draw with the match's Rng and what the fallen dice do are
here, and so are the Rolling decision's actions (roll again keeping some dice, or stop: the
dice become the pool to assign) and the Reroll card played in the window after a roll.
"""

from __future__ import annotations

from collections.abc import Iterable

from menagerie.pursuit.engine.data import Face
from menagerie.pursuit.engine.dice import is_reroll_choice, reroll_choices, roll_die, roll_outcomes
from menagerie.pursuit.engine.model import (
    Assigning,
    DiceRolled,
    Die,
    Event,
    HelpWindow,
    PlayReroll,
    PoolDie,
    PursuitState,
    Reroll,
    RerollWindow,
    RollDice,
    Rolling,
    RollingStopped,
    StopRolling,
)
from menagerie.pursuit.engine.parts import EngineParts
from menagerie.rules.chance import Distribution


class RollingDice(EngineParts):
    """The active player's rolls (a chance node each), Rolling's actions and the Reroll card."""

    @staticmethod
    def _rolled_dice(state: PursuitState) -> list[Die]:
        """The dice not kept, in order (the black ones, then the teal one): the dice a roll throws."""
        return [die for die, kept in zip(state.dice, state.kept, strict=True) if not kept]

    def _roll_faces(self, state: PursuitState, step: RollDice) -> Distribution[tuple[Face, ...]]:
        """Every way the dice not kept may fall, with its chance (equal black dice as one)."""
        colors = [die.color for die in self._rolled_dice(state)]
        return roll_outcomes(self.data.dice, colors.count("black"), "teal" in colors)

    def _draw_roll(self, state: PursuitState, step: RollDice) -> tuple[Face, ...]:
        """The dice not kept, rolled one by one in order with the match's Rng."""
        return tuple(roll_die(state.rng, self.data.dice, die.color) for die in self._rolled_dice(state))

    def _dice_rolled(self, state: PursuitState, step: RollDice, faces: tuple[Face, ...], events: list[Event]) -> None:
        """The dice not kept show `faces`; a beast-reaction face is resolved at once; Rolling and the Reroll window."""
        for die, face in zip(self._rolled_dice(state), faces, strict=True):
            die.face = face
        state.rolls += 1
        events.append(DiceRolled(seat=step.seat, roll=state.rolls, dice=_dice(state.dice), kept=list(state.kept)))
        if "reaction" in faces:
            events += self._react(state, "roll")
            if state.outcome is not None:
                return
        self.ask(state, Rolling(must=[step.seat]))
        self._open(state, RerollWindow(may=self._others(state)))

    def _reroll_options(self, state: PursuitState, seat: int) -> list[Reroll]:
        """Exactly the legal rerolls: every keep the dice allow (`is_reroll_choice`), while rolls remain."""
        return reroll_choices(state.dice) if state.rolls < state.roll_limit else []

    def _reroll_problem(self, state: PursuitState, seat: int, action: Reroll) -> str | None:
        if state.rolls >= state.roll_limit:
            return f"you have rolled {state.rolls} times: keep the dice"
        if not is_reroll_choice(state.dice, action.keep, action.keep_teal):
            return "keep only dice you rolled, and roll at least one again"
        return None

    def _reroll(self, state: PursuitState, seat: int, action: Reroll) -> list[Event]:
        wanted = {face: action.keep.count(face) for face in action.keep}
        for index, die in enumerate(state.dice):
            if die.color == "teal":
                state.kept[index] = action.keep_teal
            elif wanted.get(die.face, 0) > 0:
                wanted[die.face] -= 1
                state.kept[index] = True
            else:
                state.kept[index] = False
        self.settle(state)  # Rolling is asked again once the dice have fallen
        self.then(state, RollDice(seat=seat))
        return self._run(state)

    def _stop_rolling(self, state: PursuitState) -> list[Event]:
        """The dice as they lie are the pool to assign; the help window opens before assigning."""
        state.pool = [PoolDie(d.face, d.color) for d in state.dice if d.face != "reaction"]
        self.replace(state, Assigning(must=[state.active]))
        events: list[Event] = [RollingStopped(seat=state.active, dice=_dice(state.dice))]
        self._open(state, HelpWindow(may=self._others(state)))
        return events

    def _stop(self, state: PursuitState, seat: int, action: StopRolling) -> list[Event]:
        return self._stop_rolling(state)

    def _play_reroll(self, state: PursuitState, seat: int, action: PlayReroll) -> list[Event]:
        events = self._play(state, seat, action.card)
        state.roll_limit += 1
        return events + self._played(state, seat)


def _dice(dice: Iterable[Die]) -> list[Die]:
    """A copy of the dice (states and views must not share them)."""
    return [Die(d.color, d.face) for d in dice]
