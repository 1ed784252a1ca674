"""Small asyncio helpers for the services' background loops."""

from __future__ import annotations

import asyncio
import contextlib


async def pause(stop: asyncio.Event, seconds: float) -> bool:
    """Waits `seconds` unless `stop` is set first; True when it is time to stop."""
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)
    return stop.is_set()
