"""Finding things in a Snitch view: whether the Teams are being built, a Position's rank, a Coach's card
codes, a Player's Trait mark, and a Spectator card, a Player or a Tactical card by its seat and id.
"""

from __future__ import annotations

from menagerie.snitch.cli.words import View
from menagerie.snitch.v1 import snitch_pb2

BUILDING = ("team_building", "flag_choice")  # the decisions before the Teams are on the table
UNIQUE = "✷"  # a Player with a Trait (the unique Players' mark)
LOCKED = "⊘"  # its Locked token is on its card
SEEKER = 6  # the Seeker's card follows the six Pitch Players' in a Coach's `cards`
POSITION_ORDER = ("keeper", "beater", "chaser", "seeker")


def building(view: View) -> bool:
    """Whether the Teams are still being built (Build Your Team): the screen is the team-building one."""
    return view.HasField("draft") or view.prompt.kind in BUILDING


def position_rank(position: str) -> int:
    return POSITION_ORDER.index(position) if position in POSITION_ORDER else len(POSITION_ORDER)


def card_codes(coach: snitch_pb2.CoachView) -> list[str]:
    """The short code of each of a Coach's Player cards (lineup order): K, B1, B2, C1, C2, C3, S."""
    codes = []
    for index, card in enumerate(coach.cards):
        same = [i for i, c in enumerate(coach.cards) if c.position == card.position]
        letter = card.position[:1].upper()
        codes.append(letter if len(same) == 1 else f"{letter}{same.index(index) + 1}")
    return codes


def trait_mark(view: View, team: int, index: int) -> str:
    """ "✷" after a Player with a Trait, "✷⊘" once its Locked token is on ("" without a Trait)."""
    coach = next((c for c in view.coaches if c.seat == team), None)
    if coach is None or index >= len(coach.cards) or not coach.cards[index].trait:
        return ""
    return UNIQUE + (LOCKED if index in coach.locked else "")


def spectator(view: View, seat: int, card_id: str) -> snitch_pb2.SpectatorCardView | None:
    coach = next((c for c in view.coaches if c.seat == seat), None)
    return next((c for c in coach.spectators if c.id == card_id), None) if coach is not None else None


def player(view: View, team: int, index: int) -> snitch_pb2.PlayerView | None:
    return next((p for p in view.players if p.team == team and p.index == index), None)


def card(view: View, seat: int, card_id: int) -> snitch_pb2.TacticalCardView | None:
    """A Tactical card the viewer may see (in hand, or face up), in the engine's words."""
    for card in (*view.hand, *view.cards):
        if card.seat == seat and card.id == card_id:
            return card
    return None
