"""Players, the Quaffle and Shifts on the Pitch: moving, picking up and losing the Quaffle, the Keeper's Kick-Off.

Rulebook lines: Move and Shift l.334–344, a Loose Quaffle l.470–480, the Keeper's Kick-Off
l.510–522.
"""

from __future__ import annotations

from collections.abc import Sequence

from menagerie.snitch.engine import pitch, rolls
from menagerie.snitch.engine.model import (
    Action,
    AfterAction,
    AttackChanged,
    Event,
    FlowStep,
    KeeperKickOff,
    KickOffPass,
    KickOffStarted,
    LooseQuaffle,
    LooseQuaffleStep,
    PlaceQuaffle,
    PlayerMoved,
    QuaffleCaught,
    QuaffleLoose,
    ShiftOut,
    ShiftPlayer,
    ShiftPlayers,
    SkipPass,
    SkipShift,
    SnitchState,
    Stunned,
    SwiftWindow,
)
from menagerie.snitch.engine.parts import EngineParts
from menagerie.snitch.engine.pitch import PlayerRef, rival
from menagerie.snitch.engine.pitch_rules import zone_problem


class PitchAndMovement(EngineParts):
    """Players, the Quaffle and Shifts on the Pitch (a part of SnitchEngine)."""

    def _place_player(self, state: SnitchState, player: PlayerRef, zone: str, how: str, events: list[Event]) -> None:
        """A Player goes to a Zone (Move, Shift, deployment) and picks up a Loose Quaffle there (l.478)."""
        state.layout = state.layout.moved(player, zone)
        picked = self._pick_up(state, player, events, announce=False)
        events.append(PlayerMoved(team=player.team, player=player.index, zone=zone, how=how, picked_up=picked))
        if picked:
            events.append(QuaffleCaught(team=player.team, player=player.index, how="pick_up"))

    def _pick_up(self, state: SnitchState, player: PlayerRef, events: list[Event], announce: bool = True) -> bool:
        """A Player in the Loose Quaffle's Zone takes it during its Action, a Shift too (l.478); its Team attacks."""
        if not pitch.picks_up(state.layout, player):
            return False
        if not pitch.may_be_in(self.pitch, state.layout, player, state.layout.zone_of(player), with_quaffle=True):
            return False
        state.layout = state.layout.with_quaffle(player)
        self._set_attacking(state, player.team, events)
        if announce:
            events.append(QuaffleCaught(team=player.team, player=player.index, how="pick_up"))
        return True

    def _set_attacking(self, state: SnitchState, team: int, events: list[Event]) -> None:
        if state.attacking != team:
            state.attacking = team
            events.append(AttackChanged(attacking=team))

    def _give_quaffle(self, state: SnitchState, player: PlayerRef, how: str, events: list[Event]) -> None:
        """A Player takes Possession (a Pass, a Steal, a save); a Change of Possession if the rival had it (l.474)."""
        state.layout = state.layout.with_quaffle(player)
        events.append(QuaffleCaught(team=player.team, player=player.index, how=how))
        self._set_attacking(state, player.team, events)
        self.then(state, ShiftOut())

    def _lose_quaffle(self, state: SnitchState, chooser: int, zones: Sequence[str], events: list[Event]) -> None:
        """The holder loses the Quaffle, Loose where `chooser` says; a Chaser in a Scoring Area Shifts out (l.480)."""
        holder = state.layout.holder
        assert holder is not None
        # Until its Zone is chosen the Quaffle lies where it was lost; it is no one's.
        state.layout = state.layout.with_quaffle(state.layout.zone_of(holder))
        self.then(state, ShiftOut(), LooseQuaffleStep(chooser=chooser, zones=list(zones), lost_by=holder.team))

    def _stun(self, state: SnitchState, player: PlayerRef, delta: int, events: list[Event]) -> None:
        """A Stunned token on (or off) a Player card, at most 3 (l.544)."""
        tokens = state.players[player.team].team[player.index]
        tokens.stunned = max(0, min(rolls.MAX_STUNNED, tokens.stunned + delta))
        events.append(Stunned(team=player.team, player=player.index, tokens=tokens.stunned, delta=delta))

    def _after_action(self, state: SnitchState, step: AfterAction, events: list[Event]) -> None:
        """After an Action: a Keeper newly holding the Quaffle in their own Scoring Area starts a Kick-Off (l.512)."""
        holder = state.layout.holder
        if holder is None or not pitch.keeper_kick_off(self.pitch, state.layout):
            return
        if step.holder_before == [holder.team, holder.index]:
            return  # the Keeper already held it: the Kick-Off was for that Possession
        self.then(state, KeeperKickOff(team=holder.team))

    def _keeper_kick_off(self, state: SnitchState, step: KeeperKickOff, events: list[Event]) -> None:
        """The Keeper's Kick-Off (l.512–522): shift-out, one optional Shift each (attacking first), a free sure Pass."""
        team = step.team
        if step.stage == 0:
            events.append(KickOffStarted(team=team))
            self.then(state, ShiftOut(), KeeperKickOff(team=team, stage=1))
        elif step.stage in (1, 2):
            seat = team if step.stage == 1 else rival(team)
            decision = ShiftPlayers(must=[seat], team=seat, left=1, no_scoring=True, optional=True, reason="kick_off")
            self._ask_shift(state, decision, KeeperKickOff(team=team, stage=step.stage + 1))
        else:
            keeper = PlayerRef(team, 0)
            if state.layout.holder == keeper and pitch.pass_targets(self.pitch, state.layout, keeper):
                self.ask(state, KickOffPass(must=[team]))

    def _shift_out(self, state: SnitchState, step: ShiftOut, events: list[Event]) -> None:
        """Players no longer allowed in a Scoring Area Shift to an adjacent Zone outside it (l.480, l.514)."""
        for player in pitch.must_shift_out(self.pitch, state.layout):
            if pitch.shift_out_zones(self.pitch, state.layout, player):
                decision = ShiftPlayers(
                    must=[player.team],
                    team=player.team,
                    left=1,
                    no_scoring=True,
                    only=[player.index],
                    reason="shift_out",
                )
                self.ask(state, decision)
                return  # one at a time; the next ShiftOut looks again
        return

    def _ask_shift(self, state: SnitchState, decision: ShiftPlayers, *then: FlowStep) -> None:
        """Asks for Shifts if any is possible; else goes straight on."""
        if self.shift_options(state, decision):
            self.ask(state, decision, *then)
        else:
            self.then(state, *then)

    def shift_options(self, state: SnitchState, decision: ShiftPlayers) -> list[ShiftPlayer]:
        """The Shifts a Shift decision allows."""
        out: list[ShiftPlayer] = []
        layout = state.layout
        for p in layout.team_players(decision.team):
            if p.index in decision.shifted or (decision.only and p.index not in decision.only):
                continue
            if decision.role is not None and p.position != decision.role:
                continue
            if decision.reason == "shift_out":
                zones: Sequence[str] = pitch.shift_out_zones(self.pitch, layout, p)
            else:
                zones = pitch.shift_destinations(self.pitch, layout, p, scoring_areas=not decision.no_scoring)
            out.extend(ShiftPlayer(team=p.team, player=p.index, zone=z) for z in zones)
        return out

    def _shift_actions(self, state: SnitchState, seat: int) -> list[Action]:
        top = self.top(state)
        return list(self.shift_options(state, top)) if isinstance(top, ShiftPlayers) else []

    def _skip_shift_options(self, state: SnitchState, seat: int) -> list[Action]:
        top = self.top(state)
        return [SkipShift()] if isinstance(top, ShiftPlayers) and top.optional else []

    def _do_shift(self, state: SnitchState, seat: int, action: ShiftPlayer | SkipShift) -> list[Event]:
        top = self.top(state)
        assert isinstance(top, ShiftPlayers)
        events: list[Event] = []
        if isinstance(action, SkipShift):
            self.settle(state)
        else:
            player = PlayerRef(action.team, action.player)
            self._place_player(state, player, action.zone, "shift", events)
            top.shifted.append(action.player)
            top.left -= 1
            if top.left <= 0 or not self.shift_options(state, top):
                self.settle(state)
        self.advance(state, events)
        return events

    def _loose_quaffle_step(self, state: SnitchState, step: LooseQuaffleStep, events: list[Event]) -> None:
        if len(step.zones) == 1:
            self._place_loose(state, step.chooser, step.zones[0], step.lost_by, events)
            return
        self.ask(state, LooseQuaffle(must=[step.chooser], zones=list(step.zones), lost_by=step.lost_by))

    def _place_loose(self, state: SnitchState, chooser: int, zone: str, lost_by: int, events: list[Event]) -> None:
        """The Quaffle lies Loose; the other Team attacks (l.476); the block ends; Swift moments follow."""
        state.layout = state.layout.with_quaffle(zone)
        attacking = rival(lost_by)
        events.append(QuaffleLoose(zone=zone, attacking=attacking))
        self._set_attacking(state, attacking, events)
        self._end_block(state, events)
        for seat in (state.attacking, rival(state.attacking))[::-1]:
            if self._may_play_swift(state, seat):
                self.interrupt(state, SwiftWindow(must=[seat]))

    def _quaffle_zones(self, state: SnitchState) -> list[str]:
        top = self.top(state)
        return top.zones if isinstance(top, LooseQuaffle) else []

    def _quaffle_options(self, state: SnitchState, seat: int) -> list[Action]:
        return [PlaceQuaffle(zone=z) for z in self._quaffle_zones(state)]

    def _quaffle_problem(self, state: SnitchState, seat: int, action: PlaceQuaffle) -> str | None:
        """Why the Loose Quaffle may not go to that Zone (None: it may)."""
        return zone_problem(self.pitch, action.zone, self._quaffle_zones(state))

    def _do_place_quaffle(self, state: SnitchState, seat: int, action: PlaceQuaffle) -> list[Event]:
        decision = self.settle(state)
        assert isinstance(decision, LooseQuaffle)
        events: list[Event] = []
        self._place_loose(state, seat, action.zone, decision.lost_by, events)
        self.advance(state, events)
        return events

    def _do_skip_pass(self, state: SnitchState, seat: int, action: SkipPass) -> list[Event]:
        self.settle(state)
        events: list[Event] = []
        self.advance(state, events)
        return events
