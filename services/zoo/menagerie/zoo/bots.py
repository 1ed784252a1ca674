"""The `greedy` level of Fantasy Zoo: it values its picks by the score they make reachable.

A bot sees exactly what a human in its seat sees (the engine's `ZooView`). Everything
it weighs is its own zoo, the cards it holds and public facts (the other zoos, the open
goals), so one reading of the view (`ZooEngine.determinize`, whose sampled parts it never
reads) is enough: the cards others hold or will draw only enter as "some future card",
the same for every action compared. What a zoo counts, what an effect gives, where paths
meet and how values are floored and scored are the engine's own helpers
(`menagerie.zoo.engine.zoo`); only the planning and the estimate are the bot's.

One function, `Judge.value`, estimates the seat's final score from a position of its own
zoo plus the cards it still holds this round:

- the cards held (picks, and the kept card) are resolved the way construction will
  likely use them: an animal that fits a free enclosure is placed, an enclosure card that
  would house a held animal is built for it, other cards are built for room. What they
  would add counts at a discount, so that doing it beats planning it;
- open goals the zoo would meet at their next check pay the better of their two rewards
  (an achiever chooses one), goals not yet met pay a little for progress, and the likelier
  of the two secret goals pays its reward times the chance of having strictly the most.
  While rewards are chosen, the goals still to be checked this round
  (`rules.goals_to_check`) are checked on the zoo with the reward taken;
- the cards still to come (this round's remaining picks and 4 per later round) add
  value points: as many animals as free room allows, the rest built as enclosures to
  make room (`Judge.future`). Part of those points lands evenly, the rest where the seat
  wants it, i.e. on its lowest value;
- the estimate is the score (`zoo.score`, under the match's option on negative values,
  which the view carries) of the values after those points are added, raising the lowest
  first (`reach`). Raising the lowest value is what grows the score, and a point on the
  highest value is worth nothing late in the game.

The zoo grows from one edge of the sheet (`zoo.open_ends`): the planned builds use the
open end only, and the first card's edge is chosen like any action, by the value after it.

Decisions: a pick is the card with the best value of (picks + card); in construction
every legal action is performed on a copy of the seat's own zoo (`ZooEngine.perform` on
a one-player state) and the best resulting value wins, so the bot builds, places, keeps
one card and finishes in a greedy sequence; rewards and secret goals are judged the same way.
Ties go to the `rng`.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, get_args

import msgspec

from menagerie.rules.bots import PolicyFactory
from menagerie.rules.rng import Rng
from menagerie.zoo.engine import ZooEngine, ZooState, ZooView, zoo
from menagerie.zoo.engine.data import (
    HABITATS,
    VALUES,
    Card,
    ChooseOne,
    Connector,
    Exchange,
    Gain,
    Metric,
    OpenGoal,
    SecretGoal,
    ValueName,
)
from menagerie.zoo.engine.model import (
    Action,
    Build,
    ChooseReward,
    ChooseSecretGoal,
    Construction,
    Drafting,
    End,
    Finish,
    Keep,
    Mode,
    NegativeValues,
    Pick,
    Place,
    Player,
    Rewards,
)
from menagerie.zoo.engine.rules import HAND_SIZE, goals_to_check

TIE = 1e-9
Vec = tuple[float, float, float]  # dangerous, cute, rare (the order of VALUES)
ZERO: Vec = (0.0, 0.0, 0.0)
# The connectors the open ends of a row need, by end (None when paths need not connect).
Ends = dict[End, Connector] | None


@dataclass(frozen=True)
class Weights:
    """The tunable numbers of the estimate (defaults chosen in greedy-against-greedy matches)."""

    points_per_animal: float = 2.5  # net value points a future animal adds
    directed: float = 0.35  # the share of future points that lands where the seat wants it
    held: float = 0.9  # a held card's planned use, against doing it now
    kept: float = 0.75  # the kept card's planned use next round
    habitat_room: float = 0.6  # a free habitat enclosure, in future animals it can house…
    room_decay: float = 0.75  # …less for each further free one of the same type
    mystic_room: float = 1.0  # a free mystic enclosure houses anything
    stack_room: float = 0.25  # an enclosure that more of its animals may join
    build_room: float = 0.7  # room a future enclosure card makes, in future animals
    goal_progress: float = 0.9  # an unmet open goal's better reward, times (progress)²
    secret_spread: float = 1.0  # uncertainty of "the most", per round still to play
    animals: float = 0.05  # more animals win a tie


# ------------------------------------------------------------------------- values


def reach(values: Sequence[float], points: float, negatives: NegativeValues) -> float:
    """The best score (the engine's, under the match's option) once `points` more are added where they help most.

    Water filling: the lowest value is raised to the middle one, then both to the highest,
    then all three together, which is the best split (and the exact score at 0 points) —
    unless the two lower values are negative and multiplied as they are: then their
    product may beat anything the points can make, and the points go to the highest.
    """
    low, middle, high = sorted(values)
    kept = zoo.score(_named((low, middle, high + max(points, 0.0))), negatives)
    if points > 0:
        step = min(points, middle - low)
        low, points = low + step, points - step
        if points > 0:
            step = min(points, 2 * (high - middle))
            low, middle, points = low + step / 2, middle + step / 2, points - step
            if points > 0:
                low, middle, high = low + points / 3, middle + points / 3, high + points / 3
    return max(kept, zoo.score(_named((low, middle, high)), negatives))


def _vec(gain: Gain, times: float = 1.0) -> Vec:
    return (gain.dangerous * times, gain.cute * times, gain.rare * times)


def _plus(a: Vec, b: Vec, times: float = 1.0) -> Vec:
    return (a[0] + b[0] * times, a[1] + b[1] * times, a[2] + b[2] * times)


def _named(values: Vec) -> dict[str, float]:
    """Values by name, as the engine's helpers read them."""
    return dict(zip(VALUES, values, strict=True))


# -------------------------------------------------------------------------- stats


@dataclass
class Stats(zoo.Counts):
    """The engine's counts of one zoo, and the free room the bot plans with."""

    free: Counter[str] = field(default_factory=Counter)  # empty enclosures by type
    stackable: Counter[str] = field(default_factory=Counter)  # enclosures more of a name may join
    tallest: Counter[str] = field(default_factory=Counter)  # the tallest stack of each name

    def stack(self, name: str) -> None:
        """One more animal of `name` on its tallest stack (which is new if there is none)."""
        self.tallest[name] += 1
        self.largest_stack = max(self.largest_stack, self.tallest[name])

    def build(self, card: Card) -> None:
        """One more enclosure card in the row, its enclosures free."""
        self.add_enclosures(card.enclosures)
        for kind in (card.enclosures.top, card.enclosures.bottom):
            self.free[kind] += 1


def stats_of(player: Player, cards: dict[int, Card]) -> Stats:
    """The engine's counts of one zoo, with its free room."""
    stats = Stats.of(player, cards)
    for placed in player.row:
        for here in (placed.top, placed.bottom):
            if not here.animals:
                stats.free[here.type] += 1
            elif not here.large:
                name = cards[here.animals[0]].animal.name
                stats.stackable[name] += 1
                stats.tallest[name] = max(stats.tallest[name], len(here.animals))
    return stats


def metric(stats: Stats, of: Metric, values: Vec) -> float:
    """A goal's metric on a zoo: the engine's measure, on the planned counts and values."""
    return zoo.measure_counts(stats, of, _named(values))


def estimate_gain(card: Card, values: Vec, stats: Stats) -> Vec:
    """What placing the card's animal would add (the engine's effect), choosing for the lowest value.

    An exchange takes 1 from the highest value for the lowest, a choice raises the lower option.
    """
    effect = card.animal.effect
    increase: ValueName | None = None
    decrease: ValueName | None = None
    if isinstance(effect, Exchange):
        order = sorted(range(3), key=lambda i: values[i])
        increase, decrease = VALUES[order[0]], VALUES[order[2]]
    elif isinstance(effect, ChooseOne):
        increase = min(effect.options, key=lambda v: values[VALUES.index(v)])
    d, c, r = zoo.effect_change(card, stats, _named(values), increase, decrease)
    return (float(d), float(c), float(r))


# ------------------------------------------------------------------------ context


@dataclass(frozen=True)
class Context:
    """What one decision's positions share: the table, the goals and what is still to come."""

    mode: str
    negatives: NegativeValues  # the match's option: how a negative value scores
    future_rounds: int  # rounds after this one
    to_come: int  # cards still to be drafted: this round's, then HAND_SIZE per later round
    open_goals: tuple[OpenGoal, ...]  # in play and checked again (later this round, or in a later round)
    secret_goals: tuple[tuple[SecretGoal, float], ...]  # the seat's, and the best other zoo's measure


def values_of(player: Player) -> Vec:
    """A zoo's values as the estimate reads them."""
    return (float(player.values["dangerous"]), float(player.values["cute"]), float(player.values["rare"]))


# -------------------------------------------------------------------------- judge


class Judge:
    """Estimates a seat's final score from its zoo and the cards it holds (see the module docstring)."""

    def __init__(self, engine: ZooEngine, weights: Weights, paths_connect: bool) -> None:
        self.engine = engine
        self.cards = engine.cards
        self.w = weights
        self.paths_connect = paths_connect  # the mode's (zoo.paths_connect)
        # How often a card drawn at random fits an end needing each connector (advanced mode).
        sides = [c.enclosures for c in engine.data.cards]
        self.fits = {
            end: {c: sum(zoo.meets(x, end, c) for x in sides) / len(sides) for c in _CONNECTORS} for end in zoo.ENDS
        }
        self.best_end = max(p for by_connector in self.fits.values() for p in by_connector.values())

    def context(self, state: ZooState, seat: int, counted: Sequence[Stats] | None = None) -> Context:
        """The facts every position of this decision shares, read from a state whose `seat` part is exact.

        It reads what the seat's view shows (every zoo, the seat's own hand size and secret goals,
        the goals, the round, the decision), so a state the engine rebuilt from that view and the
        real state give the same context; no view is built (the search evaluates many positions).
        `counted`: every zoo's stats_of, when the caller has them (only read here).
        """
        zoos = state.players
        other_stats = [
            (counted[s] if counted is not None else stats_of(p, self.cards), values_of(p))
            for s, p in enumerate(zoos)
            if s != seat
        ]
        goals = [self.engine.secret_goals[g] for g in zoos[seat].secret_goals]
        secret = tuple((g, max((metric(s, g.metric, v) for s, v in other_stats), default=-math.inf)) for g in goals)
        top = self.engine.top(state)
        this_round = max(len(zoos[seat].hand) - 1, 0) if isinstance(top, Drafting) else 0
        future = max(state.rounds - state.round, 0)
        # The goals this round's check has still to judge (the engine's order), and later rounds' checks.
        in_play = set(state.open_in_play)
        if isinstance(top, (Drafting, Construction)):
            checked = set(goals_to_check(state.open_goals, in_play))
        elif isinstance(top, Rewards):
            checked = set(goals_to_check(state.open_goals, in_play, top.goal))
        else:
            checked = set()
        open_goals = tuple(
            self.engine.open_goals[g] for g in state.open_goals if g in in_play and (future or g in checked)
        )
        return Context(state.mode, state.negative_values, future, this_round + HAND_SIZE * future, open_goals, secret)

    # ---------------------------------------------------------------- value

    def value(
        self, player: Player, held: Iterable[int], kept: int | None, ctx: Context, counted: Stats | None = None
    ) -> float:
        """The estimated final score of the seat whose zoo is `player`, holding `held` and `kept`.

        `counted`: the zoo's stats_of, when the caller has them; the plan takes room in it, so it is used up.
        """
        w = self.w
        stats = counted if counted is not None else stats_of(player, self.cards)
        values = values_of(player)
        ends = self._ends(player)
        gains = self._resolve(player, stats, values, [self.cards[c] for c in held], w.held, ends)
        to_come = ctx.to_come
        if kept is not None and ctx.future_rounds > 0:
            kept_gain = self._resolve(player, stats, values, [self.cards[kept]], w.kept, ends)
            gains = _plus(gains, kept_gain)
            to_come += 1 if kept_gain == ZERO else 0  # a card with no use in sight is still a card
        base = _plus(values, gains)
        future = self.future(stats, to_come, ends)
        base = _plus(base, self.goals(stats, base, future, ctx))
        spread = (1 - w.directed) * future / 3
        score = reach(_plus(base, (spread, spread, spread)), w.directed * future, ctx.negatives)
        return score + w.animals * stats.animals.total()

    def future(self, stats: Stats, to_come: int, ends: Ends) -> float:
        """Value points the cards still to come should add, given the free room in the zoo.

        Each card is an animal if there is room for it, or an enclosure card making room
        for `build_room` animals; with `room` animals' worth of free enclosures, the best
        split places to_come − (to_come − room) / (1 + build_room) animals.
        """
        if to_come <= 0:
            return 0.0
        w = self.w
        room = w.mystic_room * stats.free["mystic"] + w.stack_room * stats.stackable.total()
        for habitat in HABITATS:
            free = stats.free[habitat]
            room += w.habitat_room * (1 - w.room_decay**free) / (1 - w.room_decay)
        made = w.build_room
        if ends is not None:
            # Paths must connect: an open end that few cards fit makes room more slowly.
            miss = 1.0
            for end, connector in ends.items():
                miss *= 1 - self.fits[end][connector]
            made *= 0.5 + 0.5 * min(1.0, (1 - miss) / self.best_end)
        builds = max(0.0, (to_come - room) / (1 + made))
        return w.points_per_animal * (to_come - builds)

    def goals(self, stats: Stats, values: Vec, future: float, ctx: Context) -> Vec:
        """Expected rewards of the open goals (at their next check) and of the likelier secret goal."""
        w = self.w
        bonus = ZERO
        for goal in ctx.open_goals:
            measured = metric(stats, goal.metric, values)
            first, second = _vec(goal.rewards[0]), _vec(goal.rewards[1])
            # An achiever chooses one of the two rewards: the one that helps the seat more.
            better = max((first, second), key=lambda r: reach(_plus(values, r), future, ctx.negatives))
            if measured >= goal.at_least:
                bonus = _plus(bonus, better)
            elif ctx.to_come > 0 and measured > 0:  # cards to come may still meet it
                progress = min(measured / goal.at_least, 1.0)
                bonus = _plus(bonus, better, w.goal_progress * progress * progress)
        best, chance = None, 0.0
        spread = w.secret_spread * (1 + ctx.future_rounds)
        for secret, others in ctx.secret_goals:
            lead = metric(stats, secret.metric, values) - others
            p = 1 / (1 + math.exp(-(lead - 0.5) / spread))
            if p > chance:
                best, chance = secret, p
        if best is not None:
            bonus = _plus(bonus, _vec(best.reward), chance)
        return bonus

    # ------------------------------------------------------------- held cards

    def _resolve(
        self,
        player: Player,
        stats: Stats,
        values: Vec,
        held: list[Card],
        weight: float,
        ends: Ends,
    ) -> Vec:
        """The planned use of held cards: their animals' gains (times `weight`); updates `stats`.

        Animals that fit a free enclosure (or join a stack of their name) come first, the
        best first; then an enclosure card is built for an animal still waiting, if one
        fits it; the other cards are built for room, if their paths connect.
        """
        if not held:
            return ZERO
        gains = ZERO
        by_gain = sorted(held, key=lambda c: -sum(estimate_gain(c, values, stats)))
        waiting: list[Card] = []
        for card in by_gain:
            if self._house(player, stats, card):
                gains = _plus(gains, estimate_gain(card, values, stats), weight)
                stats.add_animal(card.animal)
            else:
                waiting.append(card)
        spare = list(waiting)
        for card in waiting:
            if card.animal.size == "large" or card not in spare:
                continue
            host = next((h for h in spare if h is not card and _houses(h, card) and _connects(h, ends)), None)
            if host is None:
                continue
            spare.remove(host)
            spare.remove(card)
            ends = self._built(stats, host, ends)
            self._house(player, stats, card)
            gains = _plus(gains, estimate_gain(card, values, stats), weight)
            stats.add_animal(card.animal)
        for card in spare:
            if _connects(card, ends):
                ends = self._built(stats, card, ends)
        return gains

    def _house(self, player: Player, stats: Stats, card: Card) -> bool:
        """Whether the animal finds room in the zoo as counted (taking that room in `stats`)."""
        animal = card.animal
        if animal.size == "small":
            if stats.stackable[animal.name]:
                stats.stack(animal.name)
                return True
            for kind in zoo.homes(animal.habitat):
                if stats.free[kind]:
                    stats.free[kind] -= 1
                    stats.stackable[animal.name] += 1
                    stats.stack(animal.name)
                    return True
            return False
        # A large animal needs two neighbouring enclosures: only the row as built can tell.
        if sum(stats.free[kind] for kind in zoo.homes(animal.habitat)) < 2:
            return False
        if next(zoo.animal_slots(player, card, self.cards), None) is None:
            return False
        own, mystic = zoo.homes(animal.habitat)
        for _ in range(2):
            stats.free[own if stats.free[own] else mystic] -= 1
        stats.largest_stack = max(stats.largest_stack, 1)
        return True

    def _built(self, stats: Stats, card: Card, ends: Ends) -> Ends:
        """Counts an enclosure card as built at an open end its path fits; returns the open end after it.

        The zoo grows from one edge: once a card is built, its end is the only open one. Of
        two ends that fit (the first card), the one whose new edge more cards fit is taken.
        """
        stats.build(card)
        if ends is None:
            return None
        fitting = [end for end, needed in ends.items() if zoo.meets(card.enclosures, end, needed)]
        end = max(fitting, key=lambda e: self.fits[e][zoo.edge(card.enclosures, e)])
        return {end: zoo.edge(card.enclosures, end)}

    def _ends(self, player: Player) -> Ends:
        """The connectors the zoo's open ends need (None when paths need not connect)."""
        if not self.paths_connect:
            return None
        return {end: zoo.end_connector(player, end, self.cards) for end in zoo.open_ends(player)}


_CONNECTORS: tuple[Connector, ...] = ("upper", "middle", "lower")


def _houses(host: Card, card: Card) -> bool:
    """The host's enclosure side has an enclosure the card's animal may live in."""
    return any(zoo.fits(card.animal.habitat, kind) for kind in (host.enclosures.top, host.enclosures.bottom))


def _connects(card: Card, ends: Ends) -> bool:
    """The card may be built at one of the open ends (always, when paths need not connect)."""
    if ends is None:
        return True
    return any(zoo.meets(card.enclosures, end, needed) for end, needed in ends.items())


# ------------------------------------------------------------------------- policy


class ZooGreedy:
    """The `greedy` level: the action whose resulting position has the best estimated final score."""

    needs_view = True

    def __init__(self, engine: ZooEngine | None = None, weights: Weights | None = None) -> None:
        self.engine = engine or ZooEngine()
        self.weights = weights or Weights()
        # Each mode's estimate of a final score (the search's evaluation reads it too).
        self.judges = {mode: Judge(self.engine, self.weights, zoo.paths_connect(mode)) for mode in get_args(Mode)}
        self._encoder = msgspec.msgpack.Encoder()
        self._decoder = msgspec.msgpack.Decoder(ZooState)

    def choose(self, view: Any, legal: Sequence[Any], seat: int, rng: random.Random) -> Any:
        """One of `legal`: the best by estimated final score, ties broken by `rng`."""
        actions: list[Action] = list(legal)
        if len(actions) == 1:
            return actions[0]
        assert isinstance(view, ZooView)
        judge = self.judges[view.mode]
        # The engine's own reading of the view: exact for every zoo, values and the seat's
        # cards. Its dealt parts (others' cards and goals, the pile) are never read, so they
        # are left in catalogue order rather than shuffled (a determinization's extra work).
        world = self.engine.state_from_view(view, seat)
        zoos = world.players
        ctx = judge.context(world, seat)
        values = self.action_values(view, zoos[seat], actions, judge, ctx)
        best = max(values)
        return rng.choice([a for a, v in zip(actions, values, strict=True) if v >= best - TIE])

    def action_values(
        self, view: ZooView, me: Player, actions: list[Action], judge: Judge, ctx: Context
    ) -> list[float]:
        """The estimated final score after each action (`me`: the seat's zoo and cards)."""
        kept = me.kept
        kind = view.prompt.kind
        if kind == Drafting.kind():
            return [judge.value(me, [*me.picks, _card(a)], kept, ctx) for a in actions]
        if kind == Construction.kind():
            alone = ZooState(
                mode=view.mode,
                rng=Rng(0),
                rounds=view.rounds,
                players=[me],
                draw_pile=[],
                decisions=[Construction(must=[0])],
                round=view.round,
                negative_values=view.negative_values,
            )
            blob = self._encoder.encode(alone)
            return [self._after(blob, a, judge, ctx) for a in actions]
        if kind == Rewards.kind():
            return [self._rewarded(me, a, kept, judge, ctx) for a in actions]
        return [self._final(me, view, a) for a in actions]

    def _after(self, blob: bytes, action: Action, judge: Judge, ctx: Context) -> float:
        """The value once the construction action is done, on a copy of the seat's own zoo."""
        state = self._decoder.decode(blob)
        player = state.players[0]
        if isinstance(action, Finish):
            return judge.value(player, [], player.kept, ctx)
        self.engine.perform(state, 0, action)
        return judge.value(player, player.picks, player.kept, ctx)

    def _rewarded(self, me: Player, action: Action, kept: int | None, judge: Judge, ctx: Context) -> float:
        assert isinstance(action, ChooseReward)
        gain = self.engine.open_goals[action.goal].rewards[action.option]
        return judge.value(_gained(me, gain), [], kept, ctx)

    def _final(self, me: Player, view: ZooView, action: Action) -> float:
        """The final score with this secret goal scored (more animals break a tie, and they are equal)."""
        assert isinstance(action, ChooseSecretGoal)
        goal = self.engine.secret_goals[action.goal]
        return float(zoo.score(_gained(me, goal.reward).values, view.negative_values))


def _card(action: Action) -> int:
    assert isinstance(action, (Pick, Keep, Build, Place))
    return action.card


def _gained(player: Player, gain: Gain) -> Player:
    """A copy of the zoo with a reward added (the engine's gain: no value below −3)."""
    copy = Player(values=dict(player.values), row=player.row, side=player.side)
    zoo.gain(copy, gain)
    return copy


# The `mcts` level's evaluation: a seat's chance to win read from greedy's estimates of the final
# scores (a logistic curve in the lead over the best rival; EVALUATION_SCALE points move it from ½ to ¾).
EVALUATION_SCALE = 3.0
_JUDGE: list[ZooGreedy] = []


def evaluate(state: ZooState, seat: int) -> float:
    """The seat's chance to win a position, by `Judge.value` of every zoo (each from its own seat's view)."""
    if not _JUDGE:
        _JUDGE.append(ZooGreedy())
    bot = _JUDGE[0]
    judge = bot.judges[state.mode]
    # Each zoo counted once: every seat's context reads the others' counts before each value uses up its own.
    counted = [stats_of(player, judge.cards) for player in state.players]
    contexts = [judge.context(state, s, counted) for s in range(len(state.players))]
    estimates = [
        judge.value(player, player.picks, player.kept, ctx, stats)
        for player, ctx, stats in zip(state.players, contexts, counted, strict=True)
    ]
    lead = estimates[seat] - max(e for s, e in enumerate(estimates) if s != seat)
    return 1.0 / (1.0 + math.exp(-lead / EVALUATION_SCALE))


# The bot levels of this game, beside `random` (entry point group menagerie.bots).
POLICIES: dict[str, PolicyFactory] = {"greedy": ZooGreedy}
