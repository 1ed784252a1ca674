"""What the mcts section measures, written against the engine API that has not changed since issue 28.

The same measures run on today's code and on an earlier commit's, each in a child process of
its own (bench.earlier: for the earlier commit, an import path that holds that commit's
packages and not today's), so both sides of each ratio are measured by one piece of code in
processes alike (the bench's own process, with every game and its figures in memory, would
pay more for its garbage collection):

- random playouts: whole matches from their setup, each action chosen at random from the
  legal ones; actions and matches per second;
- search speed: the mcts level's iterations per second of search at positions of seeded random
  matches, the positions named by where they are (match, step) so the earlier code is asked
  the same positions.

As a child: `python -m bench.probe` prints the files it runs, then reads a JSON job per line
on stdin and answers each with a line of figures (see `run_job`).
"""

from __future__ import annotations

import importlib
import json
import random
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from menagerie.rules import registry
from menagerie.rules.bots import SearchBudget
from menagerie.rules.contract import MatchSetup, ModeInfo

# Where the search has lived: the first that imports is used (an earlier commit has only the last).
SEARCH_MODULES = ("menagerie.search.mcts", "menagerie.rules.mcts")
MATCHES = 50  # random matches searched for positions, at most
Where = tuple[int, int]  # (match index, step in that match): names a position of the seeded random play


def search_module() -> Any:
    """The module holding MctsPolicy in the code that runs."""
    for name in SEARCH_MODULES:
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError:
            continue
    raise ModuleNotFoundError(f"none of {SEARCH_MODULES}")


def seats_of(mode: ModeInfo) -> int:
    """2 seats, or a team of 3 in a cooperative mode that allows it."""
    if mode.cooperative and mode.min_seats <= 3 <= mode.max_seats:
        return 3
    return min(max(2, mode.min_seats), mode.max_seats)


@dataclass
class Position:
    """A decision of a seeded random match: the seat's view and legal actions, and where it is."""

    view: Any
    legal: list[Any]
    seat: int
    where: Where


def positions(
    engine: Any, setup: MatchSetup, seed: int, wanted: Callable[[Where, Any], bool], count: int
) -> list[Position]:
    """Up to `count` positions with a choice for which `wanted(where, view)` holds, along seeded random matches."""
    found: list[Position] = []
    rng = random.Random(seed)
    for match in range(MATCHES):
        state, _ = engine.setup(setup, seed + match)
        step = 0
        while engine.outcome(state) is None and len(found) < count:
            to_act = engine.to_act(state)
            seat = (to_act.must or to_act.may)[0]
            legal = engine.legal_actions(state, seat)
            if len(legal) > 1:
                view = engine.view(state, seat)
                if wanted((match, step), view):
                    found.append(Position(view, legal, seat, (match, step)))
            engine.perform(state, seat, rng.choice(legal))
            step += 1
        if len(found) >= count:
            break
    return found


def every_fifth_searchable(game: str) -> Callable[[Where, Any], bool]:
    """Today's choice of positions: every fifth decision the mcts level searches (not one it leaves to greedy)."""
    searchable = getattr(search_module(), "searchable_of", lambda game: None)(game)
    seen = [0]

    def wanted(where: Where, view: Any) -> bool:
        if searchable is not None and not searchable(view):
            return False
        seen[0] += 1
        return seen[0] % 5 == 3

    return wanted


def at(places: Iterable[Where]) -> Callable[[Where, Any], bool]:
    """The positions named (by another run of the same seeded play)."""
    named = {tuple(p) for p in places}
    return lambda where, view: where in named


@dataclass
class Playouts:
    """Random playouts: legal actions and whole matches per second."""

    actions_per_second: float
    games_per_second: float


def random_playouts(engine: Any, setup: MatchSetup, seconds: float) -> Playouts:
    """Whole matches from their setup with random legal actions, for `seconds` (the last match is finished)."""
    rng = random.Random(0)
    actions, games, started = 0, 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        state, _ = engine.setup(setup, games)
        while engine.outcome(state) is None:
            to_act = engine.to_act(state)
            seat = (to_act.must or to_act.may)[0]
            engine.perform(state, seat, rng.choice(engine.legal_actions(state, seat)))
            actions += 1
        games += 1
    elapsed = time.perf_counter() - started
    return Playouts(actions / elapsed, games / elapsed)


@dataclass
class Search:
    """The mcts level at some positions: iterations per second of search, and each decision's wall time."""

    iterations: int
    searching: float
    times: list[float]
    greedy_instead: bool  # the level played greedy's move (no determinization for the game)

    @property
    def per_second(self) -> float:
        """Iterations per second of search (0 where nothing was searched)."""
        return self.iterations / self.searching if self.searching else 0.0


def search_speed(game: str, found: list[Position], seconds: float, seed: int = 0) -> Search:
    """Searches each position for `seconds` with the game's mcts level (its choices drawn from seed + n)."""
    policy = search_module().MctsPolicy(game, SearchBudget(seconds=seconds))
    result = Search(0, 0.0, [], False)
    for n, position in enumerate(found):
        started = time.perf_counter()
        policy.choose(position.view, position.legal, position.seat, random.Random(seed + n))
        elapsed = time.perf_counter() - started
        result.times.append(elapsed)
        if policy.iterations:
            result.iterations += policy.iterations
            result.searching += elapsed
    result.greedy_instead = policy.fallback is not None
    return result


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    """A job names a game, mode and seats; with `playout_seconds`, random playouts; with `places`, a search there.

    Returns the playout figures, and the search's iterations and seconds of search with how many
    of the named positions this code reached (a position is reached when its decision has a choice).
    """
    engine = registry.engine(job["game"])
    setup = MatchSetup(job["mode"], job["seats"])
    result: dict[str, Any] = {}
    if job.get("playout_seconds"):
        playouts = random_playouts(engine, setup, job["playout_seconds"])
        result.update(actions_per_second=playouts.actions_per_second, games_per_second=playouts.games_per_second)
    if job.get("places"):
        found = positions(engine, setup, job["seed"], at(job["places"]), len(job["places"]))
        search = search_speed(job["game"], found, job["search_seconds"], job.get("rng_seed", 0))
        result.update(
            iterations=search.iterations,
            searching=search.searching,
            positions=len(found),
            times=search.times,
            greedy_instead=search.greedy_instead,
        )
    return result


def engine_files() -> list[str]:
    """Where the code that runs was imported from: the contract, the search and each game's engine."""
    modules = ["menagerie.rules.contract", search_module().__name__]
    modules += [type(registry.engine(game)).__module__ for game in registry.game_ids()]
    return [str(importlib.import_module(name).__file__) for name in modules]


def main() -> None:
    """The child's side: first the files that run, then one JSON line of figures per JSON line of job on stdin.

    One job at a time, so the parent can alternate the earlier code's measures with today's and a
    machine whose load changes meanwhile weighs on both alike.
    """
    print(json.dumps({"files": engine_files()}), flush=True)
    for line in sys.stdin:
        print(json.dumps(run_job(json.loads(line))), flush=True)


if __name__ == "__main__":
    main()
