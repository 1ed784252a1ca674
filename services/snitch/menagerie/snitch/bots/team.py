"""Build Your Team: what greedy pays for, in Actions per Galleon (`planned_team`, `best_buy`).

Greedy builds its Team by value per Galleon (in Action units: an Action icon is worth 1).
A Tactical card is worth its Action icons plus its Intrepid Move (data/cards.py's
`card_worth`, the nominal weighing that prices the libraries); a Player card its expected
Successes and Opportunities (from the dice data) weighted by how often they are rolled,
plus its Trait; a bought Spectator its two effects, played about twice a match. From the
House's free Team (the basic Players and basic deck), each Galleon goes where the gain per
Galleon is highest (a Player over its Position's basic card, a Tactical card over the
weakest basic card still in the deck, a Spectator over nothing); the free cards then fill
the slots left and the Team is confirmed. Every pick is one of the legal actions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from menagerie.snitch.bots.values import TIE, board_data, tactical_decks
from menagerie.snitch.data import (
    House,
    PlayerCard,
    RerollTrait,
    RollBonusTrait,
    SpectatorCard,
    SteadyTrait,
    TempoTrait,
    ToughTrait,
    load_spectators,
)
from menagerie.snitch.data.cards import card_worth, effect_worth

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
    card = player_cards()[card_id]
    dice = board_data().dice
    expected = 0.0
    for pools, per_die in ((card.actions, dice.expected_successes), (card.reactions, dice.expected_opportunities)):
        expected += sum(float(per_die(colour)) * n for pool in pools.values() for colour, n in pool.by_colour().items())
    return (SEEKER_DIE if card.position == "seeker" else PLAYER_DIE) * expected + trait_worth(card)


def spectator_worth(card: SpectatorCard) -> float:
    """A bought Spectator: its two effects, each about as often."""
    return SPECTATOR_PLAYS * (effect_worth(card.first) + effect_worth(card.second)) / 2


@cache
def player_cards() -> dict[str, PlayerCard]:
    return {p.id: p for p in board_data().players.players}


@cache
def spectator_cards() -> dict[str, SpectatorCard]:
    return {c.id: c for c in load_spectators().spectators}


@cache
def _basic_player(house: House, position: str) -> str:
    """The House's free card for a Position."""
    return next(p.id for p in board_data().players.lineup(house) if p.position == position)


@cache
def _basic_worths(house: House) -> tuple[float, ...]:
    """The worth of the House's free Tactical cards, weakest first (a bought card replaces the weakest left)."""
    return tuple(sorted(card_worth(c) for c in tactical_decks().library(house) if c.cost == 0))


def pick_cost(house: House, part: str, card: str) -> int:
    """What a pick costs, from the data."""
    if part == "player":
        return player_cards()[card].cost
    if part == "tactic":
        return tactical_decks().card(house, int(card)).cost
    if part == "spectator":
        return spectator_cards()[card].cost
    return 0


def pick_gain(house: House, part: str, card: str, bought_tactics: int) -> float:
    """What a pick adds over the free card it replaces (`bought_tactics` already replace the weakest free ones)."""
    if part == "player":
        player = player_cards()[card]
        return player_worth(card) - player_worth(_basic_player(house, player.position))
    if part == "tactic":
        basics = _basic_worths(house)
        replaced = basics[bought_tactics] if bought_tactics < len(basics) else 0.0
        return card_worth(tactical_decks().card(house, int(card))) - replaced
    if part == "spectator":
        return spectator_worth(spectator_cards()[card])
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
    candidates = [("player", p.id) for p in player_cards().values() if house in p.affiliation and p.cost > 0]
    candidates += [("tactic", str(c.id)) for c in tactical_decks().library(house) if c.cost > 0]
    if spectators:
        candidates += [("spectator", c.id) for c in spectator_cards().values() if house in c.affiliation and c.cost > 0]
    budget, worth, bought, names = funding, 0.0, 0, set()
    picks: list[tuple[str, str]] = []
    while True:
        options = []
        for part, card in candidates:
            if (part, card) in picks or pick_cost(house, part, card) > budget:
                continue
            if part == "player" and not slots[player_cards()[card].position]:
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
            slots[player_cards()[card].position] -= 1
        elif part == "tactic":
            bought += 1


def _card_name(part: str, card: str) -> str:
    """A Player's or Spectator's name (a ✷ name is one per Team, l.707); a Tactical card's part and id."""
    if part == "player":
        return player_cards()[card].name
    if part == "spectator":
        return spectator_cards()[card].name
    return f"{part}:{card}"


def house_worth(house: House) -> float:
    """The free Team of a House: its basic Players and basic deck."""
    return sum(player_worth(p.id) for p in board_data().players.lineup(house)) + sum(_basic_worths(house))
