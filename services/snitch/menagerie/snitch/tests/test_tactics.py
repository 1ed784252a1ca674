"""The tactical play rules (engine/tactics.py), each test quoting the rulebook line it holds the code to.

Line numbers (l.) are of the rulebook, catch-the-golden-snitch.txt; the readings are in
RULES.md, "Tactical play". Seat 0 and seat 1 are the two Coaches. What the engine keeps in
its state rather than here (the cards played this Game Sequence, the Intrepid Move offers
made, the Actions of a block under way) is tested through the engine, in test_engine.py.
"""

from __future__ import annotations

import pytest

from menagerie.rules.rng import Rng
from menagerie.snitch.data.cards import TempoAction
from menagerie.snitch.engine.tactics import (
    HAND_SIZE,
    BlockTurn,
    Cards,
    HandSwap,
    Offers,
    TacticsError,
    block_turns,
    can_break_tempo,
    can_play_swift,
    draw,
    earns_tempo,
    gain_tempo,
    hand_swap,
    hand_swappers,
    new_cards,
    next_offer,
    opening_hand,
    resolve_order,
)

IDS = tuple(range(1, 16))


# ------------------------------------------------------------------------------- the cards


def test_opening_hand_is_five_of_a_shuffled_deck() -> None:
    """l.245: "Each Coach shuffles their Tactical cards ... Then, draw the top five cards"."""
    cards = opening_hand(IDS, Rng(7))
    assert len(cards.hand) == HAND_SIZE and len(cards.deck) == 10
    assert sorted(cards.hand + cards.deck) == list(IDS)
    assert cards.hand == new_cards(IDS, Rng(7)).deck[:5]  # the top five of the shuffled deck
    assert cards.discard == ()


def test_seeded_shuffles_replay_identically() -> None:
    """Randomness only through the Rng: the same seed deals the same hands and reshuffles."""
    assert opening_hand(IDS, Rng(3)) == opening_hand(IDS, Rng(3))
    assert {opening_hand(IDS, Rng(s)).hand for s in range(10)} != {opening_hand(IDS, Rng(0)).hand}
    spent = Cards(deck=(1, 2), discard=tuple(range(3, 16)))
    assert draw(spent, 5, Rng(11)) == draw(spent, 5, Rng(11))


def test_draw_reshuffles_the_discard_pile_when_the_deck_runs_short() -> None:
    """l.470: "simply draw any remaining cards, shuffle the discarded cards ... Now draw the rest"."""
    cards = draw(Cards(deck=(1, 2), discard=(3, 4, 5, 6, 7, 8)), 5, Rng(1))
    assert cards.hand[:2] == (1, 2)  # the remaining cards first
    assert len(cards.hand) == 5 and len(cards.deck) == 3 and cards.discard == ()
    assert sorted(cards.hand + cards.deck) == list(range(1, 9))


def test_draw_does_not_touch_the_discard_pile_while_the_deck_suffices() -> None:
    """l.470: the discard pile is shuffled only "If there are not enough Tactical cards left in the deck"."""
    cards = draw(Cards(deck=(1, 2, 3, 4, 5, 6), discard=(7,)), 5, Rng(1))
    assert cards == Cards(deck=(6,), hand=(1, 2, 3, 4, 5), discard=(7,))


def test_draw_stops_short_when_deck_and_discard_are_empty() -> None:
    """l.470 is silent when both run out (RULES.md): the Coach draws what there is."""
    assert draw(Cards(deck=(1, 2), hand=(9,)), 5, Rng(1)) == Cards(hand=(9, 1, 2))
    with pytest.raises(TacticsError):
        draw(Cards(), -1, Rng(1))


def test_swift_intrepid_move_limits() -> None:
    """l.442–446: no Swift move once 2 Intrepid Moves are played, nor one that would empty the hand."""
    assert can_play_swift(Cards(hand=(1, 2)), 1)
    assert not can_play_swift(Cards(hand=(1, 2)), 2)
    assert not can_play_swift(Cards(hand=(1,)), 0)


# ------------------------------------------------------------------------------- Hand Swap


def test_no_hand_swap_while_both_hold_cards() -> None:
    """l.281: "If either Coach has no Tactical cards remaining, a Hand Swap must be resolved"."""
    hands = (Cards(hand=(1,)), Cards(hand=(2,)))
    assert hand_swappers(hands) == ()
    assert hand_swap(hands, Rng(1)) == (hands, HandSwap(swappers=()))


def test_one_hand_swap_names_the_rival_who_gains() -> None:
    """l.464–468: the Coach with no cards draws 5; the rival gains (what it gains: test_engine, test_traits)."""
    spent = Cards(discard=IDS)
    holding = Cards(deck=(1,), hand=(2, 3))
    (a, b), swap = hand_swap((spent, holding), Rng(5))
    assert len(a.hand) == 5 and len(a.deck) == 10 and a.discard == ()
    assert b == holding  # the rival draws nothing
    assert swap == HandSwap(swappers=(0,), rival=1)


def test_both_hand_swapping_gives_nothing() -> None:
    """l.466: "If both Coaches perform a Hand Swap in the same Game Sequence, nothing will happen"."""
    (a, b), swap = hand_swap((Cards(discard=IDS), Cards(discard=IDS)), Rng(5))
    assert len(a.hand) == len(b.hand) == 5
    assert swap == HandSwap(swappers=(0, 1))


# ------------------------------------------------------------------------- Intrepid Moves


def test_a_coach_without_cards_makes_no_offer() -> None:
    """l.285: Intrepid Moves are "more Tactical cards" from the hand: an empty hand offers none."""
    assert next_offer(Offers(attacking=0), (0, 3)) == 1
    assert next_offer(Offers(attacking=0), (0, 0)) is None
    # A Coach who declined (l.434) or played two (l.285) is not asked again, whatever the hand.
    assert next_offer(Offers(attacking=0, passed=(True, False), last=0), (3, 0)) is None
    assert next_offer(Offers(attacking=0, plays=(0, 1, 0), last=0), (3, 0)) is None


def test_rulebook_example_resolves_the_defenders_card_first() -> None:
    """l.450: Gryffindor (attacking) plays one, Slytherin one: "Slytherin ... resolves their card first"."""
    gryffindor, slytherin = 0, 1
    assert resolve_order([(gryffindor, 4), (slytherin, 11)]) == ((slytherin, 11), (gryffindor, 4))


def test_intrepid_moves_resolve_alternating_from_the_last_card() -> None:
    """l.287: "The Coach who played the last card resolves that card first, then the other Coach"."""
    assert resolve_order([]) == ()
    assert resolve_order([(0, 1), (1, 2), (0, 3), (1, 4)]) == ((1, 4), (0, 3), (1, 2), (0, 1))
    # Plays A1, B1, B2 (A declined): B's top card, then A's, then B's last — not plain reverse.
    assert resolve_order([(0, 1), (1, 2), (1, 3)]) == ((1, 3), (0, 1), (1, 2))
    assert resolve_order([(0, 1), (0, 2)]) == ((0, 2), (0, 1))


# --------------------------------------------------------------------------- Action Blocks


def test_action_blocks_alternate_from_the_attacking_coach() -> None:
    """l.291–297: the Attacking Coach's first block, then the Defending Coach's, alternating."""
    assert block_turns(1, (3, 2)) == (
        BlockTurn(seat=1, index=0, optional=False),
        BlockTurn(seat=0, index=0, optional=True),
        BlockTurn(seat=1, index=1, optional=True),
        BlockTurn(seat=0, index=1, optional=True),
        BlockTurn(seat=0, index=2, optional=True),
    )


def test_only_the_attackers_first_block_is_compulsory() -> None:
    """l.291 "The Attacking Coach resolves their first Action Block"; l.293–297 the others "may"."""
    assert [t.optional for t in block_turns(0, (1, 1))] == [False, True]


# ----------------------------------------------------------------------------------- Tempo


@pytest.mark.parametrize("action", ["pass", "beat", "steal", "shoot"])
def test_successful_rolled_actions_earn_a_tempo_point(action: TempoAction) -> None:
    """l.556–561: "Each time one of your Players successfully performs ... Pass, Beat, Steal, Shoot"."""
    assert earns_tempo(action, rolled=True, succeeded=True)
    assert not earns_tempo(action, rolled=True, succeeded=False)
    assert not earns_tempo(action, rolled=False, succeeded=True)  # l.563


def test_move_and_recover_earn_no_tempo() -> None:
    """l.556–561: Move and Recover are not in the Tempo list."""
    assert not earns_tempo("move", rolled=True, succeeded=True)
    assert not earns_tempo("recover", rolled=True, succeeded=True)


def test_more_than_three_tempo_points_take_a_snitch_card() -> None:
    """l.565: "Any time you accumulate more than 3 Tempo Points ... Discard all, and choose a card"."""
    assert gain_tempo(0).points == 1 and gain_tempo(1, 0).points == 1
    assert gain_tempo(2).points == 3 and gain_tempo(2).snitch_cards == 0
    assert gain_tempo(3).points == 0 and gain_tempo(3).snitch_cards == 1
    with pytest.raises(TacticsError):
        gain_tempo(4)


def test_breaking_the_tempo() -> None:
    """l.571–578: after a successful Pass, Beat or Steal (not Shoot), a free Pass or a Shift instead of the point."""
    assert can_break_tempo("pass", rolled=True, succeeded=True)
    assert can_break_tempo("steal", rolled=True, succeeded=True)
    assert not can_break_tempo("shoot", rolled=True, succeeded=True)
    assert not can_break_tempo("beat", rolled=True, succeeded=False)
    # l.578: "Performing a Pass Action by Breaking the Tempo doesn't give you a Tempo Point".
    assert not earns_tempo("pass", rolled=True, succeeded=True, broke_tempo=True)
    assert not can_break_tempo("pass", rolled=True, succeeded=True, broke_tempo=True)
