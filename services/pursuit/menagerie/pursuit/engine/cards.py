"""Insight cards and the reaction windows where they are played.

A window (model.py's `WINDOWS`) is pushed over the active player's decision with
`interrupt` at each moment where a card may apply, open to every seat that could hold one
whatever it holds; a seat plays or passes, and once the window is empty the turn goes on
from the decision underneath (`PursuitEngine._after`). Here too: which cards a seat holds
(identical cards are one choice), why one may not be played, a card played or contributed
as dice, a card drawn (the discard pile reshuffled when the deck is empty) and the discard
down to the hand limit.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from menagerie.pursuit.engine.data import InsightCard
from menagerie.pursuit.engine.model import (
    WINDOWS,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    Contribute,
    DeckEmpty,
    DeckReshuffled,
    Discard,
    Event,
    Pass,
    Passed,
    Player,
    PoolDie,
    PursuitState,
    Window,
)
from menagerie.pursuit.engine.parts import EngineParts
from menagerie.pursuit.engine.text import CARDS
from menagerie.rules.decisions import Refusal

HAND_LIMIT = 3


class InsightCards(EngineParts):
    """The reaction windows, and the insight cards held, played, drawn and discarded."""

    def _open(self, state: PursuitState, window: Window) -> bool:
        """Pushes the window when someone may act in it; False (nothing pushed) when nobody may."""
        if not window.may:
            return False
        window.actor = state.active
        self.interrupt(state, window)
        return True

    def _held(self, player: Player, kind: str) -> list[int]:
        """The player's cards of `kind`, one per distinct card (identical cards are one choice)."""
        return self._distinct([c for c in player.hand if self.cards[c].kind == kind])

    def _distinct(self, cards: Iterable[int]) -> list[int]:
        """One card per kind of card (identical cards are one choice): the lowest id of each."""
        seen: dict[tuple[str, str | None, int], int] = {}
        for card in sorted(cards):
            info = self.cards[card]
            seen.setdefault((info.kind, info.face, info.dice), card)
        return sorted(seen.values())

    def _others(self, state: PursuitState) -> list[int]:
        """Every seat but the active player's: whoever could hold a card for this window.

        A window opens to every seat that could be eligible, whatever it holds, so that
        who is asked to decide tells nobody who holds what (RULES.md "Reaction windows").
        """
        return [s for s in range(len(state.players)) if s != state.active]

    def _everyone(self, state: PursuitState) -> list[int]:
        return list(range(len(state.players)))

    def _same_card(self, state: PursuitState, seat: int, action: Any) -> Any:
        """The same play with the lowest-numbered of the seat's identical cards (any of them is accepted)."""
        hand = state.players[seat].hand
        if action.card not in hand:
            return action
        info = self.cards[action.card]
        first = min(c for c in hand if _same_card(self.cards[c], info))
        return msgspec.structs.replace(action, card=first)

    def _card_problem(self, state: PursuitState, seat: int, card: int, kind: str | None) -> str | Refusal | None:
        """Why `seat` cannot play (or discard, kind None) insight card `card` now."""
        hand = state.players[seat].hand
        if card not in hand:
            return Refusal("Insight cards", f"you hold no insight card {card}")
        info = self.cards[card]
        if kind is not None and info.kind != kind:
            return f"card #{card} is not {_a_card(kind)}"
        return None

    def _played(self, state: PursuitState, seat: int) -> list[Event]:
        """After a card is played in a window the seat stays in it until it passes.

        Leaving by itself once it had nothing more to play would tell the others so.
        """
        return []

    def _pass(self, state: PursuitState, seat: int, action: Pass) -> list[Event]:
        """The seat leaves the window; once nobody is left in it, the turn goes on from underneath."""
        window = self.top(state)
        assert isinstance(window, WINDOWS)
        events: list[Event] = [Passed(seat=seat)]
        if self.decided(state, seat):
            return events + self._after[type(window)](state) + self._run(state)
        return events

    def _play(self, state: PursuitState, seat: int, card: int) -> list[Event]:
        state.players[seat].hand.remove(card)
        state.discard.append(card)
        return [CardPlayed(seat=seat, card=self.cards[card])]

    def _card_dice(self, state: PursuitState, card: int) -> None:
        info = self.cards[card]
        assert info.face is not None
        state.pool += [PoolDie(info.face, "black", info.id) for _ in range(info.dice)]

    def _contribute(self, state: PursuitState, seat: int, action: Contribute) -> list[Event]:
        events = self._play(state, seat, action.card)
        self._card_dice(state, action.card)
        return events + self._played(state, seat)

    def _draw(self, state: PursuitState, seat: int) -> list[Event]:
        events: list[Event] = []
        if not state.deck:
            if not state.discard:
                return [DeckEmpty(seat=seat)]
            state.deck, state.discard = state.discard, []
            state.rng.shuffle(state.deck)
            events.append(DeckReshuffled(size=len(state.deck)))
        card = state.deck.pop()
        state.players[seat].hand.append(card)
        return [*events, CardDrawn(seat=seat, card=self.cards[card])]

    def _discard(self, state: PursuitState, seat: int, action: Discard) -> list[Event]:
        player = state.players[seat]
        player.hand.remove(action.card)
        state.discard.append(action.card)
        events: list[Event] = [CardDiscarded(seat=seat, card=self.cards[action.card])]
        if seat in self._over_the_limit(state) or not self.decided(state, seat):
            return events  # this seat discards again, or others still must
        return events + self._before_beast(state)


def _a_card(kind: str) -> str:
    """ "a Reroll card", "a dice card"."""
    if kind == "die":
        return "a dice card"
    return f"a {CARDS[kind].name} card"  # type: ignore[index]


def _same_card(a: InsightCard, b: InsightCard) -> bool:
    """Identical cards (all but the id) are one choice."""
    return (a.kind, a.face, a.dice) == (b.kind, b.face, b.dice)
