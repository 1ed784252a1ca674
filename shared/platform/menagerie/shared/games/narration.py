"""How the game host words things for one reader: the seats named by display name, why a match ended.

GameHost (menagerie.shared.games.host) and its replays (menagerie.shared.games.replays) both
write the engine's sentences for a reader through these, so every answer names the seats alike.
"""

from __future__ import annotations

from typing import Any

from menagerie.rules.text import Narrator
from menagerie.shared.store import MatchMeta


def narrator_for(meta: MatchMeta, viewer: int | None) -> Narrator:
    """Writes the engine's sentences for `viewer`, naming the other seats by display name."""
    return Narrator(viewer, [seat.display_name for seat in meta.seats])


def reason_for(view: Any, narrator: Narrator) -> str:
    """Why the match ended, its seats named for the reader ("" while it goes on)."""
    outcome = getattr(view, "outcome", None)
    return narrator.named(outcome.reason) if outcome is not None else ""
