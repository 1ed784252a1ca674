"""The `mcts` bot level: single-observer information-set MCTS (SO-ISMCTS) from the seat's view.

Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search" (2012); OpenSpiel's
`ISMCTSBot` with `ResampleFromInfostate` is the anchor. Each iteration:

1. determinize: `engine.determinize(view, seat, seed)` — a full state consistent with what the
   seat sees, its hidden zones shuffled and a fresh Rng, so hidden cards and every chance
   outcome to come are sampled anew;
2. select: walk the tree (nodes are information sets keyed by the history of actions from
   the root) choosing, among the edges available in this determinization, the one with the
   best UCB1 score, where an edge's exploration term counts how often it was *available*
   rather than how often its parent was visited; an edge is scored for the seat that acts
   at it, so any number of seats, rivals or partners, share one tree;
3. expand one edge not yet in the tree;
4. roll out: uniformly random legal actions to the end, or to `rollout_depth` actions
   where the game's own evaluation (an `evaluate(state, seat) -> float` beside its bot
   levels, or `evaluate_seats(state)` giving every seat's at once where it offers one)
   estimates each seat's chance to win;
5. back-propagate each seat's reward (1 win, ½ draw, 0 loss; in a cooperative mode every
   seat gets the team's result; discounted a little per action, so the nearest win is
   preferred) to the edges that seat chose.

Simultaneous choices (several seats in `to_act().must`) are searched as hidden sequential
ones: the first seat chooses, the next seat chooses at a node that does not know that
choice (a node shared by all of the first seat's edges), and the choices are revealed to
the tree once the last seat of the group has chosen. Chance is never a tree node: open-loop,
as a history of actions, a node holds every chance outcome the determinizations sampled.

The search is anytime: it stops at the budget's wall-clock deadline (checked between
iterations) or after its iteration count, and returns the most visited root action. Where
the game's evaluation cannot tell the root's actions apart, the game's greedy level guides
the root, and its choice decides when the search has no signal (no rollout won) or too few
iterations to compare the actions (MIN_VISITS_PER_ACTION). Given
the same view, legal actions, rng state and an iteration budget it returns the same action.
It reads `time.perf_counter` for the deadline and nothing else of the outside world.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from typing import Any

import msgspec

from menagerie.rules import registry
from menagerie.rules.bots import Policy, RandomPolicy, SearchBudget, levels
from menagerie.rules.contract import Outcome
from menagerie.search.collector import older_objects_frozen

# UCB1's exploration constant for rewards in [0, 1] (√2 is the textbook value; evaluations near ½ need less).
EXPLORATION = 0.2
# Random actions after the tree before the game's evaluation judges the position (when it has one).
ROLLOUT_DEPTH = 0
# The root's prior: sampled worlds every root action is evaluated on, and its weight in UCB1.
PRIOR_WORLDS = 6
PRIOR_WEIGHT = 1.0
# The game's greedy level's own choice at the root: its edge's extra progressive bias.
GUIDE_WEIGHT = 1.0
# Fewer iterations than this many per root action cannot tell the actions apart (each is tried
# once, at random, before UCB1 compares them): where greedy guides the root, its choice decides.
MIN_VISITS_PER_ACTION = 10
# A rollout reads the clock every this many actions.
CLOCK_EVERY = 4
# Per action between the root and the end of the match: a sooner win scores more.
DISCOUNT = 0.995
REWARD = {"win": 1.0, "draw": 0.5, "loss": 0.0}

# A seat's chance to win a position, in [0, 1]; None: no estimate here (the rollout plays on and asks again).
Evaluate = Callable[[Any, int], float | None]


class Edge:
    """One action of one seat at a node: its statistics and the nodes it leads to."""

    __slots__ = ("avail", "bias", "children", "total", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.avail = 0
        self.total = 0.0  # summed reward of the seat that chose it
        self.bias = 0.0  # a root action's prior (progressive bias: worth bias / (visits + 1) more)
        # The next node, by the hidden choices revealed with this edge (() when none were pending).
        self.children: dict[tuple[Any, ...], Node] = {}


class Node:
    """An information set: the actions taken since the root, as far as the acting seat knows them."""

    __slots__ = ("edges", "hidden")

    def __init__(self) -> None:
        self.edges: dict[tuple[int, Any], Edge] = {}
        # The next node after a choice the following seats of a simultaneous group may not see.
        self.hidden: Node | None = None


def _hook(game: str, name: str) -> Any:
    """A function the game's bot module offers beside its levels (None when it offers none)."""
    for point in entry_points(group=registry.BOTS):
        if point.name == game:
            module = __import__(point.module, fromlist=["_"])
            found = getattr(module, name, None)
            return found if callable(found) else None
    return None


def evaluation_of(game: str) -> Evaluate | None:
    """The `evaluate(state, seat) -> float` (a seat's chance to win, in [0, 1]) beside the game's bot levels, if any."""
    found: Evaluate | None = _hook(game, "evaluate")
    return found


# Every seat's `evaluate` at once (None where evaluate gives None), for a game that reads a position once for all.
EvaluateSeats = Callable[[Any], list[float] | None]


def seats_evaluation_of(game: str) -> EvaluateSeats | None:
    """The `evaluate_seats(state) -> list[float] | None` beside the game's bot levels, if any."""
    found: EvaluateSeats | None = _hook(game, "evaluate_seats")
    return found


# Whether a search can tell the actions of a decision apart from this view; where it cannot (a
# plan the rollouts cannot judge, e.g. a Snitch Team being built), the game's greedy level decides.
Searchable = Callable[[Any], bool]


def searchable_of(game: str) -> Searchable | None:
    """The game's `searchable(view) -> bool` beside its bot levels, if any (None: every decision is searched)."""
    found: Searchable | None = _hook(game, "searchable")
    return found


class MctsPolicy:
    """Information-set MCTS for any game of the registry, thinking from the seat's view alone."""

    needs_view = True

    def __init__(
        self,
        game: str,
        budget: SearchBudget | None = None,
        *,
        exploration: float = EXPLORATION,
        rollout_depth: int | None = ROLLOUT_DEPTH,
        prior_worlds: int = PRIOR_WORLDS,
        prior_weight: float = PRIOR_WEIGHT,
        guide_weight: float = GUIDE_WEIGHT,
        evaluate: Evaluate | None = None,
        engine: Any = None,
    ) -> None:
        self.game = game
        self.engine = engine if engine is not None else registry.engine(game)
        self.budget = budget or SearchBudget()
        self.exploration = exploration
        self.prior_worlds = prior_worlds
        self.prior_weight = prior_weight
        self.guide_weight = guide_weight
        # The game's greedy level (None without one): its choice at the root guides the search.
        self._guide: Policy | None = None
        self._guide_made = False
        self.guided: Any = None  # the greedy level's choice at the last decision's root (the tests read it)
        self._decoder = msgspec.msgpack.Decoder(self.engine.state_type)
        self.evaluate = evaluate if evaluate is not None else evaluation_of(game)
        # The game's own evaluation of every seat at once (never beside an evaluation given here).
        self.evaluate_seats = seats_evaluation_of(game) if evaluate is None and self.evaluate is not None else None
        self.searchable = searchable_of(game)
        # Without an evaluation a rollout must reach the end to score anything.
        self.rollout_depth = rollout_depth if self.evaluate is not None else None
        self.iterations = 0  # of the last decision (the bench and the tests read it)
        # The level that plays instead while the game's engine cannot determinize a view.
        self.fallback: Policy | None = None
        self.root: Node | None = None
        self._deadline = 0.0

    def choose(self, view: Any, legal: Sequence[Any], seat: int, rng: random.Random) -> Any:
        """The most visited of `legal` after searching for the budget from `view`."""
        with older_objects_frozen():  # a full collection would walk them all, past the deadline
            return self._choose(view, legal, seat, rng)

    def _choose(self, view: Any, legal: Sequence[Any], seat: int, rng: random.Random) -> Any:
        self.iterations = 0
        self.guided = None
        if len(legal) == 1:
            return legal[0]
        if self.fallback is not None:
            return self.fallback.choose(view, legal, seat, rng)
        sim = random.Random(rng.getrandbits(64))
        root = Node()
        root.edges = {(seat, action): Edge() for action in legal}
        if self.searchable is not None and not self.searchable(view):
            guided = self._guided(root, view, seat, legal, sim)
            if guided is not None:
                return guided
        budget = self.budget
        limit = budget.iterations if budget.iterations > 0 else None
        deadline = self._deadline = time.perf_counter() + budget.seconds
        done = 0
        try:
            if self.evaluate is not None and self.prior_worlds > 0:
                self._root_prior(root, view, seat, legal, sim)
            first = self.engine.determinize(view, seat, sim.getrandbits(63))
            # Where the one-ply reading tells the actions apart it steers the search; where it cannot (no
            # evaluation here, e.g. a co-op mode or a Snitch Team being built), greedy's choice does.
            flat = not any(edge.bias for edge in root.edges.values())
            guided = self._guided(root, view, seat, legal, sim) if flat else None
        except NotImplementedError:
            # No determinization yet (an engine without state_from_view): its strongest own level plays.
            factory = levels(self.game).get("greedy", RandomPolicy)
            self.fallback = factory()
            return self.fallback.choose(view, legal, seat, rng)
        while True:
            state = first if done == 0 else self.engine.determinize(view, seat, sim.getrandbits(63))
            self._iterate(root, state, seat, legal, sim)
            done += 1
            if (limit is not None and done >= limit) or time.perf_counter() >= deadline:
                break
        self.iterations = done
        self.root = root  # the last decision's tree (the tests read it)
        if guided is not None and not any(edge.total > 0 for edge in root.edges.values()):
            # No rollout reached a win (a co-op game played at random almost never does): the search
            # has no signal, and the most visited edge would be noise; greedy's reading decides.
            return guided
        if guided is not None and done < MIN_VISITS_PER_ACTION * len(legal):
            # Too few iterations for the choices (a Snitch Team being built: each rollout plays the
            # rest of the building): the visit counts are noise, and greedy's reading decides.
            return guided
        best = max(root.edges.items(), key=lambda item: item[1].visits)  # the first of equals: legal's order
        return best[0][1]

    def _guided(self, root: Node, view: Any, seat: int, legal: Sequence[Any], sim: random.Random) -> Any:
        """The game's greedy level's choice here (None without one), its edge's bias raised by guide_weight."""
        if not self._guide_made:
            self._guide_made = True
            factory = levels(self.game).get("greedy")
            self._guide = factory() if factory is not None else None
        if self._guide is None or self.guide_weight <= 0:
            return None
        choice = self._guide.choose(view, legal, seat, random.Random(sim.getrandbits(64)))
        edge = root.edges.get((seat, choice))
        if edge is None:
            return None
        edge.bias += self.guide_weight
        self.guided = choice
        return choice

    def _root_prior(self, root: Node, view: Any, seat: int, legal: Sequence[Any], sim: random.Random) -> None:
        """Greedy's one-ply reading of the root's actions, as each edge's progressive bias.

        Each action is performed on the same few sampled worlds and the position after it
        evaluated (common random numbers, so the comparison between actions is not blurred by
        different luck); the means, scaled to [0, prior_weight] from the worst to the best,
        steer the first visits. Skipped when the deadline passes first.
        """
        engine, decoder = self.engine, self._decoder
        blobs = [
            msgspec.msgpack.encode(engine.determinize(view, seat, sim.getrandbits(63)))
            for _ in range(self.prior_worlds)
        ]
        values: list[float] = []
        for action in legal:
            total = 0.0
            for blob in blobs:
                state = decoder.decode(blob)
                engine.perform(state, seat, action)
                total += self._value(state, seat)
            values.append(total / len(blobs))
            if time.perf_counter() >= self._deadline:
                return
        low, high = min(values), max(values)
        if high - low > 1e-12:
            for action, value in zip(legal, values, strict=True):
                root.edges[seat, action].bias = self.prior_weight * (value - low) / (high - low)

    def _value(self, state: Any, seat: int) -> float:
        """The seat's result if the match is over, else the game's evaluation (½ where it has none)."""
        outcome = self.engine.outcome(state)
        if outcome is not None:
            return self.rewards(outcome, len(state.players), self.cooperative(state))[seat]
        assert self.evaluate is not None
        value = self.evaluate(state, seat)
        return 0.5 if value is None else min(1.0, max(0.0, value))

    def _iterate(self, root: Node, state: Any, seat: int, legal: Sequence[Any], sim: random.Random) -> None:
        """One determinization: select down the tree, expand one edge, roll out, back-propagate."""
        engine = self.engine
        path: list[tuple[Edge, int]] = []
        node, mover, actions = root, seat, legal
        group = len(engine.to_act(state).must) > 1  # a simultaneous choice is being made
        pending: tuple[tuple[int, Any], ...] = ()  # the group's choices not yet revealed to the tree
        while True:
            edge, action = self._select(node, mover, actions, sim)
            expanding = edge.visits == 0
            engine.perform(state, mover, action)
            path.append((edge, mover))
            if engine.outcome(state) is not None:
                break
            to_act = engine.to_act(state)
            following = (to_act.must or to_act.may)[0]
            if group:
                pending += ((mover, action),)
            if group and following in to_act.must and all(who != following for who, _ in pending):
                # The next seat of the group chooses without knowing this choice: one node for all of them.
                if node.hidden is None:
                    node.hidden = Node()
                child = node.hidden
            else:
                found = edge.children.get(pending)
                if found is None:
                    found = edge.children[pending] = Node()
                child = found
                pending = ()
                group = len(to_act.must) > 1
            if expanding:
                break
            node, mover = child, following
            actions = engine.legal_actions(state, mover)
        rewards = self._rollout(state, sim, len(path))
        if rewards is None:
            return  # the deadline passed during the rollout: the iteration is dropped
        for edge, who in path:
            edge.visits += 1
            edge.total += rewards[who]

    def _select(self, node: Node, mover: int, actions: Sequence[Any], sim: random.Random) -> tuple[Edge, Any]:
        """UCB1 over the edges available now (availability counts); an untried one first, at random."""
        edges = node.edges
        available: list[tuple[Edge, Any]] = []
        untried: list[Any] = []
        for action in actions:
            edge = edges.get((mover, action))
            if edge is None:
                untried.append(action)
            else:
                available.append((edge, action))
        for edge, _ in available:
            edge.avail += 1
        if untried:
            action = untried[sim.randrange(len(untried))] if len(untried) > 1 else untried[0]
            edge = edges[mover, action] = Edge()
            edge.avail = 1
            return edge, action
        c = self.exploration
        best, best_score = available[0], -math.inf
        for pair in available:
            edge = pair[0]
            if edge.visits == 0:  # created but not yet scored (another seat's pending edge)
                return pair
            score = edge.total / edge.visits + c * math.sqrt(math.log(edge.avail) / edge.visits)
            if edge.bias:
                score += edge.bias / (edge.visits + 1)
            if score > best_score:
                best, best_score = pair, score
        return best

    def _rollout(self, state: Any, sim: random.Random, played: int) -> list[float] | None:
        """Random legal actions to the end (or to the depth cap, then the game's evaluation); each seat's reward.

        A result is discounted by DISCOUNT per action since the root (`played` in the tree), so that
        of two sure wins the nearer one scores higher. None when the deadline passes first (a long
        rollout, such as a random Team building, is not allowed to overrun the budget).
        """
        engine = self.engine
        deadline = self._deadline
        depth = 0
        cap = self.rollout_depth
        while (outcome := engine.outcome(state)) is None:
            if cap is not None and depth >= cap:
                estimate = self.estimate(state)
                if estimate is not None:
                    return estimate
                # No estimate here (e.g. while Teams are built): play on, asking again at the next position.
            to_act = engine.to_act(state)
            mover = (to_act.must or to_act.may)[0]
            actions = engine.legal_actions(state, mover)
            engine.perform(state, mover, actions[sim.randrange(len(actions))] if len(actions) > 1 else actions[0])
            depth += 1
            if depth % CLOCK_EVERY == 0 and time.perf_counter() >= deadline:
                return None
        rewards = self.rewards(outcome, len(state.players), self.cooperative(state))
        discount = DISCOUNT ** (played + depth)
        return [r * discount for r in rewards]

    def estimate(self, state: Any) -> list[float] | None:
        """Each seat's chance to win by the game's evaluation (the team's mean in a cooperative mode)."""
        seats = len(state.players)
        found = self.evaluate_seats(state) if self.evaluate_seats is not None else self._each_seat(state, seats)
        if found is None:
            return None
        values = [min(1.0, max(0.0, value)) for value in found]
        if self.cooperative(state):
            team = sum(values) / seats
            return [team] * seats
        return values

    def _each_seat(self, state: Any, seats: int) -> list[float] | None:
        """The game's evaluation of each seat in turn (None as soon as one has no estimate)."""
        assert self.evaluate is not None
        values: list[float] = []
        for s in range(seats):
            value = self.evaluate(state, s)
            if value is None:
                return None
            values.append(value)
        return values

    @staticmethod
    def rewards(outcome: Outcome, seats: int, cooperative: bool) -> list[float]:
        """1 for a win, ½ for a draw, 0 for a loss; a cooperative team shares its result."""
        rewards = [0.0] * seats
        for result in outcome.seats:
            rewards[result.seat] = REWARD[result.result]
        if cooperative:
            team = max(rewards)
            return [team] * seats
        return rewards

    def cooperative(self, state: Any) -> bool:
        """Whether the match's mode is cooperative (the state's `mode`, or the game's only mode)."""
        modes = self.engine.info.modes
        mode = getattr(state, "mode", None)
        if mode is None:
            return len(modes) == 1 and modes[0].cooperative
        return bool(self.engine.info.mode(str(mode)).cooperative)
