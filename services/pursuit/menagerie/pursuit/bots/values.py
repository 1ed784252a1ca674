"""The bot's currency (capture steps: a lost match costs `LOSS`), its tunable `Weights`, and the dice a pool holds."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from menagerie.pursuit.engine.data import POOL_FACES, InsightCard
from menagerie.pursuit.engine.dice import Counts, counts_of, spent_die
from menagerie.pursuit.engine.model import PoolDie

FACES = POOL_FACES  # the faces of dice to assign, in the order of Counts
LOSS = 40.0  # a lost match, in capture steps
SAMPLES = 16  # sampled rerolls per rolling decision
SCREEN = 2  # the samples every reroll is tried on…
FINALISTS = 6  # …before the best few are tried on all
PLANNERS_KEPT = 64
TIE = 1e-9


@dataclass(frozen=True)
class Weights:
    """The tunable numbers (chosen in greedy team matches on normal difficulty)."""

    capture_bonus: float = 3.0  # a captured beast no longer runs away or hurts anyone
    escape: float = 20.0  # a beast escaping while an escape is still allowed
    # What having an action Ready and Set is worth, early in the match.
    assets: tuple[tuple[str, float], ...] = (
        ("capture_3", 10.0),
        ("capture_1", 3.0),
        ("protect", 7.0),
        ("insight", 1.0),
        ("distract", 6.0),
    )
    ready_share: float = 0.7  # of an asset, for Readying it (Setting it is one die more)
    cross_board: float = 0.25  # an asset is worth more for each other board with it Set
    health: float = 0.8  # a point of health, before it gets scarce (see `damage_cost`)
    shield_decay: float = 0.8  # each shield already held makes the next one matter less…
    later: float = 1.0  # …for the turns after the next one
    card: float = 0.8  # an insight card drawn while the hand has room
    holds: tuple[tuple[str, float], ...] = (("reroll", 1.0), ("muffliato", 1.5), ("protego", 2.0), ("die", 0.8))


# --------------------------------------------------------------------------- pools


def card_counts(card: InsightCard) -> Counts:
    """The dice a dice card adds to the pool."""
    assert card.face is not None
    return counts_of([card.face] * card.dice)


@cache
def teal_spent(count: int, black: int, teal: str | None) -> bool:
    """Whether `count` Distract activations take the teal die, spending dice as the engine does.

    `black` distract dice and the teal die (showing `teal`) lie in the pool; the engine's
    `spent_die` picks each activation's die. A plan counts dice without telling rolled
    ones from card ones, so its dice cards' dice are taken for rolled ones here.
    """
    pool = [PoolDie("distract", "black") for _ in range(black)]
    if teal is not None and teal != "reaction":
        pool.append(PoolDie(teal, "teal"))  # type: ignore[arg-type]
    for _ in range(count):
        index = spent_die(pool, {}, "distract", 0)
        if index is None:
            return False
        if pool.pop(index).color == "teal":
            return True
    return False
