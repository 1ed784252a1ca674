"""The pieces every Snitch text is made of: Players' and Zones' names, the word tables, a roll's faces.

Labels (labels.py), event text (narration.py), prompts (text.py) and the rules' refusals
are built from these, so a Player or a roll reads the same everywhere.
"""

from __future__ import annotations

from typing import Any

from menagerie.rules.text import Narrator, plural
from menagerie.snitch.data.cards import describe_blocks, describe_effect
from menagerie.snitch.engine import pitch
from menagerie.snitch.engine.model import (
    SnitchView,
)
from menagerie.snitch.engine.parts import EngineParts

REACTION_WORDS = {"steal_reaction": "Steal Reaction", "manoeuvre": "Manoeuvre", "defense": "Defense", "catch": "Catch"}
ROLL_WORDS = {
    "pass": "Pass",
    "shoot": "Shoot",
    "steal": "Steal",
    "beat": "Beat",
    "bludger": "Bludger's hit",
    "accelerate": "Accelerate",
    "dodge": "Dodge",
    "glimpse": "Glimpse",
    "obstruct": "Obstruct",
}
OPTION_WORDS = {
    "rushed": "resolve its Rushed Impulse",
    "keep": "keep it in play (secret)",
    "combine": "combine it with your card in play",
}


# The moment a Spectator window comes before (SpectatorWindow.moment).
SPECTATOR_MOMENTS = {
    "block": "before the rival's next Action",
    "free_action": "before the rival's free Action",
    "bludger": "before the rival moves a Bludger",
}


def player_name(index: int) -> str:
    """A Pitch Player by Position and number in its Team: "Keeper", "Beater 2", "Chaser 1"."""
    position = pitch.PITCH_LINEUP[index]
    same = [i for i, p in enumerate(pitch.PITCH_LINEUP) if p == position]
    word = position.capitalize()
    return word if len(same) == 1 else f"{word} {same.index(index) + 1}"


def player_code(index: int) -> str:
    """A short code for a Pitch Player: K, B1, B2, C1, C2, C3."""
    name = player_name(index)
    return name[0] + name.split(" ")[1] if " " in name else name[0]


def bludger_name(bludger: int) -> str:
    """A Bludger by its number, counted from 1: "Bludger 1", "Bludger 2"."""
    return f"Bludger {bludger + 1}"


def spectator_text(card: Any, second: bool = False) -> str:
    """A Spectator card's effect in words: the first (an empty Zone) or the second (displacing a rival)."""
    return describe_effect(card.second if second else card.first)


def msgspec_repr(action: Any) -> str:
    """An action's fields, for a refusal."""
    import msgspec

    fields = msgspec.structs.asdict(action)
    return "(" + ", ".join(f"{k}={v!r}" for k, v in fields.items()) + ")" if fields else ""


def not_a_choice(action: Any) -> str:
    """The refusal of a rule whose options are the rule: the action is not one of them."""
    return f"{type(action).__name__} {msgspec_repr(action)} is not one of the legal choices now"


def faces(roll: Any) -> str:
    if roll is None:
        return ""
    short = {"success": "S", "double_success": "SS", "opportunity": "O", "double_opportunity": "OO", "blank": "-"}
    return " ".join(f"{d.colour[0]}:{short.get(d.face, d.face)}" for d in roll.dice)


def cap(text: str) -> str:
    """The text with its first letter in capitals."""
    return text[:1].upper() + text[1:]


class Words:
    """The engine's names for its pieces (Zones, Players, cards), shared by every kind of text."""

    def __init__(self, engine: EngineParts) -> None:
        self.engine = engine
        self.zone_names = {z.id: z.name for z in engine.pitch.zones}

    def zone(self, zone: str) -> str:
        """A Zone's name."""
        return self.zone_names.get(zone, zone)

    def who(self, team: int, index: int, n: Narrator) -> str:
        """ "your Chaser 2" / "Ann's Keeper"."""
        return f"{n.whose(team)} {player_name(index)}"

    def _card_name(self, view: SnitchView, seat: int, card: int) -> str:
        for shown in (*view.hand, *view.cards):
            if shown.seat == seat and shown.id == card:
                return f"{shown.name} ({' · '.join(shown.blocks)})"
        return f"card {card}"

    def picked(self, part: str, card: str) -> str:
        """A pick named for its Coach's event text: the House, a Player's or Spectator's name, a card number."""
        if part == "house":
            return f"the {card.title()} House"
        if part == "player" and card in self.engine.players_by_id:
            return self.engine.players_by_id[card].name
        if part == "spectator" and card in self.engine.spectator_cards:
            return f"Spectator {self.engine.spectator_cards[card].name}"
        return f"Tactical card {card}"

    def team_card(self, view: SnitchView, part: str, card: str) -> str:
        """A card on the team-building screen: name, Position or blocks, and cost."""
        engine = self.engine
        if part == "player" and card in engine.players_by_id:
            player = engine.players_by_id[card]
            return f"{player.name} ({player.position.capitalize()}, {plural(player.cost, 'Galleon')})"
        if part == "spectator" and card in engine.spectator_cards:
            spectator = engine.spectator_cards[card]
            return f"Spectator {spectator.name} ({plural(spectator.cost, 'Galleon')})"
        house = view.draft.house if view.draft is not None else None
        library = engine.catalogue.library[house] if house is not None else {}  # type: ignore[index]
        if part == "tactic" and card.isdigit() and int(card) in library:
            tactic = engine.decks.card(house, int(card))  # type: ignore[arg-type]
            blocks = " · ".join(describe_blocks(tactic))
            return f"Tactical card {card}: {tactic.name} ({blocks}; {plural(tactic.cost, 'Galleon')})"
        return f"{part} {card}"
