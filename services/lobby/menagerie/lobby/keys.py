"""The lobby's Redis keys. Keys that one script touches together share a hash tag.

A public queue (game, mode, options) has tag `q<hash>`; a private table has tag
`t<table id>`. A ticket id starts with its tag, so every ticket key can be found from
the id alone and lives in its queue's (or table's) slot. A player's record (its name and
the slots its open tickets and tables hold, see players.py) is one key, in a slot of its own.
"""

from __future__ import annotations

import hashlib
import json

QUEUES = "lb:queues"


def queue_tag(game: str, mode: str, options: dict[str, str]) -> str:
    """The tag of the public queue for one game, mode and options."""
    canonical = json.dumps([game, mode, sorted(options.items())], separators=(",", ":"))
    return "q" + hashlib.sha1(canonical.encode()).hexdigest()[:12]


def table_tag(table_id: str) -> str:
    """The tag of a private table."""
    return f"t{table_id}"


def tag_of(ticket_id: str) -> str:
    """The tag a ticket id carries."""
    return ticket_id.split(".", 1)[0]


def _base(tag: str) -> str:
    return f"lb:{{{tag}}}"


def ticket(ticket_id: str) -> str:
    return f"{_base(tag_of(ticket_id))}:ticket:{ticket_id}"


def updates(ticket_id: str) -> str:
    return f"{_base(tag_of(ticket_id))}:ticket:{ticket_id}:updates"


def waiting(tag: str) -> str:
    return f"{_base(tag)}:waiting"


def queue_meta(tag: str) -> str:
    return f"{_base(tag)}:queue"


def claims(tag: str) -> str:
    return f"{_base(tag)}:claims"


def claim(tag: str, match_id: str) -> str:
    return f"{_base(tag)}:claim:{match_id}"


def lock(tag: str) -> str:
    return f"{_base(tag)}:lock"


def table(table_id: str) -> str:
    return f"{_base(table_tag(table_id))}:table"


def player(player_id: str) -> str:
    # reserve.lua touches this key alone; it keeps its old name (no tag) so existing records are found.
    return f"lb:player:{player_id}"


def seated_match(match_id: str) -> str:
    """A match the lobby started: its game, mode and who sits where (menagerie.lobby.seats)."""
    return f"lb:{{m:{match_id}}}:seated"


def player_matches(player_id: str) -> str:
    """The matches a player was seated in, by start time."""
    return f"lb:{{p:{player_id}}}:matches"


def ticket_watcher(ticket_id: str) -> str:
    """Until when (ms) a ticket counts as watched; set by its WatchTicket streams, absent if never watched."""
    return f"{_base(tag_of(ticket_id))}:ticket:{ticket_id}:watcher"


def ratings_base(game: str) -> str:
    return f"lb:{{r:{game}}}"


def rating(game: str, player_id: str) -> str:
    return f"{ratings_base(game)}:rating:{player_id}"


def board(game: str) -> str:
    return f"{ratings_base(game)}:board"


def rated(game: str, match_id: str) -> str:
    return f"{ratings_base(game)}:rated:{match_id}"
