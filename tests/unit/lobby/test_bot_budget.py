"""A matched group's bot budget: the anchor's, cut to the group's turn timer."""

from __future__ import annotations

import dataclasses

from menagerie.lobby.matchmaking import Candidate, plan_tables


def test_a_matched_group_cuts_the_anchors_budget_to_its_shortest_timer() -> None:
    anchor = Candidate("t1", "p1", 2, 2, True, "mcts", 0, 0, 1, bot_budget_seconds=5.0)
    other = dataclasses.replace(anchor, ticket_id="t2", player_id="p2", created_ms=2, turn_timer_seconds=3)
    (plan,) = plan_tables([anchor, other], now_ms=10)
    assert (plan.turn_timer_seconds, plan.bot_budget_seconds) == (3, 3.0)
    alone = dataclasses.replace(other, turn_timer_seconds=30)
    (plan,) = plan_tables([anchor, alone], now_ms=10)
    assert plan.bot_budget_seconds == 5.0
