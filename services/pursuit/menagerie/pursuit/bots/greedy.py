"""The `greedy` level (see the package's docstring for what it weighs and how it decides)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

from menagerie.pursuit.bots.planner import Plan, Planner, Shared
from menagerie.pursuit.bots.rolling import Sample, all_rerolls, lying_value, reroll_value, sample_rolls
from menagerie.pursuit.bots.values import FINALISTS, LOSS, PLANNERS_KEPT, SCREEN, TIE, Weights, card_counts
from menagerie.pursuit.engine.data import ACTIVATED_BY, InsightCard, PursuitData, load_data
from menagerie.pursuit.engine.dice import MUFFLIATO_DICE, NO_DICE, beast_dice, counts_of, plus, roll_effect, spent_die
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
    PursuitView,
    Ready,
    Reroll,
    RerollWindow,
    Rolling,
    SetAction,
    StopRolling,
)

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
        samples = sample_rolls(self.data, rng)
        stop = lying_value(view, planner)
        keep, value = self.best_reroll(view, planner, [a for a in actions if isinstance(a, Reroll)], samples)
        if keep is not None and value > stop + TIE:
            return keep
        card = next((a for a in actions if isinstance(a, PlayReroll)), None)
        if card is not None and view.rolls >= view.roll_limit and self._worth_a_roll(view, planner, card, samples):
            return card
        return StopRolling()

    def _worth_a_roll(self, view: PursuitView, planner: Planner, card: PlayReroll, samples: list[Sample]) -> bool:
        """Whether one more roll of the active player's dice is worth more than the Reroll card in hand."""
        _, value = self.best_reroll(view, planner, all_rerolls(view), samples)
        return value - lying_value(view, planner) > self.hold(card.card)

    @staticmethod
    def best_reroll(
        view: PursuitView, planner: Planner, rerolls: list[Reroll], samples: list[Sample]
    ) -> tuple[Reroll | None, float]:
        """The reroll with the best mean plan value, and that value.

        Every reroll is tried on the first few samples, the most promising ones on all.
        """
        if not rerolls:
            return None, -LOSS
        first = sorted(((reroll_value(view, planner, r, samples[:SCREEN]), r) for r in rerolls), key=lambda x: -x[0])
        finalists = [(reroll_value(view, planner, r, samples), r) for _, r in first[:FINALISTS]]
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
        return card if self._worth_a_roll(view, planner, card, sample_rolls(self.data, rng)) else None

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
