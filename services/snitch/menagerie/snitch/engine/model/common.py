"""The literal types several parts of the model share, and the Flag colours."""

from __future__ import annotations

from typing import Literal

from menagerie.snitch.data import House

Mode = Literal["basic", "advanced"]
# Which roll of an exchange a reroll takes dice from.
RollSide = Literal["action", "reaction"]
# What an exchange resolves: a rolled Pitch Action, a Bludger's hit, a Seeker's race roll.
ExchangeKind = Literal["pass", "shoot", "steal", "beat", "bludger", "race"]
BreakOption = Literal["free_pass", "shift"]
# Flag colours (l.460 "usually their own House"): one per House; the two Coaches' must differ.
FLAG_COLOURS: dict[House, str] = {
    "gryffindor": "scarlet",
    "slytherin": "green",
    "ravenclaw": "blue",
    "hufflepuff": "yellow",
}
