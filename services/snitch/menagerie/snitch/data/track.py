"""The Snitch race track (track.toml): its spaces, where the Snitch and the Seekers start."""

from __future__ import annotations

from typing import Annotated

import msgspec

from menagerie.snitch.data.records import DataError, Positive, Record

# --- The Snitch race track ------------------------------------------------------------


class Track(Record, frozen=True):
    """The Snitch Race: spaces 1 (first) to `spaces` (last), and where the Snitch and the Seekers start."""

    spaces: Annotated[int, msgspec.Meta(ge=2)]
    snitch_start: Positive
    seekers_start: Positive

    def __post_init__(self) -> None:
        if self.snitch_start != self.spaces:
            raise DataError("snitch_start: the Golden Snitch starts 'in the last space of the Snitch Race'")
        if self.seekers_start != 1:
            raise DataError("seekers_start: each Seeker starts 'in the first space of the Snitch Race'")
