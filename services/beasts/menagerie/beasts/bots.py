"""The `greedy` level of Fantastic Beasts: a one-ply look-ahead over sampled hidden tokens.

A bot sees exactly what a human in its seat sees (the engine's `BeastsView`). To judge
an action it samples a few complete states consistent with that view
(`engine.determinize`), applies the action to a copy of each, scores the results for
its own seat and averages. The samples are drawn once per decision and shared by all
the candidate actions, so the comparison between actions is not blurred by different
luck (common random numbers).

Mode III (`advanced`, co-op) has no hidden token to sample and a team to steer: there
the level is `CoopPlanner`, a plan read from the view at every action (see it).

The score is `scoring.Scorer`'s (see it).
"""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Sequence
from typing import Any

import msgspec

from menagerie.beasts.engine import Action, BeastsEngine, BeastsState, BeastsView
from menagerie.beasts.engine.costs import Cost, Resources, deficit, pay, plus_one, resources_of
from menagerie.beasts.engine.data import COLOURS, DIE_FACES
from menagerie.beasts.engine.model import (
    Capture,
    ChooseCharacter,
    Collect,
    EndTurn,
    Fight,
    Step,
)
from menagerie.beasts.engine.salem_data import ApparateAbility, CollectAbility, FightAbility
from menagerie.beasts.evaluation import evaluate as evaluate  # the mcts level's evaluation hook
from menagerie.beasts.scoring import MEMO_LIMIT, Scorer
from menagerie.rules.bots import PolicyFactory, RandomPolicy

DETERMINIZATIONS = 6
TIE = 1e-9


class BeastsGreedy:
    """The `greedy` level: the action with the best average score over a few sampled states."""

    needs_view = True

    def __init__(self, engine: BeastsEngine | None = None, samples: int = DETERMINIZATIONS) -> None:
        self.engine = engine or BeastsEngine()
        self.samples = samples
        self.scorer = Scorer(self.engine)
        self.coop = CoopPlanner(self.engine)
        self._decoder = msgspec.msgpack.Decoder(BeastsState)
        self._encoder = msgspec.msgpack.Encoder()

    def choose(self, view: Any, legal: Sequence[Any], seat: int, rng: random.Random) -> Any:
        """One of `legal`: the best by average score, ties broken by `rng`."""
        actions = list(legal)
        if len(actions) == 1:
            return actions[0]  # nothing to weigh (a plain Roll)
        assert isinstance(view, BeastsView)
        if view.mode == "advanced":
            return self.coop.choose(view, actions, seat, rng)
        self.scorer.trim()
        worlds = [self.engine.determinize(view, seat, rng.getrandbits(64)) for _ in range(self.samples)]
        encoded = [self._encoder.encode(world) for world in worlds]
        values = [self.action_value(blobs=encoded, seat=seat, action=action) for action in actions]
        best = max(values)
        return rng.choice([a for a, v in zip(actions, values, strict=True) if v >= best - TIE])

    def action_value(self, blobs: Sequence[bytes], seat: int, action: Action) -> float:
        """The mean score for `seat` after `action`, over the sampled states (given encoded)."""
        total = 0.0
        for blob in blobs:
            state = self._decoder.decode(blob)  # a fresh copy: perform works in place
            self.engine.perform(state, seat, action)
            total += self.scorer.score(state, seat)
        return total / len(blobs)


# ------------------------------------------------------------------ mode III (co-op)

# What a character's ability is worth, in actions per turn (to choose a character).
ABILITY_WORTH: dict[type, float] = {CollectAbility: 1.0, FightAbility: 0.75, ApparateAbility: 0.5}
SECOND_NEED = 0.3  # a token missing for the next creature, beside one missing for the cheapest
GAIN = 3.0  # a token the team needs, in actions worth spending to fetch it
IN_REACH = 2.0  # a token fetched this turn, before the bar slides and others move
INFINITY = float("inf")


class CoopPlanner:
    """Mode III's `greedy`: one team plan, read afresh from the view at every action.

    Every seat reads the same public view and plans the same way, so the team agrees
    without talking. The plan, from the team's pooled resources (`engine.pooled`):

    - choose the character with the most actions, counting an ability as part of one;
    - fight a Salemer on one's space, capture when the engine allows it (both cost
      nothing to weigh: fighting is the only way on, capturing is the goal);
    - once the team together can pay for a creature, the fewest players nearest to it
      who can pay for it together converge on its space and wait there;
    - the others (and those on their way, when they stand on a useful location) collect
      the colours still missing: a bar location is worth what its colour takes off the
      team's deficit for the cheapest creature left (`engine.costs.deficit`), the next
      one counting a little; the nearest worthwhile one is the target;
    - with nothing worth fetching, a seat that is not waiting at a creature goes to fight
      the nearest Salemer (`clear_salemers`): every Salemer on the board is a location
      where the next Salemer drawn goes onto the Salem track instead, and the board
      fills up within 15 to 20 rounds if nobody fights. Otherwise the turn ends: a
      resource nobody needs would only reveal an event.

    Distances are the engine's steps (`engine.routes`); a Salemer on a space costs the
    fights it takes on average (the chance from the engine's `wins_from`), so routes go
    round Salemers unless that is longer. With `clear_salemers=False` the team never seeks a
    fight and the board fills with Salemers: over 300 seeded matches of the tuned data it won
    20% with 2 seats and none with 4 or 6, against about 90% when it clears them.
    """

    def __init__(self, engine: BeastsEngine, clear_salemers: bool = True) -> None:
        self.engine = engine
        self.adjacency = engine.routes.adjacency
        self.distance = engine.routes.distance
        self.worth = {c.id: c.actions + ABILITY_WORTH.get(type(c.ability), 0.0) for c in engine.salem.characters}
        self._needs: dict[tuple[Resources, tuple[Cost, ...]], float] = {}
        self.clear_salemers = clear_salemers

    def choose(self, view: BeastsView, legal: list[Any], seat: int, rng: random.Random) -> Any:
        """One of `legal` for `seat` in a mode III match."""
        action = self.plan(view, legal, seat, rng)
        return action if action in legal else rng.choice(legal)  # offered only part of the list

    def plan(self, view: BeastsView, legal: list[Any], seat: int, rng: random.Random) -> Any:
        """The planned action (EndTurn when nothing is worth doing, even if EndTurn is not offered)."""
        characters = [a for a in legal if isinstance(a, ChooseCharacter)]
        if characters:
            best = max(self.worth.get(a.character, 0.0) for a in characters)
            return rng.choice([a for a in characters if self.worth.get(a.character, 0.0) >= best])
        for forced in (Fight(), Capture()):
            if forced in legal:
                return forced
        if len(self._needs) > MEMO_LIMIT:
            self._needs.clear()
        state = self.engine.state_from_view(view, seat)
        here = view.players[seat].position
        free = {t.space: t.creature for t in view.tokens if t.state == "creature" and t.creature}
        costs = tuple(sorted(self.engine.cost_tuples[c] for c in free.values()))
        pooled = resources_of(self.engine.pooled(state, list(range(len(view.players)))))
        gains = self.collect_gains(view, pooled, costs)
        if gains.get(here, 0.0) > 0 and Collect() in legal:
            return Collect()
        enter = self.enter_costs(view, state, seat)
        plan = self.capture_plan(state, view, free, pooled)
        steps = [a for a in legal if isinstance(a, Step)]
        member = plan is not None and seat in plan[1]
        if plan is not None and member:
            space = plan[0]
            if here != space:
                return self.toward(space, enter, steps, rng) or EndTurn()
            # Waiting there for the others: fetch a token only if there is time to come back.
            back = self.costs_to(space, enter)
            target = self.best_collect(gains, enter, here, view.actions_left, back)
        else:
            target = self.best_collect(gains, enter, here, view.actions_left, None)
        if target is None and self.clear_salemers and not member:
            target = self.nearest_salemer(view, enter, here)
        if target is not None:
            return self.toward(target, enter, steps, rng) or EndTurn()
        return EndTurn()

    # ------------------------------------------------------------------ targets

    def nearest_salemer(self, view: BeastsView, enter: list[float], here: int) -> int | None:
        """The space of the Salemer nearest by route (None: the board has none)."""
        best: tuple[float, int] | None = None
        reach = self.costs_from(here, enter)
        for space in sorted(view.salemers):
            cost = reach[space]
            if best is None or cost < best[0]:
                best = (cost, space)
        return None if best is None else best[1]

    def collect_gains(self, view: BeastsView, pooled: Resources, costs: tuple[Cost, ...]) -> dict[int, float]:
        """Per location on the bar, what its colour takes off the team's need (only those that help)."""
        base = self.need(pooled, costs)
        gains: dict[int, float] = {}
        pool = view.pool
        for slot, card in enumerate(view.bar):
            if not card or slot >= len(view.bar_colours):
                continue
            colour = view.bar_colours[slot]
            if pool is None or getattr(pool, colour, 0) <= 0:
                continue
            gain = base - self.need(plus_one(pooled, COLOURS.index(colour)), costs)
            if gain > 0:
                gains[card] = gain  # a location card names its board space
        return gains

    def need(self, have: Resources, costs: tuple[Cost, ...]) -> float:
        """Tokens the team still lacks: creatures it can pay for are paid, cheapest first; then
        the deficit of the cheapest one left, and a little of the next one's (memoized)."""
        key = (have, costs)
        value = self._needs.get(key)
        if value is None:
            value = self._needs[key] = _team_need(have, list(costs))
        return value

    def capture_plan(
        self, state: BeastsState, view: BeastsView, free: dict[int, str], pooled: Resources
    ) -> tuple[int, tuple[int, ...]] | None:
        """A creature's space and the fewest, nearest players who can pay for it together, if any."""
        positions = [p.position for p in view.players]
        affordable = [(s, c) for s, c in sorted(free.items()) if not deficit(pooled, self.engine.cost_tuples[c])]
        if not affordable:
            return None
        seats = range(len(positions))
        groups = [g for size in range(1, len(positions) + 1) for g in itertools.combinations(seats, size)]
        held = {g: resources_of(self.engine.pooled(state, list(g))) for g in groups}
        best: tuple[tuple[int, int, int], tuple[int, tuple[int, ...]]] | None = None
        for space, creature in affordable:
            cost = self.engine.cost_tuples[creature]
            for members in groups:
                if deficit(held[members], cost):
                    continue
                key = (sum(self.distance[positions[m]][space] for m in members), len(members), space)
                if best is None or key < best[0]:
                    best = (key, (space, members))
        return None if best is None else best[1]

    def best_collect(
        self, gains: dict[int, float], enter: list[float], here: int, actions: int, back: list[float] | None
    ) -> int | None:
        """The location worth going to (the nearest, weighed by its gain); with `back`, only one
        from which there is time to come back this turn."""
        best: tuple[float, int] | None = None
        reach = self.costs_from(here, enter)
        for space, gain in sorted(gains.items()):
            cost = reach[space] + 1  # the walk, then the Collect action
            if back is not None and cost + back[space] > actions:
                continue
            score = GAIN * gain - cost + (IN_REACH if cost <= actions else 0.0)
            if score > 0 and (best is None or score > best[0]):
                best = (score, space)
        return None if best is None else best[1]

    # ------------------------------------------------------------------ routes

    def enter_costs(self, view: BeastsView, state: BeastsState, seat: int) -> list[float]:
        """Per space, the actions it takes to step onto it: one, plus the fights a Salemer there takes."""
        wins_from = self.engine.wins_from(state, seat)
        chance = sum(face >= wins_from for face in DIE_FACES) / len(DIE_FACES)
        fights = 1.0 / chance
        salemers = set(view.salemers)
        return [1.0 + (fights if space in salemers else 0.0) for space in range(len(self.adjacency))]

    def costs_from(self, origin: int, enter: list[float]) -> list[float]:
        """Per space, the actions from `origin` to there (Dijkstra)."""
        cost = [INFINITY] * len(self.adjacency)
        cost[origin] = 0.0
        heap = [(0.0, origin)]
        while heap:
            spent, space = heapq.heappop(heap)
            if spent > cost[space]:
                continue
            for neighbour in self.adjacency[space]:
                through = spent + enter[neighbour]
                if through < cost[neighbour]:
                    cost[neighbour] = through
                    heapq.heappush(heap, (through, neighbour))
        return cost

    def costs_to(self, target: int, enter: list[float]) -> list[float]:
        """Per space, the actions from there to `target` (Dijkstra backwards from the target)."""
        cost = [INFINITY] * len(self.adjacency)
        cost[target] = 0.0
        heap = [(0.0, target)]
        while heap:
            spent, space = heapq.heappop(heap)
            if spent > cost[space]:
                continue
            through = spent + enter[space]
            for neighbour in self.adjacency[space]:
                if through < cost[neighbour]:
                    cost[neighbour] = through
                    heapq.heappush(heap, (through, neighbour))
        return cost

    def toward(self, target: int, enter: list[float], steps: list[Step], rng: random.Random) -> Step | None:
        """The legal step on the cheapest route to `target` (None: no step is offered)."""
        if not steps:
            return None
        to = self.costs_to(target, enter)
        values = [enter[step.to] + to[step.to] for step in steps]
        best = min(values)
        return rng.choice([s for s, v in zip(steps, values, strict=True) if v <= best + TIE])


def _team_need(have: Resources, costs: list[Cost]) -> float:
    left = have
    while costs:
        ranked = sorted((deficit(left, cost), sum(cost), cost) for cost in costs)
        missing, _, cheapest = ranked[0]
        if missing == 0:
            left = pay(left, cheapest)
            costs.remove(cheapest)
            continue
        return missing + (SECOND_NEED * ranked[1][0] if len(ranked) > 1 else 0.0)
    return 0.0


class BeastsRandom(RandomPolicy):
    """The `random` level: any legal action, uniformly — in a mode III turn, without throwing the game away.

    A mode III turn offers "end the turn" beside every action and a capture that costs
    nothing; a player who ends a turn with actions left, or walks away from a creature the
    players there can capture, throws away what the rules give for free. So in a mode III
    turn the random level takes a capture when one is offered and otherwise chooses
    uniformly among the other actions, ending its turn only when nothing else is left.
    Everywhere else it is the plain random level (the same choices from the same rng).
    """

    needs_view = True

    def choose(self, view: Any, legal: Sequence[Any], seat: int, rng: random.Random) -> Any:
        actions = list(legal)
        if view is None or view.mode != "advanced":
            return rng.choice(actions)
        if Capture() in actions:
            return Capture()
        return rng.choice([a for a in actions if not isinstance(a, EndTurn)] or actions)


# The bot levels of this game (entry point group menagerie.bots); `random` overrides the generic one.
POLICIES: dict[str, PolicyFactory] = {"random": BeastsRandom, "greedy": BeastsGreedy}
