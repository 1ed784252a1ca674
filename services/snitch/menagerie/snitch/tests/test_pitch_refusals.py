"""The Pitch Actions' two readings agree: what ActionBlocks lists is exactly what PitchRules allows.

Over seeded random matches, at every decision that asks for a Pitch Action, every candidate
Move, Pass, Shoot, Steal, Beat and Recover of the seat (each Player, each Zone, each target,
each Bludger) is legal exactly when it is listed, and each refusal names a reason.
"""

from __future__ import annotations

import random
from itertools import product
from typing import Any

import pytest

from menagerie.rules.contract import MatchSetup
from menagerie.rules.errors import IllegalAction
from menagerie.snitch.engine.model import (
    Beat,
    BlockAction,
    FreeAction,
    KickOffPass,
    Move,
    PassQuaffle,
    Recover,
    Shoot,
    Steal,
)
from menagerie.snitch.engine.rules import SnitchEngine

ENGINE = SnitchEngine()
PLAYERS = range(6)


def candidates() -> list[Any]:
    """Every Pitch Action any seat might send: each Player with each Zone, target and Bludger."""
    zones = [z.id for z in ENGINE.pitch.zones]
    out: list[Any] = [Move(player=p, zone=z) for p, z in product(PLAYERS, zones)]
    out += [PassQuaffle(player=p, target=t) for p, t in product(PLAYERS, PLAYERS)]
    out += [Shoot(player=p) for p in PLAYERS] + [Steal(player=p) for p in PLAYERS]
    out += [Beat(player=p, bludger=b, target=t) for p, b, t in product(PLAYERS, (0, 1), PLAYERS)]
    return out + [Recover(player=p) for p in PLAYERS]


@pytest.mark.parametrize("mode", ["basic", "advanced"])
def test_every_candidate_is_legal_exactly_when_listed(mode: str) -> None:
    """Listing (ActionBlocks._instances) and refusing (PitchRules.pitch_problem) agree on every candidate."""
    every = candidates()
    rng = random.Random(11)
    asked = 0
    for seed in range(6):
        state, _ = ENGINE.setup(MatchSetup(mode, 2), seed)
        while ENGINE.outcome(state) is None:
            seat = ENGINE.to_act(state).seats()[0]
            legal = ENGINE.legal_actions(state, seat)
            if isinstance(ENGINE.top(state), BlockAction | FreeAction | KickOffPass):
                asked += 1
                listed = set(legal)
                for action in every:
                    refusal = ENGINE.refusal(state, seat, action)
                    assert (refusal is None) == (action in listed), (action, refusal)
                    assert refusal is None or refusal.detail
            ENGINE.perform(state, seat, rng.choice(legal))
    assert asked > 50


def test_a_refused_move_names_the_rule_and_changes_nothing() -> None:
    """A Move two Zones away is refused under "Actions" with the Zones named; the state is as it was."""
    state, _ = ENGINE.setup(MatchSetup("basic", 2), 2)
    while not isinstance(ENGINE.top(state), BlockAction):
        seat = ENGINE.to_act(state).seats()[0]
        ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
    seat = ENGINE.to_act(state).must[0]
    here = state.layout.players[seat][3]
    far = next(z.id for z in ENGINE.pitch.zones if ENGINE.pitch.distance(here, z.id) >= 2)
    before = ENGINE.view(state, seat)
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, seat, Move(player=3, zone=far))
    assert refused.value.rule == "Actions" and "is not next to" in refused.value.detail
    assert ENGINE.view(state, seat) == before
