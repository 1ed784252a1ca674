"""The Spectators optional rule in play (l.711–721): the Stand, placing a Spectator, the Hand Swap's clearing.

A Coach places a Spectator at their own Action Blocks (authored; see RULES.md "Spectators in
play"); its effect is an Intrepid Move effect of the immediate kinds, resolved the same way.
"""

from __future__ import annotations

from menagerie.snitch.engine.model import (
    Action,
    BlockAction,
    ContinueBlock,
    Event,
    PlaySpectator,
    SnitchState,
    SpectatorPlayed,
    StandCleared,
)
from menagerie.snitch.engine.parts import EngineParts


class SpectatorStand(EngineParts):
    """Placing Spectators on the Stand and clearing it (a part of SnitchEngine)."""

    def spectator_options(self, state: SnitchState, seat: int) -> list[Action]:
        """Spectators `seat` may place now (l.719): at its own Action Blocks, each card once until a Hand Swap."""
        if not state.spectators_on or not isinstance(self.top(state), BlockAction):
            return []
        coach = state.players[seat]
        out: list[Action] = []
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

    def _do_spectator(self, state: SnitchState, seat: int, action: PlaySpectator) -> list[Event]:
        """The token goes on a Zone: empty, its first effect; a rival's is removed, its second (l.719)."""
        self._pop(state)  # the block's Action is asked again once the effect is resolved
        spot = next(s for s in state.stand if s.zone == action.zone)
        card = self.spectator_cards[action.card]
        displaced = spot.card if spot.seat is not None else None
        spot.seat, spot.card = seat, action.card
        state.players[seat].spectators_played.append(action.card)
        events: list[Event] = [
            SpectatorPlayed(seat=seat, card=action.card, zone=action.zone, displaced=displaced or "")
        ]
        self._then(state, ContinueBlock())
        self._apply_effect(state, seat, 0, card.second if displaced else card.first, events)
        self._run(state, events)
        return events

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
