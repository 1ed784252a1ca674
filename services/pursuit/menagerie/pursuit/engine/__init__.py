"""The pure rules engine of the cooperative beast-capture dice game."""

from menagerie.pursuit.engine.model import Action, PursuitState, PursuitView
from menagerie.pursuit.engine.rules import PursuitEngine

__all__ = ["Action", "PursuitEngine", "PursuitState", "PursuitView"]
