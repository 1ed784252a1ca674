"""The Bludger Movement at the end of the Game Sequence (l.524–536) and Bludgers moved by effects."""

from __future__ import annotations

from menagerie.rules.text import listing
from menagerie.snitch.engine import pitch, rolls
from menagerie.snitch.engine.model import (
    Action,
    Ask,
    BludgerAimed,
    BludgerMove,
    BludgerMoved,
    BludgerTarget,
    Event,
    Exchange,
    MoveBludger,
    SequenceStep,
    SnitchState,
    TargetPlayer,
)
from menagerie.snitch.engine.parts import EngineParts
from menagerie.snitch.engine.pitch import PlayerRef, rival
from menagerie.snitch.engine.pitch_rules import unknown_zone, zone_problem


class BludgerMovement(EngineParts):
    """The Bludger Movement at the end of the Game Sequence (a part of SnitchEngine)."""

    def _bludger_movement(self, state: SnitchState, index: int) -> None:
        """Bludger Movement (l.524–534): the Defending Coach picks and moves one, the Attacking Coach the other."""
        if index == 0 and len(state.layout.bludgers) == 2:
            move = BludgerMove(must=[self.defending(state)], bludgers=[0, 1])
        elif index == 1 and state.moved_bludger is not None:
            move = BludgerMove(must=[state.attacking], bludgers=[1 - state.moved_bludger])
        else:
            self.then(state, SequenceStep(stage="snitch"))
            return
        after = SequenceStep(stage="bludgers", index=index + 1)
        if not self.spectator_window(state, rival(move.must[0]), "bludger", Ask(decision=move), after):
            self.ask(state, move, after)

    def bludger_zones(self, state: SnitchState, decision: BludgerMove, bludger: int) -> tuple[str, ...]:
        """Where a Bludger may go under this decision."""
        if decision.reach == 0:
            return pitch.bludger_destinations(self.pitch, state.layout, bludger)
        return pitch.zones_within(self.pitch, state.layout.bludgers[bludger], decision.reach)

    def bludger_targets(self, state: SnitchState, decision: BludgerTarget, seat: int) -> list[PlayerRef]:
        """Whom a moved Bludger may hit."""
        zone = state.layout.bludgers[decision.bludger]
        players = pitch.bludger_targets(state.layout, zone)
        return [p for p in players if not decision.rival_only or p.team != seat]

    def _move_bludger_options(self, state: SnitchState, seat: int) -> list[Action]:
        top = self.top(state)
        if not isinstance(top, BludgerMove):
            return []
        return [MoveBludger(bludger=b, zone=z) for b in top.bludgers for z in self.bludger_zones(state, top, b)]

    def _move_bludger_problem(self, state: SnitchState, seat: int, action: MoveBludger) -> str | None:
        """Why this Bludger may not go to that Zone now (None: it may)."""
        top = self.top(state)
        assert isinstance(top, BludgerMove)
        if problem := unknown_zone(self.pitch, action.zone):
            return problem
        if action.bludger not in top.bludgers:
            which = action.bludger + 1 if isinstance(action.bludger, int) else action.bludger
            movable = listing([f"Bludger {b + 1}" for b in top.bludgers], "or")
            return f"Bludger {which} is not one you may move now; you may move {movable}"
        return zone_problem(self.pitch, action.zone, self.bludger_zones(state, top, action.bludger))

    def _target_options(self, state: SnitchState, seat: int) -> list[Action]:
        top = self.top(state)
        if not isinstance(top, BludgerTarget):
            return []
        return [TargetPlayer(team=p.team, player=p.index) for p in self.bludger_targets(state, top, seat)]

    def _do_move_bludger(self, state: SnitchState, seat: int, action: MoveBludger) -> list[Event]:
        top = self.settle(state)
        assert isinstance(top, BludgerMove)
        state.layout = state.layout.with_bludger(action.bludger, action.zone)
        if top.reach == 0:
            state.moved_bludger = action.bludger
        events: list[Event] = [BludgerMoved(seat=seat, bludger=action.bludger, zone=action.zone)]
        if top.attack:
            decision = BludgerTarget(must=[seat], bludger=action.bludger, rival_only=top.rival_only)
            if self.bludger_targets(state, decision, seat):
                self.ask(state, decision)
        self.advance(state, events)
        return events

    def _do_target(self, state: SnitchState, seat: int, action: TargetPlayer) -> list[Event]:
        top = self.settle(state)
        assert isinstance(top, BludgerTarget)
        events: list[Event] = [BludgerAimed(seat=seat, bludger=top.bludger, team=action.team, player=action.player)]
        state.last_actor = seat
        self._start_exchange(
            state,
            Exchange(
                kind="bludger",
                seat=seat,
                target_team=action.team,
                target=action.player,
                bludger=top.bludger,
                fixed=rolls.BLUDGER_HIT,
            ),
        )
        self.advance(state, events)
        return events
