"""Action Blocks and the Actions they allow (l.289–315, l.334–388): what may be done and doing it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from menagerie.snitch.data.cards import (
    PitchAction,
)
from menagerie.snitch.engine import pitch, tactics
from menagerie.snitch.engine.model import (
    PITCH_ACTION_TYPES,
    Action,
    ActionDeclared,
    AfterAction,
    Beat,
    BlockAction,
    BlockEnded,
    BlockStarted,
    ContinueBlock,
    DeclineBlock,
    Event,
    Exchange,
    FlowStep,
    FreeAction,
    FreeActionStep,
    KickOffPass,
    Move,
    PassQuaffle,
    Recover,
    SequenceStep,
    Shoot,
    SnitchState,
    Steal,
)
from menagerie.snitch.engine.parts import EngineParts
from menagerie.snitch.engine.pitch import PlayerRef, rival


class ActionBlocks(EngineParts):
    """Action Blocks and the Actions they allow (a part of SnitchEngine)."""

    def _block_turn(self, state: SnitchState, index: int, events: list[Event]) -> None:
        """Step 5 (l.289–297): the blocks alternate from the Attacking Coach; only that first one is compulsory."""
        if index == 0:
            counts = tuple(len(self.card(state, s, state.players[s].pitch_card or 1).blocks) for s in (0, 1))
            turns = tactics.block_turns(state.attacking, (counts[0], counts[1]))
            state.block_turns = [[t.seat, t.index, int(t.optional)] for t in turns]
        if index >= len(state.block_turns):
            self.then(state, SequenceStep(stage="bludgers"))
            return
        seat, block, optional = state.block_turns[index]
        card = self.card(state, seat, state.players[seat].pitch_card or 1)
        state.block_seat, state.block_index, state.block_optional = seat, block, bool(optional)
        state.block_remaining, state.block_performed = list(card.blocks[block]), 0
        state.players[seat].next_block = block + 1
        events.append(BlockStarted(seat=seat, index=block, actions=list(card.blocks[block])))
        self.then(state, ContinueBlock(), SequenceStep(stage="blocks", index=index + 1))

    def block_choices(self, state: SnitchState) -> list[PitchAction]:
        """The Actions of the block under way its Coach may perform next: any remaining one possible (l.315)."""
        if state.block_seat is None:
            return []
        seat = state.block_seat
        return list(dict.fromkeys(a for a in state.block_remaining if self.can_perform(state, seat, a)))

    def _continue_block(self, state: SnitchState, step: ContinueBlock, events: list[Event]) -> None:
        """Offer the block's next Action; none possible (or none left) ends it."""
        seat = state.block_seat
        if seat is None:
            return
        if not state.block_remaining or not self.block_choices(state):
            self._end_block(state, events)
            return
        if not step.offered and self.spectator_window(state, rival(seat), "block", ContinueBlock(offered=True)):
            return
        may_decline = state.block_optional and state.block_performed == 0
        self.ask(state, BlockAction(must=[seat], may_decline=may_decline))

    def _end_block(self, state: SnitchState, events: list[Event], declined: bool = False) -> None:
        """The block is over; what is left is skipped (none possible, a Loose Quaffle l.476, a Goal l.496)."""
        seat = state.block_seat
        if seat is None:
            return
        if state.block_performed and not declined:
            state.last_block_seat = seat
        events.append(
            BlockEnded(seat=seat, index=state.block_index, skipped=list(state.block_remaining), declined=declined)
        )
        state.block_seat, state.block_remaining, state.block_performed = None, [], 0

    def _decline_block_options(self, state: SnitchState, seat: int) -> list[Action]:
        top = self.top(state)
        return [DeclineBlock()] if isinstance(top, BlockAction) and top.may_decline else []

    def _do_decline_block(self, state: SnitchState, seat: int, action: DeclineBlock) -> list[Event]:
        self.settle(state)
        events: list[Event] = []
        self._end_block(state, events, declined=True)
        self.advance(state, events)
        return events

    def can_perform(self, state: SnitchState, seat: int, action: PitchAction) -> bool:
        """Whether some Player of `seat` can perform this Action now."""
        return any(True for _ in self._instances(state, seat, action))

    def _instances(self, state: SnitchState, seat: int, action: PitchAction) -> Iterable[Action]:
        """Every legal instance of a Pitch Action for `seat`'s Players now."""
        layout, the_pitch = state.layout, self.pitch
        players = layout.team_players(seat)
        if action == "move":
            for p in players:
                for zone in pitch.move_destinations(the_pitch, layout, p):
                    yield Move(player=p.index, zone=zone)
        elif action == "pass":
            holder = layout.holder
            if holder is not None and holder.team == seat:
                for target in pitch.pass_targets(the_pitch, layout, holder):
                    yield PassQuaffle(player=holder.index, target=target.index)
        elif action == "shoot":
            holder = layout.holder
            if holder is not None and holder.team == seat and pitch.may_shoot(the_pitch, layout, holder):
                yield Shoot(player=holder.index)
        elif action == "steal":
            if state.attacking != seat:  # l.374 "Only a Player on the Defending Team"
                for p in pitch.stealers(layout):
                    if p.team == seat:
                        yield Steal(player=p.index)
        elif action == "beat":
            for p in pitch.beaters(layout, seat):
                zone = layout.zone_of(p)
                for bludger in pitch.bludgers_in(layout, zone):
                    for target in pitch.beat_targets(the_pitch, layout, p):
                        yield Beat(player=p.index, bludger=bludger, target=target.index)
        elif action == "recover":
            for p in players:
                if state.players[seat].team[p.index].stunned:
                    yield Recover(player=p.index)

    def _pitch_options(self, state: SnitchState, seat: int) -> list[Action]:
        """The Pitch Actions the top decision offers `seat` (a block's remaining kinds, a free Action's kind)."""
        top = self.top(state)
        if isinstance(top, BlockAction):
            kinds: Sequence[PitchAction] = self.block_choices(state)
        elif isinstance(top, FreeAction):
            kinds = [top.action] if top.action is not None else list(PITCH_ACTION_TYPES)
        elif isinstance(top, KickOffPass):
            keeper = PlayerRef(seat, 0)
            return [PassQuaffle(player=0, target=t.index) for t in pitch.pass_targets(self.pitch, state.layout, keeper)]
        else:
            return []
        out: list[Action] = []
        for kind in kinds:
            out.extend(self._instances(state, seat, kind))
        return out

    def _perform_pitch(self, state: SnitchState, seat: int, action: Action) -> list[Event]:
        """Performs a Move, Pass, Shoot, Steal, Beat or Recover from a block, a free Action or a Kick-Off."""
        events: list[Event] = []
        top = self.settle(state)
        kind = next(k for k, t in PITCH_ACTION_TYPES.items() if isinstance(action, t))
        player = PlayerRef(seat, getattr(action, "player", 0))
        if isinstance(top, KickOffPass):
            assert isinstance(action, PassQuaffle)
            events.append(
                ActionDeclared(seat=seat, action="pass", player=0, target_team=seat, target=action.target, free=True)
            )
            self._give_quaffle(state, PlayerRef(seat, action.target), "kick_off_pass", events)
            self.advance(state, events)
            return events
        free = isinstance(top, FreeAction)
        no_tempo = isinstance(top, FreeAction) and top.reason == "break_tempo"
        if isinstance(top, BlockAction):
            state.block_remaining.remove(kind)
            state.block_performed += 1
            self.then(state, ContinueBlock())
        holder = state.layout.holder
        self.then(state, AfterAction(holder_before=[holder.team, holder.index] if holder else []))
        target_team = rival(seat) if isinstance(action, Beat) else seat if isinstance(action, PassQuaffle) else None
        target = getattr(action, "target", None)
        events.append(
            ActionDeclared(
                seat=seat, action=kind, player=player.index, target_team=target_team, target=target, free=free
            )
        )
        state.last_actor = seat
        if isinstance(action, Move):
            self._place_player(state, player, action.zone, "move", events)
        else:
            self._pick_up(state, player, events)
            if isinstance(action, Recover):
                self._stun(state, player, -1, events)
            elif isinstance(action, PassQuaffle):
                self._start_exchange(
                    state,
                    Exchange(
                        kind="pass",
                        seat=seat,
                        actor=player.index,
                        target_team=seat,
                        target=action.target,
                        free=free,
                        no_tempo=no_tempo,
                    ),
                )
            elif isinstance(action, Shoot):
                self._start_exchange(state, Exchange(kind="shoot", seat=seat, actor=player.index, free=free))
            elif isinstance(action, Steal):
                holder = state.layout.holder
                assert holder is not None
                self._start_exchange(
                    state,
                    Exchange(
                        kind="steal",
                        seat=seat,
                        actor=player.index,
                        target_team=holder.team,
                        target=holder.index,
                        free=free,
                    ),
                )
            elif isinstance(action, Beat):
                self._start_exchange(
                    state,
                    Exchange(
                        kind="beat",
                        seat=seat,
                        actor=player.index,
                        target_team=rival(seat),
                        target=action.target,
                        bludger=action.bludger,
                        free=free,
                    ),
                )
        self.advance(state, events)
        return events

    def _free_action_step(self, state: SnitchState, step: FreeActionStep, events: list[Event]) -> None:
        """A free Action (l.392), if any can be performed."""
        kinds = [step.action] if step.action is not None else list(PITCH_ACTION_TYPES)
        if not any(self.can_perform(state, step.seat, k) for k in kinds):
            return
        if not step.offered:
            again = msgspec.structs.replace(step, offered=True)
            if self.spectator_window(state, rival(step.seat), "free_action", again):
                return
        rest: list[FlowStep] = (
            [FreeActionStep(seat=step.seat, action=step.action, reason=step.reason, left=step.left - 1)]
            if step.left > 1
            else []
        )
        self.ask(state, FreeAction(must=[step.seat], action=step.action, reason=step.reason), *rest)
