"""Many determinizations of one view: what the view fixes is worked out once, each seed draws the rest.

A search determinizes the same view once per iteration (thousands a second). Rebuilding the
whole state from the view and walking it for its hidden places each time cost most of an
iteration; a `ViewSampler` rebuilds it once (the first legal way, as `state_from_view`),
keeps it encoded, and for each seed decodes a fresh copy and draws only what the seat
cannot see: the rival's Snitch card in play, its Tactical cards (in mode "advanced", which
cards its secret deck holds), its Goal Hoop card, the shuffle of every hidden pile and a
fresh Rng. The draws are the ones `Determinization.determinize`'s generic path makes, in the
same order from the same Rng, so both give the same state for the same seed (a test checks
it over seeded random matches). Used once the Teams are formed; before, the generic path.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from menagerie.rules.rng import Rng
from menagerie.snitch.engine.model import SnitchState

_DECODER = msgspec.msgpack.Decoder(SnitchState)
_RESEED = 1 << 63  # permute_hidden's draw of a fresh match Rng


class TacticsDeal(msgspec.Struct, frozen=True):
    """How the rival's unseen Tactical cards are dealt: `fixed` (a basic deck), or drawn from `candidates`."""

    fixed: tuple[int, ...] | None
    candidates: tuple[int, ...] = ()
    costs: tuple[int, ...] = ()  # each candidate's cost, in the same order
    budget: int = 0
    need: int = 0

    def deal(self, rng: Rng | None) -> list[int]:
        """The unseen cards: the fixed ones, or candidates while the Funding allows (without `rng`: cheapest first)."""
        if self.fixed is not None:
            return list(self.fixed)
        costs = self.costs
        order = list(range(len(self.candidates)))
        if rng is None:
            order.sort(key=costs.__getitem__)
        else:
            rng.shuffle(order)
        budget, need = self.budget, self.need
        dealt: list[int] = []
        for i in order:
            if len(dealt) == need:
                break
            if costs[i] <= budget:
                dealt.append(self.candidates[i])
                budget -= costs[i]
        return dealt


class ViewSampler:
    """Determinizations of one view for one seat, once both Teams are formed."""

    __slots__ = ("_aims", "_blob", "_chosen", "_deal", "_hand_size", "_keepable", "_pile", "_seat")

    def __init__(
        self,
        base: SnitchState,
        seat: int,
        deal: TacticsDeal,
        pile: Sequence[int],
        keepable: Sequence[int] | None,
        aims: Sequence[int] | None,
    ) -> None:
        rival = base.players[1 - seat]
        self._blob = msgspec.msgpack.encode(base)
        self._seat = seat
        self._deal = deal
        self._pile = tuple(pile)  # the Snitch cards nobody is known to hold (with the rival's card in play)
        self._keepable = tuple(keepable) if keepable is not None else None  # None: the rival holds no card
        self._aims = tuple(aims) if aims is not None else None  # None: the rival has chosen no Goal Hoop card
        self._hand_size = len(rival.hand)
        self._chosen = rival.pitch_card is not None and not rival.pitch_revealed  # a Pitch card face down

    def sample(self, seed: int) -> SnitchState:
        """The state for `seed`, the same as `permute_hidden(rebuild(view, seat, rng), seat, rng)` gives."""
        rng = Rng(seed)
        state: SnitchState = _DECODER.decode(self._blob)
        seat, rival = self._seat, 1 - self._seat
        theirs = state.players[rival]
        pile = list(self._pile)
        if self._keepable is not None:
            card = rng.choice(self._keepable)
            pile.remove(card)
            theirs.snitch_in_play = card
        unseen = self._deal.deal(rng)
        size, chosen = self._hand_size, self._chosen
        if len(unseen) != size + len(theirs.deck) + chosen:
            raise ValueError("the view's Tactical card counts do not add up")
        if self._aims is not None:
            theirs.aim = rng.choice(self._aims)
        # permute_hidden: the match Rng, then each Coach's Tactical pool (Team 0's first), then the Snitch deck.
        state.rng = Rng(rng.below(_RESEED), 0)
        for team in (0, 1):
            if team == seat:
                rng.shuffle(state.players[team].deck)
            else:  # hand, draw pile and the face-down Pitch card form one pool, in the state's field order
                pool = unseen[:size] + unseen[size + chosen :] + unseen[size : size + chosen]
                rng.shuffle(pool)
                end = len(pool) - chosen
                theirs.hand, theirs.deck = pool[:size], pool[size:end]
                if chosen:
                    theirs.pitch_card = pool[end]
        rng.shuffle(pile)
        state.snitch_deck = pile
        return state
