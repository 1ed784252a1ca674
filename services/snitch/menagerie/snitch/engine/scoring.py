"""Tempo Points (l.556–578), Goals' Snitch cards and the end of the match (l.685)."""

from __future__ import annotations

from menagerie.rules.contract import Outcome, SeatResult
from menagerie.snitch.data.cards import (
    PitchAction,
    Tempo,
)
from menagerie.snitch.engine import tactics, traits
from menagerie.snitch.engine.model import (
    Action,
    Ask,
    BreakTempo,
    Event,
    Exchange,
    FlowStep,
    FreeAction,
    GainTempo,
    MatchFinished,
    ShiftPlayers,
    SnitchState,
    TakeSnitch,
    TakeTempo,
    TempoBroken,
    TempoChoice,
    TempoGained,
)
from menagerie.snitch.engine.parts import EngineParts


class ScoringAndTheEnd(EngineParts):
    """Tempo Points (a part of SnitchEngine)."""

    def _earn_tempo(self, state: SnitchState, ex: Exchange) -> None:
        """A successful rolled Pass, Beat, Steal or Shoot: a Tempo Point or a Break (l.556–578); extra points."""
        kind: PitchAction = ex.kind  # type: ignore[assignment]
        extra = sum(
            1
            for lasting in state.players[ex.seat].effects
            if isinstance(effect := self._effect(state, ex.seat, lasting.card), Tempo) and effect.on == kind
        )
        extra += traits.extra_tempo(self.trait(state, ex.seat, ex.actor), kind)
        steps: list[FlowStep] = []
        if extra:
            steps.append(GainTempo(seat=ex.seat, points=extra))
        if tactics.can_break_tempo(kind, True, True, ex.no_tempo):
            self.then(state, Ask(decision=TempoChoice(must=[ex.seat], action=kind)), *steps)
            return
        if tactics.earns_tempo(kind, True, True, ex.no_tempo):
            steps.insert(0, GainTempo(seat=ex.seat))
        self.then(state, *steps)

    def _gain_tempo(self, state: SnitchState, step: GainTempo, events: list[Event]) -> None:
        """One Tempo Point at a time; above 3, all are discarded for a Snitch card (l.565)."""
        coach = state.players[step.seat]
        gain = tactics.gain_tempo(coach.tempo, 1)
        coach.tempo = gain.points
        events.append(TempoGained(seat=step.seat, points=gain.points, spent=bool(gain.snitch_cards)))
        rest: list[FlowStep] = [GainTempo(seat=step.seat, points=step.points - 1)] if step.points > 1 else []
        if gain.snitch_cards:
            self.then(state, TakeSnitch(seat=step.seat), *rest)
        else:
            self.then(state, *rest)

    def _break_options(self, state: SnitchState, seat: int) -> list[Action]:
        out: list[Action] = []
        if self.can_perform(state, seat, "pass"):
            out.append(BreakTempo(option="free_pass"))
        if self.shift_options(state, ShiftPlayers(team=seat, reason="break_tempo")):
            out.append(BreakTempo(option="shift"))
        return out

    def _do_tempo(self, state: SnitchState, seat: int, action: TakeTempo | BreakTempo) -> list[Event]:
        self.settle(state)
        events: list[Event] = []
        if isinstance(action, TakeTempo):
            self.then(state, GainTempo(seat=seat))
        else:
            events.append(TempoBroken(seat=seat, option=action.option))
            if action.option == "free_pass":
                self.ask(state, FreeAction(must=[seat], action="pass", reason="break_tempo"))
            else:
                self.ask(state, ShiftPlayers(must=[seat], team=seat, left=1, reason="break_tempo"))
        self.advance(state, events)
        return events

    def _finish(self, state: SnitchState, winner: int | None, events: list[Event], reason: str) -> None:
        goals = [c.goals + c.celebrated for c in state.players]
        if winner is None:
            seats = [SeatResult(seat=s, result="draw", score=float(goals[s]), rank=1) for s in (0, 1)]
        else:
            seats = [
                SeatResult(
                    seat=s, result="win" if s == winner else "loss", score=float(goals[s]), rank=1 if s == winner else 2
                )
                for s in (0, 1)
            ]
        state.outcome = Outcome(seats=seats, reason=reason)
        self.clear(state)
        state.exchange = None
        events.append(MatchFinished(outcome=state.outcome))
