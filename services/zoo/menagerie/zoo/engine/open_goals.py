"""The open goals (advanced mode): checked once everyone has built, one by one, each reward taken first.

The goals in play are checked in the order they were revealed, on the zoos as they are
then. The first one met is discarded and its achievers each choose one of its two rewards
(one `Rewards` decision); the check goes on with the goals after it once they have. A
goal nobody meets stays in play. When none is left to check, the round ends.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from menagerie.zoo.engine import zoo
from menagerie.zoo.engine.data import Gain
from menagerie.zoo.engine.model import ChooseReward, Event, GoalMet, Rewards, RewardTaken, Values, ZooState
from menagerie.zoo.engine.parts import EngineParts


def goals_to_check(order: Sequence[int], in_play: Collection[int], after: int | None = None) -> list[int]:
    """The open goals a round's check has still to judge, one by one in the order they were revealed.

    `after`: the goal whose rewards were just chosen (the check goes on with the goals
    revealed after it); None: the check starts, with every goal in play.
    """
    start = 0 if after is None else order.index(after) + 1
    return [goal for goal in order[start:] if goal in in_play]


class OpenGoals(EngineParts):
    """The round's check of the open goals, and each achiever's choice of reward."""

    def _end_construction(self, state: ZooState) -> list[Event]:
        """In advanced mode the open goals are checked once everyone has built; then the round ends."""
        if state.mode != "advanced":
            return self._end_round(state)
        return self._check_open_goals(state, after=None)

    def _check_open_goals(self, state: ZooState, after: int | None) -> list[Event]:
        """The open goals are checked one by one, in the order they were revealed, on the zoos as they are now.

        The first goal met is discarded and its achievers choose their rewards (one
        decision); the check goes on with the goals after it once they have. A goal
        nobody meets stays in play. When none is left to check, the round ends.
        """
        for goal in goals_to_check(state.open_goals, state.open_in_play, after):
            seats = self._achievers(state, goal)
            if seats:
                state.open_in_play.remove(goal)
                self._decide(state, Rewards(must=seats, goal=goal))
                return [GoalMet(goal=goal, seats=seats)]
        return self._end_round(state)

    def _achievers(self, state: ZooState, goal: int) -> list[int]:
        """Seats whose zoo meets an open goal now."""
        card = self.open_goals[goal]
        return [s for s, p in enumerate(state.players) if zoo.measure(p, card.metric, self.cards) >= card.at_least]

    def _reward(self, state: ZooState, seat: int, goal: int, reward: Gain) -> list[Event]:
        player = state.players[seat]
        zoo.gain(player, reward)
        return [RewardTaken(seat=seat, goal=goal, gain=reward, values=Values(**player.values))]

    def _reward_options(self, state: ZooState, seat: int) -> list[ChooseReward]:
        """Either reward of the goal being rewarded."""
        top = self.top(state)
        return [ChooseReward(top.goal, option) for option in (0, 1)] if isinstance(top, Rewards) else []

    def _reward_problem(self, state: ZooState, seat: int, action: ChooseReward) -> str | None:
        top = self.top(state)
        assert isinstance(top, Rewards)
        if action.goal != top.goal:
            return f"the reward chosen now is one of goal {top.goal}'s, not of goal {action.goal}"
        if action.option not in (0, 1):
            return "choose reward 0 or 1"
        return None

    def _choose_reward(self, state: ZooState, seat: int, action: ChooseReward) -> list[Event]:
        events = self._reward(state, seat, action.goal, self.open_goals[action.goal].rewards[action.option])
        if self._decided(state, seat):
            events += self._check_open_goals(state, after=action.goal)
        return events
