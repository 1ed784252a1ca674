"""The dice (dice.toml): the symbols, the three colours of dice and the Setup roll; the dice pools of Player cards."""

from __future__ import annotations

from fractions import Fraction

from menagerie.snitch.data.records import Count, DataError, Positive, Record
from menagerie.snitch.data.rulebook import (
    COLOURS,
    DICE_PER_COLOUR,
    FACES_PER_DIE,
    SYMBOL_VALUES,
    SYMBOLS,
    Colour,
    Symbol,
)

# --- Dice -----------------------------------------------------------------------------


class SymbolValue(Record, frozen=True):
    """What one symbol counts: Successes on an Action roll, Opportunities on a Reaction roll."""

    successes: Count
    opportunities: Count


class Die(Record, frozen=True):
    """One colour of die: how many the game has and its faces."""

    count: Positive
    faces: tuple[Symbol, ...]


class SetupRoll(Record, frozen=True):
    """The roll for the advantage at Setup (4th Step): which die, and whether a blank is rolled again."""

    colour: Colour
    reroll_blank: bool


class Dice(Record, frozen=True):
    """The symbols, the three colours of dice and the Setup roll."""

    symbols: dict[Symbol, SymbolValue]
    colours: dict[Colour, Die]
    setup_roll: SetupRoll

    def __post_init__(self) -> None:
        values = {s: (v.successes, v.opportunities) for s, v in self.symbols.items()}
        if values != SYMBOL_VALUES:
            raise DataError(f"symbols: the rulebook's values are {SYMBOL_VALUES}")
        if set(self.colours) != set(COLOURS):
            raise DataError(f"colours: exactly {', '.join(COLOURS)}")
        for colour, die in self.colours.items():
            if len(die.faces) != FACES_PER_DIE:
                raise DataError(f"colours.{colour}: a die has {FACES_PER_DIE} faces, not {len(die.faces)}")
            if die.count != DICE_PER_COLOUR:
                raise DataError(f"colours.{colour}: the game has {DICE_PER_COLOUR} {colour} dice")
        if {f for d in self.colours.values() for f in d.faces} != set(SYMBOLS):
            raise DataError(f"the dice between them show every symbol: {', '.join(SYMBOLS)}")
        successes = [self.expected_successes(c) for c in ("orange", "purple", "black")]
        if not successes[0] > successes[1] > successes[2]:
            raise DataError("expected Successes per die must run orange > purple > black (rulebook 'Dice')")
        opportunities = [self.expected_opportunities(c) for c in ("black", "purple", "orange")]
        if not opportunities[0] > opportunities[1] > opportunities[2]:
            raise DataError("expected Opportunities per die must run black > purple > orange (rulebook 'Dice')")
        faces = self.colours[self.setup_roll.colour].faces
        if self.setup_roll.reroll_blank != any(sum(SYMBOL_VALUES[f]) == 0 for f in faces):
            raise DataError("setup_roll: blanks are rolled again exactly when the die has blank faces")

    def expected_successes(self, colour: Colour) -> Fraction:
        """The Successes one die of this colour rolls on average on an Action."""
        faces = self.colours[colour].faces
        return Fraction(sum(self.symbols[f].successes for f in faces), len(faces))

    def expected_opportunities(self, colour: Colour) -> Fraction:
        """The Opportunities one die of this colour rolls on average on a Reaction."""
        faces = self.colours[colour].faces
        return Fraction(sum(self.symbols[f].opportunities for f in faces), len(faces))


# --- Players: dice pools --------------------------------------------------------------


class DicePool(Record, frozen=True):
    """The dice a Player card lists for one Action or Reaction, by colour."""

    orange: Count = 0
    purple: Count = 0
    black: Count = 0

    @property
    def size(self) -> int:
        """How many dice the pool rolls."""
        return self.orange + self.purple + self.black

    def by_colour(self) -> dict[Colour, int]:
        """The pool as colour → number of dice."""
        return {"orange": self.orange, "purple": self.purple, "black": self.black}
