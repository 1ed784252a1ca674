"""How strong could a search be? The mcts level, allowed to see every hidden thing, against greedy (or `--rival`).

Usage: python -m bench.omniscient --game G [--mode M] [--games N] [--seed S] [--iterations I] [--rival L]

A measurement, never a bot level: the product's `mcts` searches from the seat's view alone.
Here its engine's `determinize` hands it the true state instead (every face-down token, every
hand, every deck and bag in its order, so what the next draw brings), with only the match's
Rng reseeded: the dice still to roll stay unknown, as they are to any player. It knows more
than any seat can, so what it cannot reach the honest search cannot either (short of search
noise): where even it falls short of a target against a level, the rules' luck, not the
bot, keeps the target out of reach. Where it reaches far more than the honest search, the
hidden things decide, and how much of that a seat could ever read is another question.

2 seats, planned and counted as `menagerie arena` does (bench.pairing: match g has seed S+g,
mcts in seat g mod 2); prints the wins with their 95% Wilson interval.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import msgspec

from bench.pairing import plan_against, play_pairing, rival_parser
from menagerie.rules import registry
from menagerie.rules.bots import SearchBudget, policy_for
from menagerie.rules.hidden import RNG_POOL, hidden_places
from menagerie.rules.rng import Rng
from menagerie.search.mcts import MctsPolicy


class AllSeeing:
    """An engine whose `determinize` returns the true state of the match, its Rng reseeded."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine
        self._decoder = msgspec.msgpack.Decoder(engine.state_type)
        self.state: Any = None  # the match's state, kept current by `observe`

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    def observe(self, state: Any) -> None:
        """Called by the match loop after setup and after every action."""
        self.state = state

    def determinize(self, view: Any, seat: int, seed: int) -> Any:
        """A copy of the true state; only the future (its Rng) is unknown."""
        copy = self._decoder.decode(msgspec.msgpack.encode(self.state))
        for container, key in hidden_places(copy, seat).get(RNG_POOL, []):
            setattr(container, str(key), Rng(seed, 0))
        return copy


def main(argv: Sequence[str] | None = None) -> int:
    """Plays the all-seeing mcts against the rival level and prints its wins."""
    parser = rival_parser("python -m bench.omniscient", __doc__.split("\n")[0], games=20, seed=300)
    parser.add_argument("--iterations", type=int, default=1_000)
    args = parser.parse_args(argv)
    budget = SearchBudget(seconds=3600.0, iterations=args.iterations)
    plan = plan_against(args.game, args.mode, args.rival, args.games, args.seed, budget)
    engine = registry.engine(plan.game)
    seeing = AllSeeing(engine)
    policies = {"mcts": MctsPolicy(plan.game, budget, engine=seeing), args.rival: policy_for(plan.game, args.rival)}
    played = play_pairing(plan, args.rival, policies, engine, seeing.observe)
    print(played.line(f"all-seeing mcts ({args.iterations} iterations) vs {args.rival}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
