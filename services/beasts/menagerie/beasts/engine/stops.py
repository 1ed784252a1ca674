"""Stopping on a space (modes I and II): the token there revealed and resolved, the space refilled.

A resource token is collected (in mode I set aside), a creature token in mode I is
captured at once (which may end the match); an emptied space takes the supply's top token
face down, or is left empty once the supply is spent. Then the seat's `AfterStop`
decision is asked, and the turn ends by itself when that is all that is left (turns.py).
"""

from __future__ import annotations

from menagerie.beasts.engine.data import COLOURS
from menagerie.beasts.engine.model import (
    AfterStop,
    BeastsState,
    CreatureCaptured,
    Event,
    ResourceCollected,
    ResourceCounts,
    SpaceLeftEmpty,
    TokenPlaced,
    TokenRevealed,
)
from menagerie.beasts.engine.parts import EngineParts


class StopsAndTokens(EngineParts):
    """The stop's token revealed and resolved, an emptied space refilled from the supply, a token's reveal event."""

    def _stop(self, state: BeastsState, seat: int) -> list[Event]:
        """Reveal the token where the seat stopped and resolve it."""
        player = state.players[seat]
        space = player.position
        token = state.tokens[space]
        events: list[Event] = []
        if token is not None and not state.face_up[space]:
            state.face_up[space] = True
            events.append(self._revealed(space, token))
        if token is None:
            if space != self.data.board.start_space:  # the start never holds a token
                events += self._refill(state, space)
        elif token in COLOURS:
            state.tokens[space] = None
            state.face_up[space] = False
            set_aside = state.mode == "capture"
            if set_aside:
                state.set_aside.append(token)
            else:
                player.resources[token] += 1
            events.append(ResourceCollected(seat=seat, colour=token, space=space, set_aside=set_aside))
            events += self._refill(state, space)
        elif state.mode == "capture":
            state.tokens[space] = None
            state.face_up[space] = False
            player.captured.append(token)
            events.append(CreatureCaptured(seat=seat, creature=token, space=space, paid=ResourceCounts()))
            events += self._refill(state, space)
            finished = self._check_end(state, seat)
            if finished:
                return events + finished
        self._decide(state, AfterStop())
        return events + self._settle(state)

    def _refill(self, state: BeastsState, space: int) -> list[Event]:
        if not state.supply:
            return [SpaceLeftEmpty(space=space)]
        state.tokens[space] = state.supply.pop()
        state.face_up[space] = False
        return [TokenPlaced(space=space)]

    @staticmethod
    def _revealed(space: int, token: str) -> TokenRevealed:
        if token in COLOURS:
            return TokenRevealed(space=space, state="resource", colour=token)
        return TokenRevealed(space=space, state="creature", creature=token)
