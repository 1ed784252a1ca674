"""The team's chance to win a Pursuit position, for the `mcts` level's search.

A turn's own decisions (which dice to keep, where to put them) are the search's to explore;
between turns the search needs to know how well the match is going. So the evaluation
judges only *settled* positions, a turn's first roll just made (nothing assigned, no card
window of this turn decided yet), and says None anywhere else: the search then plays on to
the next turn's start before it asks again.

There, it reads the table as a few numbers (`features`: the beasts caught, the steps still
to go, how near the beast is to escaping, health and shields, the actions Ready and Set on
the boards, the cards in hand) and weighs them with a logistic regression fitted on greedy
team matches (`python -m bench.evaluation --game pursuit`, which prints `WEIGHTS`): the
fitted chance that the team goes on to win from here. Every seat gets the same value: the
team wins or loses together.
"""

from __future__ import annotations

from functools import cache

from menagerie.pursuit.engine import PursuitEngine
from menagerie.pursuit.engine.data import ACTIONS, Beast, load_data
from menagerie.pursuit.engine.model import PursuitState, Rolling
from menagerie.pursuit.engine.rules import HEALTH
from menagerie.rules.fitted import fitted_chance

# The names of `features`' numbers, in order (the fitter prints a weight beside each).
FEATURES: tuple[str, ...] = (
    "bias",
    "captured share",
    "steps to go / 40",
    "1 / (spaces from escape + 1)",
    "lowest health / 10",
    "mean health / 10",
    "shields a seat",
    *(f"{action} Set a seat" for action in ACTIONS),
    "Ready, not Set, a seat",
    "cards a seat",
    "beast level / 3",
)
# Fitted by `python -m bench.evaluation --game pursuit --games 1500 --seed 0` (normal, 3 seats): on the
# odd-seeded half held out, log loss 0.590 against 0.684 for a constant guess, 66.5% right (56.8%).
WEIGHTS: tuple[float, ...] = (
    -1.8979, 1.0697, -2.5535, 0.0108, -0.0377, 5.7346, 0.7474,
    0.6809, 0.2566, 0.7944, -0.2332, 0.5586,  # Set: protect, capture_1, distract, insight, capture_3
    0.4410, 1.0760, -1.4783,
)  # fmt: skip


@cache
def _beasts() -> dict[str, Beast]:
    """The beast cards by id (the published components)."""
    return {beast.id: beast for beast in load_data().beasts}


def settled(state: PursuitState) -> bool:
    """Whether `state` is a turn's start: its first roll made, nothing of the turn decided yet."""
    return (
        state.outcome is None
        and state.rolls == 1
        and not state.pool
        and not state.activations
        and any(isinstance(decision, Rolling) for decision in state.decisions)
    )


def features(state: PursuitState, seat: int = 0) -> list[float] | None:
    """The numbers the evaluation weighs (in FEATURES' order; the same for every seat), or None off a turn's start."""
    if not settled(state):
        return None
    beasts = _beasts()
    beast = beasts[state.beast]
    seats = len(state.players)
    to_win = PursuitEngine.beasts_to_win(state.difficulty)
    steps = beast.to_suitcase + beast.to_escape - state.position + sum(beasts[b].to_suitcase for b in state.beasts)
    health = [player.health for player in state.players]
    sets: dict[str, int] = dict.fromkeys(ACTIONS, 0)
    ready_only = 0
    for player in state.players:
        for action in player.set:
            sets[action] += 1
        ready_only += sum(action not in player.set for action in player.ready)
    return [
        1.0,
        len(state.captured) / to_win,
        steps / 40,
        1 / (state.position + 1),
        min(health) / HEALTH,
        sum(health) / (HEALTH * seats),
        sum(player.shields for player in state.players) / seats,
        *(count / seats for count in sets.values()),
        ready_only / seats,
        sum(len(player.hand) for player in state.players) / seats,
        beast.level / 3,
    ]


def evaluate(state: PursuitState, seat: int) -> float | None:
    """The team's fitted chance to win from a turn's start (the same for every seat); None elsewhere."""
    numbers = features(state, seat)
    if numbers is None:
        return None
    return fitted_chance(WEIGHTS, numbers)
