"""How far a run is, on stderr: matches done of the total, the rate, and an estimate of the time left.

On a terminal a bar (rich) redrawn in place; otherwise (a log, `nohup`, a pipe) a line every
LINE_SECONDS, and one when the run ends. The rate and the time left count only the matches
played by this command: those a resumed file already held took no time now.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

LINE_SECONDS = 10.0


def _duration(seconds: float) -> str:
    """3725 -> '1h02m05s'; 65 -> '1m05s'; 9 -> '9s'."""
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m{secs:02d}s"
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"


class RunProgress:
    """Counts matches as they finish and shows how far the run is (see the module's docstring)."""

    def __init__(self, label: str, stream: TextIO | None = None) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.done = self.total = self.played = 0
        self.started = self.shown = time.monotonic()
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def __enter__(self) -> RunProgress:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._bar is not None:
            self._bar.stop()
        elif self.total:
            self._line()

    def start(self, done: int, total: int) -> None:
        """The run's size, and how many of its matches a resumed file held already."""
        self.done, self.total = done, total
        self.started = self.shown = time.monotonic()
        if done:
            print(f"{self.label}: {done} of {total} matches already in the file; playing the rest", file=self.stream)
        if self.stream.isatty():
            columns = (
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeElapsedColumn(),
                TextColumn("{task.fields[left]}"),
            )
            self._bar = Progress(*columns, console=Console(file=self.stream), transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=total, completed=done, rate="", left="")

    def advance(self) -> None:
        """One more match finished."""
        self.done += 1
        self.played += 1
        now = time.monotonic()
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=self.done, rate=self.rate(), left=self.left())
        elif now - self.shown >= LINE_SECONDS:
            self.shown = now
            self._line()

    def rate(self) -> str:
        """Matches a second (a minute, when slower than one a second) so far in this command."""
        elapsed = time.monotonic() - self.started
        per_second = self.played / elapsed if elapsed > 0 else 0.0
        return f"{per_second:.2f} matches/s" if per_second >= 1 else f"{60 * per_second:.1f} matches/min"

    def left(self) -> str:
        """The time the matches not yet played should take at this command's rate so far."""
        if self.done >= self.total:
            return "done"
        if not self.played:
            return "time left unknown yet"
        elapsed = time.monotonic() - self.started
        return f"about {_duration(elapsed / self.played * (self.total - self.done))} left"

    def _line(self) -> None:
        elapsed = _duration(time.monotonic() - self.started)
        print(
            f"{self.label}: {self.done}/{self.total} matches, {self.rate()}, {elapsed} elapsed, {self.left()}",
            file=self.stream,
            flush=True,
        )
