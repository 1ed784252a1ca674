"""How the Snitch actions read: a sentence and a short code for each legal action, by concern."""

from __future__ import annotations

from typing import Any

from menagerie.rules.contract import Label
from menagerie.rules.text import Narrator, listing
from menagerie.snitch.engine import race
from menagerie.snitch.engine.model import (
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
    GoalReroll,
    KeepRoll,
    Move,
    MoveBludger,
    NoReaction,
    NoSpectator,
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
from menagerie.snitch.engine.wording import (
    OPTION_WORDS,
    REACTION_WORDS,
    Words,
    bludger_name,
    player_code,
    player_name,
    spectator_text,
)


class ActionLabels(Words):
    """Labels of the legal actions (a part of SnitchText)."""

    def action(self, view: SnitchView, action: Any, n: Narrator) -> Label:
        """How one of the reader's legal actions reads, and a short code to type."""
        me = view.viewer if view.viewer is not None else 0
        text, code = self._label(view, me, action, n)
        return Label(text=text, code=code)

    def _label(self, view: SnitchView, me: int, a: Any, n: Narrator) -> tuple[str, str]:
        for words in (self._setup_label, self._card_label, self._pitch_label, self._roll_label):
            label = words(view, me, a, n)
            if label is not None:
                return label
        return type(a).__name__, type(a).__name__.lower()

    def _setup_label(self, view: SnitchView, me: int, a: Any, n: Narrator) -> tuple[str, str] | None:
        """Set-up, Kick-Off and team building."""
        match a:
            case PlaceBludger(zone=zone):
                return f"Put the Bludger in {self.zone(zone)}", f"bludger {zone}"
            case DeployPlayer(player=p, zone=zone):
                return f"Deploy {player_name(p)} to {self.zone(zone)}", f"deploy {player_code(p)} {zone}"
            case PickForTeam(part=part, card=card):
                if part == "house":
                    return f"Coach {card.title()}", f"house {card}"
                return f"Add {self.team_card(view, part, card)}", f"{part} {card}"
            case DropFromTeam(part=part, card=card):
                if part == "house":
                    return f"Take back the {card.title()} House", "undo"
                return f"Take back {self.team_card(view, part, card)}", "undo"
            case ConfirmTeam():
                return "Confirm the Team: it is formed", "confirm"
            case ChooseFlag(colour=colour):
                return f"Fly the {colour} Flag", f"flag {colour}"
        return None

    def _card_label(self, view: SnitchView, me: int, a: Any, n: Narrator) -> tuple[str, str] | None:
        """Tactical cards, Spectators and the Hand Swap."""
        match a:
            case ChoosePitchCard(card=card):
                return f"Play {self._card_name(view, me, card)} as your Pitch Actions card", f"card {card}"
            case PlayIntrepid(card=card):
                text = next((c.intrepid for c in view.hand if c.id == card), "")
                return f"Play {self._card_name(view, me, card)} for its Intrepid Move: {text}", f"intrepid {card}"
            case DeclineIntrepid():
                return "Play no more Intrepid Moves this Game Sequence", "no-intrepid"
            case PlaySwift(card=card):
                text = next((c.intrepid for c in view.hand if c.id == card), "")
                return f"Play the Swift Intrepid Move of {self._card_name(view, me, card)}: {text}", f"swift {card}"
            case NoSwift():
                return "Play no Swift Intrepid Move", "no-swift"
            case PlaySpectator(card=card, zone=zone):
                spot = next((s for s in view.stand if s.zone == zone), None)
                rival = spot is not None and spot.seat is not None and spot.seat != me
                spectator = self.engine.spectator_cards[card]
                effect = spectator_text(spectator, second=rival)
                how = " (removing the rival's Spectator)" if rival else ""
                return f"Place {spectator.name} in the {zone.title()} Zone{how}: {effect}", f"spectator {card} {zone}"
            case NoSpectator():
                return "Place no Spectator now", "no-spectator"
            case RemoveStunned(player=p):
                return f"Remove a Stunned token from {player_name(p)}", f"unstun {player_code(p)}"
            case SkipRemove():
                return "Keep the Stunned tokens", "no-unstun"
            case PlaceDiceToken(team=team, player=p):
                return (
                    f"Put the Dice token on {self.who(team, p, n)}",
                    f"token {'' if team == me else 'r'}{player_code(p)}",
                )
        return None

    def _pitch_label(self, view: SnitchView, me: int, a: Any, n: Narrator) -> tuple[str, str] | None:
        """Actions on the Pitch."""
        match a:
            case Move(player=p, zone=zone):
                return f"Move {player_name(p)} to {self.zone(zone)}", f"move {player_code(p)} {zone}"
            case PassQuaffle(player=p, target=t):
                return (
                    f"{player_name(p)} passes the Quaffle to {player_name(t)}",
                    f"pass {player_code(p)} {player_code(t)}",
                )
            case Shoot(player=p):
                return f"{player_name(p)} shoots at the Hoops", f"shoot {player_code(p)}"
            case Steal(player=p):
                return f"{player_name(p)} tries to steal the Quaffle", f"steal {player_code(p)}"
            case Beat(player=p, bludger=b, target=t):
                return (
                    f"{player_name(p)} beats {bludger_name(b)} at {n.whose(1 - me)} {player_name(t)}",
                    f"beat {player_code(p)} {b + 1} {player_code(t)}",
                )
            case Recover(player=p):
                return f"{player_name(p)} recovers (removes a Stunned token)", f"recover {player_code(p)}"
            case DeclineBlock():
                return "Do not play this Action Block", "decline"
            case PlaceQuaffle(zone=zone):
                return f"Put the Loose Quaffle in {self.zone(zone)}", f"quaffle {zone}"
            case ShiftPlayer(team=team, player=p, zone=zone):
                return (
                    f"Shift {self.who(team, p, n)} to {self.zone(zone)}",
                    f"shift {'' if team == me else 'r'}{player_code(p)} {zone}",
                )
            case SkipShift():
                return "Do not Shift", "no-shift"
            case SkipPass():
                return "Do not pass", "no-pass"
            case TakeTempo():
                return "Take the Tempo Point", "tempo"
            case BreakTempo(option=option):
                what = "a free Pass" if option == "free_pass" else "Shift one of your Players"
                return f"Break the Tempo: {what} instead of the point", f"break {option}"
            case MoveBludger(bludger=b, zone=zone):
                return f"Move {bludger_name(b)} to {self.zone(zone)}", f"bludger{b + 1} {zone}"
            case TargetPlayer(team=team, player=p):
                return (
                    f"The Bludger flies at {self.who(team, p, n)}",
                    f"hit {'' if team == me else 'r'}{player_code(p)}",
                )
        return None

    def _roll_label(self, view: SnitchView, me: int, a: Any, n: Narrator) -> tuple[str, str] | None:
        """Reactions, rolls and the race."""
        match a:
            case React(player=p, reaction=r):
                return f"{player_name(p)} reacts: {REACTION_WORDS[r]}", f"react {player_code(p)} {r}"
            case NoReaction():
                return "No Reaction", "no-reaction"
            case Aim(number=number):
                return f"Goal Hoop card {number}", f"hoop {number}"
            case SpendTokens(bonus=bonus, penalty=penalty):
                if not bonus and not penalty:
                    return "Spend no Dice tokens", "tokens none"
                parts = [f"{c} Bonus" for c in bonus] + [f"{c} Penalty" for c in penalty]
                return f"Spend Dice tokens: {listing(parts)}", "tokens " + ",".join(
                    [*bonus, *(f"-{c}" for c in penalty)]
                )
            case Reroll(side=side, dice=dice):
                return (
                    f"Re-roll {side} dice {', '.join(str(d + 1) for d in dice)}",
                    f"reroll {side} {','.join(str(d + 1) for d in dice)}",
                )
            case GoalReroll(die=die):
                return f"Flip a Goal token to re-roll die {die + 1}", f"goal {die + 1}"
            case KeepRoll():
                return "Let the dice stand", "keep"
            case UseTrait(dice=dice):
                if not dice:
                    return "Use the roller's Locked Trait on this roll", "trait"
                return f"Use the roller's Locked Trait: re-roll dice {', '.join(str(d + 1) for d in dice)}", (
                    "trait " + ",".join(str(d + 1) for d in dice)
                )
            case TakeSnitchCard(card=card, option=option):
                name = race.card(card)
                title = getattr(name, "name", "Slipstreaming")
                return f"Take {title} and {OPTION_WORDS[option]}", f"snitch {card} {option}"
            case PlaceRaceToken(space=space):
                return f"Place the token on space {space}", f"space {space}"
            case DodgeToken(ignore=ignore):
                return ("Ignore the token where your Seeker ends", "ignore") if ignore else ("Spend the token", "spend")
        return None
