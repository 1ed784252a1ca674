"""Keeping the cycle collector's long pauses out of a timed decision.

A search stops at its deadline, but a full collection that starts in its last iteration
finishes first, and a full collection walks every object of the process: 12–21 ms in a
Snitch search's process, more in a bigger heap (issue 33's limit is the budget + 10%, 110 ms
at 0.1 s). While a decision is under way the objects that were there before it (the engine's
data, the memos, the last match) are frozen (`gc.freeze`): the collector keeps collecting,
but only among the objects the search makes. They are unfrozen when it ends, so any garbage
among them is still collected later; freezing and unfreezing move lists, whatever their size.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_deciding = 0  # decisions under way in this process (a threads worker may run several)


@contextmanager
def older_objects_frozen() -> Iterator[None]:
    """The objects alive before the block left out of collections until it ends (overlapping blocks: the outermost)."""
    global _deciding
    with _lock:
        if _deciding == 0:
            gc.freeze()
        _deciding += 1
    try:
        yield
    finally:
        with _lock:
            _deciding -= 1
            if _deciding == 0:
                gc.unfreeze()
