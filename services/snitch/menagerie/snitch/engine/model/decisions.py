"""What a Coach is asked: the decisions, tagged by `kind`, each with the actions it accepts."""

from __future__ import annotations

import msgspec

from menagerie.rules.decisions import Decision
from menagerie.snitch.data import Colour
from menagerie.snitch.data.cards import PitchAction
from menagerie.snitch.engine.model.actions import (
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
    SpendTokens,
    Steal,
    TakeSnitchCard,
    TakeTempo,
    TargetPlayer,
    UseTrait,
)

# --------------------------------------------------------------------------- decisions


class _Decision(Decision, tag_field="kind"):
    """Base of every decision: tagged by `kind` like the actions and events, the proto's `oneof kind` convention.

    A view carries the pending decisions (`Procedure`), and the generic codec carries a
    tagged union through a `oneof kind` only when its tag field is `kind` (the stored state
    tags them so too, not by the contract's default `decision`; flow steps likewise).
    """


class KickOffBludger(_Decision, tag="kick_off_bludger"):
    """Kick-Off step 1: the Coach places a Bludger in the rival's half."""

    accepts = (PlaceBludger,)


class Deployment(_Decision, tag="deployment"):
    """Kick-Off step 2: the Coach moves `left` more unmoved Players out of their Deployment Zone."""

    accepts = (DeployPlayer,)
    left: int = 1


class PitchCards(_Decision, tag="pitch_cards"):
    """Game Sequence step 2: both Coaches choose a Pitch Actions card in secret."""

    accepts = (ChoosePitchCard,)


class IntrepidOffer(_Decision, tag="intrepid_offer"):
    """Game Sequence step 3: the Coach plays an Intrepid Move or declines."""

    accepts = (PlayIntrepid, DeclineIntrepid)


class BlockAction(_Decision, tag="block_action"):
    """Game Sequence step 5: the Coach performs the next Action of their Action Block (or declines an optional one)."""

    accepts = (Move, PassQuaffle, Shoot, Steal, Beat, Recover, DeclineBlock, PlaySpectator)
    may_decline: bool = False


class FreeAction(_Decision, tag="free_action"):
    """The Coach performs a free Action (`action`, or any Action when None)."""

    accepts = (Move, PassQuaffle, Shoot, Steal, Beat, Recover, PlaySpectator)
    action: PitchAction | None = None
    # Why: "hand_swap", "intrepid" or "break_tempo" (a Break's free Pass earns no Tempo).
    reason: str = "intrepid"


class Reaction(_Decision, tag="reaction"):
    """The target's Coach answers the rival's roll with one Reaction, or none."""

    accepts = (React, NoReaction, PlaySpectator)


class AimAtHoop(_Decision, tag="aim_at_hoop"):
    """Both Coaches choose a Goal Hoop card in secret."""

    accepts = (Aim,)


class DiceTokens(_Decision, tag="dice_tokens"):
    """Before the roll, the Coach may spend Dice tokens on it."""

    accepts = (SpendTokens, PlaySpectator)


class RollWindow(_Decision, tag="roll_window"):
    """After the roll, the Coach may re-roll (Intrepid Move, Goal token) or play a Swift Intrepid Move."""

    accepts = (Reroll, GoalReroll, PlaySwift, KeepRoll, UseTrait, PlaySpectator)


class LooseQuaffle(_Decision, tag="loose_quaffle"):
    """The Coach puts the Loose Quaffle in one of `zones`."""

    accepts = (PlaceQuaffle,)
    zones: list[str] = msgspec.field(default_factory=list)
    # The Team that lost it; the other becomes the Attacking Team (l.476).
    lost_by: int = 0


class BeatenBludger(_Decision, tag="beaten_bludger"):
    """The target's Coach places the beaten Bludger in `zones` (the target's Zone or one adjacent)."""

    accepts = (PlaceBludger,)
    bludger: int = 0
    zones: list[str] = msgspec.field(default_factory=list)


class ShiftPlayers(_Decision, tag="shift_players"):
    """The Coach Shifts `left` more Players (of `team`, of `role` if set; not into a Scoring Area if `no_scoring`)."""

    accepts = (ShiftPlayer, SkipShift)
    team: int = 0
    left: int = 1
    role: str | None = None
    no_scoring: bool = False
    optional: bool = False
    # Only these Players (lineup indexes) may be Shifted, when set (a Chaser leaving a Scoring Area).
    only: list[int] = msgspec.field(default_factory=list)
    # Players already Shifted by this effect (each once).
    shifted: list[int] = msgspec.field(default_factory=list)
    reason: str = "intrepid"


class KickOffPass(_Decision, tag="kick_off_pass"):
    """Keeper's Kick-Off step 3: the Keeper may Pass, and the Pass succeeds."""

    accepts = (PassQuaffle, SkipPass)


class TempoChoice(_Decision, tag="tempo_choice"):
    """After a successful Pass, Beat or Steal: take the Tempo Point or Break the Tempo."""

    accepts = (TakeTempo, BreakTempo)
    action: PitchAction = "pass"


class BludgerMove(_Decision, tag="bludger_move"):
    """The Coach moves a Bludger (`bludgers` lists which may be picked) to an adjacent Zone with Players.

    `reach` is how far it may go (an Intrepid Move's "up to N Zones"); 0 means the Bludger
    Movement's rule (an adjacent Zone with Players, else it stays).
    """

    accepts = (MoveBludger, PlaySpectator)
    bludgers: list[int] = msgspec.field(default_factory=list)
    reach: int = 0
    attack: bool = True
    # Only the rival's Players may be hit (an Intrepid Move's attack), not any Player.
    rival_only: bool = False


class BludgerTarget(_Decision, tag="bludger_target"):
    """The Coach controlling the moved Bludger picks the Player it hits."""

    accepts = (TargetPlayer,)
    bludger: int = 0
    rival_only: bool = False


class DiceTokenPlacement(_Decision, tag="dice_token_placement"):
    """An Intrepid Move's Dice tokens: the Coach puts `left` more on Players."""

    accepts = (PlaceDiceToken,)
    token: str = "bonus"
    colour: Colour = "orange"
    left: int = 1


class HandSwapRecovery(_Decision, tag="hand_swap_recovery"):
    """The rival made a Hand Swap: the Coach may remove a Stunned token from one of their Players."""

    accepts = (RemoveStunned, SkipRemove)


class SnitchCardChoice(_Decision, tag="snitch_card_choice"):
    """The Coach takes a Snitch card from the face-up row."""

    accepts = (TakeSnitchCard,)


class RaceTokenPlacement(_Decision, tag="race_token_placement"):
    """The Coach places a Snitch Race token (an Upwind or a Dice token) on a free space."""

    accepts = (PlaceRaceToken,)
    token: str = "upwind"
    colour: Colour | None = None
    left: int = 1


class DodgeChoice(_Decision, tag="dodge_choice"):
    """The Coach's Dodging Seeker would end on a token: spend it or ignore it."""

    accepts = (DodgeToken,)
    successes: int = 0


class SwiftWindow(_Decision, tag="swift_window"):
    """The Quaffle went Loose: the Coach may play a Swift Intrepid Move that waits for this."""

    accepts = (PlaySwift, NoSwift)


class SpectatorWindow(_Decision, tag="spectator_window"):
    """The Coach not deciding may place a Spectator before the rival's next `moment` (l.719 "at any time").

    `moment`: "block" (an Action of the rival's Action Block), "free_action" or "bludger"
    (the rival's Bludger Movement).
    """

    accepts = (PlaySpectator, NoSpectator)
    moment: str = "block"


class TeamBuilding(_Decision, tag="team_building"):
    """Build Your Team (l.689–703): both Coaches form their Team in secret, each until they confirm it."""

    accepts = (PickForTeam, DropFromTeam, ConfirmTeam)


class FlagChoice(_Decision, tag="flag_choice"):
    """At the beginning of the game the Coach chooses the colour of their Flag (l.460)."""

    accepts = (ChooseFlag,)


SnitchDecision = (
    KickOffBludger
    | Deployment
    | PitchCards
    | IntrepidOffer
    | BlockAction
    | FreeAction
    | Reaction
    | AimAtHoop
    | DiceTokens
    | RollWindow
    | LooseQuaffle
    | BeatenBludger
    | ShiftPlayers
    | KickOffPass
    | TempoChoice
    | BludgerMove
    | BludgerTarget
    | DiceTokenPlacement
    | HandSwapRecovery
    | SnitchCardChoice
    | RaceTokenPlacement
    | DodgeChoice
    | SwiftWindow
    | TeamBuilding
    | FlagChoice
    | SpectatorWindow
)
