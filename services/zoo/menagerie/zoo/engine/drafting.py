"""Drafting: a round's start and its draft.

Each round 4 cards are dealt to every seat; everyone picks one at once (one `Drafting`
decision), then every remaining hand moves to the next seat. The last card of a hand is
taken by itself, and once the hands are empty the construction phase starts. A card kept
from the previous round is among the new round's picks.
"""

from __future__ import annotations

from menagerie.zoo.engine.model import (
    CardPicked,
    CardsDealt,
    Drafting,
    Event,
    HandReceived,
    HandsPassed,
    Pick,
    RoundStarted,
    ZooState,
)
from menagerie.zoo.engine.parts import EngineParts

HAND_SIZE = 4


class DraftingCards(EngineParts):
    """A round's start, the hands dealt, each seat's pick, and the hands passed on."""

    def _start_round(self, state: ZooState) -> list[Event]:
        state.round += 1
        state.pick = 1
        seats = list(range(len(state.players)))
        self._decide(state, Drafting(must=seats))
        events: list[Event] = [RoundStarted(round=state.round, rounds=state.rounds)]
        for seat, player in enumerate(state.players):
            player.picks = [player.kept] if player.kept is not None else []
            player.kept = None
            player.passed = []
            player.hand = [state.draw_pile.pop() for _ in range(HAND_SIZE)]
            events.append(CardsDealt(seat=seat, count=HAND_SIZE, cards=[self.cards[c] for c in player.hand]))
        return events

    def _pick_problem(self, state: ZooState, seat: int, action: Pick) -> str | None:
        if action.card not in state.players[seat].hand:
            return f"card {action.card} is not in the hand in front of you"
        return None

    def _pick(self, state: ZooState, seat: int, action: Pick) -> list[Event]:
        player = state.players[seat]
        player.hand.remove(action.card)
        player.picks.append(action.card)
        events: list[Event] = [CardPicked(seat=seat, card=self.cards[action.card])]
        if self._decided(state, seat):
            events += self._pass_hands(state)
        return events

    def _pass_hands(self, state: ZooState) -> list[Event]:
        """Every hand moves to the next seat (to the left); a last card is taken by itself."""
        players = state.players
        hands = [p.hand for p in players]
        for seat, player in enumerate(players):
            player.passed += hands[seat]
            player.hand = hands[seat - 1]
        state.pick += 1
        if all(len(p.hand) == 0 for p in players):
            return self._start_construction(state)
        self._decide(state, Drafting(must=list(range(len(players)))))
        events: list[Event] = [HandsPassed(pick=state.pick)]
        events += [HandReceived(seat=s, cards=[self.cards[c] for c in p.hand]) for s, p in enumerate(players)]
        if all(len(p.hand) == 1 for p in players):
            for seat, player in enumerate(players):
                card = player.hand.pop()
                player.picks.append(card)
                events.append(CardPicked(seat=seat, card=self.cards[card]))
            events += self._pass_hands(state)
        return events
