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
    BeastsView,
    Capture,
    CreatureCaptured,
    DieRolled,
    EndTurn,
    Event,
    Expelliarmus,
    FelixFelicis,
    MatchFinished,
    MatchStarted,
    Move,
    Moved,
    Portkey,
    ResourceCollected,
    Revelio,
    Roll,
    SpaceLeftEmpty,
    SpellCast,
    SpellDrawn,
    SupplyShuffled,
    TokenRevealed,
    TurnStarted,
    WingardiumLeviosa,
)
from menagerie.rules.contract import Label
from menagerie.rules.text import Narrator, plural

COLOUR_NAMES = {
    "red": "red (suitcase)",
    "blue": "blue (potion)",
    "yellow": "yellow (dragot)",
    "green": "green (tea kettle)",
    "wild": "wild",
}
RESULT_WORDS = {"win": "won", "loss": "lost", "draw": "drew"}


class BeastsText:
    """Labels, event text and prompt text for one data set."""

    def __init__(self, data: GameData) -> None:
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
            return Label(f"Capture the {self.creature(creature)}", "c")
        if isinstance(action, EndTurn):
            return Label("End your turn", "e")
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
        assert isinstance(action, Portkey)
        return Label(f"Cast Portkey to {self.space(action.space)}", f"pk{action.space}")

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
        if isinstance(event, SpellDrawn):
            if event.spell is not None:
                return f"{n.who(event.seat)} drew {self.spells[event.spell]}."
            return f"{n.who(event.seat)} drew a spell."
        if isinstance(event, SpellCast):
            target = ""
            if event.space is not None:
                target = f" on {self.space(event.space)}"
            if event.target_seat is not None and event.colour is not None:
                target = f": {COLOUR_NAMES[event.colour]} from {n.who(event.target_seat, start=False)}"
            return f"{n.who(event.seat)} cast {self.spells[event.spell]}{target}."
        if isinstance(event, MatchFinished):
            ranked = sorted(event.outcome.seats, key=lambda s: s.rank)
            results = ", ".join(f"{n.who(s.seat)} {RESULT_WORDS[s.result]}" for s in ranked)
            return f"Game over — {event.outcome.reason}. {results}."
        return None  # token_placed, turn_ended: nothing a player needs to read

    # ----------------------------------------------------------------- prompt

    def prompt(self, view: BeastsView, n: Narrator) -> str:
        """What the match waits for, for the reader."""
        prompt = view.prompt
        if view.outcome is not None:
            return f"The match is over: {view.outcome.reason}."
        seat = view.current_seat
        where = next((p.position for p in view.players if p.seat == seat), 0)
        spells = " (spells may be cast first)" if view.spell_cards else ""
        if prompt.kind == "roll":
            return f"{n.does(seat, 'roll')} the die{spells}."
        if prompt.kind == "move":
            return f"{n.does(seat, 'choose')} where to stop: 1 to {view.steps} steps from {self.space(where)}."
        if prompt.kind == "stopped":
            return f"{n.does(seat, 'decide')} what to do on {self.space(where)}: capture, cast a spell or end the turn."
        return ""
