"""Which parts of a set choice the player toggles: the dice of a re-roll (or of a Locked Trait's) and
the Dice tokens of a spend, when the legal actions offer several ways.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

from menagerie.cli.menu import Toggles
from menagerie.snitch.cli import words
from menagerie.snitch.cli.words import View
from menagerie.snitch.v1 import snitch_pb2

# Re-rolls of a set of dice: the action's kind and the toggles' title. A Reroll names its side; a
# Locked Trait re-rolls the side the view's decision names (roll_side).
DICE_CHOICES = (("reroll", "Re-roll dice"), ("use_trait", "Re-roll dice with the Locked Trait"))
SIDE_WORD: dict[int, str] = {snitch_pb2.ROLL_SIDE_ACTION: "Action", snitch_pb2.ROLL_SIDE_REACTION: "Reaction"}


def _roll_dice(view: View) -> list[tuple[int, int, snitch_pb2.RolledDie]]:
    """Every die of the roll under way: (side, index, die), the Action's first."""
    if not view.HasField("exchange"):
        return []
    ex = view.exchange
    sides: tuple[tuple[int, snitch_pb2.Roll], ...] = (
        (snitch_pb2.ROLL_SIDE_ACTION, ex.action_roll),
        (snitch_pb2.ROLL_SIDE_REACTION, ex.reaction_roll),
    )
    return [(side, i, die) for side, roll in sides for i, die in enumerate(roll.dice)]


def dice_toggles(view: View, legal: Any) -> list[Toggles]:
    """Each kind of re-roll with several ways as toggles over the roll's dice (Pursuit's keep-dice likewise).

    Only a set of marked dice that one listed action names (its side and dice) may be
    confirmed, and that action is the one submitted.
    """
    dice = _roll_dice(view)
    place = {(side, i): n for n, (side, i, _) in enumerate(dice)}
    items = tuple(f"{SIDE_WORD[side]} die {i + 1}: {words.roll_die(die).plain}" for side, i, die in dice)
    toggles = []
    for kind, title in DICE_CHOICES:
        combos: dict[frozenset[int], int] = {}
        for index, action in enumerate(legal.actions):
            member = getattr(action, kind) if action.WhichOneof("kind") == kind else None
            side = member.side if kind == "reroll" and member else view.decision.roll_side
            if member and member.dice and all((side, d) in place for d in member.dice):
                combos[frozenset(place[side, d] for d in member.dice)] = index
        if len(combos) >= 2:
            labels = {index: legal.labels[index].text for index in combos.values()}
            toggles.append(Toggles(f"{title} ({len(combos)} ways)", items, combos, labels))
    return toggles


# Dice tokens as toggles when the spends take at most this many (2 ** n marked sets are matched).
MOST_TOKEN_TOGGLES = 10


def _colour_word(colour: snitch_pb2.Colour.ValueType) -> str:
    """A Colour in a word ("orange")."""
    return snitch_pb2.Colour.Name(colour).removeprefix("COLOUR_").lower()


def _spent(spend: snitch_pb2.SpendTokens) -> Counter[str]:
    """The tokens a spend takes, by kind and colour ("Bonus orange" twice...)."""
    return Counter(
        [f"Bonus {_colour_word(c)}" for c in spend.bonus] + [f"Penalty {_colour_word(c)}" for c in spend.penalty]
    )


def token_toggles(legal: Any) -> list[Toggles]:
    """Dice tokens to spend with several ways as toggles over the tokens the spends take (the web's tray likewise).

    The items are the tokens the largest spends name (of each kind and colour, as many as
    any spend takes); tokens of one kind and colour are alike, so every set of marked items
    that counts the same as a listed spend confirms that spend, and marking none confirms
    spending none. Who holds which token is never worked out: only the list is read.
    """
    spends = {
        index: _spent(action.spend_tokens)
        for index, action in enumerate(legal.actions)
        if action.WhichOneof("kind") == "spend_tokens"
    }
    if len(spends) < 2:
        return []
    most: Counter[str] = Counter()
    for tokens in spends.values():
        most |= tokens  # the larger count of each
    items = tuple(token for token, count in sorted(most.items()) for _ in range(count))
    if len(items) > MOST_TOKEN_TOGGLES:
        return []
    by_tokens = {frozenset(tokens.items()): index for index, tokens in spends.items()}
    combos: dict[frozenset[int], int] = {}
    for size in range(len(items) + 1):
        for marked in itertools.combinations(range(len(items)), size):
            index = by_tokens.get(frozenset(Counter(items[m] for m in marked).items()))
            if index is not None:
                combos[frozenset(marked)] = index
    labels = {index: legal.labels[index].text for index in spends}
    named = tuple(f"{token} token" for token in items)
    return [Toggles(f"Spend Dice tokens ({len(spends)} ways)", named, combos, labels)]
