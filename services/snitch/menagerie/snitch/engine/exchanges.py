"""An exchange: a rolled Action, a Bludger's hit or a race roll against its Reaction.

Rulebook lines: dice rolls l.163–179, Reactions l.396–412, Disadvantage and Stunned
l.414–424 and l.540–548, Dice tokens l.452–456, Aim at the Hoop l.486–492.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

from menagerie.rules.chance import Distribution, combine, dice_outcomes
from menagerie.rules.text import listing
from menagerie.snitch.data import (
    COLOURS,
    Colour,
    DicePool,
    Symbol,
)
from menagerie.snitch.engine import pitch, race, rolls, traits
from menagerie.snitch.engine.model import (
    Action,
    Aim,
    AimAtHoop,
    AimChosen,
    Ask,
    BeatenBludger,
    DiceRolled,
    DiceTokens,
    Event,
    Exchange,
    ExchangeResolved,
    ExchangeStep,
    GoalScored,
    HoopsAimed,
    NoReaction,
    QuaffleCaught,
    React,
    Reaction,
    ReactionDeclared,
    RollDice,
    RollWindow,
    SnitchState,
    SpendTokens,
    TakeSnitch,
    TokensSpent,
)
from menagerie.snitch.engine.parts import EngineParts
from menagerie.snitch.engine.pitch import PlayerRef, rival
from menagerie.snitch.engine.rolls import Roll, RolledDie, RollKind


class Exchanges(EngineParts):
    """An exchange (a part of SnitchEngine)."""

    def _start_exchange(self, state: SnitchState, exchange: Exchange) -> None:
        state.exchange = exchange
        self.then(state, ExchangeStep())

    def reaction_options(self, state: SnitchState, ex: Exchange) -> list[React]:
        """The Reactions that may answer the exchange's roll (l.398–412): one at most (l.400)."""
        layout = state.layout
        if ex.kind in ("steal",):
            assert ex.target is not None and ex.target_team is not None
            return [React(player=ex.target, reaction="steal_reaction")]
        if ex.kind in ("beat", "bludger"):
            assert ex.target is not None and ex.target_team is not None
            target = PlayerRef(ex.target_team, ex.target)
            out = [React(player=ex.target, reaction="manoeuvre")]
            out += [React(player=b.index, reaction="defense") for b in pitch.defense_beaters(layout, target)]
            return out
        if ex.kind == "shoot":
            defender = rival(ex.seat)
            keeper = PlayerRef(defender, 0)
            if layout.zone_of(keeper) == pitch.own_half(self.pitch, layout, defender).scoring_area:
                return [React(player=0, reaction="catch")]
        return []

    def reacting_seat(self, ex: Exchange) -> int:
        """The Coach who may react: the target's (the Keeper's for a Shoot)."""
        if ex.kind == "shoot":
            return rival(ex.seat)
        return ex.target_team if ex.target_team is not None else rival(ex.seat)

    def _exchange_step(self, state: SnitchState, step: ExchangeStep, events: list[Event]) -> None:
        """Carries the exchange on: Reaction, Aim at the Hoop, Dice tokens, the roll, re-roll windows, the result."""
        ex = state.exchange
        assert ex is not None
        if ex.stage == "reaction":
            ex.stage = "aim"
            if ex.kind != "race" and self.reaction_options(state, ex):
                self.ask(state, Reaction(must=[self.reacting_seat(ex)]), ExchangeStep())
                return
        if ex.stage == "aim":
            ex.stage = "tokens"
            ex.windows = [s for s in self.resolution_order(state, ex)]
            if ex.kind == "shoot" and self._keeper_in_area(state, ex):
                self.ask(state, AimAtHoop(must=[0, 1]), ExchangeStep())
                return
        if ex.stage == "tokens":
            while ex.windows:
                seat = ex.windows.pop(0)
                if len(self.token_options(state, seat)) > 1 or self.placeable(state, seat):
                    self.ask(state, DiceTokens(must=[seat]), ExchangeStep())
                    return
            ex.stage = "roll"
        if ex.stage == "roll":
            ex.stage = "windows"
            ex.windows = [s for s in self.resolution_order(state, ex)]
            self.then(state, RollDice(), ExchangeStep())  # the dice are a chance node of their own
            return
        if ex.stage == "windows":
            while ex.windows:
                seat = ex.windows.pop(0)
                if self._window_open(state, ex, seat):
                    self.ask(state, RollWindow(must=[seat]), ExchangeStep())
                    return
            ex.stage = "resolve"
        if ex.stage == "resolve":
            self._resolve(state, ex, events)

    def resolution_order(self, state: SnitchState, ex: Exchange) -> tuple[int, int]:
        """Active Coach first, then the other (l.179)."""
        return rolls.resolution_order(ex.seat, state.last_actor)

    def _keeper_in_area(self, state: SnitchState, ex: Exchange) -> bool:
        defender = rival(ex.seat)
        return (
            state.layout.zone_of(PlayerRef(defender, 0))
            == pitch.own_half(self.pitch, state.layout, defender).scoring_area
        )

    def roll_name(self, ex: Exchange) -> str:
        """The name of the exchange's Action roll: the Pitch Action, or the race Action."""
        return ex.race_step if ex.kind == "race" and ex.race_step else ex.kind

    def _action_pool(self, state: SnitchState, ex: Exchange) -> DicePool | None:
        if ex.fixed is not None:
            return None
        if ex.kind == "race":
            assert ex.race_step is not None
            return self.pool(state, ex.seat, 6, ex.race_step)
        assert ex.actor is not None
        return self.pool(state, ex.seat, ex.actor, ex.kind)

    def _reaction_pool(self, state: SnitchState, ex: Exchange) -> DicePool | None:
        if ex.reaction is None or ex.reactor is None:
            return None
        return self.pool(state, self.reacting_seat(ex), ex.reactor, ex.reaction, reaction=True)

    def _roller_tokens(self, state: SnitchState, ex: Exchange, side: str) -> tuple[list[Colour], list[Colour]]:
        """The Bonus and Penalty Dice tokens on the card of one side's roller."""
        if side == "action":
            if ex.kind == "race":
                held = state.held[ex.seat]
                return [h.colour for h in held if h.token == "bonus"], [h.colour for h in held if h.token == "penalty"]
            if ex.actor is None:
                return [], []
            tokens = state.players[ex.seat].team[ex.actor]
        else:
            if ex.reactor is None:
                return [], []
            tokens = state.players[self.reacting_seat(ex)].team[ex.reactor]
        return list(tokens.bonus), list(tokens.penalty)

    def roller_owner(self, state: SnitchState, ex: Exchange, side: str) -> int | None:
        """The Coach whose Player rolls this side of the exchange (None: nobody rolls it, e.g. a Bludger's hit)."""
        if side == "action":
            return ex.seat if self._action_pool(state, ex) is not None else None
        return self.reacting_seat(ex) if ex.reactor is not None else None

    def token_sides(self, state: SnitchState, ex: Exchange, seat: int) -> tuple[str | None, str | None]:
        """The side whose Bonus tokens `seat` may spend and the side whose Penalty tokens it may spend (l.454–456).

        Decided by whose Player rolls, never by who made the Action: a Coach's Bludger may
        hit one of that Coach's own Players, whose Bonus tokens are still its Coach's to spend.
        """
        sides = ("action", "reaction")
        own = next((side for side in sides if self.roller_owner(state, ex, side) == seat), None)
        other = next((side for side in sides if self.roller_owner(state, ex, side) == rival(seat)), None)
        return own, other

    def _side_pool(self, state: SnitchState, ex: Exchange, side: str | None) -> DicePool | None:
        if side is None:
            return None
        return self._action_pool(state, ex) if side == "action" else self._reaction_pool(state, ex)

    def token_options(self, state: SnitchState, seat: int) -> list[SpendTokens]:
        """The ways `seat` may spend Dice tokens on the coming roll: its Bonus, the rival roller's Penalty (l.454–456).

        Always includes spending none.
        """
        ex = state.exchange
        if ex is None:
            return [SpendTokens()]
        own_side, rival_side = self.token_sides(state, ex, seat)
        own_pool = self._side_pool(state, ex, own_side)
        other_pool = self._side_pool(state, ex, rival_side)
        bonus_have = self._roller_tokens(state, ex, own_side)[0] if own_side and own_pool is not None else []
        penalty_have = self._roller_tokens(state, ex, rival_side)[1] if rival_side and other_pool is not None else []
        out = []
        for bonus in _sub_multisets(bonus_have):
            if own_pool is not None and not _pool_allows(self.data.dice, own_pool, bonus, ()):
                continue
            for penalty in _sub_multisets(penalty_have):
                if other_pool is not None and not _pool_allows(self.data.dice, other_pool, (), penalty):
                    continue
                out.append(SpendTokens(bonus=tuple(bonus), penalty=tuple(penalty)))
        return out

    def rolled_pools(self, state: SnitchState, ex: Exchange) -> tuple[DicePool | None, DicePool | None]:
        """The Action's and the Reaction's dice as rolled: the Player cards' pools with the Dice tokens spent."""
        dice = self.data.dice
        pool = self._action_pool(state, ex)
        if pool is not None:
            pool = rolls.with_dice_tokens(dice, pool, ex.bonus, ex.penalty)
        reaction = self._reaction_pool(state, ex)
        if reaction is not None:
            reaction = rolls.with_dice_tokens(dice, reaction, ex.reaction_bonus, ex.reaction_penalty)
        return pool, reaction

    def _dice_faces(self, state: SnitchState, step: RollDice) -> Distribution[tuple[Symbol, ...]]:
        """Every way the exchange's dice may fall (faces in rolling order, equal dice as one), with its chance."""
        ex = state.exchange
        assert ex is not None
        outcome: Distribution[tuple[Symbol, ...]] = [((), Fraction(1))]
        for pool in self.rolled_pools(state, ex):
            for colour in COLOURS if pool is not None else ():
                count = pool.by_colour()[colour] if pool is not None else 0
                if count:
                    outcome = combine(outcome, dice_outcomes(rolls.faces(self.data.dice, colour), count))
        return outcome

    def _draw_dice(self, state: SnitchState, step: RollDice) -> tuple[Symbol, ...]:
        """The dice rolled with the match's Rng: the Action's (orange, purple, black), then the Reaction's."""
        ex = state.exchange
        assert ex is not None
        return tuple(
            rolls.roll_die(state.rng, self.data.dice, colour)
            for pool in self.rolled_pools(state, ex)
            if pool is not None
            for colour in COLOURS
            for _ in range(pool.by_colour()[colour])
        )

    def _dice_rolled(self, state: SnitchState, step: RollDice, faces: tuple[Symbol, ...], events: list[Event]) -> None:
        """The dice show `faces`: the Action's and the Reaction's rolls, and what they count (l.163–171)."""
        ex = state.exchange
        assert ex is not None
        pool, reaction = self.rolled_pools(state, ex)
        left = iter(faces)
        if pool is not None:
            ex.action_roll = _fallen("action", ex.seat, pool, left)
        if reaction is not None:
            ex.reaction_roll = _fallen("reaction", self.reacting_seat(ex), reaction, left)
        result = self.result(state, ex)
        events.append(
            DiceRolled(
                roll=self.roll_name(ex),
                action=ex.action_roll,
                reaction=ex.reaction_roll,
                successes=result.successes,
                opportunities=result.opportunities,
            )
        )

    def modifiers(self, state: SnitchState, ex: Exchange) -> tuple[int, int]:
        """The Action's and the Reaction's modifiers: Disadvantage, Stunned, Intrepid Moves, Aim (l.416–424, l.542)."""
        layout = state.layout
        if ex.kind == "race":
            # A race roll: its printed modifier, the Seeker's Trait, a Locked Trait used on it.
            bonus = (
                traits.lasting_bonus(self.trait(state, ex.seat, None), ex.race_step or "") if ex.fixed is None else 0
            )
            return ex.modifier + bonus + ex.late_modifier, 0
        if ex.kind == "bludger":
            action_mod = 0  # a Bludger's hit is a fixed Success (l.536)
        else:
            assert ex.actor is not None
            actor = PlayerRef(ex.seat, ex.actor)
            if ex.kind == "pass":
                assert ex.target is not None
                disadvantage = pitch.pass_disadvantage(layout, actor, PlayerRef(ex.seat, ex.target))
            else:
                disadvantage = pitch.disadvantage(layout, actor)
            trait = self.trait(state, ex.seat, ex.actor)
            effects = self._effect_bonus(state, ex.seat, ex.kind) + ex.aim_bonus + ex.late_modifier
            effects += traits.lasting_bonus(trait, ex.kind)
            stunned = traits.stunned(trait, state.players[ex.seat].team[ex.actor].stunned)
            action_mod = rolls.modifier(
                ex.kind, disadvantage=traits.disadvantage(trait, disadvantage), stunned=stunned, effects=effects
            )
        reaction_mod = 0
        if ex.reactor is not None and ex.reaction is not None:
            team = self.reacting_seat(ex)
            reactor = PlayerRef(team, ex.reactor)
            trait = self.trait(state, team, ex.reactor)
            effects = self._effect_bonus(state, team, ex.reaction) + ex.late_reaction_modifier
            effects += traits.lasting_bonus(trait, ex.reaction)
            reaction_mod = rolls.modifier(
                ex.reaction,
                disadvantage=traits.disadvantage(trait, pitch.disadvantage(layout, reactor)),
                stunned=traits.stunned(trait, state.players[team].team[ex.reactor].stunned),
                effects=effects,
            )
        return action_mod, reaction_mod

    def result(self, state: SnitchState, ex: Exchange) -> rolls.Result:
        """The exchange's result so far."""
        action_mod, reaction_mod = self.modifiers(state, ex)
        action: Roll | int = ex.action_roll if ex.action_roll is not None else (ex.fixed or 0)
        return rolls.resolve(
            self.data.dice, action, ex.reaction_roll, action_modifier=action_mod, reaction_modifier=reaction_mod
        )

    def _resolve(self, state: SnitchState, ex: Exchange, events: list[Event]) -> None:
        """The exchange's outcome and its consequences (l.356–386, l.494, l.536).

        Consequences are steps run in this order: who must leave a Scoring Area, where a
        Loose Quaffle goes, where a beaten Bludger goes, then the Tempo Point (or its Break);
        then the effects of Spectators placed while it was being resolved (pushed first).
        """
        result = self.result(state, ex)
        state.exchange = None
        self.then(state, *ex.after)
        events.append(
            ExchangeResolved(
                roll=self.roll_name(ex),
                seat=ex.seat,
                successes=result.successes,
                action_modifier=result.action_modifier,
                opportunities=result.opportunities,
                reaction_modifier=result.reaction_modifier,
                net=result.net,
                success=result.success,
            )
        )
        layout = state.layout
        if ex.kind == "race":
            assert ex.race_step is not None
            self._apply_race(state, ex.seat, ex.race_step, result.remaining, events)
            return
        if ex.kind == "bludger":
            assert ex.target is not None and ex.target_team is not None
            if result.success:
                self._hit(state, PlayerRef(ex.target_team, ex.target), ex.seat, events)
            return
        assert ex.actor is not None
        actor = PlayerRef(ex.seat, ex.actor)
        if result.success:
            self._earn_tempo(state, ex)  # pushed first: it runs after the other consequences
        if ex.kind == "pass":
            assert ex.target is not None
            target = PlayerRef(ex.seat, ex.target)
            if result.success:
                self._give_quaffle(state, target, "pass", events)
            else:
                zones = pitch.loose_quaffle_zones(self.pitch, "pass", layout.zone_of(target))
                self._lose_quaffle(state, rival(ex.seat), zones, events)
        elif ex.kind == "steal":
            if result.success:
                self._give_quaffle(state, actor, "steal", events)
        elif ex.kind == "shoot":
            self._shoot_result(state, ex, result.success, events)
        elif ex.kind == "beat":
            assert ex.target is not None and ex.bludger is not None
            target = PlayerRef(rival(ex.seat), ex.target)
            zones = pitch.beaten_bludger_zones(self.pitch, layout.zone_of(target))
            # l.382: "Whether or not this Action is successful, your rival places the beaten Bludger".
            self.then(state, Ask(decision=BeatenBludger(must=[rival(ex.seat)], bludger=ex.bludger, zones=list(zones))))
            if result.success:
                self._hit(state, target, ex.seat, events)

    def _hit(self, state: SnitchState, target: PlayerRef, controller: int, events: list[Event]) -> None:
        """A Bludger hits: a Stunned token; a carried Quaffle goes Loose where its Coach says (l.380, l.536)."""
        self._stun(state, target, 1, events)
        if state.layout.holder == target:
            zones = pitch.loose_quaffle_zones(self.pitch, "bludger", state.layout.zone_of(target))
            self._lose_quaffle(state, controller, zones, events)

    def _shoot_result(self, state: SnitchState, ex: Exchange, success: bool, events: list[Event]) -> None:
        """A Goal (l.494–496) or a miss (l.368–370)."""
        assert ex.actor is not None
        seat, defender = ex.seat, rival(ex.seat)
        keeper = PlayerRef(defender, 0)
        area = pitch.own_half(self.pitch, state.layout, defender).scoring_area
        if success:
            coach = state.players[seat]
            coach.goals += 1
            events.append(GoalScored(seat=seat, player=ex.actor, goals=coach.goals + coach.celebrated))
            self._end_block(state, events)
            # Authored (RULES.md "Engine"): after a Goal the Quaffle goes to the conceding Keeper,
            # whose Kick-Off (l.512) brings the scorer out of the Scoring Area.
            state.layout = state.layout.with_quaffle(keeper)
            events.append(QuaffleCaught(team=defender, player=0, how="goal"))
            self._set_attacking(state, defender, events)
            self.then(state, TakeSnitch(seat=seat))
            return
        if state.layout.zone_of(keeper) == area:
            self._give_quaffle(state, keeper, "save", events)
            return
        zones = pitch.loose_quaffle_zones(self.pitch, "shoot", area)
        self._lose_quaffle(state, defender, zones, events)

    def _react_options(self, state: SnitchState, seat: int) -> list[Action]:
        return list(self.reaction_options(state, state.exchange)) if state.exchange else []

    def _do_react(self, state: SnitchState, seat: int, action: React | NoReaction) -> list[Event]:
        self.settle(state)
        ex = state.exchange
        assert ex is not None
        if isinstance(action, React):
            ex.reactor, ex.reaction = action.player, action.reaction
            events: list[Event] = [ReactionDeclared(seat=seat, reaction=action.reaction, player=action.player)]
        else:
            events = [ReactionDeclared(seat=seat)]
        self.advance(state, events)
        return events

    def _aim_options(self, state: SnitchState, seat: int) -> list[Action]:
        return [Aim(number=n) for n in self.data.hoops.numbers]

    def _aim_problem(self, state: SnitchState, seat: int, action: Aim) -> str | None:
        """A Goal Hoop card is one of the numbered cards (l.486–492); why not, else None."""
        numbers = self.data.hoops.numbers
        if action.number not in numbers:
            return f"Goal Hoop cards are numbered {listing([str(n) for n in numbers])}, not {action.number!r}"
        return None

    def _do_aim(self, state: SnitchState, seat: int, action: Aim) -> list[Event]:
        state.players[seat].aim = action.number
        events: list[Event] = [AimChosen(seat=seat, number=action.number)]
        if self.decided(state, seat):
            ex = state.exchange
            assert ex is not None
            shooter, keeper = state.players[ex.seat].aim or 1, state.players[rival(ex.seat)].aim or 1
            ex.aim_bonus = rolls.aim_bonus(self.data.hoops, shooter, keeper)
            events.append(HoopsAimed(shooter=shooter, keeper=keeper, bonus=ex.aim_bonus))
            for coach in state.players:
                coach.aim = None
        self.advance(state, events)
        return events

    def _do_spend_tokens(self, state: SnitchState, seat: int, action: SpendTokens) -> list[Event]:
        self.settle(state)
        ex = state.exchange
        assert ex is not None
        own, other = self.token_sides(state, ex, seat)
        if own is not None:
            self._take_tokens(state, ex, own, bonus=action.bonus)
            if own == "action":
                ex.bonus = list(action.bonus)
            else:
                ex.reaction_bonus = list(action.bonus)
        if other is not None:
            self._take_tokens(state, ex, other, penalty=action.penalty)
            if other == "action":
                ex.penalty = list(action.penalty)
            else:
                ex.reaction_penalty = list(action.penalty)
        events: list[Event] = []
        if action.bonus or action.penalty:
            events.append(TokensSpent(seat=seat, bonus=list(action.bonus), penalty=list(action.penalty)))
        self.advance(state, events)
        return events

    def _take_tokens(
        self, state: SnitchState, ex: Exchange, side: str, bonus: Sequence[Colour] = (), penalty: Sequence[Colour] = ()
    ) -> None:
        if not bonus and not penalty:
            return
        if ex.kind == "race" and side == "action":
            self.store_race(state, race.spend_held(self.race_of(state), ex.seat, bonus, penalty))
            return
        if side == "action":
            assert ex.actor is not None
            tokens = state.players[ex.seat].team[ex.actor]
        else:
            assert ex.reactor is not None
            tokens = state.players[self.reacting_seat(ex)].team[ex.reactor]
        for colour in bonus:
            tokens.bonus.remove(colour)
        for colour in penalty:
            tokens.penalty.remove(colour)


def _sub_multisets(items: Sequence[Colour]) -> list[tuple[Colour, ...]]:
    """Every sub-multiset of `items`, each once, in a stable order."""
    counts = Counter(items)
    out: list[tuple[Colour, ...]] = [()]
    for colour in COLOURS:
        out = [prefix + (colour,) * n for prefix in out for n in range(counts[colour] + 1)]
    return out


def _pool_allows(dice: Any, pool: DicePool, bonus: Sequence[Colour], penalty: Sequence[Colour]) -> bool:
    try:
        rolls.with_dice_tokens(dice, pool, bonus, penalty)
    except rolls.RollError:
        return False
    return True


def _fallen(kind: RollKind, seat: int, pool: DicePool, faces: Iterator[Symbol]) -> Roll:
    """A pool's dice (orange, purple, black) showing the next faces of `faces`."""
    rolled = tuple(RolledDie(colour, next(faces)) for colour in COLOURS for _ in range(pool.by_colour()[colour]))
    return Roll(kind, seat, rolled)
