"""Seeded random Snitch matches, checking the engine contract throughout (tests/support/rules_properties.py).

Every match ends with a catch; listed actions are accepted and others refused without a
change; views, prompts and public events do not depend on hidden cards; replays are
identical; a state determinized from a seat's view shows that seat the same view and
offers it the same actions.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from menagerie.rules.contract import MatchSetup
from menagerie.snitch.data import HOUSES
from menagerie.snitch.engine.model import (
    Aim,
    Beat,
    BreakTempo,
    ChoosePitchCard,
    DeclineBlock,
    DeclineIntrepid,
    DeployPlayer,
    DodgeToken,
    GoalReroll,
    KeepRoll,
    Move,
    MoveBludger,
    NoReaction,
    PassQuaffle,
    PlaceBludger,
    PlaceDiceToken,
    PlaceQuaffle,
    PlaceRaceToken,
    PlayIntrepid,
    PlaySwift,
    React,
    Recover,
    Reroll,
    ShiftPlayer,
    Shoot,
    SkipShift,
    SnitchState,
    SpendTokens,
    Steal,
    TakeSnitchCard,
    TakeTempo,
    TargetPlayer,
)
from menagerie.snitch.engine.rules import SnitchEngine
from menagerie.snitch.v1 import snitch_pb2
from tests.support.rules_properties import EngineProperties, property_matches

ENGINE = SnitchEngine()
ZONES = [z.id for z in ENGINE.pitch.zones]


def candidates(state: SnitchState, seat: int, rng: random.Random) -> Iterator[object]:
    """A few actions of every kind with random arguments, most of them illegal."""

    def player() -> int:
        return rng.randrange(-1, 7)

    def zone() -> str:
        return rng.choice([*ZONES, "nowhere"])

    yield PlaceBludger(zone())
    yield DeployPlayer(player(), zone())
    yield ChoosePitchCard(rng.randrange(0, 17))
    yield PlayIntrepid(rng.randrange(0, 17))
    yield DeclineIntrepid()
    yield Move(player(), zone())
    yield PassQuaffle(player(), player())
    yield Shoot(player())
    yield Steal(player())
    yield Beat(player(), rng.randrange(-1, 3), player())
    yield Recover(player())
    yield DeclineBlock()
    yield React(player(), rng.choice(["catch", "defense", "manoeuvre", "steal_reaction"]))
    yield NoReaction()
    yield Aim(rng.randrange(0, 5))
    yield SpendTokens(bonus=(rng.choice(["orange", "purple", "black"]),))
    yield Reroll(rng.choice(["action", "reaction"]), (rng.randrange(0, 4),))
    yield GoalReroll(rng.randrange(-1, 5))
    yield PlaySwift(rng.randrange(0, 17))
    yield KeepRoll()
    yield PlaceQuaffle(zone())
    yield ShiftPlayer(rng.randrange(0, 2), player(), zone())
    yield SkipShift()
    yield TakeTempo()
    yield BreakTempo(rng.choice(["free_pass", "shift"]))
    yield MoveBludger(rng.randrange(-1, 3), zone())
    yield TargetPlayer(rng.randrange(0, 2), player())
    yield PlaceDiceToken(rng.randrange(0, 2), player())
    yield TakeSnitchCard(rng.randrange(0, 18), rng.choice(["rushed", "keep", "combine"]))
    yield PlaceRaceToken(rng.randrange(0, 22))
    yield DodgeToken(rng.random() < 0.5)
    for card in state.players[1 - seat].hand[:2]:
        yield ChoosePitchCard(card)  # the rival's card ids may not be in this hand


# A match is ~250 decisions, so at the default rates (the per-position checks at one position
# in 4, the views at one in 8) 200 matches check some 12,500 positions and 6,000 views.
PROPERTIES = EngineProperties(engine=ENGINE, candidates=candidates, view_message=snitch_pb2.View)


# The 200 matches in shards, each a test of its own: the shards run on different workers.
SHARDS = 2


@pytest.mark.property
@pytest.mark.parametrize("shard", range(SHARDS))
def test_property_random_matches_end_with_a_catch(shard: int) -> None:
    """Every House against every other; every match ends with a Seeker catching the Snitch."""
    sequences = []
    for n in range(shard, property_matches(), SHARDS):
        houses: dict[str, str] = {"house_0": HOUSES[n % 4], "house_1": HOUSES[(n // 4) % 4]}
        log = PROPERTIES.play(MatchSetup("basic", 2, houses), seed=9_000 + n)
        PROPERTIES.check_replay(log)
        outcome = ENGINE.outcome(log.final)
        assert outcome is not None and len(outcome.winners()) == 1, outcome
        assert "caught the Golden Snitch" in outcome.reason
        sequences.append(log.final.sequence)
    assert max(sequences) < 60, "matches end within a sensible number of Game Sequences"
