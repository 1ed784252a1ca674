"""Latency figures for the benchmarks."""

from __future__ import annotations

import os
import statistics
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Latencies:
    """Latencies (seconds) and the wall time they were collected in."""

    samples: list[float]
    wall: float

    @property
    def p50_ms(self) -> float:
        return statistics.median(self.samples) * 1000

    @property
    def p99_ms(self) -> float:
        return statistics.quantiles(self.samples, n=100)[98] * 1000

    @property
    def per_second(self) -> float:
        return len(self.samples) / self.wall

    def __add__(self, other: Latencies) -> Latencies:
        """Both runs' samples over both runs' wall time (rounds of one measurement)."""
        return Latencies(self.samples + other.samples, self.wall + other.wall)


def verdict(met: bool) -> str:
    """The marker printed beside a target: computed from the run's own figures."""
    return "PASS" if met else "MISS"


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) used so far by a process and, if it leads a session, the live rest of it.

    A process started in a session of its own (tests.support.services.worker_process: the
    dispatcher, the bot worker and the pool it forks) counts with what it forked; Linux /proc.
    """
    lead = os.getsid(pid) == pid
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat") if lead else [Path(f"/proc/{pid}/stat")]:
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # it exited meanwhile
            continue
        if not lead or int(fields[3]) == pid:  # fields[3]: the session id
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")
