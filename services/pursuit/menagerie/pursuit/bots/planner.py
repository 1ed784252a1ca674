"""The plans: the best the active player can do with a pool of dice this turn (`Planner.best`), the beast's
roll costed exactly (`Planner.roll_cost`), and what the things a plan brings in are worth."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from menagerie.pursuit.bots.values import FACES, LOSS, TIE, Weights, teal_spent
from menagerie.pursuit.engine.data import ACTIVATED_BY, CAPTURE_STEPS, Beast, PursuitData, Reaction
from menagerie.pursuit.engine.dice import (
    NO_DICE,
    WILD,
    Counts,
    beast_dice,
    beast_roll_outcomes,
    counts_of,
    pay_pattern,
    plus,
)
from menagerie.pursuit.engine.model import PursuitView
from menagerie.pursuit.engine.rules import HEALTH

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
