"""Recently seen match snapshots, kept in process to skip a Redis read on the hot path.

The cache is only ever a guess: a move built on a cached snapshot is committed with a
compare-and-set on the match version, so a stale guess costs one retry, never a wrong
result. Refusals are never decided from it (see GameHost.submit_action).
"""

from __future__ import annotations

from collections import OrderedDict

from menagerie.shared.store import MatchRecord


class SnapshotCache:
    """The latest known snapshot of up to `capacity` matches, least recently used out first."""

    def __init__(self, capacity: int = 10_000) -> None:
        self._records: OrderedDict[str, MatchRecord] = OrderedDict()
        self._capacity = capacity

    def get(self, match_id: str) -> MatchRecord | None:
        """The snapshot last seen for the match, if any."""
        record = self._records.get(match_id)
        if record is not None:
            self._records.move_to_end(match_id)
        return record

    def put(self, record: MatchRecord) -> None:
        """Remembers a snapshot unless a newer one is known; forgets finished matches."""
        known = self._records.get(record.match_id)
        if known is not None and known.version > record.version:
            return
        if record.finished:
            self._records.pop(record.match_id, None)
            return
        self._records[record.match_id] = record
        self._records.move_to_end(record.match_id)
        if len(self._records) > self._capacity:
            self._records.popitem(last=False)

    def forget(self, match_id: str) -> None:
        """Drops the match's snapshot (after a lost race)."""
        self._records.pop(match_id, None)
