"""The gateway's bounded inflating and rate-limited logging (issue 29, items 1 and 2), without a server."""

from __future__ import annotations

import asyncio
import gzip
import logging

import pytest

from menagerie.gateway.limits import Refused, inflate
from menagerie.gateway.logs import OncePerInterval


def test_inflating_stops_at_the_limit() -> None:
    """Must: decompression is bounded (or refused) so no request can make the process allocate more than a few
    times the limit."""
    bomb = gzip.compress(b"\0" * (64 * 1024 * 1024))
    with pytest.raises(Refused) as refused:
        asyncio.run(inflate(bomb, 1024 * 1024))
    assert refused.value.status == 413 and refused.value.reason == "too_large"
    two_members = gzip.compress(b"ab") + gzip.compress(b"cd")
    assert asyncio.run(inflate(two_members, 1024)) == b"abcd"
    for broken in (b"not gzip", gzip.compress(b"abc")[:-4]):
        with pytest.raises(Refused) as refused:
            asyncio.run(inflate(broken, 1024))
        assert refused.value.status == 400 and refused.value.reason == "bad_gzip"


def test_one_line_per_kind_per_interval() -> None:
    """Must: logging that is rate-limited (one line per kind per interval, not one traceback per accept)."""
    passing = OncePerInterval(interval=3600)

    def record(message: str) -> logging.LogRecord:
        return logging.LogRecord("asyncio", logging.ERROR, __file__, 1, message, None, (OSError, OSError(24), None))

    first = record("socket.accept() out of system resource")
    assert passing.filter(first) and first.exc_info is not None
    assert not any(passing.filter(record("socket.accept() out of system resource")) for _ in range(1000))
    assert passing.filter(record("another kind"))
    passing.interval = 0
    summary = record("socket.accept() out of system resource")
    assert passing.filter(summary) and "1000 more like this" in summary.getMessage() and summary.exc_info is None
