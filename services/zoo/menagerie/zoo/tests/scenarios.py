"""Building Fantasy Zoo positions by hand for rule tests, from the real card data."""

from __future__ import annotations

from collections.abc import Callable

from menagerie.rules.contract import MatchSetup
from menagerie.zoo.engine import ZooEngine, ZooState
from menagerie.zoo.engine.data import Card
from menagerie.zoo.engine.model import Construction, Enclosure, Placed

ENGINE = ZooEngine()
CARDS = ENGINE.cards


def new_match(mode: str = "beginner", seats: int = 3, seed: int = 1) -> ZooState:
    """A fresh match in round 1's drafting."""
    state, _ = ENGINE.setup(MatchSetup(mode, seats), seed)
    return state


def cards_where(test: Callable[[Card], bool]) -> list[int]:
    """Ids of every card that passes `test`."""
    return [c.id for c in ENGINE.data.cards if test(c)]


def card_where(test: Callable[[Card], bool], avoid: tuple[int, ...] = ()) -> int:
    """The first card that passes `test` (and is not in `avoid`)."""
    return next(c for c in cards_where(test) if c not in avoid)


def take(state: ZooState, card: int) -> int:
    """Removes a card from wherever it is (pile, hands, picks) so it can be used in a scenario."""
    if card in state.draw_pile:
        state.draw_pile.remove(card)
    for player in state.players:
        for place in (player.hand, player.picks):
            if card in place:
                place.remove(card)
    return card


def constructing(state: ZooState, picks: dict[int, list[int]]) -> ZooState:
    """Jumps to the construction phase with the given picks (others pick nothing)."""
    state.decisions = [Construction(must=list(range(len(state.players))))]
    for seat, player in enumerate(state.players):
        for card in player.hand:
            state.draw_pile.insert(0, card)
        player.hand = []
        player.picks = [take(state, c) for c in picks.get(seat, [])]
    return state


def built(state: ZooState, seat: int, cards: list[int], start: int = 1) -> None:
    """Puts enclosure cards in a row at positions start, start+1, … (or start, start-1, … if negative).

    The zoo then grows from that edge of the sheet (right for positive positions).
    """
    step = 1 if start > 0 else -1
    player = state.players[seat]
    player.side = "right" if start > 0 else "left"
    for offset, card in enumerate(cards):
        take(state, card)
        enclosures = CARDS[card].enclosures
        player.row.append(Placed(start + step * offset, card, Enclosure(enclosures.top), Enclosure(enclosures.bottom)))
    player.row.sort(key=lambda p: p.position)


def with_enclosures(top: str, bottom: str | None = None) -> Callable[[Card], bool]:
    """A test for cards whose enclosure side is (top, bottom)."""
    return lambda c: c.enclosures.top == top and (bottom is None or c.enclosures.bottom == bottom)
