"""What does the mcts level steer by? Its one-ply reading alone (the root's prior, no search) against greedy.

Usage: python -m bench.one_ply --game G [--mode M] [--games N] [--seed S] [--worlds W] [--rival L]

A measurement, never a bot level. The mcts level's first step at a decision is the root's
prior: each legal action performed on a few sampled worlds and the positions after it read by
the game's evaluation (menagerie.search.mcts, `_root_prior`). Played alone, choosing the best
of that reading (and greedy's choice where the reading is flat, as the search does), it is a
bot whose every choice is the evaluation's, and a match takes a fraction of a second: so an
evaluation can be compared with greedy's own reading over hundreds of matches in minutes,
before the far slower search is played with it (docs/bots.md tells what it found).

2 seats, planned and counted as `menagerie arena` does (bench.pairing); prints the wins with
their 95% Wilson interval.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from bench.pairing import plan_against, play_pairing, rival_parser
from menagerie.rules.bots import SearchBudget, policy_for
from menagerie.search.mcts import PRIOR_WORLDS, Edge, MctsPolicy, Node


class OnePly(MctsPolicy):
    """The mcts level's root prior played alone: the best-read action, greedy's where the reading is flat
    (or where the game has no evaluation, or none yet, as for a Snitch Team being built)."""

    def choose(self, view: Any, legal: Sequence[Any], seat: int, rng: random.Random) -> Any:
        """The action whose sampled positions the game's evaluation reads best (the first of equals)."""
        if len(legal) == 1:
            return legal[0]
        sim = random.Random(rng.getrandbits(64))
        root = Node()
        root.edges = {(seat, action): Edge() for action in legal}
        if self.evaluate is not None and (self.searchable is None or self.searchable(view)):
            self._deadline = time.perf_counter() + self.budget.seconds  # the prior stops at the deadline
            self._root_prior(root, view, seat, legal, sim)
        if not any(edge.bias for edge in root.edges.values()):
            guided = self._guided(root, view, seat, legal, sim)
            if guided is not None:
                return guided
        return max(legal, key=lambda action: root.edges[seat, action].bias)


def main(argv: Sequence[str] | None = None) -> int:
    """Plays the one-ply reading against the rival level and prints its wins."""
    parser = rival_parser("python -m bench.one_ply", __doc__.split("\n")[0], games=400, seed=3000)
    parser.add_argument("--worlds", type=int, default=PRIOR_WORLDS, help="sampled worlds an action is read on")
    args = parser.parse_args(argv)
    plan = plan_against(args.game, args.mode, args.rival, args.games, args.seed)
    budget = SearchBudget(seconds=3600.0, iterations=1)
    reading = OnePly(plan.game, budget, prior_worlds=args.worlds)
    played = play_pairing(plan, args.rival, {"mcts": reading, args.rival: policy_for(plan.game, args.rival)})
    print(played.line(f"the one-ply reading ({args.worlds} worlds) vs {args.rival}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
