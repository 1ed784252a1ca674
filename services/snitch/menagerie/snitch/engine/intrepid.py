"""Tactical cards played for their Intrepid Moves (l.283–287, l.430–450), Swift ones included, and their effects."""

from __future__ import annotations

from typing import Any

from menagerie.snitch.data.cards import (
    Bludger,
    ModifyRoll,
    Shift,
    Tempo,
    Upwind,
)
from menagerie.snitch.data.cards import DiceTokens as DiceTokensEffect
from menagerie.snitch.data.cards import (
    FreeAction as FreeActionEffect,
)
from menagerie.snitch.data.cards import (
    Reroll as RerollEffect,
)
from menagerie.snitch.engine import pitch, race, tactics
from menagerie.snitch.engine.model import (
    Action,
    BludgerMove,
    DeclineIntrepid,
    DiceTokenPlaced,
    DiceTokenPlacement,
    Event,
    FreeActionStep,
    GainTempo,
    IntrepidDeclined,
    IntrepidEffect,
    IntrepidPlayed,
    IntrepidResolved,
    LastingEffect,
    NoSwift,
    PlaceDiceToken,
    PlayIntrepid,
    PlaySwift,
    RerollGrant,
    ShiftPlayers,
    SnitchState,
    SwiftWindow,
)
from menagerie.snitch.engine.parts import EngineParts
from menagerie.snitch.engine.pitch import rival


class IntrepidMoves(EngineParts):
    """Tactical cards played for their Intrepid Moves (a part of SnitchEngine)."""

    def _intrepid_effect(self, state: SnitchState, step: IntrepidEffect, events: list[Event]) -> None:
        """Step 4 (l.287, l.436): one Intrepid Move takes effect (see RULES.md for when each kind applies)."""
        seat = step.seat
        effect = self._effect(state, seat, step.card)
        events.append(IntrepidResolved(seat=seat, card=step.card))
        self._apply_effect(state, seat, step.card, effect, events)

    def _apply_effect(self, state: SnitchState, seat: int, card_id: int, effect: Any, events: list[Event]) -> None:
        if isinstance(effect, Shift):
            team = seat if effect.whose == "friendly" else rival(seat)
            self._ask_shift(state, ShiftPlayers(must=[seat], team=team, left=effect.players, role=effect.role))
        elif isinstance(effect, FreeActionEffect):
            self.then(state, FreeActionStep(seat=seat, action=effect.action, left=effect.count))
        elif isinstance(effect, DiceTokensEffect):
            self.ask(
                state, DiceTokenPlacement(must=[seat], token=effect.token, colour=effect.colour, left=effect.count)
            )
        elif isinstance(effect, ModifyRoll | RerollEffect) or (isinstance(effect, Tempo) and effect.on is not None):
            state.players[seat].effects.append(LastingEffect(card=card_id))
        elif isinstance(effect, Tempo):
            self.then(state, GainTempo(seat=seat))
        elif isinstance(effect, Bludger):
            decision = BludgerMove(
                must=[seat], bludgers=[0, 1], reach=effect.zones, attack=effect.attack, rival_only=True
            )
            self.ask(state, decision)
        elif isinstance(effect, Upwind):
            self.store_race(state, race.new_turn(self.race_of(state)))
            self._ask_race_token(state, seat, "upwind", None, effect.tokens)

    def _effect(self, state: SnitchState, seat: int, card_id: int) -> Any:
        move = self.card(state, seat, card_id).intrepid
        return move.effect if move else None

    def _effect_bonus(self, state: SnitchState, roller: int, roll: str) -> int:
        """What the lasting Intrepid Moves in play add to (or deduct from) `roller`'s roll of this kind."""
        total = 0
        for seat, coach in enumerate(state.players):
            for lasting in coach.effects:
                move = self.card(state, seat, lasting.card).intrepid
                effect = move.effect if move else None
                if isinstance(effect, ModifyRoll) and effect.roll == roll:
                    friendly = effect.whose == "friendly"
                    if friendly and roller == seat:
                        total += effect.amount
                    elif not friendly and roller != seat:
                        total -= effect.amount
        return total

    def _intrepid_options(self, state: SnitchState, seat: int) -> list[Action]:
        hand = dict.fromkeys(state.players[seat].hand)
        return [PlayIntrepid(card=c) for c in hand if self._plays_now(state, seat, c)]

    def _plays_now(self, state: SnitchState, seat: int, card_id: int) -> bool:
        """Whether a card of the hand has an Intrepid Move to play at step 3: Swift ones wait (l.440, RULES.md)."""
        move = self.card(state, seat, card_id).intrepid
        return move is not None and move.swift is None

    def _intrepid_problem(self, state: SnitchState, seat: int, action: PlayIntrepid) -> str | None:
        """Step 3 (l.285): a card of the Coach's hand with an Intrepid Move that is not Swift; why not, else None."""
        if action.card not in state.players[seat].hand:
            return f"card {action.card!r} is not in your hand"
        if not self._plays_now(state, seat, action.card):
            return f"card {action.card} has no Intrepid Move to play now (Swift ones wait for their moment, l.440)"
        return None

    def _do_intrepid(self, state: SnitchState, seat: int, action: PlayIntrepid | DeclineIntrepid) -> list[Event]:
        self.settle(state)
        coach = state.players[seat]
        state.offer_last = seat
        events: list[Event]
        if isinstance(action, PlayIntrepid):
            coach.hand.remove(action.card)
            coach.intrepids.append(action.card)
            state.intrepid_plays.append([seat, action.card])
            events = [IntrepidPlayed(seat=seat, card=action.card)]
        else:
            coach.declined_intrepid = True
            events = [IntrepidDeclined(seat=seat)]
        self.advance(state, events)
        return events

    def _may_play_swift(self, state: SnitchState, seat: int) -> bool:
        coach = state.players[seat]
        return tactics.can_play_swift(tactics.Cards(hand=tuple(coach.hand)), len(coach.intrepids))

    def _swift_moments_now(self, state: SnitchState, seat: int) -> tuple[str, ...]:
        """The Swift moments of now: the Quaffle gone Loose, or those of the roll in the window after it."""
        if isinstance(self.top(state), SwiftWindow):
            return ("loose_quaffle",)
        return self._swift_moments(state.exchange, seat) if state.exchange is not None else ()

    def _swift_options(self, state: SnitchState, seat: int) -> list[Action]:
        return self._swift_cards(state, seat, self._swift_moments_now(state, seat))

    def _swift_problem(self, state: SnitchState, seat: int, action: PlaySwift) -> str | None:
        """A card of the hand whose Swift move waits for this moment, within the limits (l.440–446); else None."""
        if action.card not in state.players[seat].hand:
            return f"card {action.card!r} is not in your hand"
        moments = self._swift_moments_now(state, seat)
        move = self.card(state, seat, action.card).intrepid
        if not moments or not self._may_play_swift(state, seat) or move is None or move.swift not in moments:
            return (
                f"card {action.card} has no Swift Intrepid Move for this moment, "
                "or you may not play one now (l.442–446)"
            )
        return None

    def _do_swift(self, state: SnitchState, seat: int, action: PlaySwift | NoSwift) -> list[Event]:
        top = self.top(state)
        events: list[Event] = []
        if isinstance(action, NoSwift):
            self.settle(state)
            self.advance(state, events)
            return events
        coach = state.players[seat]
        coach.hand.remove(action.card)
        coach.intrepids.append(action.card)
        events.append(IntrepidPlayed(seat=seat, card=action.card, swift=True))
        effect = self._effect(state, seat, action.card)
        if isinstance(top, SwiftWindow):
            self.settle(state)
            self._apply_effect(state, seat, action.card, effect, events)
        else:
            ex = state.exchange
            assert ex is not None
            if isinstance(effect, ModifyRoll):
                side = self._side_of(ex, seat, effect.roll, effect.whose)
                sign = 1 if effect.whose == "friendly" else -1
                if side == "action":
                    ex.late_modifier += sign * effect.amount
                elif side == "reaction":
                    ex.late_reaction_modifier += sign * effect.amount
            elif isinstance(effect, RerollEffect):
                side = self._side_of(ex, seat, effect.roll, effect.whose)
                if side is not None:
                    ex.swift_rerolls.append(RerollGrant(seat=seat, side=side, dice=effect.dice))  # type: ignore[arg-type]
        self.advance(state, events)
        return events

    def _dice_token_options(self, state: SnitchState, seat: int) -> list[Action]:
        top = self.top(state)
        if not isinstance(top, DiceTokenPlacement):
            return []
        team = seat if top.token == "bonus" else rival(seat)
        return [PlaceDiceToken(team=team, player=i) for i in range(len(pitch.PITCH_LINEUP))]

    def _do_dice_token(self, state: SnitchState, seat: int, action: PlaceDiceToken) -> list[Event]:
        top = self.top(state)
        assert isinstance(top, DiceTokenPlacement)
        tokens = state.players[action.team].team[action.player]
        (tokens.bonus if top.token == "bonus" else tokens.penalty).append(top.colour)
        events: list[Event] = [
            DiceTokenPlaced(team=action.team, player=action.player, token=top.token, colour=top.colour)
        ]
        top.left -= 1
        if top.left <= 0:
            self.settle(state)
        self.advance(state, events)
        return events
