"""How well a seat stands in a sampled full state of mode I or II: greedy's score.

The score is a hand-made estimate of how well a seat stands, in units of
"one useful resource token":

- a won match is worth `WIN`, a lost one `-WIN`;
- each captured creature is worth `CREATURE`;
- in mode II, resources are worth what they do for the cheapest creature(s) still
  free: every token still missing costs `DEFICIT`, tokens that some free creature
  needs are worth a little on their own, surplus colours nothing;
- a creature the seat may capture right now counts as captured (greedy will take it);
- spell cards in hand are worth a little, so that a spell is cast only for a gain;
- the seat's prospects: the best token it can reach this turn (a face-up creature it
  can pay for, a face-up resource, the expected worth of a face-down token) and,
  discounted, what a d6 roll from where it stands would reach next turn;
- the strongest opponent's material, weighted by `OPPONENT`, is subtracted, so that
  Expelliarmus or denying a creature counts.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from menagerie.beasts.engine import BeastsEngine, BeastsState
from menagerie.beasts.engine.costs import PAYABLE, WILD, Cost, Resources, cost_of, deficit, pay, plus_one, resources_of
from menagerie.beasts.engine.data import COLOURS, DIE_FACES
from menagerie.beasts.engine.model import AfterStop, Capture, ChooseStop, RollDie
from menagerie.beasts.engine.rules import CREATURES_TO_WIN
from menagerie.rules.chance import die_outcomes

WIN = 1000.0
CREATURE = 15.0
DEFICIT = 1.0  # per token still missing for the cheapest free creature
SECOND_DEFICIT = 0.3  # the same for the next cheapest, while two more are needed
USEFUL_TOKEN = 0.25  # a token some free creature needs, whatever the plan
WILD_BONUS = 0.1  # a wild token fits any plan, even a future one
SPELL_CARD = 0.5
NEXT_TURN = 0.5  # what the next roll may reach is uncertain: others move first
OPPONENT = 0.5
MEMO_LIMIT = 200_000


class Scorer:
    """How well a seat stands in a (sampled) full state; see the module docstring."""

    def __init__(self, engine: BeastsEngine) -> None:
        self.engine = engine
        self.costs: dict[str, Cost] = {c.id: cost_of(c.cost) for c in engine.data.creatures}
        # The die as the engine states it: each number of steps with its chance.
        self.die = [(steps, float(chance)) for steps, chance in sorted(die_outcomes(DIE_FACES))]
        # Memos: positions repeat a lot across actions and samples of one decision.
        self._progress: dict[tuple[Resources, tuple[str, ...], int], float] = {}
        self._worths: dict[tuple[str, Resources, tuple[str, ...], int], dict[str, float]] = {}
        # rings[origin][d]: the spaces exactly d steps from `origin` (d >= 1).
        self.rings: list[list[list[int]]] = []
        for distances in engine.routes.distance:
            ring: list[list[int]] = [[] for _ in range(max(distances) + 1)]
            for space, d in enumerate(distances):
                if d > 0:
                    ring[d].append(space)
            self.rings.append(ring)

    def trim(self) -> None:
        """Forgets the memos once they grow large (a long-lived bot plays many matches)."""
        if len(self._progress) + len(self._worths) > MEMO_LIMIT:
            self._progress.clear()
            self._worths.clear()

    # ------------------------------------------------------------------ totals

    def score(self, state: BeastsState, seat: int) -> float:
        """The seat's standing: outcome, material, prospects, minus the strongest opponent."""
        if state.outcome is not None:
            return self._final(state, seat)
        if self.can_capture_now(state, seat):
            # Greedy always takes a capture it can pay for, so value the position after it.
            after = msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=BeastsState)
            self.engine.perform(after, seat, Capture())
            return self.score(after, seat)
        free = self.free_creatures(state)
        mine = self.material(state, seat, free) + SPELL_CARD * len(state.players[seat].spells)
        others = [self.material(state, i, free) for i in range(len(state.players)) if i != seat]
        return mine + self.prospects(state, seat, free) - OPPONENT * max(others, default=0.0)

    def _final(self, state: BeastsState, seat: int) -> float:
        assert state.outcome is not None
        winners = state.outcome.winners()
        if seat in winners:
            return WIN
        if winners:
            return -WIN
        return self.material(state, seat, self.free_creatures(state))  # a draw by the turn cap

    def material(self, state: BeastsState, seat: int, free: tuple[str, ...]) -> float:
        """Captured creatures, plus in mode II the worth of the seat's resources."""
        player = state.players[seat]
        value = CREATURE * len(player.captured)
        if state.mode == "training":
            needed = self._to_win(state) - len(player.captured)
            value += self.progress(resources_of(player.resources), free, needed)
        return value

    # --------------------------------------------------------------- resources

    def progress(self, have: Resources, free: tuple[str, ...], needed: int) -> float:
        """What resources are worth toward the `free` creatures, `needed` more to win (memoized)."""
        key = (have, free, needed)
        value = self._progress.get(key)
        if value is None:
            value = self._progress[key] = _progress(have, [self.costs[c] for c in free], needed)
        return value

    def token_worths(self, state: BeastsState, seat: int, free: tuple[str, ...]) -> dict[str, float]:
        """Per token kind, the gain in material if the seat stopped on it face up (memoized)."""
        player = state.players[seat]
        needed = self._to_win(state) - len(player.captured)
        have = resources_of(player.resources)
        key = (state.mode, have, free, needed)
        worths = self._worths.get(key)
        if worths is None:
            kinds = (*COLOURS, *free)
            if state.mode == "capture":
                worths = {t: self._capture_worth(needed, t) for t in kinds}
            else:
                worths = {t: self._training_worth(have, free, needed, t) for t in kinds}
            self._worths[key] = worths
        return worths

    @staticmethod
    def _capture_worth(needed: int, t: str) -> float:
        """Mode I: a creature is captured on sight; a resource is set aside, of use to nobody."""
        if t in COLOURS:
            return 0.0
        return WIN if needed <= 1 else CREATURE

    def _training_worth(self, have: Resources, free: tuple[str, ...], needed: int, t: str) -> float:
        """Mode II: a resource adds to the seat's progress; a creature counts if it can pay for it."""
        before = self.progress(have, free, needed)
        if t in COLOURS:
            return self.progress(plus_one(have, COLOURS.index(t)), free, needed) - before
        if deficit(have, self.costs[t]) > 0:
            return 0.0  # a creature the seat cannot pay for stays where it is
        if needed <= 1:
            return WIN
        rest = tuple(c for c in free if c != t)
        return CREATURE + self.progress(pay(have, self.costs[t]), rest, needed - 1) - before

    # --------------------------------------------------------------- prospects

    def prospects(self, state: BeastsState, seat: int, free: tuple[str, ...]) -> float:
        """What the seat's standee may still reach: this turn if it has not moved, and next turn."""
        worth = self.space_worths(state, seat, free)
        position = state.players[seat].position
        later = NEXT_TURN * self._expected_reach(position, worth)
        if state.current != seat:
            return later
        decision = self.engine.top(state)
        if isinstance(decision, RollDie):
            return self._expected_reach(position, worth) + later
        if isinstance(decision, ChooseStop):
            return self._best_within(position, state.roll + state.bonus, worth) + later
        return later  # stopped: this turn's stop is already in the material

    def space_worths(self, state: BeastsState, seat: int, free: tuple[str, ...]) -> list[float]:
        """Per space, what stopping there would give the seat (face down: the expected worth).

        The token under a face-down space is unknown to the seat, so every face-down
        space is worth the mean over the unseen pool (face-down tokens and the supply)
        rather than whatever this sample happened to put there.
        """
        of = self.token_worths(state, seat, free)
        tokens, face_up = state.tokens, state.face_up
        worth = [of[t] if t is not None and up else 0.0 for t, up in zip(tokens, face_up, strict=True)]
        hidden = [(s, t) for s, t in enumerate(tokens) if t is not None and not face_up[s]]
        if hidden:
            pool = sum(map(of.__getitem__, state.supply)) + sum(of[t] for _, t in hidden)
            expected = pool / (len(state.supply) + len(hidden))
            for space, _ in hidden:
                worth[space] = expected
        return worth

    def _expected_reach(self, position: int, worth: Sequence[float]) -> float:
        """The mean, over the die's outcomes, of the best worth within that many steps."""
        total, best, reached = 0.0, 0.0, 0
        rings = self.rings[position]
        for steps, chance in self.die:
            for ring in rings[reached + 1 : steps + 1]:
                best = max(best, max(map(worth.__getitem__, ring), default=0.0))
            reached = max(reached, steps)
            total += chance * best
        return total

    def _best_within(self, position: int, steps: int, worth: Sequence[float]) -> float:
        """The best worth within `steps` steps (a move must take at least one)."""
        rings = self.rings[position]
        return max((worth[s] for ring in rings[1 : steps + 1] for s in ring), default=0.0)

    # ------------------------------------------------------------------ helpers

    def can_capture_now(self, state: BeastsState, seat: int) -> bool:
        """Whether the seat, in its own turn, stands on a face-up creature it can pay for (the Capture rule)."""
        if state.current != seat or not isinstance(self.engine.top(state), AfterStop):
            return False
        return self.engine.refusal(state, seat, Capture()) is None

    def free_creatures(self, state: BeastsState) -> tuple[str, ...]:
        """The creatures nobody has captured yet."""
        taken = {c for p in state.players for c in p.captured}
        return tuple(c for c in self.costs if c not in taken)

    @staticmethod
    def _to_win(state: BeastsState) -> int:
        return CREATURES_TO_WIN[state.mode]


def _progress(have: Resources, costs: Sequence[Cost], needed: int) -> float:
    """What resources are worth toward creatures of the given `costs`, `needed` more to win.

    Tokens still missing for the cheapest creature weigh most, those for the next
    cheapest a little while two are still needed; tokens of a colour beyond what any
    of these creatures needs are worth nothing.
    """
    if not costs or needed <= 0:
        return 0.0
    deficits = sorted(deficit(have, cost) for cost in costs)
    value = -DEFICIT * deficits[0]
    if needed >= 2 and len(deficits) > 1:
        value -= SECOND_DEFICIT * deficits[1]
    useful = sum(min(have[i], max(cost[i] for cost in costs)) for i in range(len(PAYABLE))) + have[WILD]
    return value + USEFUL_TOKEN * useful + WILD_BONUS * have[WILD]
