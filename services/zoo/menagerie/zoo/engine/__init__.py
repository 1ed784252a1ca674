"""The pure rules engine of Fantasy Zoo, beginner and advanced modes."""

from menagerie.zoo.engine.model import Action, ZooState, ZooView
from menagerie.zoo.engine.rules import ZooEngine

__all__ = ["Action", "ZooEngine", "ZooState", "ZooView"]
