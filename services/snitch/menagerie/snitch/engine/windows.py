"""The window after a roll (l.173–179, l.229, l.504): re-rolls, Goal tokens, Locked Traits and Swift moments."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from menagerie.rules.chance import Distribution
from menagerie.snitch.data import Symbol
from menagerie.snitch.data.cards import (
    Reroll as RerollEffect,
)
from menagerie.snitch.engine import rolls, traits
from menagerie.snitch.engine.model import (
    Action,
    Ask,
    DiceRerolled,
    Event,
    Exchange,
    GoalReroll,
    GoalTokenFlipped,
    KeepRoll,
    PlaySwift,
    Reroll,
    RerollDice,
    RollSide,
    RollWindow,
    SnitchState,
    TraitUsed,
    UseTrait,
)
from menagerie.snitch.engine.parts import EngineParts
from menagerie.snitch.engine.rolls import Roll

ROLLED: tuple[str, ...] = ("pass", "shoot", "steal", "beat")
# The Swift moments a roll of each kind offers, by whose side the Coach is on (l.440).
SWIFT_MOMENTS: dict[tuple[str, bool], tuple[str, ...]] = {
    ("steal", True): ("own_steal",),
    ("steal", False): ("rival_steal",),
    ("shoot", True): ("own_shoot",),
    ("shoot", False): ("rival_shoot",),
    ("beat", False): ("rival_beat",),
}


class RollWindows(EngineParts):
    """The window after a roll (a part of SnitchEngine)."""

    def _window_open(self, state: SnitchState, ex: Exchange, seat: int) -> bool:
        """Whether `seat` is asked after the roll: a Goal token, a re-roll in play, a Swift moment (public facts)."""
        if self._goal_reroll_dice(state, ex, seat) or self._reroll_grants(state, ex, seat):
            return True
        if self._trait_use(state, ex, seat) is not None:
            return True
        return bool(self._swift_moments(ex, seat)) and self._may_play_swift(state, seat)

    def _swift_moments(self, ex: Exchange, seat: int) -> tuple[str, ...]:
        if ex.kind not in ROLLED:
            return ()
        return SWIFT_MOMENTS.get((ex.kind, seat == ex.seat), ())

    def own_side(self, ex: Exchange, seat: int) -> RollSide | None:
        """The rolled side whose Player is `seat`'s (a Bludger's hit is nobody's roll, so its target's Reaction is)."""
        if seat == ex.seat and ex.action_roll is not None:
            return "action"
        if ex.reaction_roll is not None and seat == self.reacting_seat(ex):
            return "reaction"
        return None

    def _goal_reroll_dice(self, state: SnitchState, ex: Exchange, seat: int) -> list[int]:
        """The dice of its own Player's roll `seat` may re-roll by flipping a Goal token (l.504)."""
        if state.players[seat].goals <= 0:
            return []
        side = self.own_side(ex, seat)
        roll = ex.action_roll if side == "action" else ex.reaction_roll if side == "reaction" else None
        if roll is None or not rolls.can_use_goal_token(roll, seat):
            return []
        return list(rolls.rerollable(roll, seat))

    def _trait_use(self, state: SnitchState, ex: Exchange, seat: int) -> tuple[int, RollSide, str, int] | None:
        """The Locked Trait `seat`'s roller may use on its own roll: (lineup index, side, "add"/"reroll", amount)."""
        side = self.own_side(ex, seat)
        if side is None:
            return None
        index = ex.actor if side == "action" else ex.reactor
        if side == "reaction" and index is None:
            return None
        roll = (ex.race_step if ex.kind == "race" else ex.kind) if side == "action" else ex.reaction
        lineup_index = 6 if index is None else index
        if lineup_index in state.players[seat].locked:
            return None
        use = traits.locked_use(self.trait(state, seat, index), roll or "")
        if use is None:
            return None
        if use[0] == "reroll":
            rolled = self._roll_of(ex, side)
            if rolled is None or not rolls.rerollable(rolled, seat):
                return None
        return lineup_index, side, use[0], use[1]

    def trait_options(self, state: SnitchState, seat: int) -> list[UseTrait]:
        """The ways `seat` may use its roller's Locked Trait now (an addition, or a re-roll of some dice)."""
        ex = state.exchange
        use = self._trait_use(state, ex, seat) if ex is not None else None
        if ex is None or use is None:
            return []
        _, side, what, amount = use
        if what == "add":
            return [UseTrait()]
        rolled = self._roll_of(ex, side)
        assert rolled is not None
        free = rolls.rerollable(rolled, seat)
        return [UseTrait(dice=chosen) for n in range(1, min(amount, len(free)) + 1) for chosen in combinations(free, n)]

    def trait_problem(self, state: SnitchState, seat: int, action: UseTrait) -> str | None:
        """Why `seat` may not use its roller's Locked Trait so (l.229): none to use, or dice it does not allow."""
        ex = state.exchange
        use = self._trait_use(state, ex, seat) if ex is not None else None
        if ex is None or use is None:
            return "the Player whose roll this is has no Locked Trait to use on it (or its Locked token is on, l.229)"
        _, side, what, amount = use
        if what == "add":
            return "this Locked Trait adds to the roll; it names no dice (l.229)" if action.dice else None
        rolled = self._roll_of(ex, side)
        assert rolled is not None
        free = rolls.rerollable(rolled, seat)
        most = min(amount, len(free))
        dice = tuple(action.dice)
        if not 1 <= len(dice) <= most or any(d not in free for d in dice) or list(dice) != sorted(set(dice)):
            return (
                f"this Locked Trait re-rolls 1 to {most} of dice {', '.join(map(str, free))}, "
                "each named once, in increasing order (l.229)"
            )
        return None

    def _reroll_grants(self, state: SnitchState, ex: Exchange, seat: int) -> list[tuple[int | None, str, int]]:
        """The re-rolls `seat` may use on this roll: (card of a lasting effect or None for a Swift one, side, dice)."""
        grants: list[tuple[int | None, str, int]] = []
        for lasting in state.players[seat].effects:
            move = self.card(state, seat, lasting.card).intrepid
            if lasting.used or move is None or not isinstance(move.effect, RerollEffect):
                continue
            side = self._side_of(ex, seat, move.effect.roll, move.effect.whose)
            if side is not None:
                grants.append((lasting.card, side, move.effect.dice))
        grants += [(None, g.side, g.dice) for g in ex.swift_rerolls if g.seat == seat]
        usable = []
        for grant in grants:
            roll = self._roll_of(ex, grant[1])
            if roll is not None and rolls.rerollable(roll, seat):
                usable.append(grant)
        return usable

    def _side_of(self, ex: Exchange, seat: int, roll: str, whose: str) -> str | None:
        """Which side of the exchange is `whose` (friendly/rival, for `seat`) roll named `roll`, if any."""
        if ex.kind in ROLLED and ex.kind == roll:
            actor_friendly = ex.seat == seat
            if (whose == "friendly") == actor_friendly:
                return "action"
        if ex.reaction is not None and ex.reaction == roll:
            reactor_friendly = self.reacting_seat(ex) == seat
            if (whose == "friendly") == reactor_friendly:
                return "reaction"
        return None

    @staticmethod
    def _roll_of(ex: Exchange, side: str) -> Roll | None:
        return ex.action_roll if side == "action" else ex.reaction_roll

    def window_options(self, state: SnitchState, seat: int) -> list[Action]:
        """Everything `seat` may do in its window after the roll."""
        ex = state.exchange
        if ex is None:
            return []
        out: list[Action] = [KeepRoll()]
        out += [GoalReroll(die=d) for d in self._goal_reroll_dice(state, ex, seat)]
        for _, side, dice in self._reroll_grants(state, ex, seat):
            roll = self._roll_of(ex, side)
            assert roll is not None
            free = rolls.rerollable(roll, seat)
            for n in range(1, min(dice, len(free)) + 1):
                for chosen in combinations(free, n):
                    candidate = Reroll(side=side, dice=tuple(chosen))  # type: ignore[arg-type]
                    if candidate not in out:
                        out.append(candidate)
        out += self._swift_cards(state, seat, self._swift_moments(ex, seat))
        out += self.trait_options(state, seat)
        return out

    def _swift_cards(self, state: SnitchState, seat: int, moments: Sequence[str]) -> list[Action]:
        if not moments or not self._may_play_swift(state, seat):
            return []
        out: list[Action] = []
        for card_id in state.players[seat].hand:
            move = self.card(state, seat, card_id).intrepid
            if move is not None and move.swift in moments:
                out.append(PlaySwift(card=card_id))
        return out

    def _window_of(self, kind: type) -> Callable[[SnitchState, int], list[Action]]:
        return lambda state, seat: [a for a in self.window_options(state, seat) if isinstance(a, kind)]

    def _do_window(self, state: SnitchState, seat: int, action: Reroll | GoalReroll | KeepRoll) -> list[Event]:
        ex = state.exchange
        assert ex is not None
        events: list[Event] = []
        if isinstance(action, KeepRoll):
            self.settle(state)
        elif isinstance(action, GoalReroll):
            side = self.own_side(ex, seat)
            assert side is not None
            coach = state.players[seat]
            coach.goals -= 1
            coach.celebrated += 1
            events.append(GoalTokenFlipped(seat=seat, left=coach.goals))
            self._roll_again(state, RerollDice(seat=seat, side=side, dice=[action.die], goal_token=True))
        else:
            grant = next(
                g for g in self._reroll_grants(state, ex, seat) if g[1] == action.side and g[2] >= len(action.dice)
            )
            roll = self._roll_of(ex, action.side)
            assert roll is not None
            rolls.check_reroll(roll, seat, action.dice, limit=grant[2])
            if grant[0] is not None:
                for lasting in state.players[seat].effects:
                    if lasting.card == grant[0]:
                        lasting.used = True
            else:
                ex.swift_rerolls = [g for g in ex.swift_rerolls if not (g.seat == seat and g.side == action.side)]
            self._roll_again(state, RerollDice(seat=seat, side=action.side, dice=list(action.dice)))
        self.advance(state, events)
        return events

    # ------------------------------------------------------------ a re-roll, a chance node

    def _roll_again(self, state: SnitchState, step: RerollDice) -> None:
        """The dice are rolled again (a chance node) while the roll window waits: it is asked again after."""
        window = self.settle(state)
        assert isinstance(window, RollWindow)
        self.then(state, step, Ask(decision=window))

    def _rerolled_roll(self, state: SnitchState, step: RerollDice) -> Roll:
        ex = state.exchange
        roll = self._roll_of(ex, step.side) if ex is not None else None
        assert roll is not None
        return roll

    def _reroll_faces(self, state: SnitchState, step: RerollDice) -> Distribution[tuple[Symbol, ...]]:
        """Every way the dice picked up may fall (faces in index order, equal dice as one), with its chance."""
        return rolls.reroll_outcomes(self.data.dice, self._rerolled_roll(state, step), step.dice)

    def _draw_reroll(self, state: SnitchState, step: RerollDice) -> tuple[Symbol, ...]:
        """The dice picked up, rolled one by one in index order with the match's Rng."""
        return rolls.draw_reroll(state.rng, self.data.dice, self._rerolled_roll(state, step), step.dice)

    def _rerolled(self, state: SnitchState, step: RerollDice, faces: tuple[Symbol, ...], events: list[Event]) -> None:
        """The dice picked up show `faces`: the roll is changed, and each die remembers who rerolled it (l.175)."""
        roll = self._rerolled_roll(state, step)
        if step.goal_token:
            new = rolls.goal_token_reroll(roll, step.seat, step.dice[0], faces[0])
        else:
            new = rolls.reroll(roll, step.seat, step.dice, faces)
        assert state.exchange is not None
        self._set_roll(state.exchange, step.side, new)
        events.append(
            DiceRerolled(seat=step.seat, side=step.side, dice=list(step.dice), roll=new, goal_token=step.goal_token)
        )

    @staticmethod
    def _set_roll(ex: Exchange, side: str, roll: Roll) -> None:
        if side == "action":
            ex.action_roll = roll
        else:
            ex.reaction_roll = roll

    def _do_use_trait(self, state: SnitchState, seat: int, action: UseTrait) -> list[Event]:
        """A Locked Trait (l.229): add to the roll, or re-roll some of its dice; then the Locked token goes on."""
        ex = state.exchange
        use = self._trait_use(state, ex, seat) if ex is not None else None
        assert ex is not None and use is not None
        index, side, what, amount = use
        events: list[Event] = [TraitUsed(seat=seat, player=index, dice=list(action.dice))]
        if what == "add":
            if side == "action":
                ex.late_modifier += amount
            else:
                ex.late_reaction_modifier += amount
        else:
            rolled = self._roll_of(ex, side)
            assert rolled is not None
            rolls.check_reroll(rolled, seat, action.dice, limit=amount)
            self._roll_again(state, RerollDice(seat=seat, side=side, dice=list(action.dice)))
        state.players[seat].locked.append(index)
        self.advance(state, events)
        return events
