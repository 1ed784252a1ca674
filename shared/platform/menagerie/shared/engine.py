"""Untyped events of engines not yet on typed events (menagerie.rules.events replaces this).

`Event.public` is what every viewer sees; `private[seat]` adds fields only that seat
sees. `affects` lists the seats whose view the event changes; None means every seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec


class Event(msgspec.Struct, frozen=True, omit_defaults=True):
    """Something that happened in a match, with its private parts per seat."""

    kind: str
    public: dict[str, Any] = {}
    private: dict[int, dict[str, Any]] = {}
    affects: tuple[int, ...] | None = None


def project_event(event: Event, viewer: int | None) -> dict[str, Any]:
    """The fields of `event` that `viewer` (a seat, or None for a spectator) may see."""
    extra = event.private.get(viewer) if viewer is not None else None
    if extra:
        return {**event.public, **extra}
    return event.public


def seats_affected(events: Sequence[Event], seats: int) -> set[int]:
    """The seats whose view changes through `events`."""
    affected: set[int] = set()
    for event in events:
        if event.affects is None:
            return set(range(seats))
        affected.update(event.affects)
    return affected


def next_view_versions(
    versions: Sequence[int],
    version: int,
    actor: int,
    events: Sequence[Event],
    to_act_before: Sequence[int],
    to_act_after: Sequence[int],
) -> list[int]:
    """Each seat's view version once an action by `actor` made the match `version`."""
    changed = seats_affected(events, len(versions)) | {actor} | (set(to_act_before) ^ set(to_act_after))
    return [version if s in changed else v for s, v in enumerate(versions)]
