"""An arena run as JSON Lines: a header naming the run, then one line per match played.

`menagerie arena --out FILE` writes the file: its first line a `RunHeader` (what every
match shares, the levels named, the base seed), then a `GameRecord` per match as it
finishes (in the order they finish, each line flushed, so a run that is killed loses only
the matches being played). Every line says what it is (`"kind"`), and a match's line
carries its whole identity (its `Setting`, pairing, seats' levels and seed), so files can
be concatenated or read together (`menagerie arena report A B`). Rerun with the same
arguments and the same file, the arena plays only the matches the file does not hold
(`Resumed`); a file whose header names another run is refused.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import msgspec

from menagerie.arena.local import ArenaRun, Match, MatchResult, Pairing, Plan, searching
from menagerie.arena.stats import percentile
from menagerie.rules.bots import SearchBudget
from menagerie.rules.contract import Outcome
from menagerie.rules.errors import InvalidArgument

Identity = tuple[str, str | None, tuple[str, ...], int]  # pairing, seats' levels, seed (within a Setting)


class Setting(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What every match of a run shares."""

    game: str
    mode: str
    seats: int
    options: dict[str, str]
    cooperative: bool
    # The searching levels' budget; None when no level of the run searches (any budget plays the same).
    budget: SearchBudget | None

    def label(self) -> str:
        """`zoo beginner negative_values=off, 2 seats` and the search budget, if any."""
        text = " ".join([self.game, self.mode, *(f"{name}={value}" for name, value in self.options.items())])
        text += f", {self.seats} seats"
        if self.budget is not None:
            bound = f", at most {self.budget.iterations} iterations" if self.budget.iterations else ""
            text += f", search {self.budget.seconds:g} s a decision{bound}"
        return text


class RunHeader(msgspec.Struct, frozen=True, tag_field="kind", tag="run", forbid_unknown_fields=True):
    """The first line: the run's setting, its levels and base seed (not its match count: a run may grow)."""

    setting: Setting
    levels: tuple[str, ...]
    seed: int
    version: int = 1


class LevelTimes(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One level's decisions in one match, in milliseconds: a summary and every one in the order made."""

    decisions: int
    mean_ms: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    ms: list[float]


class GameRecord(msgspec.Struct, frozen=True, tag_field="kind", tag="game", forbid_unknown_fields=True):
    """One match played: who sat where, how it ended, how long it took and each level's decision times."""

    setting: Setting
    index: int  # its place in the run (local.Plan.matches)
    first: str
    second: str | None  # None: `first` is a whole team (a cooperative mode)
    levels: tuple[str, ...]  # seat by seat
    seed: int
    winners: tuple[int, ...]
    actions: int
    outcome: Outcome  # the engine's: each seat's result and score, and why the match ended
    times: dict[str, LevelTimes]

    def identity(self) -> Identity:
        """What makes this match this match within its setting."""
        return (self.first, self.second, self.levels, self.seed)

    def result(self) -> MatchResult:
        """The match as the arena's tables count it."""
        return MatchResult(self.seed, self.levels, frozenset(self.winners), self.actions, self.outcome)


Line = RunHeader | GameRecord
_decoder = msgspec.json.Decoder(Line)
_encoder = msgspec.json.Encoder()


def setting_of(plan: Plan) -> Setting:
    """The setting of a plan's matches."""
    budget = plan.budget if searching(plan.levels) else None
    return Setting(plan.game, plan.mode.mode, plan.seats, plan.options, plan.mode.cooperative, budget)


def header_of(plan: Plan) -> RunHeader:
    """The first line of a plan's file."""
    return RunHeader(setting_of(plan), plan.levels, plan.seed)


def identity_of(match: Match) -> Identity:
    """A planned match's identity, as its record's."""
    return (match.first, match.second, match.levels, match.seed)


def level_times(seconds: Sequence[float]) -> LevelTimes:
    """A level's decision times of one match (seconds, in the order made), in milliseconds to the microsecond."""
    ms = [round(1000 * value, 3) for value in seconds]
    mean = round(sum(ms) / len(ms), 3) if ms else 0.0
    return LevelTimes(len(ms), mean, percentile(ms, 0.5), percentile(ms, 0.99), max(ms, default=0.0), ms)


def encode(line: Line) -> bytes:
    """One line of the file, its newline included."""
    return _encoder.encode(line) + b"\n"


def _decode(text: bytes, where: str) -> Line:
    try:
        return _decoder.decode(text)
    except msgspec.DecodeError as exc:
        raise InvalidArgument(f"{where} is not a line of an arena run: {exc}") from None


def read(path: Path) -> list[Line]:
    """Every line of an arena file, in order; InvalidArgument naming the first line that is not one."""
    data = path.read_bytes()
    return [_decode(text, f"{path}:{number}") for number, text in enumerate(data.splitlines(), 1) if text.strip()]


@dataclass
class Resumed:
    """A run's file opened for appending, and the matches it already held."""

    stream: IO[bytes]
    records: list[GameRecord] = field(default_factory=list)

    def write(self, record: GameRecord) -> None:
        """Appends a match's line and flushes it (a run killed next loses none of it)."""
        self.stream.write(encode(record))
        self.stream.flush()


def _complete_lines(path: Path) -> bytes:
    """The file's content; a last line cut short (the run was killed while writing it) is removed from the file."""
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        kept = data[: data.rfind(b"\n") + 1]
        print(f"{path}: its last line was cut short (a run stopped while writing it); played again", file=sys.stderr)
        with path.open("r+b") as stream:
            stream.truncate(len(kept))
        return kept
    return data


def open_run(path: Path, header: RunHeader) -> Resumed:
    """`path` ready for `header`'s run: created with the header, or reopened if it holds that run.

    InvalidArgument when it holds another run (its header differs) or a line that is not an arena run's.
    """
    data = _complete_lines(path) if path.exists() else b""
    lines = [_decode(text, f"{path}:{n}") for n, text in enumerate(data.splitlines(), 1) if text.strip()]
    if not lines:
        stream = path.open("wb")
        stream.write(encode(header))
        stream.flush()
        return Resumed(stream)
    found = lines[0]
    if found != header:
        described = found.setting.label() if isinstance(found, RunHeader) else "no header"
        raise InvalidArgument(
            f"{path} holds another run ({described}; levels {_levels(found)}, seed {_seed(found)}), not this one"
            f" ({header.setting.label()}; levels {','.join(header.levels)}, seed {header.seed}): name another --out,"
            " or rerun that run's command to resume it"
        )
    records = [line for line in lines[1:] if isinstance(line, GameRecord)]
    return Resumed(path.open("ab"), records)


def _levels(line: Line) -> str:
    return ",".join(line.levels) if isinstance(line, RunHeader) else "?"


def _seed(line: Line) -> str:
    return str(line.seed) if isinstance(line, RunHeader) else "?"


def games_of(lines: Iterable[Line]) -> list[GameRecord]:
    """The match records among `lines`."""
    return [line for line in lines if isinstance(line, GameRecord)]


def arena_of(setting: Setting, records: Sequence[GameRecord]) -> ArenaRun:
    """The matches of one setting as the tables count them: a pairing per (first, second), in order of first index."""
    arena = ArenaRun(setting.game, setting.mode, setting.seats, setting.options, setting.cooperative)
    pairings: dict[tuple[str, str | None], Pairing] = {}
    for record in sorted(records, key=lambda r: (r.index, r.seed)):
        key = (record.first, record.second)
        if key not in pairings:
            pairings[key] = Pairing(record.first, record.second)
        pairings[key].results.append(record.result())
        for level, times in record.times.items():
            arena.decision_seconds.setdefault(level, []).extend(ms / 1000 for ms in times.ms)
    arena.pairings = list(pairings.values())
    return arena


def by_setting(records: Iterable[GameRecord]) -> tuple[dict[bytes, list[GameRecord]], int]:
    """Records grouped by setting (in order of first appearance), each match once; and how many repeats were left."""
    groups: dict[bytes, list[GameRecord]] = {}
    seen: set[tuple[bytes, Identity]] = set()
    repeats = 0
    for record in records:
        key = _encoder.encode(record.setting)
        if (key, record.identity()) in seen:
            repeats += 1
            continue
        seen.add((key, record.identity()))
        groups.setdefault(key, []).append(record)
    return groups, repeats
