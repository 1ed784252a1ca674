"""A replay's win estimates (menagerie.search.chances) come from what a spectator sees, never from hidden parts.

At positions of seeded random matches of every game and mode, a twin of the state has everything a
spectator cannot see shuffled among its hidden places and a fresh Rng: a spectator cannot tell the
two apart, so their estimates must be equal, exactly. The game's evaluation handed the states
themselves tells some twins apart, so the check can fail.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from menagerie.arena.local import default_seats
from menagerie.rules import registry
from menagerie.rules.contract import MatchSetup
from menagerie.rules.hidden import permute_hidden
from menagerie.rules.rng import Rng
from menagerie.search.chances import WinChances
from menagerie.search.mcts import evaluation_of

MODES = [
    pytest.param(game, mode.mode, default_seats(mode), id=f"{game}-{mode.mode}")
    for game in registry.game_ids()
    for mode in registry.engine(game).info.modes
]
POSITIONS = 6  # per match, spread over it
STEPS = 300  # the longest a match is played here


def positions(game: str, mode: str, seats: int, seed: int) -> list[Any]:
    """Copies of the states of a seeded random match, POSITIONS of them spread over it, and the last."""
    engine = registry.engine(game)
    state, _ = engine.setup(MatchSetup(mode, seats, {}), seed)
    codec = msgspec.msgpack.Decoder(engine.state_type)
    played, rng = [], random.Random(seed)
    for _ in range(STEPS):
        played.append(codec.decode(msgspec.msgpack.encode(state)))
        if state.outcome is not None:
            break
        to_act = engine.to_act(state)
        seat = (to_act.must or to_act.may)[0]
        engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    every = max(1, len(played) // POSITIONS)
    return [*played[::every], played[-1]]


def twin(state: Any, seed: int) -> Any:
    """A state a spectator cannot tell from `state`: its hidden places shuffled, a fresh Rng."""
    copy = msgspec.msgpack.Decoder(type(state)).decode(msgspec.msgpack.encode(state))
    return permute_hidden(copy, None, Rng(seed))


@pytest.mark.parametrize(("game", "mode", "seats"), MODES)
def test_twins_a_spectator_cannot_tell_apart_get_the_same_estimate(game: str, mode: str, seats: int) -> None:
    chances = WinChances(game, worlds=3)
    for n, state in enumerate(positions(game, mode, seats, seed=11)):
        found = chances.of(state, seed=n)
        assert found == chances.of(twin(state, seed=100 + n), seed=n)
        if found is not None:
            assert len(found) == seats and all(0.0 <= c <= 1.0 for c in found)
            assert found == chances.of(state, seed=n)  # deterministic from the seed
        if state.outcome is not None:  # the result itself once the match is over
            assert found is not None and set(found) <= {0.0, 0.5, 1.0}


def test_the_evaluation_of_the_state_itself_would_tell_twins_apart() -> None:
    """The control: judging the position as it is reads the hidden parts (so the test above can fail)."""
    evaluate = evaluation_of("zoo")
    assert evaluate is not None
    told_apart = 0
    for n, state in enumerate(positions("zoo", "beginner", 2, seed=11)):
        if state.outcome is None and evaluate(state, 0) != evaluate(twin(state, seed=100 + n), 0):
            told_apart += 1
    assert told_apart > 0


@pytest.mark.parametrize(("game", "mode", "seats"), MODES)
def test_a_live_estimate_reads_the_spectators_view_only(game: str, mode: str, seats: int) -> None:
    """A live match's chart (`of_view`): the spectator's view of a twin is the same view, so the same estimate."""
    engine = registry.engine(game)
    chances = WinChances(game, worlds=3)
    for n, state in enumerate(positions(game, mode, seats, seed=11)):
        view, twins_view = engine.view(state, None), engine.view(twin(state, seed=100 + n), None)
        assert twins_view == view
        found = chances.of_view(view, seed=n)
        assert found == chances.of_view(twins_view, seed=n)
        # Every game rebuilds a state from a spectator's view: an estimate wherever the replay's chart has one.
        assert (found is None) == (chances.of(state, seed=n) is None)
        if found is not None:
            assert len(found) == seats and all(0.0 <= c <= 1.0 for c in found)
        if state.outcome is not None:
            assert found == chances.of(state, seed=n)  # the result itself once the match is over
