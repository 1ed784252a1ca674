"""The win estimates' cost per step: a live match's, from a spectator's view, beside a replay's, from the state.

A replay's chart judges each step of a finished match with `WinChances.of` (the state, its hidden
parts put in one canonical order); a live match's with `WinChances.of_view` (a state rebuilt
from the spectator's view). Both sample the same worlds, so the live one costs the rebuild more.
Per game and mode, the positions of seeded random matches are timed both ways, in turns.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

import msgspec

from menagerie.arena.local import default_seats
from menagerie.rules import registry
from menagerie.rules.contract import MatchSetup
from menagerie.search.chances import WinChances

STEPS = 300  # the longest a match is played here
SEED = 3


def positions(game: str, mode: str, seats: int, matches: int) -> list[Any]:
    """The states of `matches` seeded random matches of the mode, setup to end, before each move (copies)."""
    engine = registry.engine(game)
    out = []
    for seed in range(SEED, SEED + matches):
        state, _ = engine.setup(MatchSetup(mode, seats, {}), seed)
        decoder = msgspec.msgpack.Decoder(engine.state_type)
        rng = random.Random(seed)
        for _ in range(STEPS):
            if state.outcome is not None:
                break
            out.append(decoder.decode(msgspec.msgpack.encode(state)))
            to_act = engine.to_act(state)
            seat = (to_act.must or to_act.may)[0]
            engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return out


def p99(times: list[float]) -> float:
    """The 99th percentile of some times (the one time, when there is one)."""
    return statistics.quantiles(times, n=100)[98] if len(times) > 1 else times[0]


def estimates_section(matches: int) -> None:
    """Per game and mode: ms per step of the live estimate beside the replay's, and how many steps have none."""
    print(f"\n== win estimates per step ({matches} seeded random match(es) per mode, every position, 8 worlds)")
    print(f"  {'game mode, seats':30}{'steps':>7}{'live p50':>10}{'p99':>8}{'replay p50':>12}{'p99':>8}{'none':>7}")
    for game in registry.game_ids():
        engine = registry.engine(game)
        chances = WinChances(game, engine=engine)
        for info in engine.info.modes:
            seats = default_seats(info)
            live, replay, none = [], [], 0
            for n, state in enumerate(positions(game, info.mode, seats, matches)):
                view = engine.view(state, None)
                started = time.perf_counter()
                found = chances.of_view(view, n)
                live.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                chances.of(state, n)
                replay.append((time.perf_counter() - started) * 1000)
                none += found is None
            label = f"{game} {info.mode}, {seats}"
            print(
                f"  {label:30}{len(live):>7}{statistics.median(live):>10.2f}{p99(live):>8.2f}"
                f"{statistics.median(replay):>12.2f}{p99(replay):>8.2f}{none:>7}",
                flush=True,
            )
