"""The `random` and `greedy` levels (see the package's docstring for what greedy weighs)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from menagerie.rules.bots import RandomPolicy
from menagerie.snitch.bots.table import Table, bought_tactics, tactical_card
from menagerie.snitch.bots.team import (
    HOUSE_MARGIN,
    TRAIT_COST,
    best_buy,
    house_worth,
    pick_cost,
    pick_gain,
    planned_team,
    spectator_cards,
)
from menagerie.snitch.bots.values import (
    CARD,
    GOAL,
    GOAL_TOKEN,
    HOLD,
    POSSESSION,
    RACE_STEPS,
    SEEKER,
    SHOOT_LATER,
    SHOOT_NOW,
    SNITCH_CARD,
    STAKE,
    TEMPO,
    TIE,
    aim_chances,
    board_data,
    dice_pool,
    net_chances,
    roll_chance,
)
from menagerie.snitch.data import DicePool, House
from menagerie.snitch.data.cards import (
    Bludger,
    DiceTokens,
    Dodge,
    FreeAction,
    ModifyRoll,
    Obstruct,
    Shift,
    SlipstreamingCard,
    SnitchCard,
    Step,
    TacticalCard,
    Tempo,
    Upwind,
    effect_worth,
)
from menagerie.snitch.data.cards import Reroll as RerollEffect
from menagerie.snitch.engine import pitch, race, rolls, traits
from menagerie.snitch.engine.model import (
    FLAG_COLOURS,
    Aim,
    Beat,
    BreakTempo,
    ChooseFlag,
    ChoosePitchCard,
    ConfirmTeam,
    DeclineBlock,
    DeclineIntrepid,
    DeployPlayer,
    DodgeToken,
    DropFromTeam,
    ExchangeView,
    GoalReroll,
    KeepRoll,
    Move,
    MoveBludger,
    NoReaction,
    NoSwift,
    PassQuaffle,
    PickForTeam,
    PlaceBludger,
    PlaceDiceToken,
    PlaceQuaffle,
    PlaceRaceToken,
    PlayIntrepid,
    PlaySpectator,
    PlaySwift,
    React,
    Recover,
    RemoveStunned,
    Reroll,
    ShiftPlayer,
    Shoot,
    SkipPass,
    SkipRemove,
    SkipShift,
    SnitchView,
    SpendTokens,
    Steal,
    TakeSnitchCard,
    TakeTempo,
    TargetPlayer,
    UseTrait,
)
from menagerie.snitch.engine.pitch import PlayerRef
from menagerie.snitch.engine.rolls import Roll

Scorer = Callable[[Table, Any], float]


TEAM_BUILDING = (PickForTeam, DropFromTeam, ConfirmTeam)


class SnitchRandom(RandomPolicy):
    """The `random` level: any legal action, uniformly; while building its Team, any legal pick until it may confirm.

    It never takes a pick back (DropFromTeam) and confirms as soon as the engine allows, so
    it builds any legal Team: whatever the picks, the free cards complete it (roster.py).
    """

    def choose(self, view: Any, legal: Sequence[Any], seat: int, rng: random.Random) -> Any:
        actions = list(legal)
        if any(isinstance(a, TEAM_BUILDING) for a in actions):
            if ConfirmTeam() in actions:
                return ConfirmTeam()
            picks = [a for a in actions if isinstance(a, PickForTeam)]
            if picks:
                return rng.choice(picks)
        return rng.choice(actions)


class SnitchGreedy:
    """The `greedy` level: the legal action whose expected outcome is worth most (see the module docstring).

    `houses`: a preferred order of Houses to build a Team in (default: the House whose
    planned Team is worth most, the rng choosing among those within HOUSE_MARGIN of it).
    """

    needs_view = True

    def __init__(self, houses: Sequence[House] = ()) -> None:
        self.houses = tuple(houses)

    def choose(self, view: Any, legal: Sequence[Any], seat: int, rng: random.Random) -> Any:
        """One of `legal`, by expected value; ties broken by `rng`."""
        actions = list(legal)
        if len(actions) == 1:
            return actions[0]
        assert isinstance(view, SnitchView)
        if any(isinstance(a, TEAM_BUILDING) for a in actions):
            return self.build(view, actions, rng)
        if isinstance(actions[0], ChooseFlag):
            return self.flag(view, actions, seat, rng)
        spectators = [a for a in actions if isinstance(a, PlaySpectator)]
        if spectators:
            return self.spectator(view, spectators, seat, rng)
        table = Table(view, seat)
        scores = self.scores(table, actions)
        best = max(scores)
        return rng.choice([a for a, s in zip(actions, scores, strict=True) if s >= best - TIE])

    # ------------------------------------------------------- Build Your Team

    def build(self, view: SnitchView, actions: list[Any], rng: random.Random) -> Any:
        """The House, then the best buy per Galleon while one adds anything, then the best free cards, then confirm."""
        picks = [(a.part, a.card) for a in actions if isinstance(a, PickForTeam)]
        draft = view.draft
        if draft is None or draft.house is None:
            houses = [card for part, card in picks if part == "house"]
            if houses:
                return PickForTeam(part="house", card=self.house(view, houses, rng))
        elif picks:
            house: House = draft.house  # type: ignore[assignment]
            bought = bought_tactics(draft)
            choice = best_buy(house, picks, bought, rng)
            if choice is None:
                free = [(part, card) for part, card in picks if pick_cost(house, part, card) == 0]
                if free:
                    # Players first (their slots), then the strongest free Tactical cards.
                    choice = max(free, key=lambda pc: (pc[0] == "player", pick_gain(house, pc[0], pc[1], bought)))
            if choice is not None:
                return PickForTeam(part=choice[0], card=choice[1])
        if ConfirmTeam() in actions:
            return ConfirmTeam()
        return rng.choice([a for a in actions if not isinstance(a, DropFromTeam)] or actions)

    def house(self, view: SnitchView, houses: list[str], rng: random.Random) -> str:
        """The preferred House, or one whose planned Team is worth (nearly) most."""
        for house in self.houses:
            if house in houses:
                return house
        worth = {h: house_worth(h) + planned_team(h, view.funding, view.spectators_on)[0] for h in houses}  # type: ignore[arg-type]
        best = max(worth.values())
        return rng.choice(sorted(h for h in houses if worth[h] >= best * (1 - HOUSE_MARGIN)))

    def flag(self, view: SnitchView, actions: list[Any], seat: int, rng: random.Random) -> Any:
        """The House's own colour when it is free (l.460 "usually their own House")."""
        house = view.draft.house if view.draft is not None else view.coaches[seat].house
        own = ChooseFlag(colour=FLAG_COLOURS.get(house, ""))  # type: ignore[call-overload]
        return own if own in actions else rng.choice(actions)

    def spectator(self, view: SnitchView, options: list[PlaySpectator], seat: int, rng: random.Random) -> Any:
        """Place a Spectator at once (the block's Action is asked again after it): one displacing a rival first."""

        def worth(action: PlaySpectator) -> tuple[bool, float]:
            spot = next((s for s in view.stand if s.zone == action.zone), None)
            rival = spot is not None and spot.seat is not None and spot.seat != seat
            card = spectator_cards()[action.card]
            return rival, effect_worth(card.second if rival else card.first)

        best = max(worth(a) for a in options)
        return rng.choice([a for a in options if worth(a) == best])

    def scores(self, table: Table, actions: list[Any]) -> list[float]:
        """The value of each action."""
        kind = table.view.prompt.kind
        if kind == "snitch_card_choice":
            return self.snitch_scores(table, actions)
        if kind in ("roll_window", "dice_tokens"):
            return [self.roll_score(table, a) for a in actions]
        now = table.pitch_value(table.layout)
        return [self.score(table, a, now) for a in actions]

    # ---------------------------------------------------------------- pitch

    def score(self, t: Table, action: Any, now: float) -> float:
        layout, me = t.layout, t.me
        match action:
            case Move(player=index, zone=zone) | DeployPlayer(player=index, zone=zone):
                return self.moved(t, PlayerRef(me, index), zone)
            case ShiftPlayer(team=team, player=index, zone=zone):
                return self.moved(t, PlayerRef(team, index), zone)
            case PassQuaffle(player=index, target=target):
                return self.pass_score(t, PlayerRef(me, index), PlayerRef(me, target))
            case Shoot(player=index):
                return self.shoot_score(t, PlayerRef(me, index))
            case Steal(player=index):
                holder = layout.holder
                if holder is None:
                    return now
                p = t.steal_chance(layout, PlayerRef(me, index), holder)
                gained = t.pitch_value(layout.with_quaffle(PlayerRef(me, index))) + TEMPO
                return p * gained + (1 - p) * now
            case Beat(player=index, target=target):
                return self.beat_score(t, PlayerRef(me, index), PlayerRef(t.rival, target), now)
            case Recover(player=index):
                return now + t.stun_value(PlayerRef(me, index))
            case RemoveStunned(player=index):
                return t.stun_value(PlayerRef(me, index))
            case DeclineBlock() | SkipShift() | SkipPass():
                return now
            case SkipRemove() | NoSwift() | DeclineIntrepid():
                return 0.0
            case React(player=index, reaction=reaction):
                return -self.rival_success(t, PlayerRef(me, index), reaction)
            case NoReaction():
                return -self.rival_success(t, None, None) - 0.01
            case Aim():
                return 0.0  # matching pennies: uniform is best (rolls.aim_outcomes); the rng picks
            case PlaceQuaffle(zone=zone):
                return t.pitch_value(layout.with_quaffle(zone))
            case PlaceBludger(zone=zone):
                return self.bludger_spot(t, zone)
            case MoveBludger(zone=zone):
                return self.bludger_move(t, zone)
            case TargetPlayer(team=team, player=index):
                return self.hit_value(t, PlayerRef(team, index), 1, 0)
            case TakeTempo():
                return TEMPO + (SNITCH_CARD if t.view.coaches[me].tempo >= 3 else 0.0)
            case BreakTempo(option=option):
                return self.break_score(t, option, now)
            case PlaceDiceToken(team=team, player=index):
                return self.dice_token_value(t, PlayerRef(team, index))
            case PlayIntrepid(card=card):
                return self.intrepid_value(t, card)
            case ChoosePitchCard(card=card):
                return self.pitch_card_value(t, card)
            case PlaySwift(card=card):
                return self.swift_loose_value(t, card)
            case PlaceRaceToken(space=space):
                return self.race_token_score(t, space)
            case DodgeToken(ignore=ignore):
                return self.dodge_score(t, ignore)
        return 0.0

    def moved(self, t: Table, player: PlayerRef, zone: str) -> float:
        layout = t.layout.moved(player, zone)
        if pitch.picks_up(layout, player) and pitch.may_be_in(t.pitch, layout, player, zone, with_quaffle=True):
            layout = layout.with_quaffle(player)
        return t.pitch_value(layout)

    def pass_score(self, t: Table, passer: PlayerRef, target: PlayerRef) -> float:
        layout = t.layout
        caught = t.pitch_value(layout.with_quaffle(target))
        if t.view.prompt.kind == "kick_off_pass":
            return caught  # the Keeper's Kick-Off Pass succeeds and earns no Tempo
        p = t.pass_chance(layout, passer, target)
        missed = t.loose_value(layout, "pass", layout.zone_of(target), t.rival)
        return p * (caught + TEMPO) + (1 - p) * missed

    def shoot_score(self, t: Table, shooter: PlayerRef) -> float:
        layout = t.layout
        p = t.shoot_chance(layout, shooter)
        keeper = PlayerRef(t.rival, 0)
        after_goal = t.pitch_value(layout.with_quaffle(keeper))
        if layout.zone_of(keeper) == t.targets[t.me]:
            missed = after_goal
        else:
            missed = t.loose_value(layout, "shoot", t.targets[t.me], t.rival)
        # Shoot now rather than wait, unless another Shoot of ours comes later this Game Sequence.
        later = t.my_actions_left()
        if t.view.prompt.kind == "block_action" and "shoot" in later:
            later.remove("shoot")
        urgency = SHOOT_LATER if "shoot" in later else SHOOT_NOW
        return p * (GOAL + after_goal) + (1 - p) * missed + urgency

    def beat_score(self, t: Table, beater: PlayerRef, target: PlayerRef, now: float) -> float:
        layout = t.layout
        p = t.beat_chance(layout, beater, target)
        hit = now + t.stun_value(target) + TEMPO
        if layout.holder == target:
            hit += t.loose_value(layout, "beat", layout.zone_of(target), t.me) - now
        return p * hit + (1 - p) * now

    def break_score(self, t: Table, option: str, now: float) -> float:
        """Breaking the Tempo: the best free Pass (no Tempo Point) or Shift instead of the point."""
        layout, me = t.layout, t.me
        if t.view.coaches[me].tempo >= 2:
            return -SNITCH_CARD  # the point is too near a Snitch card to give up
        best = now
        if option == "free_pass":
            holder = layout.holder
            if holder is not None and holder.team == me:
                for target in pitch.pass_targets(t.pitch, layout, holder):
                    p = t.pass_chance(layout, holder, target)
                    caught = t.pitch_value(layout.with_quaffle(target))
                    missed = t.loose_value(layout, "pass", layout.zone_of(target), t.rival)
                    best = max(best, p * caught + (1 - p) * missed)
        else:
            for player in layout.team_players(me):
                for zone in pitch.shift_destinations(t.pitch, layout, player):
                    best = max(best, self.moved(t, player, zone))
        # Only a clearly better position is worth the point (and never the fourth point's card).
        return best - now - 1.0

    def rival_success(self, t: Table, reactor: PlayerRef | None, reaction: str | None) -> float:
        """P(the rival's Action succeeds) if `reactor` answers with `reaction` (None: no Reaction)."""
        ex = t.view.exchange
        if ex is None:
            return 0.0
        layout = t.layout
        action: DicePool | int
        if ex.fixed is not None:
            action = ex.fixed
        else:
            actor = ex.actor if ex.actor is not None else 0
            action = t.action_pool(ex.seat, actor, ex.kind) or DicePool()
        pool = None
        reaction_modifier = 0
        if reactor is not None and reaction is not None:
            pool = t.reaction_pool(reactor.team, reactor.index, reaction)
            reaction_modifier = t.reaction_modifier(reaction, reactor, layout)
        if ex.kind == "shoot" and reactor is not None:
            return sum(
                p * roll_chance(action, pool, ex.action_modifier + b, reaction_modifier) for b, p in aim_chances()
            )
        return roll_chance(action, pool, ex.action_modifier, reaction_modifier)

    def hit_value(self, t: Table, target: PlayerRef, action: DicePool | int, modifier: int) -> float:
        """A Bludger (or Beat) flying at `target`: its chance times what the hit is worth to the viewer."""
        layout = t.layout
        p = t.hit_chance(layout, action, modifier, target)
        value = t.stun_value(target)
        if layout.holder == target:
            value += 2 * POSSESSION
        return p * value * (1.0 if target.team != t.me else -1.0)

    def bludger_move(self, t: Table, zone: str) -> float:
        """A Bludger moved to `zone`: the best hit it then allows (a rival's if there is one)."""
        players = t.layout.players_in(zone)
        if not players:
            return 0.0
        return max(self.hit_value(t, p, 1, 0) for p in players)

    def bludger_spot(self, t: Table, zone: str) -> float:
        """Where a Bludger waits: beside our Beaters and the rival's Players, away from theirs and ours."""
        layout, me = t.layout, t.me
        score = 0.0
        for p in layout.all_players():
            d = t.dist[layout.zone_of(p), zone]
            if p.position == "beater" and d == 0:
                score += 1.0 if p.team == me else -1.0
            elif d <= 1:
                score += 0.3 if p.team != me else -0.3
        return score

    def dice_token_value(self, t: Table, player: PlayerRef) -> float:
        worth = {"chaser": 0.8, "keeper": 0.6, "beater": 0.5}[player.position]
        if t.layout.holder == player:
            worth += 0.5
        return worth

    # -------------------------------------------------------- Tactical cards

    def pitch_card_value(self, t: Table, card_id: int) -> float:
        """A Pitch Actions card: its Actions, weighed by what the position lets them do."""
        layout, me = t.layout, t.me
        holder = layout.holder
        mine = holder is not None and holder.team == me
        near_goal = mine and holder is not None and t.dist[layout.zone_of(holder), t.targets[me]] <= 1
        theirs = holder is not None and holder.team != me
        close = (
            theirs
            and holder is not None
            and any(t.dist[layout.zone_of(p), layout.zone_of(holder)] <= 1 for p in layout.team_players(me))
        )
        weights = {
            "move": 1.0,
            "pass": 2.0 if mine or holder is None else 0.4,
            "shoot": 3.0 if near_goal else 1.0 if mine else 0.3,
            "steal": 2.0 if close else 0.8 if theirs else 0.3,
            "beat": 1.5 if pitch.beaters(layout, me) else 0.8,
            "recover": 1.0 if any(t.stunned.get(p, 0) for p in layout.team_players(me)) else 0.1,
        }
        card = tactical_card(t.view.coaches[me].house, card_id)  # type: ignore[arg-type]
        value = sum(weights[a] for block in card.blocks for a in block)
        # A card whose Intrepid Move is worth playing is kept for it, a little.
        return value - 0.3 * max(0.0, self.effect_value(t, card))

    def intrepid_value(self, t: Table, card_id: int) -> float:
        card = tactical_card(t.view.coaches[t.me].house, card_id)  # type: ignore[arg-type]
        if len(t.view.hand) <= 1:
            return -CARD  # the last card: a Hand Swap at once
        return self.effect_value(t, card) - CARD

    def effect_value(self, t: Table, card: TacticalCard) -> float:
        """What an Intrepid Move's effect is worth now, roughly."""
        if card.intrepid is None or card.intrepid.swift is not None:
            return 0.0
        effect = card.intrepid.effect
        layout, me = t.layout, t.me
        holder = layout.holder
        mine = holder is not None and holder.team == me
        left = t.my_actions_left()
        match effect:
            case Tempo(on=None):
                return TEMPO + (SNITCH_CARD if t.view.coaches[me].tempo >= 3 else 0.0)
            case Tempo(on=on):
                return 0.7 * TEMPO * left.count(on or "")
            case Upwind(tokens=tokens):
                return 1.5 * tokens
            case FreeAction(action=kind, count=count):
                worth = {"pass": 2.0 if mine else 0.0, "move": 0.8, "shoot": 6.0 if mine else 0.0}
                worth["steal"] = 2.5 if holder is not None and not mine else 0.0
                worth["beat"] = 1.5 if pitch.beaters(layout, me) else 0.0
                worth["recover"] = 0.8 if any(t.stunned.get(p, 0) for p in layout.team_players(me)) else 0.0
                return worth.get(kind, 0.5) * count
            case DiceTokens(count=count):
                return 0.8 * count
            case ModifyRoll(roll=roll, whose=whose):
                if whose == "friendly" and roll in left:
                    return 0.15 * STAKE.get(roll, 3.0) * left.count(roll)
                return 0.5
            case RerollEffect():
                return 0.5
            case Bludger(attack=attack):
                return 1.5 if attack else 0.3
            case Shift(players=players):
                return 0.5 * players

    def swift_loose_value(self, t: Table, card_id: int) -> float:
        """A Swift Intrepid Move played when the Quaffle goes Loose: a Shift that may pick it up."""
        if t.view.prompt.kind != "swift_window":
            return -CARD
        layout, me = t.layout, t.me
        zone = layout.quaffle_zone
        reachable = any(
            zone in pitch.shift_destinations(t.pitch, layout, p) and layout.zone_of(p) != zone
            for p in layout.team_players(me)
        )
        return POSSESSION - CARD if reachable and layout.holder is None else -CARD

    # -------------------------------------------------------------- the roll

    def roll_score(self, t: Table, action: Any) -> float:
        """A Dice token, re-roll or Swift choice around a roll: the expected stake after it, less its cost."""
        ex = t.view.exchange
        if ex is None:
            return 0.0
        match action:
            case SpendTokens(bonus=bonus, penalty=penalty):
                return float(len(bonus) + len(penalty))
            case KeepRoll():
                return self.roll_value(t, ex, ex.action_roll, ex.reaction_roll, 0, 0)
            case GoalReroll(die=die):
                side = "action" if ex.seat == t.me else "reaction"
                return self.reroll_value(t, ex, side, [die]) - GOAL_TOKEN
            case Reroll(side=side, dice=dice):
                return self.reroll_value(t, ex, side, list(dice))
            case PlaySwift(card=card):
                return self.swift_roll_value(t, ex, card) - CARD
            case UseTrait(dice=dice):
                return self.trait_value(t, ex, list(dice)) - TRAIT_COST
        return 0.0

    def trait_value(self, t: Table, ex: ExchangeView, dice: list[int]) -> float:
        """The roll once the roller's Locked Trait adds to it or re-rolls `dice` of it (traits.locked_use)."""
        side = "action" if ex.seat == t.me else "reaction"
        index = ex.actor if side == "action" else ex.reactor
        roll = ex.kind if side == "action" else ex.reaction
        lineup_index = SEEKER if index is None else index
        use = traits.locked_use(t.trait(t.me, lineup_index), roll or "")
        if use is None:
            return self.roll_value(t, ex, ex.action_roll, ex.reaction_roll, 0, 0)
        what, amount = use
        if what == "reroll":
            return self.reroll_value(t, ex, side, dice)
        dam, drm = (amount, 0) if side == "action" else (0, amount)
        return self.roll_value(t, ex, ex.action_roll, ex.reaction_roll, dam, drm)

    def roll_value(
        self, t: Table, ex: ExchangeView, action_roll: Roll | None, reaction_roll: Roll | None, dam: int, drm: int
    ) -> float:
        """What the roll as it stands is worth to the viewer (modifiers changed by dam, drm)."""
        dice = board_data().dice
        action: Roll | int = action_roll if action_roll is not None else (ex.fixed or 0)
        result = rolls.resolve(
            dice,
            action,
            reaction_roll,
            action_modifier=ex.action_modifier + dam,
            reaction_modifier=ex.reaction_modifier + drm,
        )
        if ex.kind in RACE_STEPS:
            return self.race_step_value(t, ex.kind, result.remaining)
        mine = ex.seat == t.me
        return STAKE.get(ex.kind, 3.0) * (result.success if mine else not result.success)

    def race_step_value(self, t: Table, name: str, successes: int) -> float:
        step = RACE_STEPS[name]()
        current = t.current_race()
        if isinstance(step, Obstruct) and not race.can_obstruct(current, t.me):
            return t.race_units(current)
        if isinstance(step, Dodge) and race.may_ignore(current, t.me, successes):
            return max(t.race_units(race.dodge(current, t.me, successes, ignore)) for ignore in (False, True))
        return t.race_units(race.resolve_step(current, t.me, step, successes))

    def reroll_value(self, t: Table, ex: ExchangeView, side: str, dice_indexes: list[int]) -> float:
        """The expected worth of the roll once these dice of one side are rolled again."""
        dice = board_data().dice
        roll = ex.action_roll if side == "action" else ex.reaction_roll
        if roll is None:
            return self.roll_value(t, ex, ex.action_roll, ex.reaction_roll, 0, 0)
        chosen = set(dice_indexes)
        kept = Roll(roll.kind, roll.seat, tuple(d for i, d in enumerate(roll.dice) if i not in chosen))
        again = dice_pool([d.colour for i, d in enumerate(roll.dice) if i in chosen])
        kept_count = rolls.count(dice, kept)
        if side == "action":
            opportunities = rolls.count(dice, ex.reaction_roll) if ex.reaction_roll is not None else 0
            cancelled = max(0, opportunities + ex.reaction_modifier)
            outcomes = net_chances(again, None, kept_count + ex.action_modifier - cancelled, 0)
        else:
            successes = rolls.count(dice, ex.action_roll) if ex.action_roll is not None else (ex.fixed or 0)
            outcomes = net_chances(successes, again, ex.action_modifier, kept_count + ex.reaction_modifier)
        if ex.kind in RACE_STEPS:
            return sum(p * self.race_step_value(t, ex.kind, max(0, net)) for net, p in outcomes)
        mine = ex.seat == t.me
        stake = STAKE.get(ex.kind, 3.0)
        return sum(p * stake * ((net >= 1) if mine else (net < 1)) for net, p in outcomes)

    def swift_roll_value(self, t: Table, ex: ExchangeView, card_id: int) -> float:
        card = tactical_card(t.view.coaches[t.me].house, card_id)  # type: ignore[arg-type]
        effect = card.intrepid.effect if card.intrepid else None
        now = self.roll_value(t, ex, ex.action_roll, ex.reaction_roll, 0, 0)
        actor_friendly = ex.seat == t.me
        if isinstance(effect, ModifyRoll):
            sign = 1 if effect.whose == "friendly" else -1
            if ex.kind == effect.roll and (effect.whose == "friendly") == actor_friendly:
                return self.roll_value(t, ex, ex.action_roll, ex.reaction_roll, sign * effect.amount, 0)
            if ex.reaction == effect.roll and (effect.whose == "friendly") != actor_friendly:
                return self.roll_value(t, ex, ex.action_roll, ex.reaction_roll, 0, sign * effect.amount)
            return now
        if isinstance(effect, RerollEffect):
            # The grant's re-roll comes next: the best it can do on the side it names.
            side = "action" if (ex.kind == effect.roll) else "reaction"
            roll = ex.action_roll if side == "action" else ex.reaction_roll
            if roll is None:
                return now
            indexes = sorted(rolls.rerollable(roll, t.me))
            best = now
            for index in indexes:
                best = max(best, self.reroll_value(t, ex, side, [index]))
            return best
        return now

    # -------------------------------------------------------------- the race

    def snitch_scores(self, t: Table, actions: list[Any]) -> list[float]:
        """Each way to take a Snitch card: the race after its Impulse, plus what a card kept in play promises."""
        current = t.current_race()
        now = t.race_units(current)
        held_id = t.view.my_snitch_card.id if t.view.my_snitch_card is not None else None
        held_worth = self.hold_value(t, current, held_id, now) if held_id is not None else 0.0
        scores = []
        for action in actions:
            assert isinstance(action, TakeSnitchCard)
            taken = race.card(action.card)
            if action.option == "keep":
                scores.append(now + self.hold_value(t, current, action.card, now))
            elif action.option == "rushed":
                assert isinstance(taken, SnitchCard)
                scores.append(t.impulse_value(current, taken.rushed) + held_worth)
            else:
                assert held_id is not None and isinstance(taken, SnitchCard)
                held = race.card(held_id)
                level = race.combined_level(held, taken)
                if isinstance(held, SlipstreamingCard):
                    steps: tuple[Step, ...] = taken.fast
                    if race.lagged(current) == t.me:
                        steps = (race.SLIPSTREAM_OBSTRUCT, *steps)
                else:
                    assert isinstance(held, SnitchCard)
                    steps = {"rushed": held.rushed, "fast": held.fast, "perfect": held.perfect}[level]
                scores.append(t.impulse_value(current, steps))
        return scores

    def hold_value(self, t: Table, current: race.Race, card_id: int, now: float) -> float:
        """A card in play: a share of the gain of the Fast Impulse it may give later."""
        card = race.card(card_id)
        if isinstance(card, SnitchCard):
            fast = [card.fast]
        else:
            fast = [c.fast for c in (race.card(r) for r in current.row) if isinstance(c, SnitchCard)]
        if not fast:
            return 0.0
        gain = sum(t.impulse_value(current, steps) for steps in fast) / len(fast) - now
        return HOLD * max(0.0, gain)

    def race_token_score(self, t: Table, space: int) -> float:
        current = t.current_race()
        decision = t.view.decision
        kind = decision.token if decision is not None and decision.token else "upwind"
        spaces = race.token_spaces(current, t.me)
        return 1.0 if spaces and space == t.token_space(current, kind, spaces) else 0.0

    def dodge_score(self, t: Table, ignore: bool) -> float:
        """Spend a token that helps, ignore one that hurts (the token where the Seeker would end)."""
        current = t.current_race()
        decision = t.view.decision
        landing = decision.landing if decision is not None else None
        token = race.token_at(current, landing) if landing is not None else None
        if token is None:
            return 0.0 if ignore else 0.1
        good = token.kind == "bonus" or (token.kind == "upwind" and token.owner == t.me)
        return (0.0 if good else 1.0) if ignore else (1.0 if good else 0.0)
