"""Catch the Golden Snitch in words: action labels, event text, prompts and refusals.

The one home of the game's words: clients and bots print these, never their own. A
Player is named by Position and number within its Team ("Chaser 2"), with its Coach
("your Chaser 2", "Ann's Keeper"); Zones by the pitch data's names.
"""

from __future__ import annotations

from typing import Any, ClassVar

from menagerie.rules.decisions import Decision
from menagerie.rules.text import Narrator, listing, plural
from menagerie.snitch.data import STAND_ZONES
from menagerie.snitch.engine import race
from menagerie.snitch.engine.labels import ActionLabels
from menagerie.snitch.engine.model import (
    FLAG_COLOURS,
    Aim,
    BlockAction,
    ChooseFlag,
    ChoosePitchCard,
    Deployment,
    DiceTokenPlacement,
    DodgeChoice,
    FreeAction,
    MoveBludger,
    PlaceBludger,
    PlaceQuaffle,
    PlaceRaceToken,
    PlayIntrepid,
    PlaySpectator,
    PlaySwift,
    RaceTokenPlacement,
    ShiftPlayers,
    SnitchState,
    SnitchView,
    SpectatorWindow,
    TempoChoice,
    UseTrait,
)
from menagerie.snitch.engine.narration import EventNarration
from menagerie.snitch.engine.wording import SPECTATOR_MOMENTS, cap, msgspec_repr


class SnitchText(ActionLabels, EventNarration):
    """The game's words, for one engine: labels, event text, prompts and refusals."""

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
        "team_building": "build their Team in secret",
        "flag_choice": "choose a Flag colour",
        "spectator_window": "decide whether to place a Spectator",
    }

    def prompt(self, view: SnitchView, n: Narrator) -> str:
        """What the match waits for, for the reader."""
        prompt = view.prompt
        if prompt.kind == "finished" and view.outcome is not None:
            return f"The match is over: {view.outcome.reason}."
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

    def refusal(self, state: SnitchState, seat: int, action: Any) -> str:
        """Why an action of a kind the pending decision accepts is refused (the rule's name comes from the engine)."""
        reason = self._other_refusal(state, seat, action)
        return reason or f"{type(action).__name__} {msgspec_repr(action)} is not one of the legal choices now"

    def _zone_known(self, zone: Any) -> str | None:
        if zone not in self.zone_names:
            return f"there is no Zone {zone!r}; Zones: {', '.join(self.zone_names)}"
        return None

    def _other_refusal(self, state: SnitchState, seat: int, action: Any) -> str | None:
        """Why a card, a Zone or a race choice is refused, where there is more to say than "not a choice"."""
        coach = state.players[seat]
        match action:
            case ChoosePitchCard(card=card) | PlayIntrepid(card=card) | PlaySwift(card=card):
                if coach.pitch_card is not None and isinstance(action, ChoosePitchCard):
                    return "your Pitch Actions card is chosen for this Game Sequence"
                if card not in coach.hand:
                    return f"card {card!r} is not in your hand"
                if isinstance(action, PlayIntrepid):
                    return f"card {card} has no Intrepid Move to play now (Swift ones wait for their moment, l.440)"
                return (
                    f"card {card} has no Swift Intrepid Move for this moment, or you may not play one now (l.442–446)"
                )
            case PlaceBludger(zone=zone) | PlaceQuaffle(zone=zone) | MoveBludger(zone=zone):
                if problem := self._zone_known(zone):
                    return problem
                return f"{self.zone(zone)} is not one of the Zones allowed now"
            case Aim(number=number):
                return f"Goal Hoop cards are numbered 1, 2 and 3, not {number!r}"
            case ChooseFlag(colour=colour):
                taken = state.players[1 - seat].flag
                if colour == taken:
                    return f"the {colour} Flag is the rival's; the two Coaches' colours differ"
                return f"there is no {colour!r} Flag; colours: {listing(list(FLAG_COLOURS.values()))}"
            case UseTrait():
                return (
                    "the Player whose roll this is has no Locked Trait to use on it (or its Locked token is on, l.229)"
                )
            case PlaySpectator(card=card, zone=zone):
                if card not in coach.spectators:
                    return f"{card!r} is not one of your Spectator cards"
                if coach.spectators_played.count(card) >= coach.spectators.count(card):
                    return "that Spectator has been played; it comes back after a Hand Swap clears the Stand (l.721)"
                if zone not in STAND_ZONES:
                    return f"the Stand's Zones are the Magic Zone and the Encouragement Zone, not {zone!r} (l.715)"
                return (
                    "a Spectator goes into a Zone its card allows, empty or held by a rival Spectator, never one "
                    "holding a friendly Spectator (l.719)"
                )
            case PlaceRaceToken(space=space):
                return f"space {space!r} is not a free space between the leading Seeker and the Snitch (l.616)"
        return None

    def waiting(self, state: SnitchState, seat: int, decision: Decision) -> str:
        """Why `seat` may not act: who the match waits for."""
        return f"seat {seat} has nothing to decide now; waiting for {listing([f'seat {s}' for s in decision.seats()])}"
