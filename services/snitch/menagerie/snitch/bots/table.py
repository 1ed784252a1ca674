"""One decision's reading of the view (`Table`): the layout, the dice of every card, the race, and their worth."""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cached_property
from typing import Any

import msgspec

from menagerie.snitch.bots.team import player_cards
from menagerie.snitch.bots.values import (
    BEATER_READY,
    CHASE,
    DISADVANTAGE,
    FORWARD,
    GOAL,
    HELD_DICE,
    KEEPER_HOME,
    LANDING,
    POSSESSION,
    PROGRESS,
    RACE_SCALE,
    RACE_SLACK,
    SEEKER,
    STUN,
    SUPPORT,
    TOKEN_STEP,
    WIN,
    aim_chances,
    board_data,
    race_chances,
    roll_chance,
    tactical_decks,
    zone_distances,
)
from menagerie.snitch.data import DicePool, House
from menagerie.snitch.data.cards import Dodge, Obstruct, RaceDiceToken, Step, TacticalCard, UpwindToken
from menagerie.snitch.engine import SnitchState, pitch, race, rolls, traits
from menagerie.snitch.engine.model import DraftView, SnitchView
from menagerie.snitch.engine.pitch import Layout, PlayerRef


class Table:
    """One decision's reading of the view: the layout, the dice of every card, the race."""

    def __init__(self, view: SnitchView, me: int, state: SnitchState | None = None) -> None:
        self.view = view
        self.me = me
        self.rival = 1 - me
        board = board_data()
        self.pitch = board.pitch
        self.dist = zone_distances()
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
        card = player_cards().get(cards[index].id) if index < len(cards) else None
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
        return roll_chance(pool, None, modifier, 0)

    def shoot_chance(self, layout: Layout, shooter: PlayerRef) -> float:
        pool = self.action_pool(shooter.team, shooter.index, "shoot")
        if pool is None:
            return 0.0
        modifier = self.action_modifier("shoot", shooter, layout)
        keeper = PlayerRef(1 - shooter.team, 0)
        if layout.zone_of(keeper) != self.targets[shooter.team]:
            return roll_chance(pool, None, modifier, 0)
        catch = self.reaction_pool(keeper.team, 0, "catch")
        catch_modifier = self.reaction_modifier("catch", keeper, layout)
        return sum(p * roll_chance(pool, catch, modifier + bonus, catch_modifier) for bonus, p in aim_chances())

    def steal_chance(self, layout: Layout, stealer: PlayerRef, holder: PlayerRef) -> float:
        pool = self.action_pool(stealer.team, stealer.index, "steal")
        if pool is None:
            return 0.0
        reaction = self.reaction_pool(holder.team, holder.index, "steal_reaction")
        return roll_chance(
            pool,
            reaction,
            self.action_modifier("steal", stealer, layout),
            self.reaction_modifier("steal_reaction", holder, layout),
        )

    def hit_chance(self, layout: Layout, action: DicePool | int, modifier: int, target: PlayerRef) -> float:
        """P(a Beat or a Bludger's hit lands): the target's Coach answers with its best Reaction (l.406–410)."""
        best = roll_chance(action, None, modifier, 0)
        for reactor, name in [(target, "manoeuvre")] + [(b, "defense") for b in pitch.defense_beaters(layout, target)]:
            pool = self.reaction_pool(reactor.team, reactor.index, name)
            if pool is not None:
                best = min(best, roll_chance(action, pool, modifier, self.reaction_modifier(name, reactor, layout)))
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
                outcomes = race_chances(self.seeker_pool(step.name), step.modifier + bonus)
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
    return tactical_decks().card(house, card_id)


def bought_tactics(draft: DraftView) -> int:
    """How many of the draft's Tactical cards cost Galleons."""
    return sum(1 for t in draft.tactics if t.cost > 0)


def layout_of(view: SnitchView) -> Layout:
    """Where things are, as pitch.py reads it, from the view."""
    the_pitch = board_data().pitch
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
