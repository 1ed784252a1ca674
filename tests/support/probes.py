"""Asking running processes how they are: polling a condition, HTTP health and Prometheus samples."""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from collections.abc import Callable

from prometheus_client.parser import text_string_to_metric_families

HTTP_TIMEOUT = 5.0


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    """Polls `condition` every 0.1 s until it holds; fails naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.1)


def settled(read: Callable[[], int], quiet: float, limit: float) -> int:
    """`read()` once it has not changed for `quiet` seconds (AssertionError after `limit`)."""
    deadline = time.monotonic() + limit
    value, since = read(), time.monotonic()
    while time.monotonic() - since < quiet:
        assert time.monotonic() < deadline, f"still changing after {limit} s"
        time.sleep(0.05)
        if (now := read()) != value:
            value, since = now, time.monotonic()
    return value


def http_get(url: str) -> tuple[int, str]:
    """(status, body) of a GET; (0, "") when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=HTTP_TIMEOUT) as reply:
            return int(reply.status), reply.read().decode()
    except urllib.error.HTTPError as error:
        return int(error.code), error.read().decode()
    except urllib.error.URLError:
        return 0, ""


def samples(base_url: str, name: str) -> dict[tuple[tuple[str, str], ...], float]:
    """The samples of one metric at `base_url`/metrics, by their sorted labels."""
    status, text = http_get(f"{base_url}/metrics")
    assert status == 200, f"{base_url}/metrics answered {status}"
    return {
        tuple(sorted(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == name
    }


def total(base_url: str, name: str) -> float:
    """The sum of a metric's samples at `base_url`/metrics (0 when it has none yet)."""
    return sum(samples(base_url, name).values())
