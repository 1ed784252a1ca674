"""The Spectator cards (spectators.toml), loaded apart from the board data (`load_spectators()`).

Their effects are the immediate Intrepid Move effects of `cards.py`.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Annotated, Any, Literal, get_args

import msgspec

from menagerie.snitch.data.cards import (
    Bludger,
    DiceTokens,
    Effect,
    FreeAction,
    Shift,
    Tempo,
    Upwind,
)
from menagerie.snitch.data.records import DataError, Id, Positive, Record, convert, read_toml
from menagerie.snitch.data.rulebook import HOUSES, UNIQUE_MARK, House

# --- Spectator cards ------------------------------------------------------------------
# Their effects are the Intrepid Move effects of cards.py.

StandZone = Literal["magic", "encouragement"]  # l.715 "the Magic Zone and the Encouragement Zone"
STAND_ZONES: tuple[StandZone, ...] = get_args(StandZone)
FERVENT_FAN = "fervent_fan"  # l.699, l.717: every Coach receives one at no cost
FERVENT_FANS = 2  # one per Coach
MAX_SPECTATOR_COST = 2  # authored
BOUGHT_SPECTATORS = 2  # l.699 "may purchase up to 2 additional Spectators"
# A Spectator's effect applies when its token is placed (l.719): the immediate kinds only.
IMMEDIATE_EFFECTS: tuple[type, ...] = (Shift, FreeAction, DiceTokens, Tempo, Bludger, Upwind)
SpectatorCost = Annotated[int, msgspec.Meta(ge=0, le=MAX_SPECTATOR_COST)]


def _effect_kind(effect: Effect) -> str:
    return str(type(effect).__struct_config__.tag)


class SpectatorCard(Record, frozen=True):
    """A Spectator card (l.715–721): the Stand Zones it may be placed in, its first effect (placed in an
    empty Zone) and its second (placed on a rival Spectator, which is removed first), cost, Houses, copies."""

    id: Id
    name: str
    cost: SpectatorCost
    affiliation: tuple[House, ...]
    zones: tuple[StandZone, ...]
    first: Effect
    second: Effect
    copies: Positive = 1

    def __post_init__(self) -> None:
        if not self.affiliation or len(set(self.affiliation)) != len(self.affiliation):
            raise DataError("one or more distinct Houses in its affiliation")
        if not self.zones or len(set(self.zones)) != len(self.zones):
            raise DataError("zones: one or both of magic, encouragement, each once (l.719)")
        for which, effect in (("first", self.first), ("second", self.second)):
            if not isinstance(effect, IMMEDIATE_EFFECTS) or (isinstance(effect, Tempo) and effect.on is not None):
                kind = _effect_kind(effect) + (" with on" if isinstance(effect, Tempo) else "")
                raise DataError(
                    f"{which}: {kind} is not an immediate effect; a Spectator's effect applies when it is "
                    "placed (shift, free_action, dice_tokens, tempo without on, bludger, upwind)"
                )
        if self.first == self.second:
            raise DataError("second: the effect on displacing a rival Spectator differs from the first (l.719)")
        if self.id == FERVENT_FAN:
            if self.cost != 0 or self.copies != FERVENT_FANS or set(self.affiliation) != set(HOUSES):
                raise DataError(f"the Fervent Fan costs 0, has {FERVENT_FANS} copies (one per Coach) and every House")
            if "✷" in self.name:
                raise DataError("the Fervent Fan is not unique: no ✷ in its name")
            return
        if self.cost == 0:
            raise DataError("only the Fervent Fan is free; a bought Spectator costs 1 or 2 Galleons (l.717)")
        if self.copies != 1 or not self.name.endswith(UNIQUE_MARK):
            raise DataError(f"a bought Spectator is one card (copies = 1) named with a '{UNIQUE_MARK}' (l.707)")


class Spectators(Record, frozen=True):
    """The Spectator cards (spectators.toml): the Fervent Fan and the Spectators a Coach may buy."""

    spectators: tuple[SpectatorCard, ...]

    def __post_init__(self) -> None:
        ids = [c.id for c in self.spectators]
        if len(set(ids)) != len(ids):
            raise DataError(f"spectators: an id used twice: {sorted(i for i, n in Counter(ids).items() if n > 1)}")
        if FERVENT_FAN not in ids:
            raise DataError(f"spectators: no Fervent Fan ({FERVENT_FAN}), which every Coach receives (l.699)")
        for house in HOUSES:
            if len([c for c in self.bought if house in c.affiliation]) < BOUGHT_SPECTATORS:
                raise DataError(f"spectators: {house} may buy {BOUGHT_SPECTATORS} Spectators (l.699), it has fewer")

    @property
    def bought(self) -> tuple[SpectatorCard, ...]:
        """The Spectators that cost Galleons, in file order."""
        return tuple(c for c in self.spectators if c.id != FERVENT_FAN)

    def card(self, card_id: str) -> SpectatorCard:
        """The Spectator card with this id (KeyError if none)."""
        for card in self.spectators:
            if card.id == card_id:
                return card
        raise KeyError(card_id)


def parse_spectators(raw: dict[str, Any]) -> Spectators:
    """The Spectator cards from spectators.toml's contents; DataError names the file and the card."""
    return convert("spectators.toml", raw, Spectators)


@cache
def load_spectators() -> Spectators:
    """The validated Spectator cards (read once per process)."""
    return parse_spectators(read_toml("spectators.toml"))
