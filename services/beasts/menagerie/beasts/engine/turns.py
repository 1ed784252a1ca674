"""The turn (modes I and II) and the end of the match (every mode).

A turn is the seat to play's decisions, each replacing the last (`_decide`): `RollDie`,
`ChooseStop`, `AfterStop`. It starts with a spell drawn (with the Spell Card Variant),
ends by itself once ending it is all that is left to do (`_settle`) or when the seat ends
it, and the next seat's turn starts, until the turn cap makes the match a draw. A capture
may end the match first (CREATURES_TO_WIN); `_finish` records the outcome, mode III's too.
"""

from __future__ import annotations

from menagerie.beasts.engine.model import (
    AfterStop,
    BeastsState,
    Event,
    MatchFinished,
    RollDie,
    TurnDecision,
    TurnEnded,
    TurnStarted,
)
from menagerie.beasts.engine.parts import EngineParts
from menagerie.rules.contract import Outcome, ResultKind, SeatResult
from menagerie.rules.text import seat_name

CREATURES_TO_WIN = {"capture": 3, "training": 2}


class TurnsAndTheEnd(EngineParts):
    """A turn's decisions, its start and its end (by itself or by the seat), and the end of the match."""

    def _decide(self, state: BeastsState, decision: TurnDecision) -> None:
        """The seat to play's next decision replaces the one it has just made."""
        decision.must = [state.current]
        self.restart(state, decision)

    def _settle(self, state: BeastsState) -> list[Event]:
        """Ends the turn by itself once ending it is the only thing left to do.

        Not with the Spell Card Variant: whether a spell is left to cast depends on the
        hand, which the others must not learn from the turn ending early (RULES.md); the
        seat always ends its turn itself then.
        """
        if (
            not state.spell_cards
            and isinstance(self.top(state), AfterStop)
            and not self._can_capture(state, state.current)
        ):
            return self._end_turn(state)  # without spells, End turn is all that is left
        return []

    def _start_turn(self, state: BeastsState) -> list[Event]:
        state.turn += 1
        state.roll = state.bonus = state.spells_played = 0
        self._decide(state, RollDie())
        events: list[Event] = [TurnStarted(seat=state.current, turn=state.turn)]
        if state.spell_cards:
            events += self._draw_spell(state, state.current)
        return events

    def _end_turn(self, state: BeastsState) -> list[Event]:
        events: list[Event] = [TurnEnded(seat=state.current)]
        if state.turn >= state.turn_cap:
            return events + self._finish(state, [], f"the turn cap of {state.turn_cap} turns was reached: a draw")
        state.current = (state.current + 1) % len(state.players)
        return events + self._start_turn(state)

    def _check_end(self, state: BeastsState, seat: int) -> list[Event]:
        """Ends the match after `seat` captured, if that wins it."""
        target = CREATURES_TO_WIN[state.mode]
        if len(state.players[seat].captured) >= target:
            return self._finish(state, [seat], f"{seat_name(seat)} captured {target} creatures")
        captured = sum(len(p.captured) for p in state.players)
        if state.mode == "capture" and captured == len(self.creatures):
            winners = [i for i, p in enumerate(state.players) if len(p.captured) == 2]
            listed = ", ".join(str(w) for w in winners)
            return self._finish(state, winners, f"all creatures are captured; seats {listed} captured 2 each")
        return []

    def _finish(self, state: BeastsState, winners: list[int], reason: str, all_lose: bool = False) -> list[Event]:
        """The outcome: `winners` win, the others lose; no winners is a draw, or with `all_lose` (co-op) a loss."""
        counts = [len(p.captured) for p in state.players]
        if state.mode == "advanced":  # co-op: every seat scores the team's captures
            counts = [sum(counts)] * len(counts)
        keys = [(i in winners, counts[i]) for i in range(len(counts))]
        results = []
        for seat, key in enumerate(keys):
            result: ResultKind = "win" if seat in winners else ("loss" if winners or all_lose else "draw")
            rank = 1 + sum(other > key for other in keys)
            results.append(SeatResult(seat=seat, result=result, score=float(counts[seat]), rank=rank))
        state.outcome = Outcome(seats=results, reason=reason)
        self.clear(state)
        return [MatchFinished(outcome=state.outcome)]
