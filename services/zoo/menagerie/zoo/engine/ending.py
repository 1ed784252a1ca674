"""The end of a round, and of the match: the secret goals and the winner.

After the last round, in advanced mode, every secret goal is revealed and judged on the
final zoos (met only with strictly the most: a tie fails); one met goal scores by itself,
and a seat that met both chooses the one that scores (one `SecretGoals` decision). Then
the most points wins, a tie going to more animals housed.
"""

from __future__ import annotations

from menagerie.rules.contract import Outcome, ResultKind, SeatResult
from menagerie.rules.text import listing, seat_name
from menagerie.zoo.engine import zoo
from menagerie.zoo.engine.model import (
    ChooseSecretGoal,
    Event,
    MatchFinished,
    SecretGoals,
    SecretGoalScored,
    SecretGoalsRevealed,
    Values,
    ZooState,
)
from menagerie.zoo.engine.parts import EngineParts

SECRET_GOALS_EACH = 2


class SecretGoalsAndTheEnd(EngineParts):
    """The end of a round and of the match: the secret goals revealed, judged, chosen and scored; the winner."""

    def _end_round(self, state: ZooState) -> list[Event]:
        if state.round < state.rounds:
            return self._start_round(state)
        return self._end_game(state)

    def _end_game(self, state: ZooState) -> list[Event]:
        """Secret goals are revealed and judged on the final zoos, then scored."""
        events: list[Event] = []
        if state.mode == "advanced":
            measures = {
                g: [zoo.measure(p, self.secret_goals[g].metric, self.cards) for p in state.players]
                for p in state.players
                for g in p.secret_goals
            }
            for seat, player in enumerate(state.players):
                met = [g for g in player.secret_goals if _strictly_most(measures[g], seat)]
                player.goals_revealed = True
                goals = [self.secret_goals[g] for g in player.secret_goals]
                events.append(SecretGoalsRevealed(seat=seat, goals=goals, met=met))
                if len(met) == 1:
                    events += self._score_secret(state, seat, met[0])
                elif len(met) > 1:
                    player.secret_goal_choices = met
            choosing = [s for s, p in enumerate(state.players) if p.secret_goal_choices]
            if choosing:
                self._decide(state, SecretGoals(must=choosing))
                return events
        return events + self._finish_game(state)

    def _score_secret(self, state: ZooState, seat: int, goal: int) -> list[Event]:
        player = state.players[seat]
        player.scored_secret_goal = goal
        reward = self.secret_goals[goal].reward
        zoo.gain(player, reward)
        return [SecretGoalScored(seat=seat, goal=goal, gain=reward, values=Values(**player.values))]

    def _secret_goal_problem(self, state: ZooState, seat: int, action: ChooseSecretGoal) -> str | None:
        if action.goal not in state.players[seat].secret_goal_choices:
            return f"goal {action.goal} is not one of the secret goals you met"
        return None

    def _choose_secret_goal(self, state: ZooState, seat: int, action: ChooseSecretGoal) -> list[Event]:
        state.players[seat].secret_goal_choices = []
        events = self._score_secret(state, seat, action.goal)
        if self._decided(state, seat):
            events += self._finish_game(state)
        return events

    def _finish_game(self, state: ZooState) -> list[Event]:
        """The most points wins; a tie goes to more animals housed; a tie on both is shared."""
        keys = [(zoo.score(p.values, state.negative_values), len(zoo.animals(p))) for p in state.players]
        best = max(keys)
        winners = [s for s, k in enumerate(keys) if k == best]
        everyone = len(winners) == len(keys)
        results = []
        for seat, key in enumerate(keys):
            result: ResultKind = "draw" if everyone else ("win" if seat in winners else "loss")
            rank = 1 + sum(other > key for other in keys)
            results.append(SeatResult(seat=seat, result=result, score=float(key[0]), rank=rank))
        names = listing([seat_name(w) for w in winners])
        reason = f"{names} {'win' if len(winners) > 1 else 'wins'} with {best[0]} points and {best[1]} animals"
        if everyone:
            reason = f"everyone ties with {best[0]} points and {best[1]} animals"
        state.outcome = Outcome(seats=results, reason=reason)
        self.clear(state)
        return [MatchFinished(outcome=state.outcome)]


def _strictly_most(measures: list[int], seat: int) -> bool:
    """The seat has more than every other seat (a tie is not "the most")."""
    mine = measures[seat]
    return all(mine > other for s, other in enumerate(measures) if s != seat)
