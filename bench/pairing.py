"""mcts (in some measuring form) against one rival level, planned and counted as `menagerie arena` does.

The bench's strength measurements (bench.omniscient, bench.one_ply) play 2 seats with the
arena's plan (`make_plan`: match g has seed S+g, mcts in seat g mod 2) and count with its
`Pairing`, so their figures read like the arena's.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from menagerie.arena.local import Pairing, Plan, make_plan, play_match
from menagerie.arena.stats import wilson
from menagerie.rules import registry
from menagerie.rules.bots import Policy, SearchBudget
from menagerie.rules.contract import MatchSetup
from menagerie.rules.errors import InvalidArgument


@dataclass
class Played:
    """A finished run of mcts against `rival`."""

    plan: Plan
    rival: str
    pairing: Pairing

    def line(self, label: str) -> str:
        """The run in one line: mcts's wins with their 95% Wilson interval, draws, length."""
        plan, pairing = self.plan, self.pairing
        wins, games = pairing.first_wins, pairing.games
        low, high = wilson(wins, games)
        return (
            f"{plan.game} {plan.mode.mode}, {label}, seeds {plan.seed}-{plan.seed + games - 1}: won {wins}/{games} = "
            f"{100 * wins / games:.1f}% ({100 * low:.1f}-{100 * high:.1f}%), {pairing.draws} drawn, "
            f"{pairing.mean_actions:.1f} actions a match"
        )


def rival_parser(prog: str, description: str, games: int, seed: int) -> argparse.ArgumentParser:
    """The arguments every such run takes: --game, --mode, --games, --seed and --rival (default greedy)."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--game", required=True)
    parser.add_argument("--mode", default=None)
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--rival", default="greedy", help="the level it plays against (default greedy)")
    return parser


def plan_against(
    game: str, mode: str | None, rival: str, games: int, seed: int, budget: SearchBudget | None = None
) -> Plan:
    """The arena's plan of mcts against `rival` at 2 seats; SystemExit naming what is wrong."""
    try:
        plan = make_plan(game, mode, ["mcts", rival], games, seed, seats=2, budget=budget)
    except InvalidArgument as error:
        raise SystemExit(str(error)) from None
    if plan.mode.cooperative:
        raise SystemExit("a cooperative mode has no rival to play against")
    return plan


def play_pairing(
    plan: Plan,
    rival: str,
    policies: Mapping[str, Policy],
    engine: Any = None,
    observe: Callable[[Any], None] | None = None,
) -> Played:
    """Every match of the plan, mcts in seat g mod 2 (`observe` sees each state, as play_match's does)."""
    engine = engine if engine is not None else registry.engine(plan.game)
    setup = MatchSetup(plan.mode.mode, plan.seats, plan.options)
    pairing = Pairing("mcts", rival)
    for index in range(plan.games):
        lineup = plan.lineup(("mcts", rival), index)
        pairing.results.append(play_match(engine, setup, plan.seed + index, lineup, policies, {}, observe))
    return Played(plan, rival, pairing)
