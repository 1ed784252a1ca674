"""Every Intrepid Move of the 106-card library against its own text (l.432–450).

For each card, seat 0 holds it at Game Sequence step 3 (an Intrepid Move offer), plays
it, and the test follows play until it resolves (step 4, l.287). What happens must be
what the card's text (`describe_intrepid`, generated from the same data) says: a Shift
asks for that many Players of that Team, a free Action asks for that Action, Dice tokens
ask where to put them, a lasting effect stays in play until the end of the Game
Sequence, a Tempo Point is gained, a Bludger moves that far, Upwinds are placed. Swift
moves (the lightning) are not offered at step 3 but wait for their moment (l.440).
"""

from __future__ import annotations

from typing import Any

import pytest

from menagerie.rules.contract import MatchSetup
from menagerie.snitch.data import HOUSES
from menagerie.snitch.data.cards import (
    Bludger,
    DiceTokens,
    FreeAction,
    ModifyRoll,
    Reroll,
    Shift,
    TacticalCard,
    Tempo,
    Upwind,
    describe_intrepid,
)
from menagerie.snitch.engine.model import (
    BludgerMove,
    DeclineIntrepid,
    DiceTokenPlacement,
    IntrepidOffer,
    IntrepidResolved,
    PlayIntrepid,
    RaceTokenPlacement,
    ShiftPlayers,
    SnitchState,
    TempoGained,
)
from menagerie.snitch.engine.model import FreeAction as FreeActionDecision
from menagerie.snitch.engine.rules import SnitchEngine

ENGINE = SnitchEngine()
CARDS = [(house, card) for house in HOUSES for card in ENGINE.decks.library(house) if card.intrepid is not None]


def legal(state: SnitchState, seat: int) -> list[Any]:
    """The seat's legal actions (typed loosely: tests read their fields)."""
    return list(ENGINE.legal_actions(state, seat))


def offer_to_seat_0(house: str, card: TacticalCard) -> SnitchState:
    """A basic match at seat 0's first Intrepid Move offer, seat 0 now coaching `house` and holding `card`."""
    state, _ = ENGINE.setup(MatchSetup("basic", 2, {"house_0": house}), 4)
    for _ in range(2000):
        top: Any = ENGINE.top(state)
        if isinstance(top, IntrepidOffer) and top.must == [0]:
            break
        seat = ENGINE.to_act(state).seats()[0]
        ENGINE.apply(state, seat, legal(state, seat)[0])
    coach = state.players[0]
    if card.id not in coach.hand:
        coach.hand[0] = card.id
    return state


def test_the_library_has_moves_of_every_kind() -> None:
    """RULES.md "Tactical cards": the library uses the whole effect vocabulary."""
    kinds = {type(card.intrepid.effect) for _, card in CARDS if card.intrepid is not None}
    assert kinds == {Shift, FreeAction, DiceTokens, ModifyRoll, Reroll, Tempo, Bludger, Upwind}
    assert len(CARDS) >= 80


@pytest.mark.parametrize(("house", "card"), CARDS, ids=lambda v: v if isinstance(v, str) else str(v.id))
def test_an_intrepid_move_does_what_its_text_says(house: str, card: TacticalCard) -> None:
    move = card.intrepid
    assert move is not None
    text = describe_intrepid(move)
    state = offer_to_seat_0(house, card)
    if move.swift is not None:
        assert PlayIntrepid(card=card.id) not in legal(state, 0), "a Swift move waits (l.440)"
        assert text.startswith("⚡")
        return
    events: list[Any] = ENGINE.apply(state, 0, PlayIntrepid(card=card.id))
    for _ in range(50):
        if any(isinstance(e, IntrepidResolved) and e.seat == 0 and e.card == card.id for e in events):
            break
        seat = ENGINE.to_act(state).seats()[0]
        choices = legal(state, seat)
        events += ENGINE.apply(state, seat, DeclineIntrepid() if DeclineIntrepid() in choices else choices[0])
    resolved = next(i for i, e in enumerate(events) if isinstance(e, IntrepidResolved) and e.card == card.id)
    after = events[resolved + 1 :]
    top: Any = ENGINE.top(state)
    effect = move.effect
    if isinstance(effect, Shift):
        team = 0 if effect.whose == "friendly" else 1
        assert (isinstance(top, ShiftPlayers) and top.team == team and top.left == effect.players) or not (
            ENGINE.shift_options(state, ShiftPlayers(must=[0], team=team, left=effect.players, role=effect.role))
        ), text
    elif isinstance(effect, FreeAction):
        assert (isinstance(top, FreeActionDecision) and top.action == effect.action) or not ENGINE.can_perform(
            state, 0, effect.action
        ), text
    elif isinstance(effect, DiceTokens):
        assert isinstance(top, DiceTokenPlacement), text
        assert (top.token, top.colour, top.left) == (effect.token, effect.colour, effect.count), text
    elif isinstance(effect, ModifyRoll | Reroll) or (isinstance(effect, Tempo) and effect.on is not None):
        assert [e.card for e in state.players[0].effects] == [card.id], f"lasts until the end of the sequence: {text}"
    elif isinstance(effect, Tempo):
        assert any(isinstance(e, TempoGained) and e.seat == 0 for e in after), text
    elif isinstance(effect, Bludger):
        assert isinstance(top, BludgerMove) and top.reach == effect.zones and top.attack == effect.attack, text
    else:
        assert isinstance(effect, Upwind)
        assert isinstance(top, RaceTokenPlacement) or not legal(state, 0), text
        if isinstance(top, RaceTokenPlacement):
            assert (top.token, top.left) == ("upwind", effect.tokens), text
