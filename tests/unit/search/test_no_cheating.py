"""No bot level cheats (issue 33): its decision depends on the seat's view alone, never on the hidden parts.

At positions sampled from seeded random matches of every game and mode, a twin of the
state has everything the seat cannot see shuffled among its hidden places (the zones the
state's type declares: menagerie.rules.hidden) and a fresh match Rng (every future roll
differs). Both give the seat the same view and the same legal actions; every level (mcts
with an iteration budget, so that it is deterministic for a seed) must then choose the same
action from either view with the same random generator. A control policy that is handed the
state instead of the view is told apart, so the check can fail.

The production loops hand a policy the seat's view: the arena's local loop is checked here
(the bot pool's, menagerie.bots.turns.seat_view, in services/bots).
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterator, Sequence
from typing import Any

import msgspec
import pytest

from menagerie.arena.local import default_seats, play_match
from menagerie.rules import registry
from menagerie.rules.bots import SEARCH_LEVELS, Policy, SearchBudget, levels, policy_for
from menagerie.rules.contract import MatchSetup
from menagerie.rules.hidden import permute_hidden
from menagerie.rules.rng import Rng

# Deterministic: the iteration count ends every search long before the minute does.
BUDGET = SearchBudget(seconds=60.0, iterations=30)
MATCHES = 3  # per mode
PER_MATCH = 2  # positions with a choice, drawn from each match
TWINS = 2  # hidden-zone shuffles per position

MODES = [
    pytest.param(game, mode.mode, default_seats(mode), id=f"{game}-{mode.mode}")
    for game in registry.game_ids()
    for mode in registry.engine(game).info.modes
]


def positions(engine: Any, mode: str, seats: int, seed: int) -> Iterator[tuple[Any, int]]:
    """(the true state, the seat to act) at PER_MATCH positions with a choice of each of MATCHES seeded random matches.

    Drawn from the whole match (each is played to its end first), so that every phase is met
    (a Snitch Team is built over a hundred decisions before the first Block).
    """
    decoder = msgspec.msgpack.Decoder(engine.state_type)
    rng = random.Random(seed)
    for match in range(seed, seed + MATCHES):
        state, _ = engine.setup(MatchSetup(mode, seats), match)
        met: list[tuple[bytes, int]] = []
        while engine.outcome(state) is None:
            to_act = engine.to_act(state)
            seat = (to_act.must or to_act.may)[0]
            legal = engine.legal_actions(state, seat)
            if len(legal) > 1:
                met.append((msgspec.msgpack.encode(state), seat))
            engine.apply(state, seat, rng.choice(legal))
        for blob, seat in sorted(rng.sample(met, min(PER_MATCH, len(met))), key=met.index):
            yield decoder.decode(blob), seat


def make(game: str, level: str) -> Policy:
    """A fresh policy of `level` (no cache carried from one decision to the next)."""
    return policy_for(game, level, BUDGET) if level in SEARCH_LEVELS else policy_for(game, level)


def twins(engine: Any, state: Any, seat: int) -> list[Any]:
    """Copies of `state` with what `seat` cannot see shuffled and a new match Rng."""
    decoder = msgspec.msgpack.Decoder(engine.state_type)
    made = []
    for k in range(TWINS):
        twin = decoder.decode(msgspec.msgpack.encode(state))
        permute_hidden(twin, seat, Rng(7_000 + k))
        made.append(twin)
    return made


class Peeking:
    """The control: a policy handed the state (not the view) whose choice follows all of it."""

    needs_view = True

    def choose(self, state: Any, legal: Sequence[Any], seat: int, rng: random.Random) -> Any:
        """The legal action the state's bytes point at."""
        return legal[zlib.crc32(msgspec.msgpack.encode(state)) % len(legal)]


@pytest.mark.parametrize(("game", "mode", "seats"), MODES)
def test_every_level_decides_the_same_whatever_is_hidden(game: str, mode: str, seats: int) -> None:
    engine = registry.engine(game)
    names = sorted(levels(game))
    assert {"random", "greedy", "mcts"} <= set(names)
    compared, peeked = 0, 0
    for n, (state, seat) in enumerate(positions(engine, mode, seats, seed=33)):
        view = engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        others = twins(engine, state, seat)
        for twin in others:
            assert msgspec.msgpack.encode(twin) != msgspec.msgpack.encode(state), "the twin hides nothing else"
            assert engine.view(twin, seat) == view and engine.legal_actions(twin, seat) == legal
            peeked += Peeking().choose(twin, legal, seat, random.Random(n)) != Peeking().choose(
                state, legal, seat, random.Random(n)
            )
        for level in names:
            chosen = make(game, level).choose(view, legal, seat, random.Random(n))
            assert chosen in legal
            for twin in others:
                again = make(game, level).choose(engine.view(twin, seat), legal, seat, random.Random(n))
                assert again == chosen, f"{level} at seat {seat} decided by what it cannot see"
                compared += 1
    assert compared == MATCHES * PER_MATCH * TWINS * len(names)
    assert peeked > 0, "a policy handed the state went unnoticed"


class Recording:
    """A policy that notes what it is handed and plays the first legal action."""

    needs_view = True

    def __init__(self) -> None:
        self.handed: list[Any] = []

    def choose(self, view: Any, legal: Sequence[Any], seat: int, rng: random.Random) -> Any:
        """The first legal action."""
        self.handed.append(view)
        return legal[0]


@pytest.mark.parametrize("game", registry.game_ids())
def test_the_arena_hands_a_policy_the_seats_view_only(game: str) -> None:
    engine = registry.engine(game)
    mode = engine.info.modes[0]
    seats = default_seats(mode)
    recording = Recording()
    play_match(engine, MatchSetup(mode.mode, seats), 1, ["watched"] * seats, {"watched": recording}, {})
    assert recording.handed
    for handed in recording.handed:
        assert type(handed) is engine.view_type and not isinstance(handed, engine.state_type)
