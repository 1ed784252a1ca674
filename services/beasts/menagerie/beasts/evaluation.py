"""A seat's chance to win a Fantastic Beasts position, for the `mcts` level's search.

Mode II (`training`): the position is read as a few numbers for the seat and for its
strongest rival (`features`: creatures captured, tokens still missing for the cheapest free
creature, tokens some free creature needs, wild tokens, what the standee may still reach,
spell cards; and whose turn it is) and weighed by a logistic
regression fitted on greedy matches (`python -m bench.evaluation --game beasts --mode
training`, which prints `WEIGHTS`). The parts are greedy's own (`scoring.Scorer`); only their
weights come from the matches' results, not from a hand-made scale. (Against greedy the search
wins about as often with it as with greedy's curve: see docs/bots.md; it is kept because it
predicts the result far better, and a search mixes its values with real wins and losses.)

Mode I (`capture`) keeps greedy's score on a logistic curve (`baseline`): a creature is
captured on sight there, and its few choices are already what greedy scores. Mode III
(co-op) has no evaluation: None, and the search plays on.
"""

from __future__ import annotations

import msgspec

from menagerie.beasts.engine import BeastsEngine, BeastsState
from menagerie.beasts.engine.costs import PAYABLE, WILD, deficit, resources_of
from menagerie.beasts.engine.model import Capture
from menagerie.beasts.scoring import CREATURE, WIN, Scorer
from menagerie.rules.fitted import fitted_chance, logistic

# Greedy's score on a logistic curve (mode I, and the baseline the fitter compares with):
# EVALUATION_SCALE score units, about a quarter of a creature, move it from ½ to ¾.
EVALUATION_SCALE = 4.0
# What the standee may reach is read twice: its worth up to two creatures, and beyond that
# (a reachable winning creature is worth WIN) as the chance of reaching the win.
PROSPECT_CAP = 2 * CREATURE

_PER_SEAT = (
    "captured",
    "missing for the cheapest",
    "useful tokens",
    "wild tokens",
    "prospects",
    "win in reach",
    "spells",
)
# The names of `features`' numbers, in order (the fitter prints a weight beside each).
FEATURES: tuple[str, ...] = (
    "bias",
    "my turn",
    *(f"mine: {name}" for name in _PER_SEAT),
    *(f"rival: {name}" for name in _PER_SEAT),
)
# Fitted by `python -m bench.evaluation --game beasts --mode training --games 1500 --seed 0` (2 seats, no
# spell cards): on the odd-seeded half held out, log loss 0.593 against 0.693 for a constant guess
# and 1.478 for greedy's score on its curve (`baseline`); 67.2% called right (58.4% by the baseline).
# Read from both seats with complementary results, the fit is antisymmetric: the rival's weights
# are the seat's negated, and the bias is minus half of "my turn".
WEIGHTS: tuple[float, ...] = (
    -0.1317, 0.2633,
    2.2092, -0.1093, 0.3303, 0.6486, 0.2429, 3.6007, 0.0000,  # mine
    -2.2092, 0.1093, -0.3303, -0.6486, -0.2429, -3.6007, 0.0000,  # the rival's
)  # fmt: skip

_SCORER: list[Scorer] = []


def _scorer() -> Scorer:
    """The one scorer of this process (its memos kept across calls, trimmed when large)."""
    if not _SCORER:
        _SCORER.append(Scorer(BeastsEngine()))
    _SCORER[0].trim()
    return _SCORER[0]


def settle_capture(scorer: Scorer, state: BeastsState) -> BeastsState:
    """The position once the seat to act takes the capture it can pay for (greedy always does)."""
    if state.outcome is not None or not scorer.can_capture_now(state, state.current):
        return state
    after = msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=BeastsState)
    scorer.engine.perform(after, state.current, Capture())
    return after


def _seat_numbers(scorer: Scorer, state: BeastsState, seat: int, free: tuple[str, ...]) -> list[float]:
    """One seat's part of the features (in _PER_SEAT's order)."""
    player = state.players[seat]
    have = resources_of(player.resources)
    costs = [scorer.costs[c] for c in free]
    missing = min((deficit(have, cost) for cost in costs), default=0)
    useful = sum(min(have[i], max((cost[i] for cost in costs), default=0)) for i in range(len(PAYABLE)))
    reach = scorer.prospects(state, seat, free)
    return [
        float(len(player.captured)),
        float(missing),
        float(useful),
        float(have[WILD]),
        min(reach, PROSPECT_CAP) / CREATURE,
        max(0.0, reach - PROSPECT_CAP) / WIN,
        float(len(player.spells)),
    ]


def features(state: BeastsState, seat: int) -> list[float] | None:
    """The numbers the evaluation weighs for `seat` (in FEATURES' order); None outside mode II or at the end."""
    if state.mode != "training" or state.outcome is not None:
        return None
    scorer = _scorer()
    state = settle_capture(scorer, state)
    return None if state.outcome is not None else _numbers(scorer, state, seat)


def _numbers(scorer: Scorer, state: BeastsState, seat: int) -> list[float]:
    """`features` of a mode II position in play, no capture pending."""
    free = scorer.free_creatures(state)
    others = [i for i in range(len(state.players)) if i != seat]
    rival = max(others, key=lambda i: (scorer.material(state, i, free), -i))
    return [
        1.0,
        1.0 if state.current == seat else 0.0,
        *_seat_numbers(scorer, state, seat, free),
        *_seat_numbers(scorer, state, rival, free),
    ]


def baseline(state: BeastsState, seat: int) -> float | None:
    """Greedy's score for the seat on a logistic curve (None in mode III: no score there)."""
    if state.mode == "advanced":
        return None
    return logistic(_scorer().score(state, seat) / EVALUATION_SCALE)


def evaluate(state: BeastsState, seat: int) -> float | None:
    """The seat's chance to win: fitted in mode II, greedy's score in mode I, None in mode III."""
    if state.mode != "training":
        return baseline(state, seat)
    scorer = _scorer()
    state = settle_capture(scorer, state)
    if state.outcome is not None:  # over, or won by the capture pending
        winners = state.outcome.winners()
        return 1.0 if seat in winners else (0.0 if winners else 0.5)
    return fitted_chance(WEIGHTS, _numbers(scorer, state, seat))
