"""The rulebook's words and numbers: Houses, Positions, dice colours and symbols, Action and Reaction names.

The literal types the data files are written in, and the explicit facts of the rulebook
(`catch-the-golden-snitch.txt`) the loaders hold those files to.
"""

from __future__ import annotations

from typing import Literal, get_args

House = Literal["gryffindor", "slytherin", "ravenclaw", "hufflepuff"]
Position = Literal["keeper", "beater", "chaser", "seeker"]
Colour = Literal["orange", "purple", "black"]
Symbol = Literal["success", "double_success", "opportunity", "double_opportunity", "blank"]
ActionName = Literal["pass", "shoot", "steal", "beat", "accelerate", "dodge", "glimpse", "obstruct"]
ReactionName = Literal["steal", "manoeuvre", "defense", "catch"]
Side = Literal["owner", "rival"]

HOUSES: tuple[House, ...] = get_args(House)
POSITIONS: tuple[Position, ...] = get_args(Position)
COLOURS: tuple[Colour, ...] = get_args(Colour)
SYMBOLS: tuple[Symbol, ...] = get_args(Symbol)

# The rulebook's explicit facts the loader holds the files to (line numbers of
# catch-the-golden-snitch.txt).
ZONE_COUNT = 12  # l.117 "The Pitch is divided into 12 Zones"
TEAM = {"keeper": 1, "beater": 2, "chaser": 3, "seeker": 1}  # l.131, l.698
DICE_PER_COLOUR = 3  # l.81 "9 Dice (3 black dice, 3 purple dice, 3 orange dice)"
FACES_PER_DIE = 6  # authored: the rulebook never counts a die's faces
PLAYER_CARDS = 28  # l.96 "28 Player Cards (7 Gryffindor, 7 Slytherin, 7 Ravenclaw, 7 Hufflepuff)"
UNIQUE_MARK = " ✷"  # l.707 "If a Player or Spectator has the ✷ after their name"
# l.163: a Success symbol is 1 Success, a double Success 2; an Opportunity 1, the crossed symbol 2.
SYMBOL_VALUES: dict[Symbol, tuple[int, int]] = {
    "success": (1, 0),
    "double_success": (2, 0),
    "opportunity": (0, 1),
    "double_opportunity": (0, 2),
    "blank": (0, 0),
}
# Who owns which Action or Reaction (l.364 Shoot "only ... a Chaser", l.380 Beat "one of
# your Beaters", l.408 Defense "When a Beater", l.412 Catch "your Keeper", l.139 and
# l.586 Seekers only race, l.406 Manoeuvre and l.404 Steal: any Player targeted).
RACE_ACTIONS: frozenset[str] = frozenset({"accelerate", "dodge", "glimpse", "obstruct"})
ONLY: dict[str, Position] = {"shoot": "chaser", "beat": "beater", "defense": "beater", "catch": "keeper"}
EVERY_PITCH_PLAYER_REACTS: frozenset[str] = frozenset({"steal", "manoeuvre"})
# l.123 / l.498: the Defending Keeper and up to one attacking Chaser with the Quaffle.
SCORING_AREA_OCCUPANTS: frozenset[tuple[str, str, int, bool]] = frozenset(
    {("owner", "keeper", 1, False), ("rival", "chaser", 1, True)}
)
