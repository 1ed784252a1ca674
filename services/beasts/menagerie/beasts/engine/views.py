"""What a seat sees, and a state consistent with it for search (determinization).

The view never shows face-down tokens, the supply's content and order or the other seats'
spell cards; `state_from_view` deals the tokens and spells the seat has not seen in
catalogue order and rebuilds the turn's decision from the view's prompt. Mode III's part
of both is its own (salem.py).
"""

from __future__ import annotations

from menagerie.beasts.engine.data import COLOURS
from menagerie.beasts.engine.model import (
    AfterStop,
    BeastsState,
    BeastsView,
    ChooseStop,
    CreatureCard,
    Player,
    PlayerView,
    ResourceCounts,
    RollDie,
    SpaceToken,
)
from menagerie.beasts.engine.parts import EngineParts
from menagerie.beasts.engine.salem_data import CREATURES_GOAL
from menagerie.beasts.engine.spells import SPELLS_PER_TURN
from menagerie.beasts.engine.turns import CREATURES_TO_WIN
from menagerie.rules.rng import Rng


class ViewsAndDeterminization(EngineParts):
    """A seat's view of the state (modes I and II, mode III's part added), and a state rebuilt from a view."""

    def _space_token(self, state: BeastsState, space: int) -> SpaceToken:
        token = state.tokens[space]
        if token is None:
            return SpaceToken(space, "empty")
        if not state.face_up[space]:
            return SpaceToken(space, "hidden")
        if token in COLOURS:
            return SpaceToken(space, "resource", colour=token)
        return SpaceToken(space, "creature", creature=token)

    def view(self, state: BeastsState, seat: int | None) -> BeastsView:
        """What `seat` (None: a spectator) may know: never face-down tokens, the supply or others' spells."""
        advanced = state.mode == "advanced"
        captured_by = {c: i for i, p in enumerate(state.players) for c in p.captured}
        face_up_on = {
            t: s for s, t in enumerate(state.tokens) if t is not None and state.face_up[s] and t not in COLOURS
        }
        return BeastsView(
            mode=state.mode,
            spell_cards=state.spell_cards,
            viewer=seat,
            board=self.data.board,
            tokens=[self._space_token(state, s) for s in self.data.board.token_spaces],
            players=[
                PlayerView(
                    seat=i,
                    position=p.position,
                    resources=ResourceCounts(**p.resources),
                    captured=list(p.captured),
                    spell_count=len(p.spells),
                    spells=sorted(p.spells) if i == seat else [],
                    character=p.character,
                    actions=self.character(state, i).actions if p.character else 0,
                )
                for i, p in enumerate(state.players)
            ],
            creatures=[
                CreatureCard(
                    id=c.id,
                    name=c.name,
                    cost=self.costs[c.id],
                    captured_by=captured_by.get(c.id),
                    face_up_on=face_up_on.get(c.id),
                )
                for c in self.data.creatures
            ],
            current_seat=state.current,
            prompt=self.prompt(state),
            roll=state.roll,
            steps=state.roll + state.bonus,
            spells_played=state.spells_played,
            spells_per_turn=SPELLS_PER_TURN if state.spell_cards else 0,
            turn=state.turn,
            turn_cap=state.turn_cap,
            supply_size=len(state.supply),
            spell_deck_size=len(state.spell_deck),
            spell_discard=list(state.spell_discard),
            set_aside=ResourceCounts(**{c: state.set_aside.count(c) for c in COLOURS}),
            creatures_to_win=CREATURES_GOAL[len(state.players)] if advanced else CREATURES_TO_WIN[state.mode],
            spell_book=self._spell_book() if state.spell_cards else [],
            outcome=state.outcome,
            **(self.advanced_view(state) if advanced else {}),
        )

    def state_from_view(self, view: BeastsView, seat: int | None) -> BeastsState:
        """A state consistent with `view`: unseen tokens and spells dealt in catalogue order."""
        if view.mode == "advanced":
            return self.advanced_state_from_view(view)
        unknown = self._unseen_tokens(view)
        tokens: list[str | None] = [None] * len(self.data.board.spaces)
        face_up = [False] * len(tokens)
        for t in view.tokens:
            if t.state == "hidden":
                tokens[t.space] = unknown.pop()
            elif t.state != "empty":
                tokens[t.space] = t.creature or t.colour
                face_up[t.space] = True
        hands, deck = self._spells_from_view(view, seat)
        kinds: dict[str, type[RollDie] | type[ChooseStop] | type[AfterStop]] = {
            "roll": RollDie,
            "move": ChooseStop,
            "stopped": AfterStop,
        }
        decision = kinds.get(view.prompt.kind)
        return BeastsState(
            mode=view.mode,
            spell_cards=view.spell_cards,
            rng=Rng(0),
            tokens=tokens,
            face_up=face_up,
            supply=unknown,
            players=[
                Player(
                    position=p.position,
                    resources={c: getattr(p.resources, c) for c in COLOURS},
                    captured=list(p.captured),
                    spells=hands[i],
                )
                for i, p in enumerate(view.players)
            ],
            current=view.current_seat,
            decisions=[decision(must=list(view.prompt.must))] if decision else [],
            turn=view.turn,
            turn_cap=view.turn_cap,
            roll=view.roll,
            bonus=view.steps - view.roll,
            spells_played=view.spells_played,
            spell_deck=deck,
            spell_discard=list(view.spell_discard),
            set_aside=[c for c in COLOURS for _ in range(getattr(view.set_aside, c))],
            outcome=view.outcome,
        )

    def _unseen_tokens(self, view: BeastsView) -> list[str]:
        """The tokens `view` does not show (face down on the board or in the supply), in catalogue order."""
        unknown = self.data.all_tokens()
        seen: list[str] = []
        for token in view.tokens:
            if token.state == "creature" and token.creature:
                seen.append(token.creature)
            elif token.state == "resource" and token.colour:
                seen.append(token.colour)
        for player in view.players:
            seen += player.captured
            seen += [c for c in COLOURS for _ in range(getattr(player.resources, c))]
        seen += [c for c in COLOURS for _ in range(getattr(view.set_aside, c))]
        for known in seen:
            unknown.remove(known)
        hidden = [t.space for t in view.tokens if t.state == "hidden"]
        if len(unknown) != len(hidden) + view.supply_size:
            raise ValueError("the view's token counts do not add up")
        return unknown

    def _spells_from_view(self, view: BeastsView, seat: int | None) -> tuple[list[list[str]], list[str]]:
        """Every seat's hand of spells and the deck: the others' hands and the deck dealt from the unseen cards."""
        hands: list[list[str]] = [list(p.spells) for p in view.players]
        if not view.spell_cards:
            return hands, []
        unseen = self.data.spell_deck()
        own = view.players[seat].spells if seat is not None else []  # a spectator sees no hand
        for spell in [*own, *view.spell_discard]:
            unseen.remove(spell)
        for i, p in enumerate(view.players):
            if i != seat:
                hands[i] = [unseen.pop() for _ in range(p.spell_count)]
        return hands, unseen
