"""A plan's matches on every core: worker processes, each match played whole by one of them.

The matches of a run are listed up front from its arguments (local.Plan.matches: each
with its pairing, its seats' levels and its seed, S+g), and each is played from those
alone by `play` (local.play_match; a worker keeps one policy per level, as the bot pool
does, and a policy carries nothing from one match to the next): so a run gives the same
results whatever `jobs`, in whatever order its matches finish; only the decision times
differ. One job plays in this process; more start that many worker processes ('spawn':
nothing of this process's state, threads or locks is copied into them), each tied to
this process by the parent-death signal (menagerie.shared.lifetime.tie_to_parent) so
that none outlives it however it dies. Ctrl-C is this process's alone (the workers
ignore SIGINT): it stops the pool (its workers terminated) and what was written stays
written (records.Resumed), so the same command resumes the run.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator, Sequence
from functools import partial
from pathlib import Path

from menagerie.arena import records
from menagerie.arena.local import Match, Plan, make_policy, play_match
from menagerie.arena.records import GameRecord, Setting
from menagerie.rules import registry
from menagerie.rules.bots import Policy, SearchBudget
from menagerie.rules.contract import MatchSetup
from menagerie.shared.lifetime import tie_to_parent

# One policy per (game, level, budget) in each process: built once, as the bot pool keeps them.
_policies: dict[tuple[str, str, SearchBudget], Policy] = {}
_engines: dict[str, object] = {}


def default_jobs() -> int:
    """One process per core this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _policy(game: str, level: str, budget: SearchBudget) -> Policy:
    key = (game, level, budget)
    if key not in _policies:
        _policies[key] = make_policy(game, level, budget)
    return _policies[key]


def play(setting: Setting, match: Match) -> GameRecord:
    """Plays one match of `setting` (in whichever process runs it); its record."""
    if setting.game not in _engines:
        _engines[setting.game] = registry.engine(setting.game)
    engine = _engines[setting.game]
    budget = setting.budget or SearchBudget()
    policies = {level: _policy(setting.game, level, budget) for level in dict.fromkeys(match.levels)}
    times: dict[str, list[float]] = {}
    setup = MatchSetup(setting.mode, setting.seats, dict(setting.options))
    result = play_match(engine, setup, match.seed, match.levels, policies, times)
    if result.outcome is None:  # play_match in process always has the engine's outcome
        raise RuntimeError(f"match {match.index} ended without the engine's outcome")
    return GameRecord(
        setting=setting,
        index=match.index,
        first=match.first,
        second=match.second,
        levels=match.levels,
        seed=match.seed,
        winners=tuple(sorted(result.winners)),
        actions=result.actions,
        outcome=result.outcome,
        times={level: records.level_times(seconds) for level, seconds in times.items()},
    )


def _worker_started(parent: int) -> None:
    tie_to_parent(parent)
    # Ctrl-C reaches the whole foreground group: the parent alone handles it (it stops the pool, the
    # file keeps what was written); a worker's own KeyboardInterrupt would only print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def play_all(setting: Setting, matches: Sequence[Match], jobs: int) -> Iterator[GameRecord]:
    """Each match's record as it finishes: in this process with one job, else in `jobs` worker processes."""
    if jobs <= 1 or len(matches) <= 1:
        for match in matches:
            yield play(setting, match)
        return
    context = multiprocessing.get_context("spawn")
    # Started from this (the calling) thread: the death signal fires when the thread that forked a worker ends.
    with context.Pool(min(jobs, len(matches)), initializer=_worker_started, initargs=(os.getpid(),)) as workers:
        # Leaving the block (done, an error, Ctrl-C) terminates the workers, a match in flight with them.
        yield from workers.imap_unordered(partial(play, setting), matches, chunksize=1)


def run(
    plan: Plan,
    jobs: int = 1,
    out: Path | None = None,
    on_start: Callable[[int, int], None] | None = None,
    on_record: Callable[[GameRecord], None] | None = None,
) -> list[GameRecord]:
    """Plays `plan`'s matches (those `out` does not hold yet), appending each to `out`; all its records by index.

    `on_start(done, total)` is told what is left before any match plays, `on_record` each record as
    it comes (a progress display). InvalidArgument when `out` holds another run.
    """
    planned = plan.matches()
    setting = records.setting_of(plan)
    resumed = records.open_run(out, records.header_of(plan)) if out is not None else None
    wanted = {records.identity_of(match) for match in planned}
    done = {r.identity(): r for r in (resumed.records if resumed else []) if r.identity() in wanted}
    todo = [match for match in planned if records.identity_of(match) not in done]
    if on_start is not None:
        on_start(len(done), len(planned))
    try:
        for record in play_all(setting, todo, jobs):
            if resumed is not None:
                resumed.write(record)
            done[record.identity()] = record
            if on_record is not None:
                on_record(record)
    finally:
        if resumed is not None:
            resumed.stream.close()
    return sorted(done.values(), key=lambda r: r.index)
