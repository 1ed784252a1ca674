"""Catch the Golden Snitch in words: action labels, event text, prompts and whom the match waits for.

The one home of the game's words: clients and bots print these, never their own. A
Player is named by Position and number within its Team ("Chaser 2"), with its Coach
("your Chaser 2", "Ann's Keeper"); Zones by the pitch data's names. Why an action is
refused is not here: the rule that refuses it says so, in the engine part beside it
(`Rule.problem`, rules.py).
"""

from __future__ import annotations

from typing import ClassVar

from menagerie.rules.decisions import Decision
from menagerie.rules.text import Narrator, listing, plural, seat_name
from menagerie.snitch.engine import race
from menagerie.snitch.engine.labels import ActionLabels
from menagerie.snitch.engine.model import (
    BlockAction,
    Deployment,
    DiceTokenPlacement,
    DodgeChoice,
    FreeAction,
    RaceTokenPlacement,
    ShiftPlayers,
    SnitchState,
    SnitchView,
    SpectatorWindow,
    TempoChoice,
)
from menagerie.snitch.engine.narration import EventNarration
from menagerie.snitch.engine.wording import SPECTATOR_MOMENTS, cap

# The short title of each decision (the prompt's `title`; menagerie.rules.engine.GameText).
TITLES = {
    "kick_off_bludger": "Kick-Off: Bludgers",
    "deployment": "Kick-Off: deployment",
    "pitch_cards": "Pitch Actions cards",
    "intrepid_offer": "Intrepid Moves",
    "block_action": "Action Block",
    "free_action": "Free Action",
    "reaction": "Reaction",
    "aim_at_hoop": "Aim at the Hoop",
    "dice_tokens": "Dice tokens",
    "roll_window": "Re-rolls",
    "loose_quaffle": "Loose Quaffle",
    "beaten_bludger": "Beaten Bludger",
    "shift_players": "Shift",
    "kick_off_pass": "Keeper's Kick-Off",
    "tempo_choice": "Tempo",
    "bludger_move": "Bludger Movement",
    "bludger_target": "Bludger Movement",
    "dice_token_placement": "Dice tokens",
    "hand_swap_recovery": "Hand Swap",
    "snitch_card_choice": "Snitch card",
    "race_token_placement": "Snitch Race token",
    "dodge_choice": "Dodge",
    "swift_window": "Swift Intrepid Move",
    "spectator_window": "Spectators",
    "team_building": "Build Your Team",
    "flag_choice": "Flag colour",
    "finished": "Finished",
}


class SnitchText(ActionLabels, EventNarration):
    """The game's words, for one engine: labels, event text and prompts."""

    PROMPTS: ClassVar[dict[str, str]] = {
        "kick_off_bludger": "place a Bludger in the rival half",
        "deployment": "deploy Players out of the Deployment Zone",
        "pitch_cards": "choose a Pitch Actions card in secret",
        "intrepid_offer": "decide on an Intrepid Move",
        "block_action": "perform the next Action of the Action Block",
        "free_action": "perform a free Action",
        "reaction": "decide on a Reaction",
        "aim_at_hoop": "choose a Goal Hoop card in secret",
        "dice_tokens": "decide whether to spend Dice tokens",
        "roll_window": "re-roll or let the dice stand",
        "loose_quaffle": "put the Loose Quaffle in a Zone",
        "beaten_bludger": "place the beaten Bludger",
        "shift_players": "Shift Players",
        "kick_off_pass": "make the Keeper's Kick-Off Pass",
        "tempo_choice": "take the Tempo Point or Break the Tempo",
        "bludger_move": "move a Bludger",
        "bludger_target": "choose whom the Bludger hits",
        "dice_token_placement": "place Dice tokens",
        "hand_swap_recovery": "remove a Stunned token (Hand Swap)",
        "snitch_card_choice": "take a Snitch card",
        "race_token_placement": "place a Snitch Race token",
        "dodge_choice": "spend or ignore the token",
        "swift_window": "decide on a Swift Intrepid Move",
        "team_building": "build a Team in secret",
        "flag_choice": "choose a Flag colour",
        "spectator_window": "decide whether to place a Spectator",
    }

    def prompt(self, view: SnitchView, n: Narrator) -> str:
        """What the match waits for, for the reader."""
        prompt = view.prompt
        if prompt.kind == "finished" and view.outcome is not None:
            return f"The match is over: {n.named(view.outcome.reason)}."
        what = self.PROMPTS.get(prompt.kind)
        if what is None:
            return ""
        seats = prompt.must or prompt.may
        verb = "must" if prompt.must else "may"
        detail = f" ({view.decision_detail})" if view.decision_detail else ""
        return f"{cap(n.seats(seats))} {verb} {what}{detail}."

    def detail(self, state: SnitchState, seat: int | None) -> str:
        """More words on the pending decision, the same for every viewer (public facts only)."""
        top = self.engine.top(state)
        match top:
            case Deployment(left=left):
                return plural(left, "Player") + " left to deploy"
            case ShiftPlayers(left=left, reason=reason):
                return f"{plural(left, 'Player')}, {reason.replace('_', ' ')}"
            case TempoChoice(action=action):
                return f"after a successful {action.capitalize()}"
            case FreeAction(action=action, reason=reason):
                return f"{(action or 'any Action').capitalize()}, {reason.replace('_', ' ')}"
            case DiceTokenPlacement(token=token, colour=colour, left=left):
                return f"{left} {colour} {token.capitalize()}"
            case RaceTokenPlacement(token=token, colour=colour, left=left):
                what = "Upwind flag" if token == "upwind" else f"{colour} {token.capitalize()} Dice token"
                return f"{plural(left, what)} to place"
            case DodgeChoice(successes=successes, must=must):
                current = self.engine.race_of(state)
                landing = race.landing(current, must[0], successes) if must else 0
                lying = race.token_at(current, landing)
                what = "a token"
                if lying is not None:
                    what = "an Upwind flag" if lying.kind == "upwind" else f"a {lying.kind} Dice token"
                return f"Dodge {successes}: the Seeker would end on space {landing}, on {what}"
            case BlockAction():
                return "remaining: " + ", ".join(a.capitalize() for a in state.block_remaining)
            case SpectatorWindow(moment=moment):
                return SPECTATOR_MOMENTS.get(moment, moment)
        return ""

    def waiting(self, state: SnitchState, seat: int, decision: Decision) -> str:
        """Why `seat` may not act: who the match waits for."""
        waiting = listing([seat_name(s) for s in decision.seats()])
        return f"{seat_name(seat)} has nothing to decide now; waiting for {waiting}"
