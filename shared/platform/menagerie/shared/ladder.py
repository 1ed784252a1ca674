"""The rating ladder of a game's bot levels (issue 33): what `menagerie arena ladder` writes, what the lobby shows.

Each competitive mode's levels (random, greedy, mcts at a budget...) play a round-robin in the
arena and are rated from its results with the leaderboard's model (OpenSkill Plackett–Luce,
the rating shown being its ordinal, mu - 3 sigma: menagerie.lobby.ratings), so a player can
pick the bot nearest their own rating. The file is package data of the game
(`ladder.json` in its package, found through the registry: menagerie.rules.registry.package_file),
recomputed by the command it names, never written by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

import msgspec

from menagerie.rules.registry import package_file

LADDER_FILE = "ladder.json"
# A bot_level that asks the lobby for the level whose rating is nearest the table's humans'.
NEAREST = "nearest"


class RatedLevel(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One bot level as the ladder rates it."""

    level: str  # random, greedy, mcts
    budget_seconds: float  # a searching level's time per decision (0: it does not search)
    mu: float
    sigma: float
    rating: float  # the leaderboard's number: mu - 3 sigma
    matches: int
    wins: int


class ModeLadder(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One mode's ladder: its levels from strongest to weakest, and how it was made."""

    command: str  # the command line that produced it
    date: str  # ISO date of the run
    seats: int
    matches: int  # matches rated
    games_per_pairing: int
    levels: list[RatedLevel]


class Ladder(msgspec.Struct, forbid_unknown_fields=True):
    """A game's ladder file: each rated mode's ladder."""

    game: str
    model: str
    modes: dict[str, ModeLadder] = {}


def read_ladder(game: str) -> Ladder | None:
    """The installed game's ladder (None when it ships none, or the file is not a ladder)."""
    found = package_file(game, LADDER_FILE)
    if found is None or not found.is_file():
        return None
    try:
        return msgspec.json.decode(found.read_bytes(), type=Ladder)
    except msgspec.DecodeError:
        return None


def about(rating: float) -> str:
    """How a level's rating reads beside its name: 'Bot · about 21' (the leaderboard's number, rounded)."""
    return f"Bot · about {round(rating):,}"


def luck_note(ladder: ModeLadder) -> str:
    """What a player should know before choosing a level, from the ladder's results ('' when nothing).

    The random level picks any legal move. Where it still wins at least half the share a seat
    would win by a coin toss (1 / seats), luck decides much of a match, and a rating says little:
    on the ladders of December 2026, Beasts capture's random won 16 of 48, the other modes' 0 to 3.
    """
    blind = next((level for level in ladder.levels if level.level == "random"), None)
    if blind is None or not blind.matches or blind.wins / blind.matches < 1 / (2 * ladder.seats):
        return ""
    return (
        f"A game of luck: the random bot, which picks any legal move, won {blind.wins} of its "
        f"{blind.matches} ladder matches, so a level's rating says little here."
    )


class Rated(Protocol):
    """Anything rated on the ladder: a RatedLevel, or its protobuf (BotLevelRating)."""

    @property
    def rating(self) -> float:
        """The leaderboard's number."""
        ...


R = TypeVar("R", bound=Rated)


def nearest(levels: Sequence[R], ratings: Sequence[float]) -> R | None:
    """The level whose rating is nearest the mean of `ratings` (the weaker of two as near); None without levels."""
    if not levels:
        return None
    if not ratings:
        return min(levels, key=lambda level: level.rating)  # nobody to match: the gentlest
    mean = sum(ratings) / len(ratings)
    return min(levels, key=lambda level: (abs(level.rating - mean), level.rating))
