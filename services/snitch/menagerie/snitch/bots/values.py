"""greedy's currency (units: a Snitch card is worth about 10) and the exact chances it weighs (the engine's rolls)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from menagerie.snitch.data import BoardData, DicePool, load_data
from menagerie.snitch.data.cards import Accelerate, Dodge, Glimpse, Obstruct, TacticalDecks, load_tactics
from menagerie.snitch.engine import race, rolls

TIE = 1e-9
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
def board_data() -> BoardData:
    return load_data()


@cache
def tactical_decks() -> TacticalDecks:
    return load_tactics()


@cache
def zone_distances() -> dict[tuple[str, str], int]:
    the_pitch = board_data().pitch
    ids = [z.id for z in the_pitch.zones]
    return {(a, b): the_pitch.distance(a, b) for a in ids for b in ids}


@cache
def roll_chance(
    action: DicePool | int, reaction: DicePool | None, action_modifier: int, reaction_modifier: int
) -> float:
    """P(success) of an Action pool (or fixed Successes) against a Reaction pool: rolls.success_chance, cached."""
    return float(
        rolls.success_chance(
            board_data().dice, action, reaction, action_modifier=action_modifier, reaction_modifier=reaction_modifier
        )
    )


@cache
def race_chances(pool: DicePool, modifier: int) -> tuple[tuple[int, float], ...]:
    """The Successes a race roll applies, with their chances (race.race_roll_chances)."""
    return tuple((n, float(p)) for n, p in race.race_roll_chances(board_data().dice, pool, modifier))


@cache
def aim_chances() -> tuple[tuple[int, float], ...]:
    """Aim at the Hoop's bonus when both Coaches choose uniformly (rolls.aim_outcomes)."""
    return tuple((bonus, float(p)) for bonus, p in rolls.aim_outcomes(board_data().hoops))


def net_chances(
    action: DicePool | int, reaction: DicePool | None, action_modifier: int, reaction_modifier: int
) -> list[tuple[int, float]]:
    outcomes = rolls.net_outcomes(
        board_data().dice, action, reaction, action_modifier=action_modifier, reaction_modifier=reaction_modifier
    )
    return [(net, float(p)) for net, p in outcomes]


def dice_pool(colours: Sequence[str]) -> DicePool:
    return DicePool(
        orange=sum(c == "orange" for c in colours),
        purple=sum(c == "purple" for c in colours),
        black=sum(c == "black" for c in colours),
    )
