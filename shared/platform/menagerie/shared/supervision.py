"""Supervised background loops: restart on any error, with exponential backoff and jitter.

A loop is `async def loop(stop: asyncio.Event) -> None` that runs until `stop` is set.
The supervisor restarts it whatever it raises — a Redis ConnectionError after
`CLIENT KILL`, Redis restarted empty, a broker that is down — so a process never ends
because one of its loops failed; it only ends when asked to stop.

The wait before a restart doubles from `initial` up to `maximum` ("equal jitter": a
random point in the upper half of the step, so replicas that failed together do not
retry together). Each failure is logged once, when it happens: the first of a run of
failures with its traceback, the next ones as one line each (the backoff bounds how
many there are). A loop that then stays up for `reset_after` seconds is logged as
recovered and its backoff starts again from `initial` (Kubernetes resets a crash
loop's backoff the same way); a shorter run is no proof, since a failing attempt can
itself take seconds (a publish retrying, a connect timing out).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import structlog
from prometheus_client import Counter

from menagerie.shared.aio import pause

Loop = Callable[[asyncio.Event], Coroutine[Any, Any, None]]

LOOP_RESTARTS = Counter(
    "menagerie_loop_restarts_total",
    "Background loops restarted after an error, by process and loop",
    ["process", "loop"],
)


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff with equal jitter, in seconds."""

    initial: float = 0.1
    maximum: float = 5.0
    factor: float = 2.0
    reset_after: float = 60.0

    def delay(self, failures: int, rng: random.Random | None = None) -> float:
        """The wait before restart number `failures` (1 = after the first failure)."""
        step = min(self.maximum, self.initial * self.factor ** max(0, failures - 1))
        return step / 2 + (rng or random).uniform(0, step / 2)


async def supervise(
    process: str,
    name: str,
    loop: Loop,
    stop: asyncio.Event,
    log: structlog.stdlib.BoundLogger,
    backoff: Backoff = Backoff(),
) -> None:
    """Runs `loop` until `stop` is set, restarting it after any error; never raises except CancelledError."""
    failures = 0
    while not stop.is_set():
        task = asyncio.create_task(loop(stop), name=f"{process}:{name}")
        try:
            if failures:
                done, _ = await asyncio.wait({task}, timeout=backoff.reset_after)
                if not done:
                    log.info("background loop recovered", loop=name, failures=failures)
                    failures = 0
            await task
            if stop.is_set():
                return
            # Returning while the process runs is a bug in the loop, but the loop is still needed.
            raise RuntimeError(f"loop {name} returned before stop")
        except asyncio.CancelledError:
            task.cancel()
            raise
        except Exception as exc:
            if stop.is_set():
                return  # failing while the process stops (its store may be gone already) is no news
            failures += 1
            LOOP_RESTARTS.labels(process, name).inc()
            wait = backoff.delay(failures)
            if failures == 1:
                log.exception("background loop failed; restarting", loop=name, retry_in=round(wait, 3))
            else:
                log.warning(
                    "background loop failed again; restarting",
                    loop=name,
                    error=f"{type(exc).__name__}: {exc}",
                    failures=failures,
                    retry_in=round(wait, 3),
                )
            if await pause(stop, wait):
                return
