"""What a Coach may do: the actions, tagged by `kind`, and the Pitch Actions as action types."""

from __future__ import annotations

import msgspec

from menagerie.snitch.data import Colour
from menagerie.snitch.data.cards import PitchAction, RollName
from menagerie.snitch.engine.model.common import BreakOption, RollSide
from menagerie.snitch.engine.race import Option

# ----------------------------------------------------------------------------- actions


class _Action(msgspec.Struct, frozen=True, tag_field="kind"):
    """Base of every action (tagged by `kind`)."""


class PlaceBludger(_Action, frozen=True, tag="place_bludger"):
    """Put a Bludger in a Zone: at the Kick-Off (rival half), or a beaten Bludger near its target."""

    zone: str


class DeployPlayer(_Action, frozen=True, tag="deploy_player"):
    """Kick-Off deployment: move one of your unmoved Players out of your Deployment Zone."""

    player: int
    zone: str


class ChoosePitchCard(_Action, frozen=True, tag="choose_pitch_card"):
    """Choose, in secret, the Tactical card you play as this Game Sequence's Pitch Actions card."""

    card: int


class PlayIntrepid(_Action, frozen=True, tag="play_intrepid"):
    """Play a card from your hand face-up for its Intrepid Move."""

    card: int


class DeclineIntrepid(_Action, frozen=True, tag="decline_intrepid"):
    """Play no (more) Intrepid Moves this Game Sequence."""


class Move(_Action, frozen=True, tag="move"):
    """Move one of your Players to an adjacent Zone."""

    player: int
    zone: str


class PassQuaffle(_Action, frozen=True, tag="pass_quaffle"):
    """Pass the Quaffle from your Player to a friendly Player up to 2 Zones away."""

    player: int
    target: int


class Shoot(_Action, frozen=True, tag="shoot"):
    """Your Chaser with the Quaffle in the rival Scoring Area Shoots at the Hoops."""

    player: int


class Steal(_Action, frozen=True, tag="steal"):
    """Your Player in the Zone of the Quaffle's holder tries to Steal it."""

    player: int


class Beat(_Action, frozen=True, tag="beat"):
    """Your Beater beats a Bludger in its Zone at a rival Player up to 2 Zones away."""

    player: int
    bludger: int
    target: int


class Recover(_Action, frozen=True, tag="recover"):
    """Remove a Stunned token from one of your Players."""

    player: int


class DeclineBlock(_Action, frozen=True, tag="decline_block"):
    """Do not play this (optional) Action Block."""


class React(_Action, frozen=True, tag="react"):
    """Answer the rival's roll with a Reaction of one of your Players."""

    player: int
    reaction: RollName


class NoReaction(_Action, frozen=True, tag="no_reaction"):
    """Let the rival's roll stand unanswered."""


class Aim(_Action, frozen=True, tag="aim"):
    """Choose, in secret, a Goal Hoop card (Aim at the Hoop)."""

    number: int


class SpendTokens(_Action, frozen=True, tag="spend_tokens"):
    """Before the roll: spend Bonus Dice tokens of your roller, Penalty Dice tokens of the rival roller."""

    bonus: tuple[Colour, ...] = ()
    penalty: tuple[Colour, ...] = ()


class Reroll(_Action, frozen=True, tag="reroll"):
    """Use an Intrepid Move's re-roll on dice of one side of the roll."""

    side: RollSide
    dice: tuple[int, ...]


class GoalReroll(_Action, frozen=True, tag="goal_reroll"):
    """Flip an Uncelebrated Goal token to re-roll one die of your own Player's roll."""

    die: int


class PlaySwift(_Action, frozen=True, tag="play_swift"):
    """Play a Swift Intrepid Move from your hand now."""

    card: int


class KeepRoll(_Action, frozen=True, tag="keep_roll"):
    """Let the dice stand (no more re-rolls or Swift Intrepid Moves from you on this roll)."""


class PlaceQuaffle(_Action, frozen=True, tag="place_quaffle"):
    """Put the Loose Quaffle in a Zone."""

    zone: str


class ShiftPlayer(_Action, frozen=True, tag="shift_player"):
    """Shift a Player (yours, or the rival's when an effect says so) to an adjacent Zone."""

    team: int
    player: int
    zone: str


class SkipShift(_Action, frozen=True, tag="skip_shift"):
    """Do not Shift (where the Shift is optional)."""


class SkipPass(_Action, frozen=True, tag="skip_pass"):
    """Do not take the Keeper's Kick-Off Pass."""


class TakeTempo(_Action, frozen=True, tag="take_tempo"):
    """Take the Tempo Point your successful Action earned."""


class BreakTempo(_Action, frozen=True, tag="break_tempo"):
    """Break the Tempo: a free Pass or a Shift instead of the Tempo Point."""

    option: BreakOption


class MoveBludger(_Action, frozen=True, tag="move_bludger"):
    """Move a Bludger to a Zone (the Bludger Movement, or an Intrepid Move)."""

    bludger: int
    zone: str


class TargetPlayer(_Action, frozen=True, tag="target_player"):
    """Choose the Player a moved Bludger hits."""

    team: int
    player: int


class PlaceDiceToken(_Action, frozen=True, tag="place_dice_token"):
    """Put a Dice token an Intrepid Move gives on a Player (Bonus: yours; Penalty: the rival's)."""

    team: int
    player: int


class RemoveStunned(_Action, frozen=True, tag="remove_stunned"):
    """Remove a Stunned token from one of your Players (the rival made a Hand Swap)."""

    player: int


class SkipRemove(_Action, frozen=True, tag="skip_remove"):
    """Keep the Stunned tokens (the Hand Swap's removal is optional)."""


class TakeSnitchCard(_Action, frozen=True, tag="take_snitch_card"):
    """Take a Snitch card from the face-up row: Rushed Impulse, keep it in play, or combine."""

    card: int
    option: Option


class PlaceRaceToken(_Action, frozen=True, tag="place_race_token"):
    """Put a Snitch Race token (an Upwind flag or a Dice token) on a space of the race."""

    space: int


class DodgeToken(_Action, frozen=True, tag="dodge_token"):
    """A Dodge ends on a token: spend it, or ignore it."""

    ignore: bool


class NoSwift(_Action, frozen=True, tag="no_swift"):
    """Play no Swift Intrepid Move now."""


class PickForTeam(_Action, frozen=True, tag="pick_for_team"):
    """Build Your Team (l.695): add the House, a Player card, a Tactical card or a Spectator to the Team."""

    part: str  # "house", "player", "tactic" or "spectator"
    card: str  # the House, or the card's id


class DropFromTeam(_Action, frozen=True, tag="drop_from_team"):
    """Build Your Team: take a card back out of the Team (the House: start again)."""

    part: str
    card: str


class ConfirmTeam(_Action, frozen=True, tag="confirm_team"):
    """The Team is formed (l.703): nothing more changes in it."""


class ChooseFlag(_Action, frozen=True, tag="choose_flag"):
    """The colour of the Coach's Flag tokens for the whole match (l.460)."""

    colour: str


class UseTrait(_Action, frozen=True, tag="use_trait"):
    """Use the Locked Trait of the Player whose roll this is: add to the roll, or re-roll `dice` (l.229)."""

    dice: tuple[int, ...] = ()


class PlaySpectator(_Action, frozen=True, tag="play_spectator"):
    """Place a Spectator token on a Zone of the Stand (l.719)."""

    card: str
    zone: str


class NoSpectator(_Action, frozen=True, tag="no_spectator"):
    """Place no Spectator at this moment (a Spectator window)."""


Action = (
    PlaceBludger
    | DeployPlayer
    | ChoosePitchCard
    | PlayIntrepid
    | DeclineIntrepid
    | Move
    | PassQuaffle
    | Shoot
    | Steal
    | Beat
    | Recover
    | DeclineBlock
    | React
    | NoReaction
    | Aim
    | SpendTokens
    | Reroll
    | GoalReroll
    | PlaySwift
    | KeepRoll
    | PlaceQuaffle
    | ShiftPlayer
    | SkipShift
    | SkipPass
    | TakeTempo
    | BreakTempo
    | MoveBludger
    | TargetPlayer
    | PlaceDiceToken
    | RemoveStunned
    | SkipRemove
    | TakeSnitchCard
    | PlaceRaceToken
    | DodgeToken
    | NoSwift
    | PickForTeam
    | DropFromTeam
    | ConfirmTeam
    | ChooseFlag
    | UseTrait
    | PlaySpectator
    | NoSpectator
)
# The Pitch Actions of the Actions List, as action types (l.335–340).
PITCH_ACTION_TYPES: dict[PitchAction, type] = {
    "move": Move,
    "pass": PassQuaffle,
    "shoot": Shoot,
    "steal": Steal,
    "beat": Beat,
    "recover": Recover,
}
