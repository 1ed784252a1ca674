"""Tactical play, in one place: the engine runs a Game Sequence's card steps with these.

- a Coach's Tactical cards (`Cards`: deck, hand, discard pile — card ids): a shuffled deck
  and the opening hand (`new_cards`, `opening_hand`), drawing with the discard pile
  reshuffled (`draw`), whether a Swift Intrepid Move may be played (`can_play_swift`);
- the Hand Swap (`hand_swappers`, `hand_swap`): who draws five, and which rival (if any)
  gains, returned as a `HandSwap` value the engine applies;
- the Game Sequence's card steps: who offers the next Intrepid Move (`Offers`,
  `next_offer`), the order they resolve in (`resolve_order`) and the turns of the Action
  Blocks (`block_turns`);
- Tempo: the point an Action earns (`earns_tempo`), Breaking the Tempo (`can_break_tempo`)
  and gaining points, with a Snitch card above 3 (`gain_tempo`).

Pure: small frozen values in, new values out; randomness only through the Rng passed in.
Seats are 0 and 1. Rulebook line numbers (l.) are of `catch-the-golden-snitch.txt`; every
reading is recorded in RULES.md, "Tactical play".
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from menagerie.rules.rng import Rng
from menagerie.snitch.data.cards import TEMPO_ACTIONS, PitchAction

Seat = int  # 0 or 1: the two Coaches

HAND_SIZE = 5  # l.245 "draw the top five cards from this deck"; l.464 "they must draw 5 cards"
MAX_INTREPID = 2  # l.434 "a single Coach may not play more than two in a Game Sequence"
MAX_TEMPO = 3  # l.565 "Any time you accumulate more than 3 Tempo Points"


class TacticsError(ValueError):
    """A card move the rules do not allow (the engine checks legality before applying)."""


# ------------------------------------------------------------------------------- the cards


class Cards(msgspec.Struct, frozen=True):
    """One Coach's Tactical cards (ids): deck (top first), hand, discard."""

    deck: tuple[int, ...] = ()
    hand: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()


def new_cards(card_ids: Sequence[int], rng: Rng) -> Cards:
    """A shuffled, face-down Tactical deck and an empty hand (l.245)."""
    deck = list(card_ids)
    rng.shuffle(deck)
    return Cards(deck=tuple(deck))


def opening_hand(card_ids: Sequence[int], rng: Rng) -> Cards:
    """Setup's 6th Step: shuffle the deck, then draw the top five as the secret starting hand (l.245, l.301)."""
    return draw(new_cards(card_ids, rng), HAND_SIZE, rng)


def draw(cards: Cards, n: int, rng: Rng) -> Cards:
    """Draw `n` cards from the top; when the deck runs short, shuffle the discard pile into a fresh deck (l.470).

    l.470: "draw any remaining cards, shuffle the discarded cards and place these face-down
    to form a fresh deck. Now draw the rest". The rulebook says nothing of a deck and a
    discard pile both running out: the Coach draws what there is and the draw stops short
    (at a Hand Swap it cannot happen: all 15 cards are then in the deck or the discard pile).
    """
    if n < 0:
        raise TacticsError(f"cannot draw {n} cards")
    deck, discard = cards.deck, cards.discard
    taken = deck[:n]
    deck = deck[n:]
    if len(taken) < n and discard:
        fresh = list(discard)
        rng.shuffle(fresh)
        rest = n - len(taken)
        taken, deck, discard = taken + tuple(fresh[:rest]), tuple(fresh[rest:]), ()
    return msgspec.structs.replace(cards, deck=deck, hand=cards.hand + taken, discard=discard)


def can_play_swift(cards: Cards, played_intrepid: int) -> bool:
    """Whether a Swift Intrepid Move may be played now: under the limit of 2, not the last card in hand (l.442–446)."""
    return played_intrepid < MAX_INTREPID and len(cards.hand) > 1


# ------------------------------------------------------------------------------- Hand Swap


class HandSwap(msgspec.Struct, frozen=True):
    """What a Hand Swap does: the Coaches who drew five, and the rival who gains (if exactly one swapped).

    The rival, in this order (the engine's HandSwapBonus): may remove 1 Stunned token from
    one of their Players and removes all Locked tokens from their Team's cards (l.468,
    "immediately"); performs one free Action with one of their Players (l.466); then gains
    1 Tempo Point (l.466, "As soon as this Action is resolved"). Spectator tokens leave the
    Stand whenever a Hand Swap happens (l.721).
    """

    swappers: tuple[Seat, ...]
    rival: Seat | None = None


def hand_swappers(hands: tuple[Cards, Cards]) -> tuple[Seat, ...]:
    """Game Sequence step 1: the Coaches with no Tactical cards in hand, who must Hand Swap (l.281, l.464)."""
    return tuple(seat for seat in (0, 1) if not hands[seat].hand)


def hand_swap(hands: tuple[Cards, Cards], rng: Rng) -> tuple[tuple[Cards, Cards], HandSwap]:
    """Resolve step 1: each Coach with an empty hand draws 5; the result says what the other Coach gains (l.464–468)."""
    swappers = hand_swappers(hands)
    new = (
        draw(hands[0], HAND_SIZE, rng) if 0 in swappers else hands[0],
        draw(hands[1], HAND_SIZE, rng) if 1 in swappers else hands[1],
    )
    if len(swappers) != 1:
        # l.466 "If both Coaches perform a Hand Swap in the same Game Sequence, nothing will
        # happen": both draw, neither gains anything. No swap at all is no Hand Swap.
        return new, HandSwap(swappers=swappers)
    return new, HandSwap(swappers=swappers, rival=1 - swappers[0])


# ------------------------------------------------------------------------- Intrepid Moves


class Offers(msgspec.Struct, frozen=True):
    """Game Sequence step 3 so far: who attacks, the Coaches' plays in order, and who has declined."""

    attacking: Seat
    plays: tuple[Seat, ...] = ()  # the Coach of each Intrepid Move, in the order played
    passed: tuple[bool, bool] = (False, False)
    last: Seat | None = None  # the Coach who decided last (None before the first decision)


def _may_offer(offers: Offers, seat: Seat, hand_sizes: tuple[int, int]) -> bool:
    # A declined Coach is done (l.434 "declare whether they want to play Intrepid Moves
    # during that Game Sequence"); two played is the limit (l.285, l.434); no card, no play.
    return not offers.passed[seat] and offers.plays.count(seat) < MAX_INTREPID and hand_sizes[seat] > 0


def next_offer(offers: Offers, hand_sizes: tuple[int, int]) -> Seat | None:
    """The Coach who decides next whether to play an Intrepid Move, or None when step 3 is over (l.285, l.434)."""
    # "Starting with the Attacking Team" and "then alternating"; alone once the other is done.
    last = offers.last
    order = (offers.attacking, 1 - offers.attacking) if last is None else (1 - last, last)
    return next((seat for seat in order if _may_offer(offers, seat, hand_sizes)), None)


def resolve_order(plays: Sequence[tuple[Seat, int]]) -> tuple[tuple[Seat, int], ...]:
    """Step 4: the Intrepid Moves (Coach, card) in the order they resolve, from the plays in the order made (l.287).

    "The Coach who played the last card resolves that card first, then the other Coach,
    and then the Coaches alternate until all Intrepid Moves are resolved": each Coach's
    pile goes top to bottom, the Coaches alternate, and a Coach whose pile is done leaves
    the other to finish.
    """
    piles: dict[Seat, list[int]] = {0: [], 1: []}
    for seat, card in plays:
        piles[seat].append(card)
    if not plays:
        return ()
    seat = plays[-1][0]
    order: list[tuple[Seat, int]] = []
    while piles[0] or piles[1]:
        if not piles[seat]:
            seat = 1 - seat
        order.append((seat, piles[seat].pop()))
        seat = 1 - seat
    return tuple(order)


# --------------------------------------------------------------------------- Action Blocks


class BlockTurn(msgspec.Struct, frozen=True):
    """One turn of step 5: the Coach, which block of their Pitch Actions card, and whether they may decline it."""

    seat: Seat
    index: int
    optional: bool


def block_turns(first: Seat, block_counts: tuple[int, int]) -> tuple[BlockTurn, ...]:
    """Step 5: the Attacking Coach's first block, then alternating one block at a time (l.291–297, l.730).

    `first` is the Attacking Coach when step 5 begins; the order is not recomputed when
    Possession changes. Only that first block is compulsory (l.291 "resolves"; l.293–297
    "may"). A declined block is given up: the Coach's next block comes at their next turn.
    """
    turns: list[BlockTurn] = []
    for index in range(max(block_counts)):
        for seat in (first, 1 - first):
            if index < block_counts[seat]:
                turns.append(BlockTurn(seat=seat, index=index, optional=not (seat == first and index == 0)))
    return tuple(turns)


# ----------------------------------------------------------------------------------- Tempo


def earns_tempo(action: PitchAction, rolled: bool, succeeded: bool, broke_tempo: bool = False) -> bool:
    """Whether an Action earns its Coach a Tempo Point (l.556–563, l.571, l.578).

    A successful Pass, Beat, Steal (an Action, not the Steal Reaction, which is no
    PitchAction) or Shoot, only with a dice roll (l.563); not when the Coach Breaks the
    Tempo instead (l.571); never the free Pass of Breaking the Tempo (l.578, `broke_tempo`).
    """
    return action in TEMPO_ACTIONS and rolled and succeeded and not broke_tempo


def can_break_tempo(action: PitchAction, rolled: bool, succeeded: bool, broke_tempo: bool = False) -> bool:
    """Whether the Coach may Break the Tempo instead of the point: a Pass, Beat or Steal that earns one (l.571)."""
    # "except the Shoot Action"; and it replaces a Tempo Point, so an Action earning none
    # (the Break's own free Pass, an unrolled one) cannot Break it.
    return action != "shoot" and earns_tempo(action, rolled, succeeded, broke_tempo)


class TempoGain(msgspec.Struct, frozen=True):
    """Tempo Points after a gain, and the Snitch cards the Coach must take from the row now."""

    points: int
    snitch_cards: int = 0


def gain_tempo(points: int, gained: int = 1) -> TempoGain:
    """Add Tempo Points; above 3, discard them all and take one Snitch card from the row (l.565, l.777)."""
    if points < 0 or points > MAX_TEMPO or gained < 0:
        raise TacticsError(f"cannot gain {gained} Tempo Points on {points}")
    total = points + gained
    if total > MAX_TEMPO:
        return TempoGain(points=0, snitch_cards=1)  # "Discard all your Tempo Points, and choose a card"
    return TempoGain(points=total)
