"""Latency figures for the benchmarks."""

from __future__ import annotations

import statistics
from dataclasses import dataclass


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
