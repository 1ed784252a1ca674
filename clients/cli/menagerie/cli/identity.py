"""The player the CLI plays as, kept between runs so `menagerie resume` finds the player's matches.

The lobby knows a guest by the player token RegisterPlayer signed. The CLI keeps that
token per lobby address in $MENAGERIE_HOME/players.json (default ~/.menagerie), readable
by the user only, and uses it again until it expires or the lobby stops accepting it.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

# A token this close to its expiry is not used again (a match may outlast it).
MARGIN_SECONDS = 3600


@dataclass(frozen=True)
class Identity:
    """A registered guest at one lobby."""

    player_id: str
    token: str
    display_name: str
    expires_at: float  # seconds since the epoch (0: unknown)

    def usable(self, now: float | None = None) -> bool:
        """True while the token is far enough from its expiry."""
        return not self.expires_at or self.expires_at - MARGIN_SECONDS > (now or time.time())


def home() -> Path:
    """Where the CLI keeps its files."""
    return Path(os.environ.get("MENAGERIE_HOME") or Path.home() / ".menagerie")


def _file() -> Path:
    return home() / "players.json"


def _read() -> dict[str, dict[str, object]]:
    try:
        data = json.loads(_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def load(lobby: str) -> Identity | None:
    """The identity kept for `lobby`, if any and still usable."""
    entry = _read().get(lobby)
    if not isinstance(entry, dict):
        return None
    try:
        identity = Identity(
            str(entry["player_id"]), str(entry["token"]), str(entry["display_name"]), float(str(entry["expires_at"]))
        )
    except (KeyError, ValueError):
        return None
    return identity if identity.usable() else None


def save(lobby: str, identity: Identity) -> None:
    """Keeps `identity` for `lobby` (best effort: a read-only home only costs resuming)."""
    data = _read()
    data[lobby] = asdict(identity)
    try:
        home().mkdir(parents=True, exist_ok=True)
        path = _file()
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(data, indent=2), encoding="utf-8")
        temporary.chmod(0o600)
        temporary.replace(path)
    except OSError:
        pass
