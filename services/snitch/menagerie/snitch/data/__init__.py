"""Authored data of Catch the Golden Snitch: pitch, race track, dice, Players, Goal Hoops, Spectators (see RULES.md).

The rulebook (`catch-the-golden-snitch.txt`) is explicit about the kinds of things on the
board and the cards; the shapes and numbers it leaves open are authored in the TOML files
beside this module. The loader refuses data that breaks the rulebook or the authored
invariants, with a `DataError` naming the file and the entry. Pure: it reads package data
(importlib.resources) and nothing else.

The helpers `DataError`, `read_toml` and `convert` are shared with the package's other
loaders (the tactical decks and the Snitch race deck). The Player cards are the 28 basic
cards of the box and the unique Players (✷) with their Traits (`Trait`, `describe_trait`);
the Spectator cards load apart (`load_spectators()`), their effects taken from the Intrepid
Move vocabulary of `cards.py` (and worded by its `describe_effect`).

One module per job, each importing only from those listed before it (`cards.py` from
`records` and `rulebook`, `spectators` from `cards`):

- `records`: the loading helpers (`DataError`, `read_toml`, `convert`, `Record`) and the
  constrained field types (`Count`, `Positive`, `Id`);
- `rulebook`: the rulebook's words (`House`, `Position`, `Colour`, `Symbol`, ...) and the
  explicit facts the files are held to (`ZONE_COUNT`, `TEAM`, `SYMBOL_VALUES`, ...);
- `pitch`: the Pitch (`Zone`, `Half`, `Occupant`, `Pitch`) and the tables derived from it;
- `track`: the Snitch race track (`Track`);
- `dice`: the dice (`SymbolValue`, `Die`, `SetupRoll`, `Dice`) and a card's dice pool (`DicePool`);
- `players`: the Positions (`PositionSpec`), the Traits (`Trait`, `describe_trait`) and the
  Player cards (`PlayerCard`, `Players`);
- `hoops`: the Goal Hoop cards (`Hoops`);
- `cards`: the tactical decks and the Snitch race deck;
- `spectators`: the Spectator cards (`SpectatorCard`, `Spectators`, `load_spectators`);
- `board`: all the board data at once (`BoardData`, `read_files`, `parse`, `load_data`).

Every public name of those modules but `cards` is re-exported here: import them from
`menagerie.snitch.data` (and the card decks from `menagerie.snitch.data.cards`).
"""

from __future__ import annotations

from menagerie.snitch.data.board import (
    FILES,
    BoardData,
    load_data,
    parse,
    read_files,
)
from menagerie.snitch.data.dice import (
    Dice,
    DicePool,
    Die,
    SetupRoll,
    SymbolValue,
)
from menagerie.snitch.data.hoops import (
    Hoops,
)
from menagerie.snitch.data.pitch import (
    Half,
    Occupant,
    Pitch,
    Zone,
)
from menagerie.snitch.data.players import (
    REACTION_ROLLS,
    OneOrTwo,
    PlayerCard,
    Players,
    PositionSpec,
    RerollTrait,
    RollBonusTrait,
    SteadyTrait,
    TempoOn,
    TempoTrait,
    ToughTrait,
    Trait,
    TraitRoll,
    UpToThree,
    describe_trait,
    trait_roll_listed,
)
from menagerie.snitch.data.records import (
    Count,
    DataError,
    Id,
    Positive,
    Record,
    T,
    convert,
    read_toml,
)
from menagerie.snitch.data.rulebook import (
    COLOURS,
    DICE_PER_COLOUR,
    EVERY_PITCH_PLAYER_REACTS,
    FACES_PER_DIE,
    HOUSES,
    ONLY,
    PLAYER_CARDS,
    POSITIONS,
    RACE_ACTIONS,
    SCORING_AREA_OCCUPANTS,
    SYMBOL_VALUES,
    SYMBOLS,
    TEAM,
    UNIQUE_MARK,
    ZONE_COUNT,
    ActionName,
    Colour,
    House,
    Position,
    ReactionName,
    Side,
    Symbol,
)
from menagerie.snitch.data.spectators import (
    BOUGHT_SPECTATORS,
    FERVENT_FAN,
    FERVENT_FANS,
    IMMEDIATE_EFFECTS,
    MAX_SPECTATOR_COST,
    STAND_ZONES,
    SpectatorCard,
    SpectatorCost,
    Spectators,
    StandZone,
    load_spectators,
    parse_spectators,
)
from menagerie.snitch.data.track import (
    Track,
)

__all__ = [
    "BOUGHT_SPECTATORS",
    "COLOURS",
    "DICE_PER_COLOUR",
    "EVERY_PITCH_PLAYER_REACTS",
    "FACES_PER_DIE",
    "FERVENT_FAN",
    "FERVENT_FANS",
    "FILES",
    "HOUSES",
    "IMMEDIATE_EFFECTS",
    "MAX_SPECTATOR_COST",
    "ONLY",
    "PLAYER_CARDS",
    "POSITIONS",
    "RACE_ACTIONS",
    "REACTION_ROLLS",
    "SCORING_AREA_OCCUPANTS",
    "STAND_ZONES",
    "SYMBOLS",
    "SYMBOL_VALUES",
    "TEAM",
    "UNIQUE_MARK",
    "ZONE_COUNT",
    "ActionName",
    "BoardData",
    "Colour",
    "Count",
    "DataError",
    "Dice",
    "DicePool",
    "Die",
    "Half",
    "Hoops",
    "House",
    "Id",
    "Occupant",
    "OneOrTwo",
    "Pitch",
    "PlayerCard",
    "Players",
    "Position",
    "PositionSpec",
    "Positive",
    "ReactionName",
    "Record",
    "RerollTrait",
    "RollBonusTrait",
    "SetupRoll",
    "Side",
    "SpectatorCard",
    "SpectatorCost",
    "Spectators",
    "StandZone",
    "SteadyTrait",
    "Symbol",
    "SymbolValue",
    "T",
    "TempoOn",
    "TempoTrait",
    "ToughTrait",
    "Track",
    "Trait",
    "TraitRoll",
    "UpToThree",
    "Zone",
    "convert",
    "describe_trait",
    "load_data",
    "load_spectators",
    "parse",
    "parse_spectators",
    "read_files",
    "read_toml",
    "trait_roll_listed",
]
