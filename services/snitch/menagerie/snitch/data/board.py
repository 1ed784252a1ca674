"""All the board data at once (`load_data()`): the pitch, the track, the dice, the Players and the Goal Hoop cards."""

from __future__ import annotations

from functools import cache
from typing import Any

from menagerie.snitch.data.dice import Dice
from menagerie.snitch.data.hoops import Hoops
from menagerie.snitch.data.pitch import Pitch
from menagerie.snitch.data.players import Players
from menagerie.snitch.data.records import Record, convert, read_toml
from menagerie.snitch.data.track import Track

# --- All of it ------------------------------------------------------------------------


class BoardData(Record, frozen=True):
    """The pitch, the track, the dice, the basic players and the Goal Hoop cards."""

    pitch: Pitch
    track: Track
    dice: Dice
    players: Players
    hoops: Hoops


FILES: dict[str, tuple[str, type[Any]]] = {
    "pitch": ("pitch.toml", Pitch),
    "track": ("track.toml", Track),
    "dice": ("dice.toml", Dice),
    "players": ("players.toml", Players),
    "hoops": ("hoops.toml", Hoops),
}


def read_files() -> dict[str, dict[str, Any]]:
    """Each of this module's data files as read (keyed pitch, track, dice, players, hoops), before validation."""
    return {key: read_toml(name) for key, (name, _) in FILES.items()}


def parse(files: dict[str, dict[str, Any]]) -> BoardData:
    """Validated data from the files' contents; DataError names the file and the entry at fault."""
    parts = {key: convert(name, files[key], kind) for key, (name, kind) in FILES.items()}
    return BoardData(**parts)


@cache
def load_data() -> BoardData:
    """The validated data (read once per process)."""
    return parse(read_files())
