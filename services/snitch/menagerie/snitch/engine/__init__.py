"""The pure rules engine of Catch the Golden Snitch (basic Teams and Tactical decks)."""

from menagerie.snitch.engine.model import Action, SnitchState, SnitchView
from menagerie.snitch.engine.rules import SnitchEngine

__all__ = ["Action", "SnitchEngine", "SnitchState", "SnitchView"]
