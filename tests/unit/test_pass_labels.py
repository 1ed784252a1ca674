"""The engines mark the actions that pass (ActionLabel.passes), so a client may take a lone pass by itself.

For the decisions of a seeded random match of each game (a mode where it may pass): a label passes exactly
when its action is one of the engine's pass types, every game has a pass type its matches
offer, and in Pursuit (its reaction windows) a decision whose only choice is a pass comes up.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from menagerie.rules.contract import MatchSetup
from menagerie.rules.registry import engine
from menagerie.rules.text import Narrator

MATCHES = [
    ("beasts", "advanced", 2, {}),
    ("pursuit", "coop", 3, {"difficulty": "easy"}),
    ("zoo", "beginner", 3, {}),
    ("snitch", "basic", 2, {}),
]


@pytest.mark.parametrize(("game_id", "mode", "seats", "options"), MATCHES)
def test_a_label_passes_exactly_when_its_action_is_a_pass(
    game_id: str, mode: str, seats: int, options: dict[str, str]
) -> None:
    game = engine(game_id)
    state, _ = game.setup(MatchSetup(mode, seats, options), 5)
    rng = random.Random(5)
    seen: Counter[str] = Counter()
    for _ in range(600):
        if game.outcome(state) is not None:
            break
        seat = game.to_act(state).seats()[0]
        actions = game.legal_actions(state, seat)
        view = game.view(state, seat)
        labels = [game.describe_action(view, a, Narrator(seat)) for a in actions]
        for action, label in zip(actions, labels, strict=True):
            assert label.passes == isinstance(action, game.passes), (type(action).__name__, label)
        seen["passes"] += any(label.passes for label in labels)
        seen["only a pass"] += len(labels) == 1 and labels[0].passes
        game.apply(state, seat, rng.choice(actions))
    assert game.passes and seen["passes"] > 0, "the engine marks the passes its matches offer"
    if game_id == "pursuit":
        assert seen["only a pass"] > 0, "a reaction window where a seat can only pass"
