"""The Redis match store (DESIGN.md "Storage and the event bus")."""

from menagerie.shared.store.match_store import Commit, CommitResult, MatchStore, NewMatch
from menagerie.shared.store.records import (
    ACTIVE,
    FINISHED,
    DecisionCount,
    MatchMeta,
    MatchRecord,
    SeatDeadline,
    SeatMeta,
    StoredEntry,
)

__all__ = [
    "ACTIVE",
    "FINISHED",
    "Commit",
    "CommitResult",
    "DecisionCount",
    "MatchMeta",
    "MatchRecord",
    "MatchStore",
    "NewMatch",
    "SeatDeadline",
    "SeatMeta",
    "StoredEntry",
]
