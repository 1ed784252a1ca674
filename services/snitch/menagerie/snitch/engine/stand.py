"""The Spectators optional rule (l.711–721): the Stand, placing a Spectator, the Hand Swap's clearing.

"A Coach can play a Spectator card at any time" (l.719). A match asks at its moments
(authored; see RULES.md "Spectators in play"): the Coach deciding an Action of their Action
Block, a free Action or a Bludger's move may place one first, its effect at once, and is
asked again; the Coach deciding a Reaction, Dice tokens or a re-roll may place one while the
Action is being resolved, its effect once the Action is resolved; the other Coach is offered
a Spectator window before each of those Actions and Bludger moves of their rival's, and
is asked about Dice tokens in every exchange. Every offer depends on public facts only: the
Spectator cards and the Stand are on the table. The effect is an Intrepid Move effect of the
immediate kinds, resolved the same way.
"""

from __future__ import annotations

from menagerie.rules.decisions import Decision
from menagerie.snitch.data import STAND_ZONES
from menagerie.snitch.engine.model import (
    Action,
    Ask,
    BlockAction,
    BludgerMove,
    ContinueBlock,
    DiceTokens,
    Event,
    FlowStep,
    FreeAction,
    FreeActionStep,
    NoSpectator,
    PlaySpectator,
    Reaction,
    RollWindow,
    SnitchState,
    SpectatorEffect,
    SpectatorPlayed,
    SpectatorWindow,
    StandCleared,
)
from menagerie.snitch.engine.parts import EngineParts

# Decisions at which their Coach may place a Spectator first; its effect is resolved at once.
AT_ONCE = (BlockAction, FreeAction, BludgerMove, SpectatorWindow)
# Decisions taken while an Action is being resolved; the effect waits until it is.
WHILE_RESOLVING = (Reaction, DiceTokens, RollWindow)


class SpectatorStand(EngineParts):
    """Placing Spectators on the Stand and clearing it (a part of SnitchEngine)."""

    @staticmethod
    def _stand_open(state: SnitchState) -> bool:
        """Whether Spectators are in play now: under the optional rule, from the first Game Sequence on."""
        # From the first Game Sequence on: the effects act on a Pitch the Kick-Off has set up.
        return state.spectators_on and state.outcome is None and state.sequence >= 1

    def _asked_now(self, state: SnitchState, seat: int) -> bool:
        """Whether the match asks `seat` at one of the moments it may place a Spectator (module docstring)."""
        top = self.top(state)
        return isinstance(top, AT_ONCE + WHILE_RESOLVING) and seat in top.must and self._stand_open(state)

    def placeable(self, state: SnitchState, seat: int) -> list[PlaySpectator]:
        """Every Spectator `seat` could place now (l.719): each card once until a Hand Swap, never onto a friend."""
        if not self._stand_open(state):
            return []
        coach = state.players[seat]
        out: list[PlaySpectator] = []
        for card_id in dict.fromkeys(coach.spectators):
            if coach.spectators_played.count(card_id) >= coach.spectators.count(card_id):
                continue
            card = self.spectator_cards[card_id]
            out += [
                PlaySpectator(card=card_id, zone=spot.zone)
                for spot in state.stand
                if spot.zone in card.zones and spot.seat != seat
            ]
        return out

    def spectator_options(self, state: SnitchState, seat: int) -> list[Action]:
        """Spectators `seat` may place now: at the moments the match asks (module docstring)."""
        return list(self.placeable(state, seat)) if self._asked_now(state, seat) else []

    def spectator_problem(self, state: SnitchState, seat: int, action: PlaySpectator) -> str | None:
        """Why `seat` may not place this Spectator in that Zone now (l.715–721); None: it may."""
        coach = state.players[seat]
        if action.card not in coach.spectators:
            return f"{action.card!r} is not one of your Spectator cards"
        if coach.spectators_played.count(action.card) >= coach.spectators.count(action.card):
            return "that Spectator has been played; it comes back after a Hand Swap clears the Stand (l.721)"
        if action.zone not in STAND_ZONES:
            return f"the Stand's Zones are the Magic Zone and the Encouragement Zone, not {action.zone!r} (l.715)"
        if not self._asked_now(state, seat):
            return "a Spectator is placed at the moments the match asks, from the first Game Sequence on (l.719)"
        spot = next((s for s in state.stand if s.zone == action.zone), None)
        if spot is None or action.zone not in self.spectator_cards[action.card].zones or spot.seat == seat:
            return (
                "a Spectator goes into a Zone its card allows, empty or held by a rival Spectator, never one "
                "holding a friendly Spectator (l.719)"
            )
        return None

    def no_spectator_options(self, state: SnitchState, seat: int) -> list[Action]:
        """Passing a Spectator window."""
        return [NoSpectator()] if isinstance(self.top(state), SpectatorWindow) else []

    def spectator_window(self, state: SnitchState, seat: int, moment: str, *then: FlowStep) -> bool:
        """Offers `seat` a Spectator window before its rival's `moment`, then `then`; False if it has none."""
        if not self.placeable(state, seat):
            return False
        self.ask(state, SpectatorWindow(must=[seat], moment=moment), *then)
        return True

    def _do_spectator(self, state: SnitchState, seat: int, action: PlaySpectator) -> list[Event]:
        """The token goes on a Zone: empty, its first effect; a rival's is removed, its second (l.719)."""
        top = self.top(state)
        assert top is not None
        spot = next(s for s in state.stand if s.zone == action.zone)
        card = self.spectator_cards[action.card]
        displaced = spot.card if spot.seat is not None else None
        spot.seat, spot.card = seat, action.card
        state.players[seat].spectators_played.append(action.card)
        later = isinstance(top, WHILE_RESOLVING)
        events: list[Event] = [
            SpectatorPlayed(seat=seat, card=action.card, zone=action.zone, displaced=displaced or "", later=later)
        ]
        if later:
            # The decision stays; the effect waits for the Action being resolved (`_resolve` runs it after).
            assert state.exchange is not None
            state.exchange.after.append(SpectatorEffect(seat=seat, card=action.card, second=displaced is not None))
            return events
        self.settle(state)
        again = self._asked_again(top)
        if again is not None:
            self.then(state, again)
        self._apply_effect(state, seat, 0, card.second if displaced else card.first, events)
        self.advance(state, events)
        return events

    @staticmethod
    def _asked_again(decision: Decision) -> FlowStep | None:
        """What asks the interrupted decision again once a Spectator's effect is resolved (a window is done)."""
        if isinstance(decision, BlockAction):
            return ContinueBlock(offered=True)
        if isinstance(decision, FreeAction):
            seat = decision.must[0]
            return FreeActionStep(seat=seat, action=decision.action, reason=decision.reason, offered=True)
        if isinstance(decision, BludgerMove):
            return Ask(decision=decision)
        return None

    def _spectator_effect(self, state: SnitchState, step: SpectatorEffect, events: list[Event]) -> None:
        """The effect of a Spectator placed while an Action was being resolved, now that it is."""
        card = self.spectator_cards[step.card]
        self._apply_effect(state, step.seat, 0, card.second if step.second else card.first, events)

    def _clear_stand(self, state: SnitchState, events: list[Event]) -> None:
        """A Hand Swap: every Spectator token leaves the Stand (l.721), and every Spectator card may be played again."""
        removed = [spot for spot in state.stand if spot.seat is not None]
        for spot in removed:
            spot.seat, spot.card = None, None
        for coach in state.players:
            coach.spectators_played = []
        if removed:
            events.append(StandCleared(removed=len(removed)))

    # ================================================================= views
