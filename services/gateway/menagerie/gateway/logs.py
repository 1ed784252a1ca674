"""Rate-limited logging of what a flood makes the server say (issue 29, item 2).

Under 1,100 idle sockets and a 1,024-fd limit, asyncio logged one traceback per failed
accept (18.9 MB in 10 s). `OncePerInterval` lets one record of each kind (logger and message
template) through per interval, without its traceback after the first, saying how many of
the same kind it held back. It also counts uvicorn's own refusals, which have no other hook.
"""

from __future__ import annotations

import logging
import threading
import time

from menagerie.gateway import metrics

# The server's messages that are refusals, and the reason label they count under.
REFUSAL_MESSAGES = {
    "Exceeded concurrency limit.": "concurrency",
    "Invalid HTTP request received.": "bad_request",
}
# The loggers a flood of connections writes to.
FLOODED_LOGGERS = ("asyncio", "uvicorn.error")


class OncePerInterval(logging.Filter):
    """Passes one record per (logger, message template) per `interval` seconds."""

    def __init__(self, interval: float) -> None:
        super().__init__()
        self.interval = interval
        self._last: dict[tuple[str, str], float] = {}
        self._held: dict[tuple[str, str], int] = {}
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        """True for the first record of its kind in the interval (with the count of those held back)."""
        template = str(record.msg)
        if reason := REFUSAL_MESSAGES.get(template):
            metrics.REFUSALS.labels(reason).inc()
        kind = (record.name, template)
        now = time.monotonic()
        with self._lock:
            last = self._last.get(kind)
            if last is not None and now - last < self.interval:
                self._held[kind] = self._held.get(kind, 0) + 1
                return False
            self._last[kind] = now
            held = self._held.pop(kind, 0)
        if held:
            record.msg = f"{template} ({held} more like this in the last {self.interval:g} s)"
            # The traceback was logged with the first one: the same lines again tell nothing.
            record.exc_info = None
            record.exc_text = None
        return True


def rate_limit_server_logs(interval: float) -> None:
    """Installs OncePerInterval on the loggers a flood writes to."""
    for name in FLOODED_LOGGERS:
        logging.getLogger(name).addFilter(OncePerInterval(interval))
