"""The Redis match store (docs/architecture.md "Storage")."""

from menagerie.shared.store.match_store import Commit, CommitResult, MatchStore, NewMatch, SeatChange, read_archive
from menagerie.shared.store.records import (
    ACTIVE,
    FINISHED,
    Archive,
    DecisionCount,
    MatchMeta,
    MatchRecord,
    SeatDeadline,
    SeatMeta,
    StoredEntry,
    WinEstimates,
)

__all__ = [
    "ACTIVE",
    "FINISHED",
    "Archive",
    "Commit",
    "CommitResult",
    "DecisionCount",
    "MatchMeta",
    "MatchRecord",
    "MatchStore",
    "NewMatch",
    "SeatChange",
    "SeatDeadline",
    "SeatMeta",
    "StoredEntry",
    "WinEstimates",
    "read_archive",
]
