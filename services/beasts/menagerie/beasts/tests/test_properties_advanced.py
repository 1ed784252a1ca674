"""Seeded random matches of mode III (Advanced Magizoology, co-op), checking the engine contract throughout.

200 matches per player count, 2 to 6 seats (the issue's "property tests over 200 seeded
matches per player count"). The generic checks (tests/support/rules_properties.py) hold
at every step: listed actions are accepted and others — characters, steps, fights and
collections with random arguments, and every action of modes I and II — are refused
without a change; views, prompts and public events do not depend on the hidden decks;
views survive protobuf; determinize() agrees with the view; replays are identical. Every
match ends with all seats sharing one result. Its own file, so that it runs on the other
test worker than the modes I and II property runs (pytest-xdist --dist loadfile).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from menagerie.beasts.engine import BeastsState
from menagerie.beasts.engine.model import ChooseCharacter, Collect, CreatureRecaptured, Fight, Step
from menagerie.beasts.tests.test_properties import CHARACTERS, ENGINE, PROPERTIES, candidates
from menagerie.rules.contract import MatchSetup
from tests.support.rules_properties import EngineProperties, property_matches


def advanced_candidates(state: BeastsState, seat: int, rng: random.Random) -> Iterator[object]:
    """Every mode's candidates (those of modes I and II all refused here), plus mode III's more often and nearer."""
    yield from candidates(state, seat, rng)
    yield ChooseCharacter(rng.choice(CHARACTERS))
    yield Step(rng.choice(ENGINE.step_destinations(state, seat)) if state.players[seat].character else 0)
    yield Step(rng.randrange(-1, len(state.tokens) + 2))
    yield Fight()
    yield Collect()


ADVANCED = EngineProperties(
    engine=ENGINE,
    candidates=advanced_candidates,
    view_message=PROPERTIES.view_message,
)


@pytest.mark.property
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_property_random_co_op_matches(seats: int) -> None:
    """Every match ends with every seat winning together or losing together (the round cap is a loss too)."""
    results: Counter[str] = Counter()
    capped = 0
    captures = 0
    for n in range(property_matches()):
        log = ADVANCED.play(MatchSetup("advanced", seats), seed=23_000 + 1_000 * seats + n)
        ADVANCED.check_replay(log)
        outcome = ENGINE.outcome(log.final)
        assert outcome is not None and len(outcome.seats) == seats
        shared = {s.result for s in outcome.seats}
        assert len(shared) == 1, f"a co-op match ends with one result for every seat: {outcome}"
        (result,) = shared
        assert result in ("win", "loss"), outcome
        results[result] += 1
        capped += "round cap" in outcome.reason
        captures += sum(isinstance(e, CreatureRecaptured) for e in log.events)
    # Random play finishes almost every match by the rules (the Salem track), not by the cap.
    assert capped <= property_matches() // 20, (capped, results)
    assert results["loss"] > 0, results
    if property_matches() >= 100:
        assert captures > 0, "random teams sometimes pool resources and capture"
