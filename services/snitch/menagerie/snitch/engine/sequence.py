"""The Game Sequence (l.279–297, l.552): its steps in order, the Hand Swap, the Pitch Actions cards."""

from __future__ import annotations

from menagerie.snitch.engine import tactics
from menagerie.snitch.engine.model import (
    Action,
    CardsDrawn,
    ChoosePitchCard,
    Event,
    FreeActionStep,
    GainTempo,
    HandSwapBonus,
    HandSwapped,
    HandSwapRecovery,
    IntrepidEffect,
    IntrepidOffer,
    LockedRemoved,
    PitchCardChosen,
    PitchCards,
    PitchCardsRevealed,
    RemoveStunned,
    SequenceEnded,
    SequenceStarted,
    SequenceStep,
    SkipRemove,
    SnitchState,
    TakeSnitch,
)
from menagerie.snitch.engine.parts import EngineParts
from menagerie.snitch.engine.pitch import PlayerRef, rival

MAX_SEQUENCES = 200  # a guard for search and tests: no match has come near it (see RULES.md "Engine")


class GameSequence(EngineParts):
    """The Game Sequence (a part of SnitchEngine)."""

    def _sequence(self, state: SnitchState, step: SequenceStep, events: list[Event]) -> None:
        """The Game Sequence (l.279–297, l.526–552), one stage at a time."""
        stage = step.stage
        if stage == "hand_swap":
            state.sequence += 1
            if state.sequence > MAX_SEQUENCES:
                self._finish(state, None, events, reason="the match reached its Game Sequence limit")
                return
            events.append(SequenceStarted(sequence=state.sequence, attacking=state.attacking))
            self._hand_swap(state, events)
        elif stage == "pitch_cards":
            self.ask(state, PitchCards(must=[0, 1]), SequenceStep(stage="reveal"))
        elif stage == "reveal":
            for coach in state.players:
                coach.pitch_revealed = True
            cards = [c.pitch_card or 0 for c in state.players]
            events.append(PitchCardsRevealed(cards=cards, sequence=state.sequence))
            state.offer_last = None
            self.then(state, SequenceStep(stage="intrepid"))
        elif stage == "intrepid":
            seat = self._next_offer(state)
            if seat is None:
                self.then(state, SequenceStep(stage="resolve"))
            else:
                self.ask(state, IntrepidOffer(must=[seat]), SequenceStep(stage="intrepid"))
        elif stage == "resolve":
            order = tactics.resolve_order([(s, c) for s, c in state.intrepid_plays])
            self.then(state, *(IntrepidEffect(seat=s, card=c) for s, c in order), SequenceStep(stage="blocks"))
        elif stage == "blocks":
            self._block_turn(state, step.index, events)
        elif stage == "bludgers":
            self._bludger_movement(state, step.index)
        elif stage == "snitch":
            first = state.last_block_seat if state.last_block_seat is not None else state.attacking
            self.then(state, TakeSnitch(seat=first), TakeSnitch(seat=rival(first)), SequenceStep(stage="end"))
        elif stage == "end":
            self._end_sequence(state, events)

    def _hand_swap(self, state: SnitchState, events: list[Event]) -> None:
        """Step 1 (l.281, l.464–468): a Coach with no cards draws 5; the lone swapper's rival gains."""
        hands = tuple(
            tactics.Cards(deck=tuple(c.deck), hand=tuple(c.hand), discard=tuple(c.discard)) for c in state.players
        )
        new, swap = tactics.hand_swap((hands[0], hands[1]), state.rng)
        after = [SequenceStep(stage="pitch_cards")]
        if swap.swappers:
            events.append(HandSwapped(seats=list(swap.swappers)))
            self._clear_stand(state, events)
            for seat in swap.swappers:
                coach = state.players[seat]
                drawn = [c for c in new[seat].hand if c not in coach.hand]
                coach.hand, coach.deck, coach.discard = (
                    list(new[seat].hand),
                    list(new[seat].deck),
                    list(new[seat].discard),
                )
                events.append(CardsDrawn(seat=seat, count=len(drawn), cards=drawn, hand_swap=True))
        if swap.rival is not None:
            self.then(state, HandSwapBonus(seat=swap.rival), *after)
        else:
            self.then(state, *after)

    def _hand_swap_bonus(self, state: SnitchState, step: HandSwapBonus, events: list[Event]) -> None:
        """The rival of a lone Hand Swap: a Stunned token off, a free Action, then 1 Tempo Point (l.466–468)."""
        if step.stage == 0:
            nxt = HandSwapBonus(seat=step.seat, stage=1)
            coach = state.players[step.seat]
            if coach.locked:  # "all Locked tokens from the cards of your Team" (l.468)
                events.append(LockedRemoved(seat=step.seat, players=sorted(coach.locked)))
                coach.locked = []
            if any(p.stunned for p in state.players[step.seat].team):
                self.ask(state, HandSwapRecovery(must=[step.seat]), nxt)
            else:
                self.then(state, nxt)
        elif step.stage == 1:
            self.then(
                state,
                FreeActionStep(seat=step.seat, action=None, reason="hand_swap"),
                HandSwapBonus(seat=step.seat, stage=2),
            )
        else:
            self.then(state, GainTempo(seat=step.seat))

    def _next_offer(self, state: SnitchState) -> int | None:
        """Who decides next on Intrepid Moves (l.285, l.434): from the Attacking Coach, alternating, at most 2 each."""
        # Every Intrepid Move of the Game Sequence counts, Swift ones included, whenever played:
        # a Swift card counts "towards the limit of 2" (l.444), also one played at the Hand Swap.
        offers = tactics.Offers(
            attacking=state.attacking,
            plays=tuple(seat for seat, coach in enumerate(state.players) for _ in coach.intrepids),
            passed=(state.players[0].declined_intrepid, state.players[1].declined_intrepid),
            last=state.offer_last,
        )
        sizes = (len(state.players[0].hand), len(state.players[1].hand))
        return tactics.next_offer(offers, sizes)

    def _end_sequence(self, state: SnitchState, events: list[Event]) -> None:
        """End of the Game Sequence (l.552): used cards to the discard piles; lasting effects end (l.436)."""
        for coach in state.players:
            played = ([coach.pitch_card] if coach.pitch_card is not None else []) + coach.intrepids
            coach.discard = coach.discard + played
            coach.pitch_card, coach.pitch_revealed = None, False
            coach.intrepids, coach.declined_intrepid, coach.effects = [], False, []
            coach.next_block = 0
        state.intrepid_plays, state.block_turns, state.last_block_seat = [], [], None
        state.moved_bludger = None
        events.append(SequenceEnded(sequence=state.sequence))
        self.then(state, SequenceStep(stage="hand_swap"))

    def _pitch_card_options(self, state: SnitchState, seat: int) -> list[Action]:
        if state.players[seat].pitch_card is not None:
            return []
        return [ChoosePitchCard(card=c) for c in dict.fromkeys(state.players[seat].hand)]

    def _pitch_card_problem(self, state: SnitchState, seat: int, action: ChoosePitchCard) -> str | None:
        """Step 2 (l.283): a card of the Coach's own hand, once per Game Sequence; why not, else None."""
        coach = state.players[seat]
        if coach.pitch_card is not None:
            return "your Pitch Actions card is chosen for this Game Sequence"
        if action.card not in coach.hand:
            return f"card {action.card!r} is not in your hand"
        return None

    def _do_pitch_card(self, state: SnitchState, seat: int, action: ChoosePitchCard) -> list[Event]:
        coach = state.players[seat]
        coach.hand.remove(action.card)
        coach.pitch_card = action.card
        self.decided(state, seat)
        events: list[Event] = [PitchCardChosen(seat=seat, card=action.card)]
        self.advance(state, events)
        return events

    def _remove_stunned_options(self, state: SnitchState, seat: int) -> list[Action]:
        return [RemoveStunned(player=i) for i, p in enumerate(state.players[seat].team) if p.stunned]

    def _do_remove_stunned(self, state: SnitchState, seat: int, action: RemoveStunned | SkipRemove) -> list[Event]:
        self.settle(state)
        events: list[Event] = []
        if isinstance(action, RemoveStunned):
            self._stun(state, PlayerRef(seat, action.player), -1, events)
        self.advance(state, events)
        return events
