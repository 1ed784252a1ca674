"""Traits of unique Players (l.225 "Where the rule for a Trait contradicts a rule from this manual,
the Trait takes priority") and the Locked icon (l.229–231). Pure functions over a Player
card's Trait (see RULES.md "Unique Players and Traits"); the engine asks these at its
roll, re-roll and Tempo points, so each Trait kind's rule lives here once.

The Trait kinds: `roll_bonus` (a lasting +1, or a Locked +amount after the roll),
`reroll` (Locked: re-roll up to `dice` dice of the Player's own roll), `tempo` (an extra
Tempo Point for each success at one Action), `steady` (ignores Disadvantage on its own
rolls) and `tough` (Stunned tokens deduct at most 1 from its rolls).
"""

from __future__ import annotations

from typing import Any, Literal

LockedUse = Literal["add", "reroll"]


def kind(trait: Any) -> str:
    """The Trait's kind (its tag in players.toml)."""
    return str(type(trait).__struct_config__.tag)


def is_locked(trait: Any) -> bool:
    """Whether the Trait shows the Locked icon: usable once until the Locked token is removed (l.229)."""
    return bool(trait.locked)  # the data's Trait knows (a re-roll is always Locked)


def lasting_bonus(trait: Any | None, roll: str) -> int:
    """What a Trait adds to every roll of this kind by its Player (Successes, or Opportunities on a Reaction)."""
    if trait is None or kind(trait) != "roll_bonus" or trait.locked or trait.roll != roll:
        return 0
    return int(trait.amount)


def disadvantage(trait: Any | None, level: int) -> int:
    """The Disadvantage its Player's roll suffers (l.419–420), unless the Trait is `steady`."""
    return 0 if trait is not None and kind(trait) == "steady" else level


def stunned(trait: Any | None, tokens: int) -> int:
    """The Stunned tokens that count against its Player's roll (l.544), at most 1 for a `tough` Player."""
    return min(tokens, 1) if trait is not None and kind(trait) == "tough" else tokens


def extra_tempo(trait: Any | None, action: str) -> int:
    """Extra Tempo Points when its Player succeeds at `action` (a `tempo` Trait)."""
    return 1 if trait is not None and kind(trait) == "tempo" and trait.on == action else 0


def locked_use(trait: Any | None, roll: str) -> tuple[LockedUse, int] | None:
    """What a Locked Trait may do for its Player's roll of this kind: ("add", Successes) or ("reroll", dice)."""
    if trait is None or not is_locked(trait) or trait.roll != roll:
        return None
    if kind(trait) == "reroll":
        return "reroll", int(trait.dice)
    return "add", int(trait.amount)
