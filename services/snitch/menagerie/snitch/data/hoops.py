"""The Goal Hoop cards (hoops.toml): each Coach's numbers and what Aim at the Hoop adds to the Shoot roll."""

from __future__ import annotations

from menagerie.snitch.data.records import Count, DataError, Positive, Record

# --- Goal Hoop cards ------------------------------------------------------------------


class Hoops(Record, frozen=True):
    """The Goal Hoop cards: each Coach's numbers, how many sets, and what Aim at the Hoop adds to the Shoot roll."""

    numbers: tuple[Positive, ...]
    sets: Positive
    bonus_if_same: Count
    bonus_if_different: Count

    def __post_init__(self) -> None:
        if self.numbers != (1, 2, 3):
            raise DataError("numbers: each Coach holds three cards numbered 1, 2 and 3")
        if self.sets * len(self.numbers) != 6:
            raise DataError("sets: the game has 6 Goal Hoop cards, one set of three per Coach")
        if (self.bonus_if_same, self.bonus_if_different) != (0, 1):
            raise DataError("bonus: the same numbers add nothing, different numbers add one Success")
