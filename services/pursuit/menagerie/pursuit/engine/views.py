"""What a seat sees, and a state consistent with it for search (determinization).

The view shows everything but the deck's order, the other players' cards and the RNG;
`state_from_view` deals the cards the seat has not seen in catalogue order and rebuilds
the decision stack the view's prompt shows.
"""

from __future__ import annotations

from typing import get_args

from menagerie.pursuit.engine.cards import HAND_LIMIT
from menagerie.pursuit.engine.dice import beast_dice
from menagerie.pursuit.engine.model import (
    BeastTrack,
    CharacterView,
    Player,
    PlayerView,
    PoolDie,
    PursuitState,
    PursuitView,
    TurnDecision,
)
from menagerie.pursuit.engine.parts import EngineParts
from menagerie.pursuit.engine.rolling import _dice
from menagerie.pursuit.engine.text import ACTION_NAMES, beast_card_text, beast_die_text, card_book
from menagerie.rules.rng import Rng

DECISIONS: dict[str, type[TurnDecision]] = {d.kind(): d for d in get_args(TurnDecision)}


class ViewsAndDeterminization(EngineParts):
    """A seat's view of the state, and a state rebuilt from a view."""

    def view(self, state: PursuitState, seat: int | None) -> PursuitView:
        """Everything but the deck's order, the other players' cards and the RNG."""
        beast = self._beast(state)
        black, teal = beast_dice(beast, state.activations, state.muffled)
        stack = [state.beast, *state.beasts, *state.captured, *state.escaped]
        return PursuitView(
            difficulty=state.difficulty,
            viewer=seat,
            players=[
                PlayerView(
                    seat=i,
                    character=CharacterView.of(self.characters[p.character], ACTION_NAMES),
                    health=p.health,
                    shields=p.shields,
                    ready=list(p.ready),
                    set=list(p.set),
                    hand_size=len(p.hand),
                    hand=[self.cards[c] for c in p.hand] if i == seat else [],
                )
                for i, p in enumerate(state.players)
            ],
            active=state.active,
            turn=state.turn,
            prompt=self.prompt(state),
            track=BeastTrack(beast, state.position, beast.to_escape + beast.to_suitcase, beast_card_text(beast)),
            beasts_to_come=[self.beasts[b] for b in state.beasts],
            captured=list(state.captured),
            escaped=list(state.escaped),
            beast_names={b: self.beasts[b].name for b in stack},
            escapes_allowed=self.escapes_allowed(state.difficulty),
            beasts_to_win=self.beasts_to_win(state.difficulty),
            dice=_dice(state.dice),
            kept=list(state.kept),
            rolls=state.rolls,
            roll_limit=state.roll_limit,
            pool=[PoolDie(d.face, d.color, d.card) for d in state.pool],
            card_boards=dict(state.card_boards),
            activations=list(state.activations),
            muffled=state.muffled,
            beast_black_dice=black,
            beast_teal_die=teal,
            beast_dice=_dice(state.beast_dice),
            beast_die_effects=[beast_die_text(beast, d.face) for d in state.beast_dice],
            ignored=list(state.ignored),
            deck_size=len(state.deck),
            discard=[self.cards[c] for c in state.discard],
            hand_limit=HAND_LIMIT,
            card_book=card_book(),
            outcome=state.outcome,
        )

    def state_from_view(self, view: PursuitView, seat: int | None) -> PursuitState:
        """A state consistent with `view`: the cards `seat` (None: a spectator) has not seen, in catalogue order."""
        own = view.players[seat].hand if seat is not None else []
        known = {c.id for c in own} | {c.id for c in view.discard}
        unseen = [c.id for c in self.data.cards if c.id not in known]
        players = []
        for p in view.players:
            hand = [c.id for c in p.hand] if p.seat == seat else [unseen.pop() for _ in range(p.hand_size)]
            players.append(
                Player(
                    character=p.character.id,
                    health=p.health,
                    shields=p.shields,
                    ready=list(p.ready),
                    set=list(p.set),
                    hand=hand,
                )
            )
        if len(unseen) != view.deck_size:
            raise ValueError("the view's card counts do not add up")
        return PursuitState(
            difficulty=view.difficulty,
            rng=Rng(0),
            players=players,
            beasts=[b.id for b in view.beasts_to_come],
            beast=view.track.beast.id,
            position=view.track.position,
            deck=unseen,
            active=view.active,
            decisions=self._decisions_of(view),
            turn=view.turn,
            dice=_dice(view.dice),
            kept=list(view.kept),
            rolls=view.rolls,
            roll_limit=view.roll_limit,
            pool=[PoolDie(d.face, d.color, d.card) for d in view.pool],
            card_boards=dict(view.card_boards),
            activations=list(view.activations),
            muffled=view.muffled,
            beast_dice=_dice(view.beast_dice),
            ignored=list(view.ignored),
            discard=[c.id for c in view.discard],
            captured=list(view.captured),
            escaped=list(view.escaped),
            outcome=view.outcome,
        )

    @staticmethod
    def _decisions_of(view: PursuitView) -> list[TurnDecision]:
        """The decision stack the prompt shows: the active player's decisions under the top one."""
        prompt = view.prompt
        if prompt.kind not in DECISIONS:
            return []
        below = [DECISIONS[kind](must=[view.active]) for kind in prompt.stack]
        top = DECISIONS[prompt.kind](must=list(prompt.must), may=list(prompt.may), actor=prompt.actor)
        return [*below, top]
