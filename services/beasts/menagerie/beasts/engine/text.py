"""The Beasts engine's words: labels of actions, text of events and prompts.

Every client (the CLI, the web, bots' logs) reads these through the service
(ListLegalActions labels, each event's header text, the view's prompt text), so the
names of spaces, creatures, colours and spells live here and nowhere else.
"""

from __future__ import annotations

from menagerie.beasts.engine.data import GameData
from menagerie.beasts.engine.model import (
    Accio,
    Action,
    ActionsChanged,
    BarCleared,
    BarRefilled,
    BeastsView,
    Capture,
    CharacterChosen,
    ChooseCharacter,
    Collect,
    CreatureCaptured,
    CreaturePlaced,
    CreatureRecaptured,
    DieRolled,
    EndTurn,
    Event,
    EventRevealed,
    Expelliarmus,
    FelixFelicis,
    Fight,
    FightRolled,
    MatchFinished,
    MatchStarted,
    Move,
    Moved,
    Portkey,
    ResourceCollected,
    ResourceReturned,
    Revelio,
    Roll,
    RoundEnded,
    SalemerPlaced,
    SecondSalemerRevealed,
    SpaceLeftEmpty,
    SpellCast,
    SpellDrawn,
    Step,
    SupplyShuffled,
    TokenRevealed,
    TurnStarted,
    WingardiumLeviosa,
)
from menagerie.beasts.engine.salem_data import SalemData, describe_effect
from menagerie.rules.contract import Label
from menagerie.rules.text import RESULT_WORDS, Narrator, plural

COLOUR_NAMES = {
    "red": "red (suitcase)",
    "blue": "blue (potion)",
    "yellow": "yellow (dragot)",
    "green": "green (tea kettle)",
    "wild": "wild",
}


# Mode III's events (Advanced Magizoology); the others are a turn's of modes I and II, and the spells'.
ADVANCED_EVENTS = (
    CharacterChosen,
    CreaturePlaced,
    SalemerPlaced,
    BarRefilled,
    FightRolled,
    EventRevealed,
    ResourceReturned,
    ActionsChanged,
    SecondSalemerRevealed,
    BarCleared,
    CreatureRecaptured,
    RoundEnded,
)


# The short title of each decision (the prompt's `title`; menagerie.rules.engine.GameText).
TITLES = {
    "character": "Choose a character",
    "roll": "Roll the die",
    "move": "Move",
    "stopped": "At the stop",
    "actions": "Actions",
    "finished": "Finished",
}


class BeastsText:
    """Labels, event text and prompt text for one data set."""

    def __init__(self, data: GameData, salem: SalemData) -> None:
        self.characters = {c.id: c.name for c in salem.characters}
        self.events = {c.id: (c.name, describe_effect(c.effect)) for c in salem.events}
        self.second_salemers = {c.id: (c.name, describe_effect(c.effect)) for c in salem.second_salemers}
        self.spaces = {s.id: s.name for s in data.board.spaces}
        self.creatures = {c.id: c.name for c in data.creatures}
        self.spells = {s.id: s.name for s in data.spells}

    def space(self, space: int) -> str:
        """ "12 Diagon Alley"."""
        name = self.spaces.get(space)
        return f"{space} {name}" if name else str(space)

    def creature(self, creature: str) -> str:
        """ "Niffler"."""
        return self.creatures.get(creature, creature)

    # ---------------------------------------------------------------- actions

    def action(self, view: BeastsView, action: Action, n: Narrator) -> Label:
        """How one of the reader's legal actions reads, and its code."""
        return self._spell_label(action, n) or self._turn_label(view, action)

    def _turn_label(self, view: BeastsView, action: Action) -> Label:
        """A turn's own actions: rolling, moving, capturing, ending; mode III's character, steps, fights."""
        me = view.viewer if view.viewer is not None else -1
        position = next((p.position for p in view.players if p.seat == me), 0)
        if isinstance(action, Roll):
            return Label("Roll the die", "r")
        if isinstance(action, Move):
            token = next((t for t in view.tokens if t.space == action.to), None)
            hint = f"  [{self._token_word(token.state, token.creature, token.colour)}]" if token else ""
            return Label(f"Move to {self.space(action.to)}{hint}", f"m{action.to}")
        if isinstance(action, Capture):
            creature = next((t.creature for t in view.tokens if t.space == position and t.creature), "")
            pooled = " with the resources of everyone here" if view.mode == "advanced" else ""
            return Label(f"Capture the {self.creature(creature)}{pooled}", "c")
        if isinstance(action, EndTurn):
            left = f" ({plural(view.actions_left, 'action')} unused)" if view.mode == "advanced" else ""
            return Label(f"End your turn{left}", "e")
        if isinstance(action, ChooseCharacter):
            return Label(f"Play {self.characters.get(action.character, action.character)}", action.character)
        if isinstance(action, Step):
            salemer = "  [Salemer!]" if action.to in view.salemers else ""
            return Label(f"Move to {self.space(action.to)}{salemer}", f"m{action.to}")
        if isinstance(action, Fight):
            return Label("Fight the Salemer here (roll the die)", "f")
        if isinstance(action, Collect):
            slot = view.bar.index(position) if position in view.bar else 0
            colour = view.bar_colours[slot] if slot < len(view.bar_colours) else "wild"
            return Label(f"Collect a {COLOUR_NAMES.get(colour, colour)} resource here", "col")
        raise AssertionError(f"no label for {type(action).__name__}")

    def _spell_label(self, action: Action, n: Narrator) -> Label | None:
        """Casting a spell (the Spell Card Variant); None for any other action."""
        if isinstance(action, FelixFelicis):
            return Label("Cast Felix Felicis: roll again", "ff")
        if isinstance(action, WingardiumLeviosa):
            return Label("Cast Wingardium Leviosa: 2 more steps", "wl")
        if isinstance(action, Revelio):
            return Label(f"Cast Revelio on {self.space(action.space)}", f"rv{action.space}")
        if isinstance(action, Accio):
            return Label(f"Cast Accio on {self.space(action.space)}", f"ac{action.space}")
        if isinstance(action, Expelliarmus):
            text = f"Cast Expelliarmus: take {COLOUR_NAMES[action.colour]} from {n.who(action.target_seat, False)}"
            return Label(text, f"ex{action.target_seat}{action.colour[0]}")
        if isinstance(action, Portkey):
            return Label(f"Cast Portkey to {self.space(action.space)}", f"pk{action.space}")
        return None

    @staticmethod
    def _token_word(state: str, creature: str | None, colour: str | None) -> str:
        if state == "hidden":
            return "?"
        if state == "creature":
            return creature or "creature"
        if state == "resource":
            return colour or "resource"
        return "·"

    # ----------------------------------------------------------------- events

    def event(self, event: Event, n: Narrator) -> str | None:
        """One sentence for an event, or None where there is nothing worth reading."""
        if isinstance(event, ADVANCED_EVENTS):
            return self._advanced_event(event, n)
        if isinstance(event, SpellDrawn | SpellCast):
            return self._spell_event(event, n)
        return self._turn_event(event, n)

    def _turn_event(self, event: Event, n: Narrator) -> str | None:
        """A turn of modes I and II: rolling, moving, revealing, capturing and collecting; the end."""
        if isinstance(event, MatchStarted):
            return f"The match begins; {n.does(event.first_seat, 'start', start=False)}."
        if isinstance(event, TurnStarted):
            return f"— Turn {event.turn}: {n.who(event.seat, start=False)} to play."
        if isinstance(event, DieRolled):
            return f"{n.who(event.seat)} rolled {event.value}."
        if isinstance(event, Moved):
            return f"{n.who(event.seat)} moved from {self.space(event.origin)} to {self.space(event.destination)}."
        if isinstance(event, TokenRevealed):
            if event.state == "creature":
                found = f"the {self.creature(event.creature or '')}!"
            else:
                found = f"a {COLOUR_NAMES.get(event.colour or '', 'resource')} token"
            return f"Revealed on {self.space(event.space)}: {found}"
        if isinstance(event, CreatureCaptured):
            return f"{n.who(event.seat)} captured the {self.creature(event.creature)}!"
        if isinstance(event, ResourceCollected):
            verb = "set aside" if event.set_aside else "collected"
            return f"{n.who(event.seat)} {verb} a {COLOUR_NAMES[event.colour]} token."
        if isinstance(event, SpaceLeftEmpty):
            return f"The supply is empty: {self.space(event.space)} stays empty."
        if isinstance(event, SupplyShuffled):
            return f"{plural(event.returned, 'token')} went back into the supply, which was shuffled."
        if isinstance(event, MatchFinished):
            ranked = sorted(event.outcome.seats, key=lambda s: s.rank)
            results = ", ".join(f"{n.who(s.seat)} {RESULT_WORDS[s.result]}" for s in ranked)
            return f"Game over — {n.named(event.outcome.reason)}. {results}."
        return None  # token_placed, turn_ended: nothing a player needs to read

    def _spell_event(self, event: SpellDrawn | SpellCast, n: Narrator) -> str:
        """A spell drawn or cast (the Spell Card Variant)."""
        if isinstance(event, SpellDrawn):
            if event.spell is not None:
                return f"{n.who(event.seat)} drew {self.spells[event.spell]}."
            return f"{n.who(event.seat)} drew a spell."
        target = ""
        if event.space is not None:
            target = f" on {self.space(event.space)}"
        if event.target_seat is not None and event.colour is not None:
            target = f": {COLOUR_NAMES[event.colour]} from {n.who(event.target_seat, start=False)}"
        return f"{n.who(event.seat)} cast {self.spells[event.spell]}{target}."

    def _advanced_event(self, event: Event, n: Narrator) -> str | None:
        """Mode III: characters, Salemers, fights, events, the location bar and the Salem track."""
        if isinstance(event, CharacterChosen):
            return f"{n.who(event.seat)} plays {self.characters.get(event.character, event.character)}."
        if isinstance(event, CreaturePlaced):
            return f"The {self.creature(event.creature)} is hiding at {self.space(event.space)}."
        if isinstance(event, SalemerPlaced):
            if event.on_track:
                return f"A Salemer token goes onto the Salem track ({event.track} there now)."
            return f"A Salemer appears at {self.space(event.space)}."
        if isinstance(event, BarRefilled):
            cards = ", ".join(str(c) if c else "—" for c in event.bar)
            shown = event.second_salemer
            tail = f"; the Second Salemer's space shows {self.space(shown)}" if shown else ""
            return f"The location bar: {cards}{tail}."
        if isinstance(event, FightRolled):
            result = "defeats the Salemer" if event.won else "fails to defeat the Salemer"
            return f"{n.who(event.seat)} rolled {event.value} and {result} at {self.space(event.space)}."
        if isinstance(event, EventRevealed):
            name, text = self.events.get(event.card, (f"event {event.card}", ""))
            return f"Event: {name}. {text}"
        if isinstance(event, ResourceReturned):
            return f"{n.who(event.seat)} returned a {COLOUR_NAMES[event.colour]} token to the supply."
        if isinstance(event, ActionsChanged):
            return f"{n.who(event.seat)} now has {plural(event.left, 'action')} left."
        if isinstance(event, SecondSalemerRevealed):
            name, text = self.second_salemers.get(event.card, (f"card {event.card}", ""))
            return f"Second Salemer card: {name}. {text}"
        if isinstance(event, BarCleared):
            return "Every location card on the bar goes back under the deck."
        if isinstance(event, CreatureRecaptured):
            who = " and ".join(n.who(s, start=i == 0) for i, s in enumerate(event.seats))
            return f"{who} captured the {self.creature(event.creature)} together!"
        if isinstance(event, RoundEnded):
            return f"End of round {event.round}: the location bar slides and a new Salemer appears."
        return None

    # ----------------------------------------------------------------- prompt

    def prompt(self, view: BeastsView, n: Narrator) -> str:
        """What the match waits for, for the reader."""
        prompt = view.prompt
        if view.outcome is not None:
            return f"The match is over: {n.named(view.outcome.reason)}."
        seat = view.current_seat
        where = next((p.position for p in view.players if p.seat == seat), 0)
        spells = " (spells may be cast first)" if view.spell_cards else ""
        if prompt.kind == "roll":
            return f"{n.does(seat, 'roll')} the die{spells}."
        if prompt.kind == "move":
            return f"{n.does(seat, 'choose')} where to stop: 1 to {view.steps} steps from {self.space(where)}."
        if prompt.kind == "character":
            chooser = prompt.must[0] if prompt.must else seat
            return f"{n.does(chooser, 'choose')} a character."
        if prompt.kind == "actions" and where in view.salemers:
            return (
                f"{n.does(seat, 'must', 'must')} fight the Salemer on {self.space(where)} before anything else "
                f"({plural(view.actions_left, 'action')} left)."
            )
        if prompt.kind == "actions":
            return (
                f"{n.does(seat, 'spend', 'spends')} {plural(view.actions_left, 'action')} from {self.space(where)}: "
                "move, fight a Salemer, collect a resource, capture together or end the turn."
            )
        if prompt.kind == "stopped":
            return f"{n.does(seat, 'decide')} what to do on {self.space(where)}: capture, cast a spell or end the turn."
        return ""
