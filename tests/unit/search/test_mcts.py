"""The `mcts` level (menagerie.search.mcts) on every installed game and mode.

Positions come from seeded random matches of the real engines. With an iteration budget
the search is deterministic for a seed, so "the same decision" is exact equality.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest

from menagerie.rules import registry
from menagerie.rules.bots import SEARCH_LEVELS, SearchBudget, levels, policy_for
from menagerie.rules.contract import MatchSetup, ModeInfo
from menagerie.rules.hidden import permute_hidden
from menagerie.rules.rng import Rng
from menagerie.search import mcts
from menagerie.search.mcts import MctsPolicy

ITERATIONS = 24  # enough to grow a tree a few levels deep, cheap enough for every game and mode
BUDGET = SearchBudget(seconds=60.0, iterations=ITERATIONS)  # the iteration count ends every search here


def seats_of(mode: ModeInfo) -> int:
    """2 seats, or 3 for a cooperative team when the mode allows it."""
    if mode.cooperative and mode.min_seats <= 3 <= mode.max_seats:
        return 3
    return min(max(2, mode.min_seats), mode.max_seats)


MODES = [
    pytest.param(game, mode.mode, seats_of(mode), id=f"{game}-{mode.mode}")
    for game in registry.game_ids()
    for mode in registry.engine(game).info.modes
]


def positions(game: str, mode: str, seats: int, seed: int, wanted: int) -> Iterator[tuple[Any, Any, int]]:
    """(engine, true state, seat) at `wanted` positions of seeded random matches where the seat has a choice."""
    engine = registry.engine(game)
    decoder = msgspec.msgpack.Decoder(engine.state_type)
    rng = random.Random(seed)
    choices, found = 0, 0
    for match in range(seed, seed + 10):  # a short match leaves the rest to the next one
        state, _ = engine.setup(MatchSetup(mode, seats), match)
        while engine.outcome(state) is None and found < wanted:
            to_act = engine.to_act(state)
            seat = (to_act.must or to_act.may)[0]
            legal = engine.legal_actions(state, seat)
            if len(legal) > 1:
                # Spread the positions out: every 10th position with a choice, from the first on.
                if choices % 10 == 0:
                    found += 1
                    yield engine, decoder.decode(msgspec.msgpack.encode(state)), seat
                choices += 1
            engine.apply(state, seat, rng.choice(legal))


def decide(game: str, engine: Any, state: Any, seat: int, seed: int) -> Any:
    """A fresh mcts policy's decision at the true `state` for `seat`, from its view alone."""
    policy = policy_for(game, "mcts", BUDGET)
    return policy.choose(engine.view(state, seat), engine.legal_actions(state, seat), seat, random.Random(seed))


def test_mcts_is_a_level_of_every_game_and_spends_a_budget() -> None:
    assert "mcts" in SEARCH_LEVELS
    for game in registry.game_ids():
        assert "mcts" in levels(game)
        policy = policy_for(game, "mcts", BUDGET)
        assert isinstance(policy, MctsPolicy) and policy.budget == BUDGET and policy.needs_view
        default = policy_for(game, "mcts")
        assert isinstance(default, MctsPolicy) and default.budget == SearchBudget(seconds=1.0)


@pytest.mark.parametrize(("game", "mode", "seats"), MODES)
def test_decisions_are_legal_deterministic_and_blind_to_hidden_parts(game: str, mode: str, seats: int) -> None:
    """Same view, seed and iteration budget: same action; permuting what the seat cannot see changes nothing."""
    checked = 0
    for n, (engine, state, seat) in enumerate(positions(game, mode, seats, seed=11, wanted=3)):
        legal = engine.legal_actions(state, seat)
        view = engine.view(state, seat)
        chosen = decide(game, engine, state, seat, seed=n)
        assert chosen in legal
        assert decide(game, engine, state, seat, seed=n) == chosen
        decoder = msgspec.msgpack.Decoder(engine.state_type)
        for k in range(2):
            twin = decoder.decode(msgspec.msgpack.encode(state))
            permute_hidden(twin, seat, Rng(1000 + k))
            assert engine.view(twin, seat) == view
            assert engine.legal_actions(twin, seat) == legal
            assert decide(game, engine, twin, seat, seed=n) == chosen
        checked += 1
    assert checked == 3


@pytest.mark.parametrize(("game", "mode", "seats"), MODES)
def test_the_iteration_budget_is_spent_exactly(game: str, mode: str, seats: int) -> None:
    """One determinization per iteration, and exactly `iterations` of them (an engine that cannot determinize
    has its greedy level play instead)."""
    engine, state, seat = next(positions(game, mode, seats, seed=5, wanted=1))
    policy = policy_for(game, "mcts", BUDGET)
    assert isinstance(policy, MctsPolicy)
    calls = 0
    determinize = policy.engine.determinize

    def counting(view: Any, who: int, seed: int) -> Any:
        nonlocal calls
        calls += 1
        return determinize(view, who, seed)

    policy.engine.determinize = counting
    view = engine.view(state, seat)
    policy.choose(view, engine.legal_actions(state, seat), seat, random.Random(0))
    if policy.fallback is not None:
        assert calls == 1 and policy.iterations == 0
    elif policy.searchable is not None and not policy.searchable(view):
        assert calls == 0 and policy.iterations == 0 and policy.guided is not None
    else:
        # Beside the iterations, the root's prior samples its few worlds once (a game with an evaluation).
        prior = policy.prior_worlds if policy.evaluate is not None else 0
        assert calls == ITERATIONS + prior and policy.iterations == ITERATIONS


def test_a_single_legal_action_is_returned_without_searching() -> None:
    for game in registry.game_ids():
        engine = registry.engine(game)
        mode = engine.info.modes[0]
        state, _ = engine.setup(MatchSetup(mode.mode, seats_of(mode)), 3)
        to_act = engine.to_act(state)
        seat = (to_act.must or to_act.may)[0]
        only = engine.legal_actions(state, seat)[:1]
        policy = policy_for(game, "mcts", SearchBudget(seconds=60.0))
        assert policy.choose(engine.view(state, seat), only, seat, random.Random(0)) is only[0]
        assert isinstance(policy, MctsPolicy) and policy.iterations == 0


def winning_positions(game: str, mode: str, seats: int, wanted: int) -> list[tuple[Any, Any, int, list[Any]]]:
    """Positions of seeded random matches where some but not all legal actions win at once, whatever is hidden."""
    engine = registry.engine(game)
    decoder = msgspec.msgpack.Decoder(engine.state_type)
    found: list[tuple[Any, Any, int, list[Any]]] = []
    for seed in range(40):
        state, _ = engine.setup(MatchSetup(mode, seats), seed)
        rng = random.Random(seed)
        while engine.outcome(state) is None and len(found) < wanted:
            to_act = engine.to_act(state)
            seat = (to_act.must or to_act.may)[0]
            legal = engine.legal_actions(state, seat)
            if len(legal) > 1:
                view = engine.view(state, seat)
                worlds = [decoder.decode(msgspec.msgpack.encode(state))]
                worlds += [engine.determinize(view, seat, k) for k in range(6)]
                wins = [a for a in legal if all(_wins(engine, decoder, world, seat, a) for world in worlds)]
                if wins and len(wins) < len(legal):
                    found.append((engine, decoder.decode(msgspec.msgpack.encode(state)), seat, wins))
            engine.apply(state, seat, rng.choice(legal))
        if len(found) >= wanted:
            break
    return found


def _wins(engine: Any, decoder: Any, world: Any, seat: int, action: Any) -> bool:
    after = decoder.decode(msgspec.msgpack.encode(world))
    engine.perform(after, seat, action)
    outcome = engine.outcome(after)
    return outcome is not None and seat in outcome.winners()


# Modes whose seeded random matches offer such positions early (in Beasts capture a win hangs on a hidden token).
@pytest.mark.parametrize(("game", "mode"), [("beasts", "training"), ("zoo", "beginner"), ("zoo", "advanced")])
def test_an_immediate_win_is_taken(game: str, mode: str) -> None:
    """Where an action wins at once in every sampled world (and another does not), the search takes a win."""
    cases = winning_positions(game, mode, 2, wanted=3)
    assert len(cases) == 3
    for n, (engine, state, seat, wins) in enumerate(cases):
        policy = policy_for(game, "mcts", SearchBudget(seconds=60.0, iterations=300))
        chosen = policy.choose(engine.view(state, seat), engine.legal_actions(state, seat), seat, random.Random(n))
        assert chosen in wins


def judged(game: str, mode: str, seats: int) -> bool:
    """Whether the game's evaluation judges any position of a seeded random match of `mode`."""
    evaluate = mcts.evaluation_of(game)
    if evaluate is None:
        return False
    return any(evaluate(state, seat) is not None for _, state, seat in positions(game, mode, seats, seed=5, wanted=40))


COOPERATIVE = [
    (game, mode.mode, seats_of(mode))
    for game in registry.game_ids()
    for mode in registry.engine(game).info.modes
    if mode.cooperative
]
UNJUDGED = [pytest.param(*mode, id=f"{mode[0]}-{mode[1]}") for mode in COOPERATIVE if not judged(*mode)]
JUDGED = [pytest.param(*mode, id=f"{mode[0]}-{mode[1]}") for mode in COOPERATIVE if judged(*mode)]


def test_the_cooperative_modes_with_and_without_an_evaluation() -> None:
    assert [p.values[:2] for p in UNJUDGED] == [("beasts", "advanced")]
    assert [p.values[:2] for p in JUDGED] == [("pursuit", "coop")]


@pytest.mark.parametrize(("game", "mode", "seats"), JUDGED)
def test_a_cooperative_evaluation_scores_the_search_though_no_rollout_wins(game: str, mode: str, seats: int) -> None:
    """Rollouts stop where the evaluation judges (a Pursuit turn's start): every root edge tried gets a score."""
    for n, (engine, state, seat) in enumerate(positions(game, mode, seats, seed=21, wanted=3)):
        policy = policy_for(game, "mcts", SearchBudget(seconds=60.0, iterations=40))
        assert isinstance(policy, MctsPolicy)
        policy.choose(engine.view(state, seat), engine.legal_actions(state, seat), seat, random.Random(n))
        assert policy.root is not None
        tried = [edge for edge in policy.root.edges.values() if edge.visits]
        assert tried and all(edge.total > 0 for edge in tried)


@pytest.mark.parametrize(("game", "mode", "seats"), UNJUDGED)
def test_without_a_signal_a_cooperative_search_plays_greedys_choice(game: str, mode: str, seats: int) -> None:
    """The greedy level's choice is the root's guide; where no rollout won, it is the decision."""
    unsignalled = 0
    for n, (engine, state, seat) in enumerate(positions(game, mode, seats, seed=21, wanted=3)):
        policy = policy_for(game, "mcts", SearchBudget(seconds=60.0, iterations=8))
        assert isinstance(policy, MctsPolicy)
        legal = engine.legal_actions(state, seat)
        chosen = policy.choose(engine.view(state, seat), legal, seat, random.Random(n))
        assert policy.guided in legal and policy.root is not None
        assert policy.root.edges[seat, policy.guided].bias >= policy.guide_weight
        if not any(edge.total > 0 for edge in policy.root.edges.values()):
            unsignalled += 1
            assert chosen == policy.guided
    assert unsignalled > 0  # 8 random rollouts of a co-op match: at least one position without a win


def test_a_search_too_thin_to_compare_the_actions_plays_greedys_choice() -> None:
    """A co-op mode without an evaluation (greedy guides the root), 12 iterations for several actions."""
    engine = registry.engine("beasts")
    thin = 0
    for n, (_, state, seat) in enumerate(positions("beasts", "advanced", 3, seed=11, wanted=6)):
        legal = engine.legal_actions(state, seat)
        policy = MctsPolicy("beasts", SearchBudget(seconds=60.0, iterations=12))
        chosen = policy.choose(engine.view(state, seat), legal, seat, random.Random(n))
        if policy.guided is not None and policy.iterations < mcts.MIN_VISITS_PER_ACTION * len(legal):
            thin += 1
            assert chosen == policy.guided
    assert thin > 0


def test_a_snitch_team_being_built_is_greedys_plan_and_not_searched() -> None:
    """Snitch's `searchable` is False while the Teams are built: greedy's pick, no iteration, no sampled state."""
    engine = registry.engine("snitch")
    state, _ = engine.setup(MatchSetup("advanced", 2), 3)
    for n in range(6):
        seat = engine.to_act(state).seats()[0]
        view, legal = engine.view(state, seat), engine.legal_actions(state, seat)
        policy = MctsPolicy("snitch", SearchBudget(seconds=60.0, iterations=20))
        chosen = policy.choose(view, legal, seat, random.Random(n))
        assert policy.iterations == 0 and policy.searchable is not None and not policy.searchable(view)
        assert chosen == policy.guided, "the greedy level's choice"
        engine.perform(state, seat, chosen)


def test_a_decisions_collections_walk_only_the_objects_it_made() -> None:
    """A full collection walks every object of the process (12-21 ms in a Snitch search's, past a 0.1 s budget):
    during a decision the older objects are frozen out of it, and given back afterwards (also after an error)."""
    seen: list[tuple[float, int]] = []  # when each collection started, and how many objects were frozen

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append((time.perf_counter(), gc.get_freeze_count()))

    engine, state, seat = next(positions("snitch", "basic", 2, 0, 1))
    search = MctsPolicy("snitch", SearchBudget(seconds=60.0, iterations=400))
    view, legal = engine.view(state, seat), engine.legal_actions(state, seat)
    gc.collect()
    alive = len(gc.get_objects())
    gc.callbacks.append(note)
    try:
        before = time.perf_counter()
        search.choose(view, legal, seat, random.Random(0))
        after = time.perf_counter()
        assert search.iterations == 400
        during = [frozen for at, frozen in seen if before < at < after]
        assert during, "a search makes enough objects to be collected"
        assert min(during) > alive // 2, f"each collection left out the older objects ({alive}): {during}"
        assert gc.get_freeze_count() == 0

        def broken(state: Any, seat: int) -> float:
            raise RuntimeError("an evaluation that fails")

        with pytest.raises(RuntimeError):
            MctsPolicy("snitch", search.budget, evaluate=broken).choose(view, legal, seat, random.Random(0))
        assert gc.get_freeze_count() == 0
    finally:
        gc.callbacks.remove(note)
