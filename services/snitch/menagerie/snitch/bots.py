"""The bot levels of Catch the Golden Snitch: `random`, and `greedy`, which scores every legal action.

A bot sees what a human in its seat sees (the engine's `SnitchView`) and the legal
actions; it never reads the state. Everything it weighs is read from the view into the
engine's own rule helpers, which it never re-derives:

- where Players may go, who is at a Disadvantage, who may Pass, Shoot, Steal or Beat, and
  where a Loose Quaffle may land are `pitch.py`'s, on a `Layout` read from the view;
- every chance is exact, from `rolls.py` (`success_chance`, `net_outcomes`, `modifier`,
  `aim_outcomes`) and the dice the view's Player cards list;
- the Snitch race is `race.py`'s: a `Race` read from the view, each Impulse resolved with
  `resolve_step` over `race_roll_chances`, the Impulse a combination gives from
  `combined_level`, Ahead and Lagged from `ahead`/`lagged`.

`greedy` values a position in one currency ("units"): the Snitch race decides the match,
so a Snitch card is worth about 10, a Tempo Point a quarter of one, a Goal a card, a Tempo
Point and a Goal token. The race is worth the gap between the Seekers scaled by how little
is left to run (`race_units`): a Glimpse helps the Seeker Ahead, Accelerate and Obstruct
widen the gap, and a card kept in play is worth part of the Fast Impulse it may give. On
the Pitch a position is worth Possession, the holder's progress towards the rival Scoring
Area, Disadvantage, support, the Keeper at home and Beaters beside Bludgers
(`Judge.pitch_value`). Each action is scored by the expected value of what it leads to
(rolled Actions: their chance of success times the success, plus the failure); ties go to
the `rng`.

Mode "advanced" (Build Your Team): `random` picks any legal card until the engine lets it
confirm, then confirms (it never takes a pick back); `greedy` builds by value per Galleon
(see "Build Your Team" below), flies its House's Flag when it is free, places a Spectator
whenever one is offered (onto a rival's first), and uses a Locked Trait when the expected
stake it saves on the roll under way is worth more than keeping the Trait (TRAIT_COST).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from functools import cache, cached_property
from typing import Any

import msgspec

from menagerie.rules.bots import PolicyFactory, RandomPolicy
from menagerie.snitch.data import (
    BoardData,
    DicePool,
    House,
    PlayerCard,
    RerollTrait,
    RollBonusTrait,
    SpectatorCard,
    SteadyTrait,
    TempoTrait,
    ToughTrait,
    load_data,
    load_spectators,
)
from menagerie.snitch.data.cards import (
    Accelerate,
    Bludger,
    DiceTokens,
    Dodge,
    FreeAction,
    Glimpse,
    ModifyRoll,
    Obstruct,
    RaceDiceToken,
    Shift,
    SlipstreamingCard,
    SnitchCard,
    Step,
    TacticalCard,
    TacticalDecks,
    Tempo,
    Upwind,
    UpwindToken,
    card_worth,
    effect_worth,
    load_tactics,
)
from menagerie.snitch.data.cards import (
    Reroll as RerollEffect,
)
from menagerie.snitch.engine import SnitchEngine, SnitchState, pitch, race, rolls, traits
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
    DraftView,
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
from menagerie.snitch.engine.pitch import Layout, PlayerRef
from menagerie.snitch.engine.rolls import Roll
from menagerie.snitch.engine.views import evaluation_view

TIE = 1e-9
# ------------------------------------------------------------------ the currency (units)
SNITCH_CARD = 10.0  # a Snitch card from the row
TEMPO = SNITCH_CARD / 4  # four Tempo Points take a Snitch card
GOAL = SNITCH_CARD + TEMPO + 1.0  # a Snitch card, the Shoot's Tempo Point, a Goal token
GOAL_TOKEN = 1.0
SHOOT_NOW = 1.5  # a Shoot taken now, with no other Shoot of ours to come this Game Sequence
SHOOT_LATER = 0.2  # a Shoot taken now, when another one comes later  # an Uncelebrated Goal token spent on a re-roll
CARD = 3.0  # a Tactical card played for its Intrepid Move: gone from the hand, and a Hand Swap comes sooner
POSSESSION = 1.5  # holding the Quaffle (each side)
PROGRESS = 0.5  # per Zone the holder is nearer the Scoring Area it attacks
DISADVANTAGE = 1.5  # per point of the holder's Disadvantage
SUPPORT = 0.3  # a friendly Chaser the holder may Pass to
KEEPER_HOME = 1.0  # the Keeper in its own Scoring Area (Catch, Keeper's Kick-Off)
FORWARD = 0.15  # per Zone a Chaser without the Quaffle is up the pitch
CHASE = 0.25  # per Zone a Player is nearer the rival holder (defending)
BEATER_READY = 0.4  # a Beater beside a Bludger with a rival in reach
STUN = {"keeper": 1.0, "beater": 0.8, "chaser": 1.2}  # a Stunned token on a Player of that Position
# The race: the gap between the Seekers over the square root of what the leader has left.
RACE_SCALE = 15.0
RACE_SLACK = 1.5
WIN = 200.0  # a Seeker catching the Golden Snitch
HOLD = 0.6  # a card kept in play: this share of its Fast Impulse's gain
HELD_DICE = 1.0  # a Dice token on a Seeker's card
TOKEN_STEP = {"upwind": 0.4, "bonus": 0.3, "penalty": 0.3}  # a race token placed, in spaces
# How far a Seeker's next advance goes, roughly (for where race tokens are placed).
LANDING = {1: 0.2, 2: 0.35, 3: 0.3, 4: 0.15}
# What a favourable outcome of a roll is worth, by roll (for re-rolls and Swift Intrepid Moves).
STAKE = {"shoot": GOAL, "steal": 2 * POSSESSION + TEMPO, "pass": 2 * POSSESSION + TEMPO, "beat": 4.0, "bludger": 3.0}
RACE_STEPS: dict[str, type[Accelerate | Dodge | Glimpse | Obstruct]] = {
    "accelerate": Accelerate,
    "dodge": Dodge,
    "glimpse": Glimpse,
    "obstruct": Obstruct,
}
SEEKER = 6  # the Seeker's card follows the six Pitch Players' in a Coach's `cards`


@cache
def _board() -> BoardData:
    return load_data()


@cache
def _decks() -> TacticalDecks:
    return load_tactics()


@cache
def _distances() -> dict[tuple[str, str], int]:
    the_pitch = _board().pitch
    ids = [z.id for z in the_pitch.zones]
    return {(a, b): the_pitch.distance(a, b) for a in ids for b in ids}


@cache
def _chance(action: DicePool | int, reaction: DicePool | None, action_modifier: int, reaction_modifier: int) -> float:
    """P(success) of an Action pool (or fixed Successes) against a Reaction pool: rolls.success_chance, cached."""
    return float(
        rolls.success_chance(
            _board().dice, action, reaction, action_modifier=action_modifier, reaction_modifier=reaction_modifier
        )
    )


@cache
def _race_chances(pool: DicePool, modifier: int) -> tuple[tuple[int, float], ...]:
    """The Successes a race roll applies, with their chances (race.race_roll_chances)."""
    return tuple((n, float(p)) for n, p in race.race_roll_chances(_board().dice, pool, modifier))


@cache
def _aim() -> tuple[tuple[int, float], ...]:
    """Aim at the Hoop's bonus when both Coaches choose uniformly (rolls.aim_outcomes)."""
    return tuple((bonus, float(p)) for bonus, p in rolls.aim_outcomes(_board().hoops))


def _net_chances(
    action: DicePool | int, reaction: DicePool | None, action_modifier: int, reaction_modifier: int
) -> list[tuple[int, float]]:
    outcomes = rolls.net_outcomes(
        _board().dice, action, reaction, action_modifier=action_modifier, reaction_modifier=reaction_modifier
    )
    return [(net, float(p)) for net, p in outcomes]


def _pool(colours: Sequence[str]) -> DicePool:
    return DicePool(
        orange=sum(c == "orange" for c in colours),
        purple=sum(c == "purple" for c in colours),
        black=sum(c == "black" for c in colours),
    )


# ------------------------------------------------------------------ Build Your Team
#
# Greedy builds its Team by value per Galleon (in Action units: an Action icon is worth 1).
# A Tactical card is worth its Action icons plus its Intrepid Move (data/cards.py's
# `card_worth`, the nominal weighing that prices the libraries); a Player card its expected
# Successes and Opportunities (from the dice data) weighted by how often they are rolled,
# plus its Trait; a bought Spectator its two effects, played about twice a match. From the
# House's free Team (the basic Players and basic deck), each Galleon goes where the gain per
# Galleon is highest (a Player over its Position's basic card, a Tactical card over the
# weakest basic card still in the deck, a Spectator over nothing); the free cards then fill
# the slots left and the Team is confirmed. Every pick is one of the legal actions.
PLAYER_DIE = 2.0  # an expected Success or Opportunity more on a Pitch Player's card
SEEKER_DIE = 3.0  # ... on the Seeker's (the race decides the match)
TRAIT = {"roll_bonus": 2.0, "locked_bonus": 0.8, "reroll": 0.4, "tempo": 1.5, "steady": 1.0, "tough": 0.8}
SPECTATOR_PLAYS = 1.5  # a bought Spectator's effects, counted this many times
HOUSE_MARGIN = 0.01  # Houses whose planned Team is worth within 1% of the best are as good (the rng picks one)
TRAIT_COST = 1.0  # a Locked Trait used now is gone until the rival's Hand Swap (units)


def trait_worth(card: PlayerCard) -> float:
    """A unique Player's Trait, in Actions (none for a basic Player)."""
    match card.trait:
        case RollBonusTrait(locked=False):
            return TRAIT["roll_bonus"]
        case RollBonusTrait(amount=n):
            return TRAIT["locked_bonus"] * n
        case RerollTrait(dice=n):
            return TRAIT["reroll"] * n
        case TempoTrait():
            return TRAIT["tempo"]
        case SteadyTrait():
            return TRAIT["steady"]
        case ToughTrait():
            return TRAIT["tough"]
    return 0.0


@cache
def player_worth(card_id: str) -> float:
    """A Player card: its expected Successes (Actions) and Opportunities (Reactions), and its Trait."""
    card = _players()[card_id]
    dice = _board().dice
    expected = 0.0
    for pools, per_die in ((card.actions, dice.expected_successes), (card.reactions, dice.expected_opportunities)):
        expected += sum(float(per_die(colour)) * n for pool in pools.values() for colour, n in pool.by_colour().items())
    return (SEEKER_DIE if card.position == "seeker" else PLAYER_DIE) * expected + trait_worth(card)


def spectator_worth(card: SpectatorCard) -> float:
    """A bought Spectator: its two effects, each about as often."""
    return SPECTATOR_PLAYS * (effect_worth(card.first) + effect_worth(card.second)) / 2


@cache
def _players() -> dict[str, PlayerCard]:
    return {p.id: p for p in _board().players.players}


@cache
def _spectators() -> dict[str, SpectatorCard]:
    return {c.id: c for c in load_spectators().spectators}


@cache
def _basic_player(house: House, position: str) -> str:
    """The House's free card for a Position."""
    return next(p.id for p in _board().players.lineup(house) if p.position == position)


@cache
def _basic_worths(house: House) -> tuple[float, ...]:
    """The worth of the House's free Tactical cards, weakest first (a bought card replaces the weakest left)."""
    return tuple(sorted(card_worth(c) for c in _decks().library(house) if c.cost == 0))


def pick_cost(house: House, part: str, card: str) -> int:
    """What a pick costs, from the data."""
    if part == "player":
        return _players()[card].cost
    if part == "tactic":
        return _decks().card(house, int(card)).cost
    if part == "spectator":
        return _spectators()[card].cost
    return 0


def pick_gain(house: House, part: str, card: str, bought_tactics: int) -> float:
    """What a pick adds over the free card it replaces (`bought_tactics` already replace the weakest free ones)."""
    if part == "player":
        player = _players()[card]
        return player_worth(card) - player_worth(_basic_player(house, player.position))
    if part == "tactic":
        basics = _basic_worths(house)
        replaced = basics[bought_tactics] if bought_tactics < len(basics) else 0.0
        return card_worth(_decks().card(house, int(card))) - replaced
    if part == "spectator":
        return spectator_worth(_spectators()[card])
    return 0.0


def best_buy(
    house: House, options: Sequence[tuple[str, str]], bought_tactics: int, rng: random.Random | None = None
) -> tuple[str, str] | None:
    """Among picks that cost Galleons, the one that adds most per Galleon (None when none adds anything)."""
    rated = []
    for part, card in options:
        price = pick_cost(house, part, card)
        if price > 0 and (gain := pick_gain(house, part, card, bought_tactics)) > 0:
            rated.append((gain / price, part, card))
    if not rated:
        return None
    best = max(r[0] for r in rated)
    tied = [(part, card) for rate, part, card in rated if rate >= best - TIE]
    return rng.choice(tied) if rng is not None and len(tied) > 1 else tied[0]


@cache
def planned_team(house: House, funding: int, spectators: bool) -> tuple[float, tuple[tuple[str, str], ...]]:
    """The Team greedy would buy for a House: its worth over the free Team's, and the bought cards.

    An estimate for choosing the House: the picks' legality is the engine's, and here only
    the Team's shape, the House's cards, the Funding and each card once are kept to.
    """
    slots = {"keeper": 1, "beater": 2, "chaser": 3, "seeker": 1}
    candidates = [("player", p.id) for p in _players().values() if house in p.affiliation and p.cost > 0]
    candidates += [("tactic", str(c.id)) for c in _decks().library(house) if c.cost > 0]
    if spectators:
        candidates += [("spectator", c.id) for c in _spectators().values() if house in c.affiliation and c.cost > 0]
    budget, worth, bought, names = funding, 0.0, 0, set()
    picks: list[tuple[str, str]] = []
    while True:
        options = []
        for part, card in candidates:
            if (part, card) in picks or pick_cost(house, part, card) > budget:
                continue
            if part == "player" and not slots[_players()[card].position]:
                continue
            if part == "spectator" and sum(p == "spectator" for p, _ in picks) >= 2:
                continue
            if _card_name(part, card) in names:
                continue
            options.append((part, card))
        choice = best_buy(house, options, bought)
        if choice is None:
            return worth, tuple(picks)
        part, card = choice
        worth += pick_gain(house, part, card, bought)
        budget -= pick_cost(house, part, card)
        picks.append(choice)
        names.add(_card_name(part, card))
        if part == "player":
            slots[_players()[card].position] -= 1
        elif part == "tactic":
            bought += 1


def _card_name(part: str, card: str) -> str:
    """A Player's or Spectator's name (a ✷ name is one per Team, l.707); a Tactical card's part and id."""
    if part == "player":
        return _players()[card].name
    if part == "spectator":
        return _spectators()[card].name
    return f"{part}:{card}"


def house_worth(house: House) -> float:
    """The free Team of a House: its basic Players and basic deck."""
    return sum(player_worth(p.id) for p in _board().players.lineup(house)) + sum(_basic_worths(house))


# ------------------------------------------------------------------------- the table


class Table:
    """One decision's reading of the view: the layout, the dice of every card, the race."""

    def __init__(self, view: SnitchView, me: int, state: SnitchState | None = None) -> None:
        self.view = view
        self.me = me
        self.rival = 1 - me
        board = _board()
        self.pitch = board.pitch
        self.dist = _distances()
        # A search's sampled state: where things are (and the race) is read from it, not rebuilt from a view.
        self.state = state
        self.layout = layout_of(view) if state is None else state.layout
        self.targets = (
            pitch.own_half(self.pitch, self.layout, 1).scoring_area,  # where Team 0 shoots
            pitch.own_half(self.pitch, self.layout, 0).scoring_area,
        )
        self.homes = (self.targets[1], self.targets[0])
        self._values: dict[Layout, float] = {}

    @cached_property
    def stunned(self) -> dict[PlayerRef, int]:
        """Each Pitch Player's Stunned tokens (read for a roll's chance, which an evaluation rarely works out)."""
        state = self.state
        if state is None:
            return {PlayerRef(p.team, p.index): p.stunned for p in self.view.players}
        return {
            PlayerRef(team, index): player.stunned
            for team, coach in enumerate(state.players)
            for index, player in enumerate(coach.team)
        }

    # ---------------------------------------------------------------- dice

    def action_pool(self, team: int, index: int, name: str) -> DicePool | None:
        """The dice a Player card (index 6: the Seeker) lists for an Action."""
        for pool in self.view.coaches[team].cards[index].actions:
            if pool.name == name:
                return DicePool(orange=pool.orange, purple=pool.purple, black=pool.black)
        return None

    def reaction_pool(self, team: int, index: int, name: str) -> DicePool | None:
        """The dice a Player card lists for a Reaction (the Steal Reaction is listed as "steal")."""
        wanted = "steal" if name == "steal_reaction" else name
        for pool in self.view.coaches[team].cards[index].reactions:
            if pool.name == wanted:
                return DicePool(orange=pool.orange, purple=pool.purple, black=pool.black)
        return None

    def trait(self, team: int, index: int) -> Any | None:
        """The Trait on a Player's card (index 6: the Seeker), from the data by the card's id; None without one."""
        cards = self.view.coaches[team].cards
        card = _players().get(cards[index].id) if index < len(cards) else None
        return card.trait if card is not None else None

    def action_modifier(self, kind: str, player: PlayerRef, layout: Layout, disadvantage: int | None = None) -> int:
        """Disadvantage, Stunned tokens and the roller's lasting Trait, as the engine counts them (traits.py)."""
        if disadvantage is None:
            disadvantage = pitch.disadvantage(layout, player)
        trait = self.trait(player.team, player.index)
        return rolls.modifier(
            kind,  # type: ignore[arg-type]
            disadvantage=traits.disadvantage(trait, disadvantage),
            stunned=traits.stunned(trait, self.stunned.get(player, 0)),
            effects=traits.lasting_bonus(trait, kind),
        )

    def reaction_modifier(self, kind: str, player: PlayerRef, layout: Layout) -> int:
        trait = self.trait(player.team, player.index)
        return rolls.modifier(
            kind,  # type: ignore[arg-type]
            disadvantage=traits.disadvantage(trait, pitch.disadvantage(layout, player)),
            stunned=traits.stunned(trait, self.stunned.get(player, 0)),
            effects=traits.lasting_bonus(trait, kind),
        )

    # ------------------------------------------------------------- chances

    def pass_chance(self, layout: Layout, passer: PlayerRef, target: PlayerRef) -> float:
        pool = self.action_pool(passer.team, passer.index, "pass")
        if pool is None:
            return 0.0
        modifier = self.action_modifier("pass", passer, layout, pitch.pass_disadvantage(layout, passer, target))
        return _chance(pool, None, modifier, 0)

    def shoot_chance(self, layout: Layout, shooter: PlayerRef) -> float:
        pool = self.action_pool(shooter.team, shooter.index, "shoot")
        if pool is None:
            return 0.0
        modifier = self.action_modifier("shoot", shooter, layout)
        keeper = PlayerRef(1 - shooter.team, 0)
        if layout.zone_of(keeper) != self.targets[shooter.team]:
            return _chance(pool, None, modifier, 0)
        catch = self.reaction_pool(keeper.team, 0, "catch")
        catch_modifier = self.reaction_modifier("catch", keeper, layout)
        return sum(p * _chance(pool, catch, modifier + bonus, catch_modifier) for bonus, p in _aim())

    def steal_chance(self, layout: Layout, stealer: PlayerRef, holder: PlayerRef) -> float:
        pool = self.action_pool(stealer.team, stealer.index, "steal")
        if pool is None:
            return 0.0
        reaction = self.reaction_pool(holder.team, holder.index, "steal_reaction")
        return _chance(
            pool,
            reaction,
            self.action_modifier("steal", stealer, layout),
            self.reaction_modifier("steal_reaction", holder, layout),
        )

    def hit_chance(self, layout: Layout, action: DicePool | int, modifier: int, target: PlayerRef) -> float:
        """P(a Beat or a Bludger's hit lands): the target's Coach answers with its best Reaction (l.406–410)."""
        best = _chance(action, None, modifier, 0)
        for reactor, name in [(target, "manoeuvre")] + [(b, "defense") for b in pitch.defense_beaters(layout, target)]:
            pool = self.reaction_pool(reactor.team, reactor.index, name)
            if pool is not None:
                best = min(best, _chance(action, pool, modifier, self.reaction_modifier(name, reactor, layout)))
        return best

    def beat_chance(self, layout: Layout, beater: PlayerRef, target: PlayerRef) -> float:
        pool = self.action_pool(beater.team, beater.index, "beat")
        if pool is None:
            return 0.0
        return self.hit_chance(layout, pool, self.action_modifier("beat", beater, layout), target)

    # ------------------------------------------------------------- the pitch

    def pitch_value(self, layout: Layout) -> float:
        """What a layout is worth to the viewer: Possession, progress, Disadvantage, support, formation."""
        value = self._values.get(layout)
        if value is None:
            value = self._values[layout] = self._pitch_value(layout)
        return value

    def _pitch_value(self, layout: Layout) -> float:
        me, dist, lineup = self.me, self.dist, pitch.PITCH_LINEUP
        zones = layout.players
        holder = layout.holder
        value = 0.0
        if holder is not None:
            sign = 1.0 if holder.team == me else -1.0
            zone = zones[holder.team][holder.index]
            target = self.targets[holder.team]
            if zone == target and holder.position == "chaser":
                # A Chaser with the Quaffle in the Scoring Area it attacks is worth its Shoot: the Goal's
                # chance, then the rival Keeper holds the Quaffle (after a Goal, and after most misses).
                shot = self.shoot_chance(layout, holder)
                return sign * shot * GOAL + self.pitch_value(layout.with_quaffle(PlayerRef(1 - holder.team, 0)))
            side = POSSESSION + PROGRESS * (5 - dist[zone, target])
            side -= DISADVANTAGE * pitch.disadvantage(layout, holder)
            if holder.position != "chaser":
                side -= 0.5
            for index, here in enumerate(zones[holder.team]):
                if index != holder.index and lineup[index] == "chaser" and dist[zone, here] <= 2:
                    side += SUPPORT
            value += sign * side
            chasing = 1 - holder.team
            chase = CHASE if chasing == me else -CHASE
            for index, here in enumerate(zones[chasing]):
                if lineup[index] != "keeper":
                    value += chase * max(0, 3 - dist[here, zone])
        else:
            zone = layout.quaffle_zone
            mine = min(dist[here, zone] for i, here in enumerate(zones[me]) if lineup[i] != "keeper")
            theirs = min(dist[here, zone] for i, here in enumerate(zones[self.rival]) if lineup[i] != "keeper")
            value += max(-3.0, min(3.0, 1.5 * (theirs - mine)))
            attacking = self.view.attacking
            value += (0.5 if attacking == me else -0.5) * PROGRESS * (5 - dist[zone, self.targets[attacking]])
        bludgers = set(layout.bludgers)
        for team in (0, 1):
            sign = 1.0 if team == me else -1.0
            if zones[team][0] == self.homes[team]:
                value += sign * KEEPER_HOME
            target = self.targets[team]
            for index, here in enumerate(zones[team]):
                position = lineup[index]
                if position == "chaser" and (holder is None or holder.team != team or holder.index != index):
                    value += sign * FORWARD * (5 - dist[here, target])
                elif (
                    position == "beater"
                    and here in bludgers
                    and any(dist[here, there] <= pitch.BEAT_RANGE for there in zones[1 - team])
                ):
                    value += sign * BEATER_READY
        return value

    def stun_value(self, player: PlayerRef) -> float:
        """What one more Stunned token on a Player costs its Team (none beyond the third)."""
        if self.stunned.get(player, 0) >= rolls.MAX_STUNNED:
            return 0.1
        value = STUN[player.position]
        if self.layout.holder == player:
            value += 0.5
        return value

    def loose_value(self, layout: Layout, cause: pitch.LossCause, zone: str, chooser: int) -> float:
        """The Quaffle goes Loose near `zone`, where `chooser` says (their Team then attacks)."""
        options = [self.pitch_value(layout.with_quaffle(z)) for z in pitch.loose_quaffle_zones(self.pitch, cause, zone)]
        if not options:
            return self.pitch_value(layout)
        return max(options) if chooser == self.me else min(options)

    # ------------------------------------------------------------- the race

    def current_race(self) -> race.Race:
        return race_of(self.view, self.me) if self.state is None else race_in(self.state, self.me)

    def race_units(self, r: race.Race) -> float:
        """What the race is worth to the viewer."""
        caught = race.catcher(r, self.view.attacking)
        if caught is not None:
            return WIN if caught == self.me else -WIN
        mine, theirs = race.distance(r, self.me), race.distance(r, self.rival)
        value = RACE_SCALE * (theirs - mine) / math.sqrt(min(mine, theirs) + RACE_SLACK)
        for seat in (0, 1):
            sign = 1.0 if seat == self.me else -1.0
            for held in r.held[seat]:
                value += sign * (HELD_DICE if held.token == "bonus" else -HELD_DICE)
        return value

    def seeker_pool(self, name: str) -> DicePool:
        return self.action_pool(self.me, SEEKER, name) or DicePool()

    def impulse_value(self, r: race.Race, steps: Sequence[Step]) -> float:
        """The expected race value once `steps` are resolved for the viewer's Seeker."""
        me = self.me

        def go(current: race.Race, index: int, bonus: float) -> float:
            if index == len(steps) or race.catcher(current, self.view.attacking) is not None:
                return self.race_units(current) + bonus
            step = steps[index]
            if isinstance(step, UpwindToken | RaceDiceToken):
                kind = "upwind" if isinstance(step, UpwindToken) else step.token
                spaces = race.token_spaces(current, me)
                if not spaces:
                    return go(current, index + 1, bonus)
                space = self.token_space(current, kind, spaces)
                worth = TOKEN_STEP[kind] * RACE_SCALE / math.sqrt(race.distance(current, me) + RACE_SLACK)
                return go(race.place_token(current, me, step, space), index + 1, bonus + worth)
            if isinstance(step, Obstruct) and not race.can_obstruct(current, me):
                return go(current, index + 1, bonus)
            outcomes: Sequence[tuple[int, float]]
            if step.successes is not None:
                outcomes = ((step.successes, 1.0),)
            else:
                bonus = traits.lasting_bonus(self.trait(me, SEEKER), step.name)
                outcomes = _race_chances(self.seeker_pool(step.name), step.modifier + bonus)
            total = 0.0
            for successes, p in outcomes:
                if isinstance(step, Dodge) and race.may_ignore(current, me, successes):
                    v = max(
                        go(race.dodge(current, me, successes, ignore), index + 1, bonus) for ignore in (False, True)
                    )
                else:
                    v = go(race.resolve_step(current, me, step, successes), index + 1, bonus)
                total += p * v
            return total

        return go(r, 0, 0.0)

    def token_space(self, r: race.Race, kind: str, spaces: Sequence[int]) -> int:
        """Where a race token does most: an Upwind where either Seeker lands, a Bonus ours, a Penalty theirs."""
        mine, theirs = r.seekers[self.me], r.seekers[self.rival]

        def score(space: int) -> float:
            land_me, land_them = LANDING.get(space - mine, 0.0), LANDING.get(space - theirs, 0.0)
            if kind == "upwind":
                return land_me + land_them - 0.01 * space
            if kind == "bonus":
                return land_me - 0.5 * land_them - 0.01 * space
            return land_them - 0.5 * land_me - 0.01 * space

        return max(spaces, key=score)

    # ------------------------------------------------------------- this sequence

    def my_actions_left(self) -> list[str]:
        """The Pitch Actions the viewer may still perform this Game Sequence (this block's and later blocks')."""
        view, me = self.view, self.me
        left = list(view.block_remaining) if view.block_seat == me else []
        coach = view.coaches[me]
        card_id = coach.pitch_card if coach.pitch_card is not None else view.my_pitch_card
        if card_id is not None:
            card = tactical_card(coach.house, card_id)  # type: ignore[arg-type]
            for block in card.blocks[coach.next_block :]:
                left += list(block)
        return left


def tactical_card(house: House, card_id: int) -> TacticalCard:
    """A Tactical card of a House's library (public data)."""
    return _decks().card(house, card_id)


def bought_tactics(draft: DraftView) -> int:
    """How many of the draft's Tactical cards cost Galleons."""
    return sum(1 for t in draft.tactics if t.cost > 0)


def layout_of(view: SnitchView) -> Layout:
    """Where things are, as pitch.py reads it, from the view."""
    the_pitch = _board().pitch
    halves: list[str] = ["", ""]
    for zone in view.zones:
        if zone.scoring_area_of is not None:
            halves[zone.scoring_area_of] = next(h.id for h in the_pitch.halves if h.scoring_area == zone.id)
    zones: list[list[str]] = [[], []]
    holder: PlayerRef | None = None
    for p in sorted(view.players, key=lambda p: (p.team, p.index)):
        zones[p.team].append(p.zone)
        if p.has_quaffle:
            holder = PlayerRef(p.team, p.index)
    bludgers = sorted((b, zone.id) for zone in view.zones for b in zone.bludgers)
    return Layout(
        halves=(halves[0], halves[1]),
        players=(tuple(zones[0]), tuple(zones[1])),
        quaffle=holder if holder is not None else view.quaffle_zone,
        bludgers=tuple(z for _, z in bludgers),
    )


def race_in(state: SnitchState, me: int) -> race.Race:
    """The Snitch race as `race_of` reads it from `me`'s view, read from a search's sampled state instead."""
    held = state.held
    return race.Race(
        seekers=(state.seekers[0], state.seekers[1]),
        snitch=state.snitch,
        tokens=tuple(msgspec.structs.replace(t, turn=0) for t in state.race_tokens),
        held=(tuple(sorted(held[0])), tuple(sorted(held[1]))),
        row=tuple(state.snitch_row),
        in_play=(state.players[0].snitch_in_play, None) if me == 0 else (None, state.players[1].snitch_in_play),
        turn=1,
    )


def race_of(view: SnitchView, me: int) -> race.Race:
    """The Snitch race as race.py reads it, from the view (the rival's card in play is secret: none)."""
    held: list[list[race.HeldDice]] = [[], []]
    for token, entries in (("bonus", view.race.held_bonus), ("penalty", view.race.held_penalty)):
        for entry in entries:
            seat, colour = entry.split(":")
            held[int(seat)].append(race.HeldDice(token, colour))  # type: ignore[arg-type]
    # Tokens on the track were placed before this turn: they may be spent (turn 0 < 1).
    tokens = tuple(
        race.Token(space=t.space, kind=t.kind, owner=t.owner, colour=t.colour, turn=0)  # type: ignore[arg-type]
        for t in view.race.tokens
    )
    mine = view.my_snitch_card.id if view.my_snitch_card is not None else None
    in_play = (mine, None) if me == 0 else (None, mine)
    return race.Race(
        seekers=(view.race.seekers[0], view.race.seekers[1]),
        snitch=view.race.snitch,
        tokens=tokens,
        held=(tuple(sorted(held[0])), tuple(sorted(held[1]))),
        row=tuple(c.id for c in view.race.row),
        in_play=in_play,
        turn=1,
    )


# ------------------------------------------------------------------------- the policy


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
            card = _spectators()[action.card]
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
            return sum(p * _chance(action, pool, ex.action_modifier + b, reaction_modifier) for b, p in _aim())
        return _chance(action, pool, ex.action_modifier, reaction_modifier)

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
        dice = _board().dice
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
        dice = _board().dice
        roll = ex.action_roll if side == "action" else ex.reaction_roll
        if roll is None:
            return self.roll_value(t, ex, ex.action_roll, ex.reaction_roll, 0, 0)
        chosen = set(dice_indexes)
        kept = Roll(roll.kind, roll.seat, tuple(d for i, d in enumerate(roll.dice) if i not in chosen))
        again = _pool([d.colour for i, d in enumerate(roll.dice) if i in chosen])
        kept_count = rolls.count(dice, kept)
        if side == "action":
            opportunities = rolls.count(dice, ex.reaction_roll) if ex.reaction_roll is not None else 0
            cancelled = max(0, opportunities + ex.reaction_modifier)
            outcomes = _net_chances(again, None, kept_count + ex.action_modifier - cancelled, 0)
        else:
            successes = rolls.count(dice, ex.action_roll) if ex.action_roll is not None else (ex.fixed or 0)
            outcomes = _net_chances(successes, again, ex.action_modifier, kept_count + ex.reaction_modifier)
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


# The bot levels of this game (entry point group menagerie.bots).
# The `mcts` level's evaluation: a seat's chance to win read from greedy's values of the position
# (the race, the pitch, Snitch cards, Tempo Points and Goal tokens), through a logistic curve.
EVALUATION_SCALE = SNITCH_CARD
_SNITCH_ENGINE: list[SnitchEngine] = []


def evaluate(state: SnitchState, seat: int) -> float | None:
    """The seat's chance to win a position by greedy's values (None until both Teams are on the pitch)."""
    value = _position_value(state, seat)
    return None if value is None else _win_chance(value)


def evaluate_seats(state: SnitchState) -> list[float] | None:
    """Both seats' `evaluate` from one reading: every term of a position's value is one side's minus the
    other's, so seat 1's value is seat 0's negated, exactly (a test compares both ways over random matches)."""
    value = _position_value(state, 0)
    return None if value is None else [_win_chance(value), _win_chance(-value)]


def _win_chance(value: float) -> float:
    return 1.0 / (1.0 + math.exp(-value / EVALUATION_SCALE))


def _position_value(state: SnitchState, seat: int) -> float | None:
    """What a position is worth to the seat, in greedy's units (None until both Teams are on the pitch)."""
    if not all(coach.lineup for coach in state.players):
        return None  # the Teams are still being built (the view would say so, at the cost of building it)
    if not _SNITCH_ENGINE:
        _SNITCH_ENGINE.append(SnitchEngine())
    view = evaluation_view(_SNITCH_ENGINE[0], state, seat)
    table = Table(view, seat, state)
    if any(len(zones) < len(pitch.PITCH_LINEUP) for zones in table.layout.players):
        return None  # the Teams are not all on the pitch yet
    value = table.race_units(table.current_race()) + table.pitch_value(table.layout)
    mine, theirs = view.coaches[seat], view.coaches[1 - seat]
    value += SNITCH_CARD * (mine.has_snitch_card - theirs.has_snitch_card)
    value += TEMPO * (mine.tempo - theirs.tempo) + GOAL_TOKEN * (mine.goals - theirs.goals)
    return value


def searchable(view: SnitchView) -> bool:
    """False while a Team is being built: a rollout there plays the rest of the draft at random and the
    evaluation cannot judge a Team before the match, so the mcts level plays greedy's planned Team."""
    return view.draft is None and all(coach.team_confirmed for coach in view.coaches)


POLICIES: dict[str, PolicyFactory] = {"random": SnitchRandom, "greedy": SnitchGreedy}

__all__ = [
    "POLICIES",
    "SnitchGreedy",
    "SnitchRandom",
    "Table",
    "layout_of",
    "planned_team",
    "player_worth",
    "race_of",
    "tactical_card",
]
