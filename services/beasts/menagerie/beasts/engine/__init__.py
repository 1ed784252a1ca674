"""The pure rules engine of the Fantastic Beasts board game, modes I and II."""

from menagerie.beasts.engine.model import Action, BeastsState, BeastsView
from menagerie.beasts.engine.rules import BeastsEngine

__all__ = ["Action", "BeastsEngine", "BeastsState", "BeastsView"]
