"""Latency figures for the benchmarks."""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
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


@dataclass
class Rounds:
    """A load measured in alternating rounds: each round's figures, kept apart to show their spread."""

    each: list[Latencies] = field(default_factory=list)
    cpu: dict[str, float] = field(default_factory=dict)  # CPU seconds of the processes watched, by name

    def add(self, run: Latencies, cpu: dict[str, float] | None = None) -> None:
        """One more round, and the CPU time each watched process used during it."""
        self.each.append(run)
        for name, seconds in (cpu or {}).items():
            self.cpu[name] = self.cpu.get(name, 0.0) + seconds

    def cpu_per_call_us(self, name: str) -> float:
        """µs of the process `name`'s CPU per timed call, over every round."""
        return self.cpu.get(name, 0.0) / len(self.pooled.samples) * 1e6

    @property
    def pooled(self) -> Latencies:
        """Every round's samples over every round's wall time: the figure printed."""
        return sum(self.each[1:], self.each[0])


Figure = Callable[[Latencies], float]


def ratio_spread(over: Rounds, under: Rounds, figure: Figure) -> str:
    """The lowest and highest round of figure(over) / figure(under): the precision of the pooled ratio."""
    ratios = [figure(a) / figure(b) for a, b in zip(over.each, under.each, strict=True)]
    return f"rounds {min(ratios):.2f}–{max(ratios):.2f}"


def p50(run: Latencies) -> float:
    """A run's median latency (ms)."""
    return run.p50_ms


def p99(run: Latencies) -> float:
    """A run's 99th percentile latency (ms)."""
    return run.p99_ms


def rate(run: Latencies) -> float:
    """A run's calls per second."""
    return run.per_second


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


@contextmanager
def took(section: str) -> Iterator[None]:
    """Prints the wall time of the block: where `make bench`'s minutes go, section by section."""
    started = time.perf_counter()
    yield
    print(f"  ({section} took {time.perf_counter() - started:.0f} s)", flush=True)
