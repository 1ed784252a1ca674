"""Rolling: the sampled rerolls every choice of dice to keep is judged on (common random numbers), and the
plan value of each choice."""

from __future__ import annotations

import random
from dataclasses import dataclass

from menagerie.pursuit.bots.planner import Planner
from menagerie.pursuit.bots.values import SAMPLES
from menagerie.pursuit.engine.data import PursuitData
from menagerie.pursuit.engine.dice import Counts, counts_of, die_faces, plus, reroll_choices
from menagerie.pursuit.engine.model import PursuitView, Reroll

# ------------------------------------------------------------------------ rolling


@dataclass(frozen=True)
class Sample:
    """One sampled reroll: the first n black dice (as counts, for each n) and the teal die."""

    black: tuple[Counts, ...]
    teal: str


def sample_rolls(data: PursuitData, rng: random.Random) -> list[Sample]:
    """Rerolls shared by every choice compared (common random numbers)."""
    found = []
    black_faces, teal_faces = die_faces(data.dice, "black"), die_faces(data.dice, "teal")
    for _ in range(SAMPLES):
        faces = [rng.choice(black_faces) for _ in range(data.dice.black.count)]
        black = tuple(counts_of(faces[:n]) for n in range(len(faces) + 1))
        found.append(Sample(black, rng.choice(teal_faces)))
    return found


def lying_value(view: PursuitView, planner: Planner) -> float:
    """The plan value of the rolled dice as they lie."""
    teal = next((d.face for d in view.dice if d.color == "teal" and d.face != "reaction"), None)
    return planner.value(counts_of([d.face for d in view.dice]), teal)


def all_rerolls(view: PursuitView) -> list[Reroll]:
    """Every distinct choice of dice to keep, as if a roll were left."""
    return reroll_choices(view.dice)


def reroll_value(view: PursuitView, planner: Planner, action: Reroll, samples: list[Sample]) -> float:
    """The mean plan value after rerolling all but `action.keep`; a rerolled teal die may make the beast react."""
    rerolled = sum(1 for d in view.dice if d.color == "black") - len(action.keep)
    kept = counts_of(action.keep)
    kept_teal = next((d.face for d in view.dice if d.color == "teal"), None) if action.keep_teal else None
    total = 0.0
    for sample in samples:
        pool = plus(kept, sample.black[rerolled])
        teal = kept_teal if action.keep_teal else sample.teal
        if teal is None or teal == "reaction":
            total += planner.value(pool, None)
            if not action.keep_teal:
                total -= planner.reaction_cost()
        else:
            total += planner.value(plus(pool, counts_of([teal])), teal)
    return total / len(samples)
