"""The Spell Card Variant of mode II: drawing spell cards, and casting them.

A seat draws a spell at the start of each of its turns (the discard reshuffled into the
deck when it runs out) and may cast up to SPELLS_PER_TURN per turn, each at the moments
its card names; the targets of every spell in hand are listed and checked here, and each
spell's effect applied. The spell book shows the cards in words.
"""

from __future__ import annotations

from typing import cast

from menagerie.beasts.engine.data import BLUE_CIRCLES, COLOURS, Colour, SpellId
from menagerie.beasts.engine.model import (
    Accio,
    Action,
    BeastsState,
    DieRoll,
    Event,
    Expelliarmus,
    FelixFelicis,
    Moved,
    Portkey,
    ResourceCollected,
    Revelio,
    SpellAction,
    SpellCast,
    SpellDrawn,
    SpellInfo,
    WingardiumLeviosa,
)
from menagerie.beasts.engine.parts import EngineParts
from menagerie.rules.decisions import Decision, Refusal
from menagerie.rules.text import seat_name

SPELLS_PER_TURN = 3
TIMING_WORDS = {"roll": "before rolling", "move": "after rolling, before moving", "stopped": "after stopping"}


class SpellCards(EngineParts):
    """Drawing and casting spell cards: their options, refusals and effects, and the spell book."""

    def _draw_spell(self, state: BeastsState, seat: int) -> list[Event]:
        hand = state.players[seat].spells
        reshuffled = False
        if not state.spell_deck:
            if not state.spell_discard:
                return []
            state.spell_deck, state.spell_discard = state.spell_discard, []
            state.rng.shuffle(state.spell_deck)
            reshuffled = True
        card = state.spell_deck.pop()
        hand.append(card)
        return [SpellDrawn(seat=seat, reshuffled=reshuffled, spell=cast("SpellId", card))]

    @staticmethod
    def spell_of(action: SpellAction) -> SpellId:
        """The spell card an action casts."""
        return cast("SpellId", type(action).__struct_config__.tag)

    def _spell_options(self, state: BeastsState, seat: int) -> list[Action]:
        """Every target of every spell in hand (the problem check keeps those castable now)."""
        if not state.spell_cards or not state.players[seat].spells:
            return []
        player = state.players[seat]
        held = set(player.spells)
        options: list[Action] = []
        if "felix_felicis" in held:
            options.append(FelixFelicis())
        if "wingardium_leviosa" in held:
            options.append(WingardiumLeviosa())
        if "revelio" in held:
            options += [Revelio(s) for s, t in enumerate(state.tokens) if t is not None and not state.face_up[s]]
        if "accio" in held:
            options += [Accio(s) for s, t in enumerate(state.tokens) if t in COLOURS and state.face_up[s]]
        if "expelliarmus" in held:
            for target, other in enumerate(state.players):
                if target != seat:
                    options += [Expelliarmus(target, c) for c in COLOURS if other.resources[c] > 0]
        if "portkey" in held:
            options += [Portkey(b) for b in BLUE_CIRCLES if b != player.position]
        return options

    def _spell_not_now(self, state: BeastsState, seat: int, decision: Decision) -> str:
        return "spells are cast during your own turn"

    def _spell_problem(self, state: BeastsState, seat: int, action: SpellAction) -> str | Refusal | None:
        spell = self.spell_of(action)
        name = self.spells[spell].name
        if not state.spell_cards:
            return "this match is played without the Spell Card Variant"
        player = state.players[seat]
        if spell not in player.spells:
            return f"you hold no {name} card"
        if state.spells_played >= SPELLS_PER_TURN:
            return f"you may cast at most {SPELLS_PER_TURN} spells per turn"
        timing = self.spells[spell].timing
        top = self.top(state)
        if top is None or top.kind() not in timing:
            return f"{name} is cast only {_describe_timing(timing)}"
        if isinstance(action, Revelio):
            s = action.space
            if not 0 <= s < len(state.tokens) or state.tokens[s] is None or state.face_up[s]:
                return Refusal("Revelio", f"space {s} holds no face-down token")
        elif isinstance(action, Accio):
            s = action.space
            if not 0 <= s < len(state.tokens) or state.tokens[s] not in COLOURS or not state.face_up[s]:
                return Refusal("Accio", f"space {s} holds no face-up resource token")
        elif isinstance(action, Expelliarmus):
            target = action.target_seat
            if target == seat or not 0 <= target < len(state.players):
                return Refusal("Expelliarmus", "choose another player's seat")
            if state.players[target].resources[action.colour] <= 0:
                return Refusal("Expelliarmus", f"{seat_name(target)} holds no {action.colour} token")
        elif isinstance(action, Portkey):
            if action.space not in BLUE_CIRCLES:
                return Refusal("Portkey", f"space {action.space} is not a blue-circle space")
            if action.space == player.position:
                return Refusal("Portkey", "you are on that space already")
        return None

    def _cast(self, state: BeastsState, seat: int, action: SpellAction) -> list[Event]:
        spell = self.spell_of(action)
        player = state.players[seat]
        player.spells.remove(spell)
        state.spell_discard.append(spell)
        state.spells_played += 1
        cast_event = SpellCast(seat=seat, spell=spell)
        events: list[Event] = []
        if isinstance(action, FelixFelicis):
            events += self._roll_die(state, DieRoll(seat=seat, purpose="felix"))
        elif isinstance(action, WingardiumLeviosa):
            state.bonus += 2
        elif isinstance(action, Revelio):
            cast_event = SpellCast(seat=seat, spell=spell, space=action.space)
            token = state.tokens[action.space]
            assert token is not None
            state.face_up[action.space] = True
            events.append(self._revealed(action.space, token))
        elif isinstance(action, Accio):
            cast_event = SpellCast(seat=seat, spell=spell, space=action.space)
            colour = state.tokens[action.space]
            assert colour is not None
            player.resources[colour] += 1
            state.tokens[action.space] = None
            state.face_up[action.space] = False
            events.append(ResourceCollected(seat=seat, colour=cast("Colour", colour), space=action.space))
            events += self._refill(state, action.space)
        elif isinstance(action, Expelliarmus):
            cast_event = SpellCast(seat=seat, spell=spell, target_seat=action.target_seat, colour=action.colour)
            state.players[action.target_seat].resources[action.colour] -= 1
            player.resources[action.colour] += 1
        elif isinstance(action, Portkey):
            cast_event = SpellCast(seat=seat, spell=spell, space=action.space)
            events.append(Moved(seat=seat, origin=player.position, destination=action.space))
            player.position = action.space
        return [cast_event, *events, *self._settle(state)]

    def _spell_book(self) -> list[SpellInfo]:
        return [SpellInfo(s.id, s.name, _describe_timing(s.timing), s.text) for s in self.data.spells]


def _describe_timing(timing: tuple[str, ...]) -> str:
    return " or ".join(TIMING_WORDS[t] for t in timing)
