"""The `greedy` level of Pursuit: a team player that plans the dice toward the team's needs.

The bot reads only its seat's view (`PursuitView`) and the published components (the
dice faces, the boards, the beast cards): the other players' cards and the deck never
enter a decision. Every value is counted in "capture steps", one space of the beast's
track; losing the match costs `LOSS` of them.

One estimate does most of the work, `Planner.best(pool)`: the best the active player can
do with a pool of dice this turn. It tries every way of building the active board
(Ready an action with its pattern, Set it with one more die; both stay on the board for
good, so they are worth a share of what the action will bring in later turns: its
`asset`), then gives the remaining dice to the activations that pay most now:

- captures: a step is worth one, plus the chance of the beast escaping in its coming
  roll that it takes away; steps past the capture are wasted, the capture earns a bonus;
- a shield is worth what it saves its seat when the beast next rolls on that seat's turn
  (the exact distribution of the beast's dice, a stun costing the match), and a little
  for later: so shields go to whoever is low on health, the active player first;
- an insight card is worth a little, nothing once the hand is full;
- a distracted die is worth what the beast's roll costs with it, less what it costs without.

The beast's roll is costed exactly (`Planner.roll_cost`): every outcome of its dice, with
the steps it runs away, the health it takes and the shields it strips. The dice rules
themselves (how many dice the beast rolls, the distribution of its roll, what each face
does, how a Ready pattern is paid, which die an activation spends) are the engine's own
helpers (engine/dice.py): the bot never restates them.

Decisions:

- rolling: each choice of dice to keep is judged by the plan value of the same sampled
  rerolls (common random numbers), less the beast's reaction when the teal die is rolled
  again; it stops when no keep does better than the dice as they lie;
- Reroll card: played (by anyone) on the last roll when one more roll is worth more than
  holding the card;
- help window and the active player's own dice cards: a card is played when the plan
  gains more with its dice than the card is worth in hand;
- assigning: the first step of the best plan (cards, Ready, Set, Activate), then End;
- discard: the card worth least in hand;
- Muffliato and Protego: played when the expected (Muffliato) or certain (Protego) cost
  they avert is worth more than holding the card; Protego takes the most harmful face.
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from menagerie.pursuit.engine.data import (
    ACTIVATED_BY,
    CAPTURE_STEPS,
    POOL_FACES,
    Beast,
    InsightCard,
    PursuitData,
    Reaction,
    load_data,
)
from menagerie.pursuit.engine.dice import (
    MUFFLIATO_DICE,
    NO_DICE,
    WILD,
    Counts,
    beast_dice,
    beast_roll_outcomes,
    counts_of,
    die_faces,
    pay_pattern,
    plus,
    reroll_choices,
    roll_effect,
    spent_die,
)
from menagerie.pursuit.engine.model import (
    WINDOWS,
    Action,
    Activate,
    Assigning,
    Contribute,
    Die,
    Discard,
    EndAssign,
    HelpWindow,
    MuffliatoWindow,
    Pass,
    PlayDieCard,
    PlayMuffliato,
    PlayProtego,
    PlayReroll,
    PoolDie,
    PursuitView,
    Ready,
    Reroll,
    RerollWindow,
    Rolling,
    SetAction,
    StopRolling,
)
from menagerie.pursuit.engine.rules import HEALTH
from menagerie.pursuit.evaluation import evaluate as evaluate  # the mcts level's evaluation hook
from menagerie.rules.bots import PolicyFactory

FACES = POOL_FACES  # the faces of dice to assign, in the order of Counts
LOSS = 40.0  # a lost match, in capture steps
SAMPLES = 16  # sampled rerolls per rolling decision
SCREEN = 2  # the samples every reroll is tried on…
FINALISTS = 6  # …before the best few are tried on all
PLANNERS_KEPT = 64
TIE = 1e-9


@dataclass(frozen=True)
class Weights:
    """The tunable numbers (chosen in greedy team matches on normal difficulty)."""

    capture_bonus: float = 3.0  # a captured beast no longer runs away or hurts anyone
    escape: float = 20.0  # a beast escaping while an escape is still allowed
    # What having an action Ready and Set is worth, early in the match.
    assets: tuple[tuple[str, float], ...] = (
        ("capture_3", 10.0),
        ("capture_1", 3.0),
        ("protect", 7.0),
        ("insight", 1.0),
        ("distract", 6.0),
    )
    ready_share: float = 0.7  # of an asset, for Readying it (Setting it is one die more)
    cross_board: float = 0.25  # an asset is worth more for each other board with it Set
    health: float = 0.8  # a point of health, before it gets scarce (see `damage_cost`)
    shield_decay: float = 0.8  # each shield already held makes the next one matter less…
    later: float = 1.0  # …for the turns after the next one
    card: float = 0.8  # an insight card drawn while the hand has room
    holds: tuple[tuple[str, float], ...] = (("reroll", 1.0), ("muffliato", 1.5), ("protego", 2.0), ("die", 0.8))


# --------------------------------------------------------------------------- pools


def card_counts(card: InsightCard) -> Counts:
    """The dice a dice card adds to the pool."""
    assert card.face is not None
    return counts_of([card.face] * card.dice)


@cache
def teal_spent(count: int, black: int, teal: str | None) -> bool:
    """Whether `count` Distract activations take the teal die, spending dice as the engine does.

    `black` distract dice and the teal die (showing `teal`) lie in the pool; the engine's
    `spent_die` picks each activation's die. A plan counts dice without telling rolled
    ones from card ones, so its dice cards' dice are taken for rolled ones here.
    """
    pool = [PoolDie("distract", "black") for _ in range(black)]
    if teal is not None and teal != "reaction":
        pool.append(PoolDie(teal, "teal"))  # type: ignore[arg-type]
    for _ in range(count):
        index = spent_die(pool, {}, "distract", 0)
        if index is None:
            return False
        if pool.pop(index).color == "teal":
            return True
    return False


# --------------------------------------------------------------------------- plans


@dataclass(frozen=True)
class Build:
    """Ready and Set steps on the active board this turn, and what they are worth."""

    readies: tuple[str, ...]
    sets: tuple[str, ...]
    pattern: Counts  # the dice the Ready patterns take together
    value: float
    set_after: frozenset[str]
    dice: int  # the dice it takes
    most: float  # the most its activations could add…
    best_one: float  # …and the most one of them could


@dataclass(frozen=True)
class Plan:
    """What to do with a pool: cards to play, builds, activations; and its value."""

    value: float
    cards: tuple[int, ...] = ()
    readies: tuple[str, ...] = ()
    sets: tuple[tuple[str, str], ...] = ()  # (action, face of the die that Sets it)
    activations: tuple[tuple[int, str], ...] = ()  # (board, action), the most valuable first


NOTHING = Plan(0.0)
# What a pool's activations are worth, which they are, and the dice left over.
Activations = tuple[float, tuple[tuple[int, str], ...], Counts]


Outcome = tuple[int, int, bool, float]  # steps the beast runs, attack on the active player, reacts; chance


@dataclass
class Shared:
    """What holds at every table: the outcomes of each beast's roll, the damage they do to a health."""

    outcomes: dict[tuple[str, int, bool], list[Outcome]] = field(default_factory=dict)
    hurts: dict[tuple[str, int, bool, int, int], float] = field(default_factory=dict)


@dataclass
class Planner:
    """What one decision's plans share: the table as the view shows it, and what things are worth."""

    view: PursuitView
    weights: Weights
    data: PursuitData
    cards: tuple[tuple[tuple[int, ...], Counts, float], ...]  # subsets of the active's own dice cards
    shared: Shared
    builds: list[Build] = field(default_factory=list)
    memo: dict[tuple[Counts, str | None], Plan] = field(default_factory=dict)
    costs: dict[tuple[int, bool], float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        view = self.view
        self.active = view.active
        self.board = view.players[self.active]
        self.beast: Beast = view.track.beast
        self.need = view.track.length - view.track.position
        self.done = {(a.seat, a.action) for a in view.activations}
        assets = dict(self.weights.assets)
        left = max(0, 5 - len(view.captured)) / 5
        others_set = [set(p.set) for p in view.players if p.seat != self.active]
        self.asset = {
            a: v * (0.3 + 0.7 * left) * (1 + self.weights.cross_board * sum(a in s for s in others_set))
            for a, v in assets.items()
        }
        self._options: dict[frozenset[str], dict[str, list[tuple[float, int, str]]]] = {}
        self._reaction: float | None = None
        self._spared: dict[tuple[int, bool], float] = {}
        self._bounds: dict[frozenset[str], tuple[float, float]] = {}
        self._escapes: dict[int, float] = {}
        self._shields: dict[int, float] = {}
        self._activations: dict[tuple[Counts, str | None, frozenset[str], int], Activations] = {}
        self.builds = self._builds()

    # -------------------------------------------------------------- values

    def shield_value(self, seat: int) -> float:
        """What one more shield saves `seat` when the beast rolls on its turn, and a little for later."""
        if seat not in self._shields:
            shields = self.view.players[seat].shields
            now = self.hurt_risk(seat, shields) - self.hurt_risk(seat, shields + 1)
            later = self.weights.later * self.damage_cost(seat, 1) * self.weights.shield_decay**shields
            self._shields[seat] = now + later
        return self._shields[seat]

    def damage_cost(self, seat: int, damage: int) -> float:
        """Health lost by `seat`: cheap at first, dear when little is left, the match at zero."""
        if damage <= 0:
            return 0.0
        health = self.view.players[seat].health
        if damage >= health:
            return LOSS
        return damage * self.weights.health + HEALTH / (health - damage) - HEALTH / health

    def card_value(self, seat: int) -> float:
        """A drawn insight card (one over the hand limit must be discarded again)."""
        room = self.view.players[seat].hand_size < self.view.hand_limit
        return self.weights.card if room else 0.1 * self.weights.card

    def steps_value(self, steps: int) -> float:
        """Steps toward the suitcase this turn: one each, and the risk of an escape they take away.

        Steps past the capture are wasted; the capture earns a bonus.
        """
        if steps >= self.need:
            return self.need + self.weights.capture_bonus + self.escape_risk(0)
        return steps + self.escape_risk(0) - self.escape_risk(steps)

    def escape_risk(self, steps: int) -> float:
        """The expected cost of the beast escaping in its coming roll, were it `steps` nearer the suitcase."""
        if steps not in self._escapes:
            view = self.view
            position = view.track.position + steps
            reaction = self.beast.reaction.escape
            chance = sum(
                p for e, _, r, p in self.outcomes(*self.beast_dice(0, False)) if position - e - r * reaction < 0
            )
            lost = LOSS if len(view.escaped) + 1 > view.escapes_allowed else self.weights.escape
            self._escapes[steps] = chance * lost
        return self._escapes[steps]

    # ---------------------------------------------------------------- beast

    def loss(self, escape: int, attack: int, reaction: Reaction | None) -> float:
        """The cost of one outcome of the beast's dice, resolved as the engine does.

        The black dice first (`escape` steps, `attack` on the active player), then the
        reaction: shields stripped, its escape, its attack on the active player, on everyone.
        """
        view = self.view
        escape += reaction.escape if reaction else 0
        if view.track.position - escape < 0:
            cost = LOSS if len(view.escaped) + 1 > view.escapes_allowed else self.weights.escape
        else:
            cost = float(escape)
        for player in view.players:
            active = player.seat == self.active
            hits = [attack if active else 0]
            if reaction:
                hits.append((reaction.attack if active else 0) + reaction.attack_all)
            shields, damage = player.shields, 0
            for index, hit in enumerate(hits):
                if index == 1 and reaction and reaction.strip_shields:
                    shields = max(0, shields - 1)
                absorbed = min(shields, hit)
                shields, damage = shields - absorbed, damage + hit - absorbed
            cost += self.damage_cost(player.seat, damage) + (player.shields - shields) * self.shield_value(player.seat)
        return cost

    def reaction_cost(self) -> float:
        """The cost of the beast's reaction now (the teal die rolled it)."""
        if self._reaction is None:
            self._reaction = self.loss(0, 0, self.beast.reaction)
        return self._reaction

    def outcomes(self, black: int, teal: bool) -> list[Outcome]:
        """Every outcome of the beast's roll (the engine's distribution): steps it runs, attack on
        the active player, whether it reacts; each with its chance."""
        key = (self.beast.id, black, teal)
        if key not in self.shared.outcomes:
            self.shared.outcomes[key] = [
                (effect.escape, effect.attack, effect.reacts, float(chance))
                for effect, chance in beast_roll_outcomes(self.beast, self.data.dice, black, teal)
            ]
        return self.shared.outcomes[key]

    def roll_cost(self, black: int, teal: bool) -> float:
        """The expected cost of the beast rolling `black` black dice (and the teal die if `teal`)."""
        key = (black, teal)
        if key not in self.costs:
            reaction = self.beast.reaction
            self.costs[key] = sum(p * self.loss(e, a, reaction if r else None) for e, a, r, p in self.outcomes(*key))
        return self.costs[key]

    def hurt_risk(self, seat: int, shields: int) -> float:
        """The expected cost of the health `seat` loses to the beast's roll on its turn, holding `shields`."""
        if seat == self.active:
            black, teal = self.beast_dice(0, False)
        else:
            black, teal = beast_dice(self.beast, (), 0)  # on its own turn, nothing distracted yet
        health = self.view.players[seat].health
        key = (self.beast.id, black, teal, health, shields)
        if key not in self.shared.hurts:
            reaction = self.beast.reaction
            total = 0.0
            for _, attack, reacts, p in self.outcomes(black, teal):
                left = max(0, shields - attack)
                damage = max(0, attack - shields)
                if reacts:
                    left = max(0, left - 1) if reaction.strip_shields else left
                    damage += max(0, reaction.attack + reaction.attack_all - left)
                total += p * self.damage_cost(seat, damage)
            self.shared.hurts[key] = total
        return self.shared.hurts[key]

    def beast_dice(self, black_distracted: int, teal_distracted: bool) -> tuple[int, bool]:
        """How many black dice the beast will roll, and whether the teal one, with these more distracted."""
        view = self.view
        return beast_dice(self.beast, view.activations, view.muffled, black_distracted, teal_distracted)

    def distract_value(self, count: int, black_distract: int, teal: str | None) -> float:
        """What `count` distract activations save (the dice they spend as the engine spends them)."""
        if count <= 0:
            return 0.0
        teal_used = teal_spent(count, black_distract, teal)
        key = (count - teal_used, teal_used)
        if key not in self._spared:
            before = self.roll_cost(*self.beast_dice(0, False))
            self._spared[key] = before - self.roll_cost(*self.beast_dice(*key))
        return self._spared[key]

    # --------------------------------------------------------------- builds

    def _builds(self) -> list[Build]:
        """Every combination of Ready/Set steps the active board could pay for this turn, most promising first."""
        board = self.board
        patterns: dict[str, Counts] = {p.action: counts_of(p.faces) for p in board.character.ready}
        most_dice = len(self.view.dice) + max(sum(extra) for _, extra, _ in self.cards)
        share = self.weights.ready_share
        # (readies, sets, their Ready patterns together, dice, value), one action at a time.
        partial: list[tuple[tuple[str, ...], tuple[str, ...], Counts, int, float]] = [((), (), NO_DICE, 0, 0.0)]
        for action, _ in self.weights.assets:
            if action in board.set:
                continue
            # Left alone, Set (when Ready already), or Readied and perhaps Set too.
            steps = [(False, True)] if action in board.ready else [(True, False), (True, True)]
            grown = list(partial)
            for readies, sets, pattern, dice, value in partial:
                for ready, setting in steps:
                    more = sum(patterns[action]) * ready + setting
                    if dice + more > most_dice:
                        continue
                    worth = self.asset[action] * (share * ready + (1 - share) * setting)
                    grown.append(
                        (
                            readies + (action,) * ready,
                            sets + (action,) * setting,
                            plus(pattern, patterns[action]) if ready else pattern,
                            dice + more,
                            value + worth,
                        )
                    )
            partial = grown
        builds = []
        for readies, sets, pattern, dice, value in partial:
            set_after = frozenset(board.set) | frozenset(sets)
            most, best_one = self._most(set_after)
            builds.append(Build(readies, sets, pattern, value, set_after, dice, most, best_one))
        builds.sort(key=lambda b: -(b.value + b.most))
        return builds

    def options(self, set_after: frozenset[str]) -> dict[str, list[tuple[float, int, str]]]:
        """The activations open once `set_after` is Set on the active board, by face, the best first.

        Any action Set on the active board; on another board, an action Set on both boards.
        Each comes with its value (for captures: its steps).
        """
        if set_after not in self._options:
            found = [(self.active, a) for a in sorted(set_after)]
            for player in self.view.players:
                if player.seat != self.active:
                    found += [(player.seat, a) for a in player.set if a in set_after]
            by_face: dict[str, list[tuple[float, int, str]]] = defaultdict(list)
            for seat, action in found:
                if (seat, action) in self.done:
                    continue
                if action == "protect":
                    worth = self.shield_value(seat)
                elif action == "insight":
                    worth = self.card_value(seat)
                else:  # captures: their steps (Distract is valued by the dice it takes off the beast)
                    worth = float(CAPTURE_STEPS.get(action, 1))
                by_face[ACTIVATED_BY[action]].append((worth, seat, action))
            for listed in by_face.values():
                listed.sort(reverse=True)
            self._options[set_after] = dict(by_face)
        return self._options[set_after]

    def _most(self, set_after: frozenset[str]) -> tuple[float, float]:
        """Upper bounds of what the activations open with `set_after` may add: all of them, and one."""
        if set_after not in self._bounds:
            self._bounds[set_after] = self._bound(set_after)
        return self._bounds[set_after]

    def _bound(self, set_after: frozenset[str]) -> tuple[float, float]:
        options = self.options(set_after)
        steps = [int(v) for v, _, _ in options.get("capture", [])]
        distract = len(options.get("distract", []))
        spared = max(self.distract_value(distract, 0, "distract"), self.distract_value(distract, distract, None))
        others = [v for face in ("protect", "insight") for v, _, _ in options.get(face, [])]
        one = max([self.steps_value(max(steps, default=0)), spared, *others])
        return self.steps_value(sum(steps)) + max(0.0, spared) + sum(others), one

    # ----------------------------------------------------------------- best

    def value(self, pool: Counts, teal: str | None) -> float:
        """The value of the best plan for `pool` (`teal`: the teal die's face if it is in the pool)."""
        return self.best(pool, teal).value

    def best(self, pool: Counts, teal: str | None) -> Plan:
        """The best plan for `pool`, playing the active player's own dice cards when they pay."""
        key = (pool, teal)
        if key not in self.memo:
            plans = [
                self._best_without_cards(plus(pool, extra), teal, cards, cost) for cards, extra, cost in self.cards
            ]
            self.memo[key] = max(plans, key=lambda p: p.value)
        return self.memo[key]

    def _best_without_cards(self, pool: Counts, teal: str | None, cards: tuple[int, ...], cost: float) -> Plan:
        best, best_build, best_spare = NOTHING, None, NO_DICE
        dice = sum(pool)
        for build in self.builds:
            if build.value + build.most - cost <= best.value + TIE:
                break  # the builds come by this bound: none of the rest can do better
            spare_dice = dice - build.dice
            if spare_dice < 0 or build.value + spare_dice * build.best_one - cost <= best.value + TIE:
                continue
            left = pay_pattern(pool, build.pattern)
            if left is None:
                continue
            teal_left = teal if teal is not None and left[FACES.index(teal)] > 0 else None
            value, activations, spare = self.activate(left, teal_left, build.set_after, len(build.sets))
            total = build.value + value - cost
            if total > best.value + TIE:
                best, best_build, best_spare = Plan(total, cards, build.readies, (), activations), build, spare
        if best_build is None or not best_build.sets:
            return best
        sets = tuple(zip(best_build.sets, _set_faces(best_spare, len(best_build.sets)), strict=True))
        return Plan(best.value, cards, best.readies, sets, best.activations)

    def activate(self, pool: Counts, teal: str | None, set_after: frozenset[str], sets: int) -> Activations:
        """The activations `pool` pays for (remembered: many builds leave the same dice)."""
        key = (pool, teal, set_after, sets)
        if key not in self._activations:
            self._activations[key] = self._activate(pool, teal, set_after, sets)
        return self._activations[key]

    def _activate(self, pool: Counts, teal: str | None, set_after: frozenset[str], sets: int) -> Activations:
        """The dice given to activations, exact faces first and wilds where they pay most.

        `sets` dice are kept back for Setting (any die will do); the least valuable
        activations give way to them. Returns the value, the activations and the dice left.
        """
        by_face = self.options(set_after)
        taken: dict[str, int] = defaultdict(int)
        used: list[tuple[float, int, str, int]] = []  # (marginal value, board, action, face index)
        black_distract = pool[FACES.index("distract")] - (teal == "distract")

        def marginal(face: str) -> float:
            """What the next activation of this face adds."""
            options, n = by_face.get(face, []), taken[face]
            if n >= len(options):
                return 0.0
            if face == "capture":
                steps = sum(int(v) for v, _, _ in options[:n])
                return self.steps_value(steps + int(options[n][0])) - self.steps_value(steps)
            if face == "distract":
                return self.distract_value(n + 1, black_distract, teal) - self.distract_value(n, black_distract, teal)
            return options[n][0]

        def take(face: str, die: int) -> bool:
            gain = marginal(face)
            if gain <= TIE:
                return False
            _, seat, action = by_face[face][taken[face]]
            used.append((gain, seat, action, die))
            taken[face] += 1
            return True

        for index, face in enumerate(FACES[:WILD]):
            for _ in range(pool[index]):
                if not take(face, index):
                    break
        for _ in range(pool[WILD]):
            face = max(FACES[:WILD], key=marginal)
            if not take(face, WILD):
                break
        spare = list(pool)
        for *_, die in used:
            spare[die] -= 1
        used.sort(key=lambda u: -u[0])
        while sum(spare) < sets and used:
            _, _, _, die = used.pop()
            spare[die] += 1
        value = sum(u[0] for u in used)
        return value, tuple((seat, action) for _, seat, action, _ in used), tuple(spare)


def _set_faces(spare: Counts, sets: int) -> list[str]:
    """Faces of spare dice to Set actions with: wilds last, they fit any later need."""
    faces = []
    for face in ("distract", "insight", "protect", "capture", "wild"):
        faces += [face] * spare[FACES.index(face)]
    return faces[:sets]


# -------------------------------------------------------------------------- policy


class PursuitGreedy:
    """The `greedy` level: plans the team's dice, and plays cards when they are worth more played than held."""

    needs_view = True

    def __init__(self, data: PursuitData | None = None, weights: Weights | None = None) -> None:
        self.data = data or load_data()
        self.weights = weights or Weights()
        self.cards = {c.id: c for c in self.data.cards}
        self.holds = dict(self.weights.holds)
        self._planners: dict[tuple[object, ...], Planner] = {}
        self._shared = Shared()

    def choose(self, view: Any, legal: Sequence[Any], seat: int, rng: random.Random) -> Any:
        """One of `legal`, by the decision the match waits for (see the module docstring)."""
        actions: list[Action] = list(legal)
        if len(actions) == 1:
            return actions[0]
        assert isinstance(view, PursuitView)
        choice = self._choice(view, actions, seat, rng)
        # Offered only some of the legal actions, the plan's choice may be missing.
        return choice if choice in actions else actions[0]

    def _choice(self, view: PursuitView, actions: list[Action], seat: int, rng: random.Random) -> Action:
        kind = view.prompt.kind
        if kind in WINDOW_KINDS:
            return self._window(view, actions, seat, rng)
        if kind == Rolling.kind():
            return self._roll(view, actions, seat, rng)
        if kind == Assigning.kind():
            return self._assign(view, actions, seat)
        discards = [a for a in actions if isinstance(a, Discard)]
        return min(discards, key=lambda a: self.hold(a.card)) if discards else actions[0]

    # ------------------------------------------------------------------ cards

    def hold(self, card: int) -> float:
        """What a card is worth kept in hand."""
        info = self.cards[card]
        return self.holds[info.kind] * (info.dice if info.kind == "die" else 1)

    def planner(self, view: PursuitView, seat: int) -> Planner:
        """The plans of this decision; the active player's own dice cards count only for itself.

        A turn's decisions mostly share one table, so its planner (and what it has worked
        out) is kept for the next decision at the same table.
        """
        own = [self.cards[c.id] for c in view.players[seat].hand if c.kind == "die"] if seat == view.active else []
        distinct = tuple({(c.face, c.dice): c for c in own}.values())
        key = _table(view, distinct)
        if key not in self._planners:
            if len(self._planners) >= PLANNERS_KEPT:
                self._planners.clear()
            subsets = []
            for n in range(len(distinct) + 1):
                for chosen in itertools.combinations(distinct, n):
                    extra = NO_DICE
                    for card in chosen:
                        extra = plus(extra, card_counts(card))
                    subsets.append((tuple(c.id for c in chosen), extra, sum(self.hold(c.id) for c in chosen)))
            self._planners[key] = Planner(view, self.weights, self.data, tuple(subsets), self._shared)
        return self._planners[key]

    # --------------------------------------------------------------- rolling

    def _roll(self, view: PursuitView, actions: list[Action], seat: int, rng: random.Random) -> Action:
        """Keep the dice whose sampled rerolls plan best; one more roll by card if it is worth the card."""
        planner = self.planner(view, seat)
        samples = _samples(self.data, rng)
        stop = _lying(view, planner)
        keep, value = self.best_reroll(view, planner, [a for a in actions if isinstance(a, Reroll)], samples)
        if keep is not None and value > stop + TIE:
            return keep
        card = next((a for a in actions if isinstance(a, PlayReroll)), None)
        if card is not None and view.rolls >= view.roll_limit and self._worth_a_roll(view, planner, card, samples):
            return card
        return StopRolling()

    def _worth_a_roll(self, view: PursuitView, planner: Planner, card: PlayReroll, samples: list[Sample]) -> bool:
        """Whether one more roll of the active player's dice is worth more than the Reroll card in hand."""
        _, value = self.best_reroll(view, planner, _all_rerolls(view), samples)
        return value - _lying(view, planner) > self.hold(card.card)

    @staticmethod
    def best_reroll(
        view: PursuitView, planner: Planner, rerolls: list[Reroll], samples: list[Sample]
    ) -> tuple[Reroll | None, float]:
        """The reroll with the best mean plan value, and that value.

        Every reroll is tried on the first few samples, the most promising ones on all.
        """
        if not rerolls:
            return None, -LOSS
        first = sorted(((_reroll_value(view, planner, r, samples[:SCREEN]), r) for r in rerolls), key=lambda x: -x[0])
        finalists = [(_reroll_value(view, planner, r, samples), r) for _, r in first[:FINALISTS]]
        value, reroll = max(finalists, key=lambda x: x[0])
        return reroll, value

    # ------------------------------------------------------------- assigning

    def _assign(self, view: PursuitView, actions: list[Action], seat: int) -> Action:
        """The first step of the best plan that the engine allows; End once nothing pays."""
        planner = self.planner(view, seat)
        pool = counts_of([d.face for d in view.pool])
        teal = next((d.face for d in view.pool if d.color == "teal"), None)
        plan = planner.best(pool, teal)
        for step in _steps(plan):
            if step in actions:
                return step
            if isinstance(step, Activate):
                # Distract names its die's colour: the one the engine would spend (the plan counted on it).
                face = ACTIVATED_BY[step.action]
                index = spent_die(view.pool, view.card_boards, face, step.seat)
                color = view.pool[index].color if index is not None else None
                named = Activate(step.seat, step.action, color)
                if named in actions:
                    return named
            if isinstance(step, SetAction):
                other = next((a for a in actions if isinstance(a, SetAction) and a.action == step.action), None)
                if other is not None:
                    return other
        return EndAssign()

    # --------------------------------------------------------------- windows

    def _window(self, view: PursuitView, actions: list[Action], seat: int, rng: random.Random) -> Action:
        """Play a card into the open window when it is worth more than holding it; else pass."""
        plays: list[Action] = [a for a in actions if not isinstance(a, Pass)]
        kind = view.prompt.kind
        if kind == RerollWindow.kind():
            choice = self._reroll_window(view, plays, seat, rng)
        elif kind == HelpWindow.kind():
            choice = self._help(view, plays, seat)
        elif kind == MuffliatoWindow.kind():
            choice = self._muffliato(view, plays, seat)
        else:
            choice = self._protego(view, plays, seat)
        return choice or Pass()

    def _reroll_window(self, view: PursuitView, plays: list[Action], seat: int, rng: random.Random) -> Action | None:
        """A Reroll card for the active player, once its own rolls are spent and the dice disappoint."""
        if view.rolls < view.roll_limit or not plays:
            return None
        card = plays[0]
        assert isinstance(card, PlayReroll)
        planner = self.planner(view, seat)
        return card if self._worth_a_roll(view, planner, card, _samples(self.data, rng)) else None

    def _help(self, view: PursuitView, plays: list[Action], seat: int) -> Action | None:
        """The dice card that adds most to the active player's plan, if that beats holding it."""
        planner = self.planner(view, seat)
        pool = counts_of([d.face for d in view.pool])
        teal = next((d.face for d in view.pool if d.color == "teal"), None)
        now = planner.value(pool, teal)
        best, gain = None, 0.0
        for play in plays:
            assert isinstance(play, Contribute)
            card = self.cards[play.card]
            more = planner.value(plus(pool, card_counts(card)), teal) - now - self.hold(play.card)
            if more > gain + TIE:
                best, gain = play, more
        return best

    def _muffliato(self, view: PursuitView, plays: list[Action], seat: int) -> Action | None:
        """Muffliato when two fewer black dice save more than the card is worth."""
        if not plays:
            return None
        card = plays[0]
        assert isinstance(card, PlayMuffliato)
        planner = self.planner(view, seat)
        now = planner.roll_cost(*planner.beast_dice(0, False))
        saved = now - planner.roll_cost(*beast_dice(planner.beast, view.activations, view.muffled + MUFFLIATO_DICE))
        return card if saved > self.hold(card.card) else None

    def _protego(self, view: PursuitView, plays: list[Action], seat: int) -> Action | None:
        """Protego on the face whose die does most harm, when that harm outweighs the card."""
        planner = self.planner(view, seat)
        live = [d for i, d in enumerate(view.beast_dice) if i not in view.ignored]
        now = _outcome_cost(planner, live)
        best, saved = None, 0.0
        for play in plays:
            assert isinstance(play, PlayProtego)
            without = list(live)
            without.remove(next(d for d in live if d.face == play.face))
            gain = now - _outcome_cost(planner, without)
            if gain > saved + TIE:
                best, saved = play, gain
        return best if best is not None and saved > self.hold(best.card) else None


# ------------------------------------------------------------------------ rolling


@dataclass(frozen=True)
class Sample:
    """One sampled reroll: the first n black dice (as counts, for each n) and the teal die."""

    black: tuple[Counts, ...]
    teal: str


def _samples(data: PursuitData, rng: random.Random) -> list[Sample]:
    """Rerolls shared by every choice compared (common random numbers)."""
    found = []
    black_faces, teal_faces = die_faces(data.dice, "black"), die_faces(data.dice, "teal")
    for _ in range(SAMPLES):
        faces = [rng.choice(black_faces) for _ in range(data.dice.black.count)]
        black = tuple(counts_of(faces[:n]) for n in range(len(faces) + 1))
        found.append(Sample(black, rng.choice(teal_faces)))
    return found


def _lying(view: PursuitView, planner: Planner) -> float:
    """The plan value of the rolled dice as they lie."""
    teal = next((d.face for d in view.dice if d.color == "teal" and d.face != "reaction"), None)
    return planner.value(counts_of([d.face for d in view.dice]), teal)


def _all_rerolls(view: PursuitView) -> list[Reroll]:
    """Every distinct choice of dice to keep, as if a roll were left."""
    return reroll_choices(view.dice)


def _reroll_value(view: PursuitView, planner: Planner, action: Reroll, samples: list[Sample]) -> float:
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


# ------------------------------------------------------------------------- helpers


def _table(view: PursuitView, cards: tuple[InsightCard, ...]) -> tuple[object, ...]:
    """Everything a planner reads from the view (and the active player's own dice cards)."""
    boards = tuple((p.health, p.shields, tuple(p.ready), tuple(p.set), p.hand_size) for p in view.players)
    activations = tuple((a.seat, a.action, a.color) for a in view.activations)
    track = (view.track.beast.id, view.track.position, len(view.captured), len(view.escaped), view.escapes_allowed)
    return view.active, boards, track, activations, view.muffled, tuple(c.id for c in cards)


def _outcome_cost(planner: Planner, dice: list[Die]) -> float:
    """The cost of the beast's dice as rolled."""
    effect = roll_effect(planner.beast, (d.face for d in dice))
    return planner.loss(effect.escape, effect.attack, planner.beast.reaction if effect.reacts else None)


def _steps(plan: Plan) -> list[Action]:
    """A plan as engine actions, in the order they can be taken."""
    steps: list[Action] = [PlayDieCard(c) for c in plan.cards]
    steps += [Ready(a) for a in plan.readies]  # type: ignore[arg-type]
    steps += [SetAction(a, f) for a, f in plan.sets]  # type: ignore[arg-type]
    steps += [Activate(seat, a) for seat, a in plan.activations]  # type: ignore[arg-type]
    return steps


WINDOW_KINDS = {window.kind() for window in WINDOWS}
# The bot levels of this game, beside `random` (entry point group menagerie.bots).
POLICIES: dict[str, PolicyFactory] = {"greedy": PursuitGreedy}
