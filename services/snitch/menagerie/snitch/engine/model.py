"""Catch the Golden Snitch's data types: actions, decisions, flow steps, events, state and view.

msgspec structs throughout. Field names match the protobuf messages of
menagerie.snitch.v1, which is how the generic codec translates actions, events and views;
the state is stored as msgpack and may hold nested tuples (the pitch `Layout`).

A Pitch Player is named by its Team (seat 0 or 1) and its index in the lineup's Pitch
Players (0 Keeper, 1–2 Beaters, 3–5 Chasers; `pitch.PITCH_LINEUP`). An action names the
acting Coach's own Players by index (`player`) and others by `team` and index.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from menagerie.rules.contract import Outcome, Prompt
from menagerie.rules.decisions import Decision
from menagerie.rules.events import GameEvent, SeenBy
from menagerie.rules.hidden import BySeat, Hidden
from menagerie.rules.procedure import Step as FlowStepBase
from menagerie.rules.rng import Rng
from menagerie.snitch.data import Colour, House
from menagerie.snitch.data.cards import PitchAction, RacePitchAction, RollName, Step
from menagerie.snitch.engine.pitch import Layout
from menagerie.snitch.engine.race import HeldDice, Option, Token
from menagerie.snitch.engine.rolls import Roll
from menagerie.snitch.engine.roster import Draft
from menagerie.snitch.engine.tactics import BlockTurn

Mode = Literal["basic", "advanced"]
# Which roll of an exchange a reroll takes dice from.
RollSide = Literal["action", "reaction"]
# What an exchange resolves: a rolled Pitch Action, a Bludger's hit, a Seeker's race roll.
ExchangeKind = Literal["pass", "shoot", "steal", "beat", "bludger", "race"]
BreakOption = Literal["free_pass", "shift"]
# Flag colours (l.460 "usually their own House"): one per House; the two Coaches' must differ.
FLAG_COLOURS: dict[House, str] = {
    "gryffindor": "scarlet",
    "slytherin": "green",
    "ravenclaw": "blue",
    "hufflepuff": "yellow",
}

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

# ------------------------------------------------------------------------- flow steps
# What the match does next when no decision is pending, kept as a stack (top last): a
# step runs, may push decisions and further steps, and the match waits whenever a
# decision is on top. Interrupts (a Keeper's Kick-Off, a Tempo Snitch card) are steps
# pushed on top of the ones they interrupt.


class _Step(FlowStepBase, tag_field="kind"):
    """Base of every flow step (menagerie.rules.procedure), tagged by `kind` as the decisions are (for a view)."""


class SetupRow(_Step, tag="setup_row"):
    """Fill the Snitch row; a Golden Snitch card is resolved by `seat`'s Seeker (l.243, l.677)."""

    seat: int


class KickOffStep(_Step, tag="kick_off"):
    """The Kick-Off (l.255–273): `stage` 0–1 Bludgers, 2–5 deployment moves, 6 the first Game Sequence."""

    stage: int = 0


class SequenceStep(_Step, tag="sequence"):
    """A Game Sequence step (l.281–297, l.526–552).

    Stages in order: hand_swap, pitch_cards, reveal, intrepid, resolve, blocks, bludgers, snitch, end.
    """

    stage: str = "hand_swap"
    index: int = 0


class ContinueBlock(_Step, tag="continue_block"):
    """Offer the next Action of the Action Block under way, or end it.

    `offered`: the rival's Spectator window before this Action has been asked.
    """

    offered: bool = False


class ExchangeStep(_Step, tag="exchange"):
    """Carry the exchange (a rolled Action against its Reaction) on to its next stage."""


class AfterAction(_Step, tag="after_action"):
    """Checks after an Action: a Keeper holding the Quaffle in their Scoring Area starts a Kick-Off (l.512)."""

    holder_before: list[int] = msgspec.field(
        default_factory=list
    )  # [team, index] of the holder when the Action began; [] if Loose


class KeeperKickOff(_Step, tag="keeper_kick_off"):
    """The Keeper's Kick-Off of `team` (l.512–522): stage 0 shift-out, 1–2 Shifts, 3 the Pass."""

    team: int
    stage: int = 0


class GainTempo(_Step, tag="gain_tempo"):
    """`seat` gains `points` Tempo Points, one at a time (above 3: a Snitch card, l.565)."""

    seat: int
    points: int = 1


class TakeSnitch(_Step, tag="take_snitch"):
    """`seat` takes a Snitch card from the row (l.656)."""

    seat: int


class ImpulseStep(_Step, tag="impulse"):
    """Resolve step `index` of an Impulse for `seat`."""

    seat: int
    steps: list[Step]
    index: int = 0


class FreeActionStep(_Step, tag="free_action"):
    """`seat` performs `left` free Actions of kind `action` (None: any), if any can be performed."""

    seat: int
    action: PitchAction | None = None
    reason: str = "intrepid"
    left: int = 1
    # The rival's Spectator window before this free Action has been asked.
    offered: bool = False


class RefillRow(_Step, tag="refill_row"):
    """Draw into the Snitch row; a Golden Snitch card drawn is resolved by `seat`'s Seeker."""

    seat: int


class IntrepidEffect(_Step, tag="intrepid_effect"):
    """Resolve the Intrepid Move of `card` played by `seat`."""

    seat: int
    card: int


class HandSwapBonus(_Step, tag="hand_swap_bonus"):
    """The rival of a lone Hand Swap: stage 0 Stunned token, 1 free Action, 2 the Tempo Point (l.466–468)."""

    seat: int
    stage: int = 0


class LooseQuaffleStep(_Step, tag="loose_quaffle"):
    """The Quaffle goes Loose: `chooser` puts it in one of `zones` (l.476); Swift windows follow."""

    chooser: int
    zones: list[str]
    # The Team that lost it; the other becomes the Attacking Team (l.476).
    lost_by: int


class Ask(_Step, tag="ask"):
    """A decision that waits behind other steps (a beaten Bludger's Zone after the Loose Quaffle's)."""

    decision: SnitchDecision


class ShiftOut(_Step, tag="shift_out"):
    """Players no longer allowed in a Scoring Area Shift out of it (l.480, l.514)."""


class RollDice(_Step, tag="roll_dice"):
    """A chance node: the exchange's Action and Reaction dice are rolled, with the Dice tokens spent (l.167–169)."""


class SpectatorEffect(_Step, tag="spectator_effect"):
    """The effect of a Spectator placed while an Action was being resolved, once it is (see RULES.md)."""

    seat: int
    card: str
    second: bool = False


class StartMatch(_Step, tag="start_match"):
    """Both Teams are formed (l.703): Flags are chosen, the Teams are revealed, then the Setup steps begin."""

    stage: int = 0


class AdvantageRoll(_Step, tag="advantage_roll"):
    """A chance node: Setup step 4's die decides which Coach attacks first (l.241; a blank is rolled again)."""


class RerollDice(_Step, tag="reroll_dice"):
    """A chance node: Coach `seat` rolls again `dice` (indexes) of the `side` roll (l.173–175).

    With `goal_token`, the die of a Goal token flipped (l.504). The roll window it was chosen
    in is asked again once they have fallen.
    """

    seat: int
    side: RollSide
    dice: list[int]
    goal_token: bool = False


FlowStep = (
    SetupRow
    | KickOffStep
    | SequenceStep
    | ContinueBlock
    | ExchangeStep
    | AfterAction
    | KeeperKickOff
    | GainTempo
    | TakeSnitch
    | ImpulseStep
    | FreeActionStep
    | RefillRow
    | IntrepidEffect
    | HandSwapBonus
    | LooseQuaffleStep
    | Ask
    | ShiftOut
    | StartMatch
    | SpectatorEffect
    | RollDice
    | AdvantageRoll
    | RerollDice
)

# ------------------------------------------------------------------------------ events


class AdvantageRolled(GameEvent, frozen=True, tag="advantage_rolled"):
    """Setup step 4: the die decided who attacks first; the Quaffle went to one of their Chasers."""

    face: str
    attacking: int
    chaser: int


class CardsDrawn(GameEvent, frozen=True, tag="cards_drawn"):
    """A Coach drew Tactical cards; only that Coach sees which."""

    seat: int
    count: int
    cards: Annotated[list[int] | None, SeenBy("seat")] = None
    hand_swap: bool = False


class BludgerPlaced(GameEvent, frozen=True, tag="bludger_placed"):
    """A Bludger was put in a Zone (Kick-Off, or after a Beat)."""

    seat: int
    bludger: int
    zone: str


class PlayerMoved(GameEvent, frozen=True, tag="player_moved"):
    """A Player went to another Zone: a Move, a Shift or a deployment move (`how`)."""

    team: int
    player: int
    zone: str
    how: str
    picked_up: bool = False


class PitchCardChosen(GameEvent, frozen=True, tag="pitch_card_chosen"):
    """A Coach chose their Pitch Actions card, face down; only they see which."""

    concerns = "seat"
    seat: int
    card: Annotated[int | None, SeenBy("seat")] = None


class PitchCardsRevealed(GameEvent, frozen=True, tag="pitch_cards_revealed"):
    """Both Pitch Actions cards were revealed (l.283)."""

    reveals = True
    cards: list[int]
    sequence: int


class IntrepidPlayed(GameEvent, frozen=True, tag="intrepid_played"):
    """A Coach played a card face-up for its Intrepid Move (Swift: from the hand at its moment)."""

    reveals = True
    seat: int
    card: int
    swift: bool = False


class IntrepidDeclined(GameEvent, frozen=True, tag="intrepid_declined"):
    """A Coach plays no more Intrepid Moves this Game Sequence."""

    seat: int


class IntrepidResolved(GameEvent, frozen=True, tag="intrepid_resolved"):
    """An Intrepid Move's effect takes effect now."""

    seat: int
    card: int


class BlockStarted(GameEvent, frozen=True, tag="block_started"):
    """A Coach begins an Action Block of their Pitch Actions card."""

    seat: int
    index: int
    actions: list[str]


class BlockEnded(GameEvent, frozen=True, tag="block_ended"):
    """An Action Block ended; `skipped` lists Actions not performed (none possible, or a Loose Quaffle)."""

    seat: int
    index: int
    skipped: list[str] = msgspec.field(default_factory=list)
    declined: bool = False


class ActionDeclared(GameEvent, frozen=True, tag="action_declared"):
    """A Player performs an Action (`action`), at a target if it has one."""

    seat: int
    action: str
    player: int
    target_team: int | None = None
    target: int | None = None
    free: bool = False


class ReactionDeclared(GameEvent, frozen=True, tag="reaction_declared"):
    """A Player answers with a Reaction (or the Coach lets the roll stand: `reaction` empty)."""

    seat: int
    reaction: str = ""
    player: int | None = None


class HoopsAimed(GameEvent, frozen=True, tag="hoops_aimed"):
    """Aim at the Hoop: both Goal Hoop cards revealed (l.490–492)."""

    reveals = True
    shooter: int
    keeper: int
    bonus: int


class AimChosen(GameEvent, frozen=True, tag="aim_chosen"):
    """A Coach chose a Goal Hoop card face down; only they see which."""

    concerns = "seat"
    seat: int
    number: Annotated[int | None, SeenBy("seat")] = None


class TokensSpent(GameEvent, frozen=True, tag="tokens_spent"):
    """A Coach spent Dice tokens on a roll."""

    seat: int
    bonus: list[str] = msgspec.field(default_factory=list)
    penalty: list[str] = msgspec.field(default_factory=list)


class DiceRolled(GameEvent, frozen=True, tag="dice_rolled"):
    """A roll: the Action side (`action` faces) and the Reaction side, with what they count."""

    roll: str
    action: Roll | None = None
    reaction: Roll | None = None
    successes: int = 0
    opportunities: int = 0


class DiceRerolled(GameEvent, frozen=True, tag="dice_rerolled"):
    """A Coach re-rolled dice of one side (`goal_token`: by flipping a Goal token)."""

    seat: int
    side: str
    dice: list[int]
    roll: Roll
    goal_token: bool = False


class ExchangeResolved(GameEvent, frozen=True, tag="exchange_resolved"):
    """The Action's outcome: Successes, modifiers, Opportunities, net, and whether it succeeded."""

    roll: str
    seat: int
    successes: int
    action_modifier: int
    opportunities: int
    reaction_modifier: int
    net: int
    success: bool


class QuaffleCaught(GameEvent, frozen=True, tag="quaffle_caught"):
    """A Player takes Possession of the Quaffle (a Pass, a Steal, a pick-up, a save)."""

    team: int
    player: int
    how: str


class QuaffleLoose(GameEvent, frozen=True, tag="quaffle_loose"):
    """The Quaffle is Loose in a Zone; `attacking` is now the Attacking Team."""

    zone: str
    attacking: int


class Stunned(GameEvent, frozen=True, tag="stunned"):
    """A Player got a Stunned token (`delta` 1) or had one removed (`delta` −1)."""

    team: int
    player: int
    tokens: int
    # No default: GameEvent omits defaults, and protobuf would read a missing 1 as 0.
    delta: int


class GoalScored(GameEvent, frozen=True, tag="goal_scored"):
    """A Goal: the Coach takes an Uncelebrated Goal token (l.494)."""

    seat: int
    player: int
    goals: int


class GoalTokenFlipped(GameEvent, frozen=True, tag="goal_token_flipped"):
    """A Coach flipped an Uncelebrated Goal token to its Celebrated side for a re-roll (l.504)."""

    seat: int
    left: int


class KickOffStarted(GameEvent, frozen=True, tag="keeper_kick_off"):
    """A Keeper's Kick-Off interrupts the Game Sequence (l.512)."""

    team: int


class TempoGained(GameEvent, frozen=True, tag="tempo_gained"):
    """A Coach's Tempo Points changed (`points` now; `spent` when above 3 took a Snitch card)."""

    seat: int
    points: int
    spent: bool = False


class TempoBroken(GameEvent, frozen=True, tag="tempo_broken"):
    """A Coach Broke the Tempo for a free Pass or a Shift (l.571)."""

    seat: int
    option: str


class AttackChanged(GameEvent, frozen=True, tag="attack_changed"):
    """The Attacking Team token changed hands."""

    attacking: int


class HandSwapped(GameEvent, frozen=True, tag="hand_swapped"):
    """Game Sequence step 1: these Coaches had no cards and drew 5 (l.464)."""

    seats: list[int]


class DiceTokenPlaced(GameEvent, frozen=True, tag="dice_token_placed"):
    """A Bonus or Penalty Dice token was put on a Player card."""

    team: int
    player: int
    token: str
    colour: str


class BludgerMoved(GameEvent, frozen=True, tag="bludger_moved"):
    """A Bludger moved (Bludger Movement or an Intrepid Move)."""

    seat: int
    bludger: int
    zone: str


class BludgerAimed(GameEvent, frozen=True, tag="bludger_aimed"):
    """A moved Bludger flies at a Player."""

    seat: int
    bludger: int
    team: int
    player: int


class SnitchCardDrawn(GameEvent, frozen=True, tag="snitch_card_drawn"):
    """A card was turned face up from the Snitch deck (`reshuffled`: the discard pile became the deck first)."""

    reveals = True  # it was face down in the deck
    card: int
    reshuffled: bool = False


class SnitchRowRefilled(GameEvent, frozen=True, tag="snitch_row_refilled"):
    """The face-up Snitch row after drawing."""

    row: list[int]
    reshuffled: bool = False


class GoldenSnitchRevealed(GameEvent, frozen=True, tag="golden_snitch_revealed"):
    """A Golden Snitch card was revealed: `seat`'s Seeker performs a Glimpse (l.648)."""

    seat: int
    card: int


class SnitchCardKept(GameEvent, frozen=True, tag="snitch_card_kept"):
    """A Coach took a Snitch card from the row to keep in play, a secret from the rival (l.664)."""

    seat: int
    card: Annotated[int | None, SeenBy("seat")] = None


class SnitchCardTaken(GameEvent, frozen=True, tag="snitch_card_taken"):
    """A Coach took a Snitch card from the row for its Rushed Impulse, or combined it with the card in play."""

    reveals = True  # a combined card in play was secret until now

    seat: int
    card: int
    option: str
    # The card in play combined with (revealed then), and the Impulse it gave.
    in_play: int | None = None
    level: str | None = None


class RaceMoved(GameEvent, frozen=True, tag="race_moved"):
    """A race step resolved: what it was, its Successes, and where the Seekers and the Snitch are now."""

    seat: int
    step: str
    successes: int
    seekers: list[int]
    snitch: int
    skipped: bool = False


class RaceTokenPlaced(GameEvent, frozen=True, tag="race_token_placed"):
    """A Snitch Race token went on a space (or was discarded: `space` 0, no free space)."""

    seat: int
    token: str
    space: int
    colour: str | None = None


class SnitchCaught(GameEvent, frozen=True, tag="snitch_caught"):
    """A Seeker caught the Golden Snitch: their Team wins (l.685)."""

    seat: int


class SequenceStarted(GameEvent, frozen=True, tag="sequence_started"):
    """A new Game Sequence begins."""

    sequence: int
    attacking: int


class SequenceEnded(GameEvent, frozen=True, tag="sequence_ended"):
    """The Game Sequence is over: used Tactical cards go to the discard piles (l.552)."""

    sequence: int


class MatchFinished(GameEvent, frozen=True, tag="match_finished"):
    """The match is over."""

    outcome: Outcome


class TeamChanged(GameEvent, frozen=True, tag="team_changed"):
    """A Coach changed their Team under construction; only they see how (l.703: formed in secret)."""

    concerns = "seat"
    seat: int
    part: Annotated[str | None, SeenBy("seat")] = None
    card: Annotated[str | None, SeenBy("seat")] = None
    dropped: Annotated[bool, SeenBy("seat")] = False


class TeamConfirmed(GameEvent, frozen=True, tag="team_confirmed"):
    """A Coach has formed their Team."""

    seat: int


class TeamRevealed(GameEvent, frozen=True, tag="team_revealed"):
    """Both Teams are formed: a Coach's House, Players and Spectators go on the table (the deck stays secret)."""

    reveals = True
    seat: int
    house: str
    players: list[str]
    spectators: list[str]


class FlagChosen(GameEvent, frozen=True, tag="flag_chosen"):
    """A Coach chose the colour of their Flag tokens (l.460)."""

    seat: int
    colour: str


class TraitUsed(GameEvent, frozen=True, tag="trait_used"):
    """A Player used its Locked Trait; the Locked token goes on its card (l.229)."""

    seat: int
    player: int  # the lineup index (6: the Seeker)
    dice: list[int]


class LockedRemoved(GameEvent, frozen=True, tag="locked_removed"):
    """The rival made a Hand Swap: the Coach removed all Locked tokens from their cards (l.468)."""

    seat: int
    players: list[int]


class SpectatorPlayed(GameEvent, frozen=True, tag="spectator_played"):
    """A Spectator token went onto a Zone of the Stand, displacing a rival one or not (l.719)."""

    seat: int
    card: str
    zone: str
    displaced: str  # the rival Spectator removed ("" when the Zone was empty)
    # Placed while an Action was being resolved: its effect follows once that Action is.
    later: bool = False


class StandCleared(GameEvent, frozen=True, tag="stand_cleared"):
    """A Hand Swap removed every Spectator token from the Stand (l.721)."""

    removed: int


Event = (
    AdvantageRolled
    | CardsDrawn
    | BludgerPlaced
    | PlayerMoved
    | PitchCardChosen
    | PitchCardsRevealed
    | IntrepidPlayed
    | IntrepidDeclined
    | IntrepidResolved
    | BlockStarted
    | BlockEnded
    | ActionDeclared
    | ReactionDeclared
    | HoopsAimed
    | AimChosen
    | TokensSpent
    | DiceRolled
    | DiceRerolled
    | ExchangeResolved
    | QuaffleCaught
    | QuaffleLoose
    | Stunned
    | GoalScored
    | GoalTokenFlipped
    | KickOffStarted
    | TempoGained
    | TempoBroken
    | AttackChanged
    | HandSwapped
    | DiceTokenPlaced
    | BludgerMoved
    | BludgerAimed
    | SnitchCardDrawn
    | SnitchRowRefilled
    | GoldenSnitchRevealed
    | SnitchCardKept
    | SnitchCardTaken
    | RaceMoved
    | RaceTokenPlaced
    | SnitchCaught
    | SequenceStarted
    | SequenceEnded
    | MatchFinished
    | TeamChanged
    | TeamConfirmed
    | TeamRevealed
    | FlagChosen
    | TraitUsed
    | LockedRemoved
    | SpectatorPlayed
    | StandCleared
)

# ------------------------------------------------------------------------------- state


class PitchPlayer(msgspec.Struct):
    """A Pitch Player's tokens: Stunned tokens and the Dice tokens on its card."""

    stunned: int = 0
    bonus: list[Colour] = msgspec.field(default_factory=list)
    penalty: list[Colour] = msgspec.field(default_factory=list)


class LastingEffect(msgspec.Struct):
    """An Intrepid Move working until the end of the Game Sequence (a roll modifier, a re-roll, extra Tempo)."""

    card: int
    used: bool = False


class Coach(msgspec.Struct):
    """One seat: their Team, Tactical cards, tokens and choices (hidden parts declared with Hidden)."""

    house: House
    team: list[PitchPlayer]
    hand: Annotated[list[int], Hidden("tactics", owner_sees=True, per_seat=True)] = msgspec.field(default_factory=list)
    deck: Annotated[list[int], Hidden("tactics", per_seat=True)] = msgspec.field(default_factory=list)
    discard: list[int] = msgspec.field(default_factory=list)
    # This Game Sequence's Pitch Actions card: secret until both have chosen (l.283).
    pitch_card: Annotated[int | None, Hidden("tactics", owner_sees=True, per_seat=True, revealed="pitch_revealed")] = (
        None
    )
    pitch_revealed: bool = False
    # Face-up Intrepid Moves played this Game Sequence, in order (Swift ones too).
    intrepids: list[int] = msgspec.field(default_factory=list)
    declined_intrepid: bool = False
    effects: list[LastingEffect] = msgspec.field(default_factory=list)
    next_block: int = 0
    tempo: int = 0
    goals: int = 0  # Uncelebrated Goal tokens
    celebrated: int = 0
    # Aim at the Hoop: the Goal Hoop card chosen face down.
    aim: Annotated[int | None, Hidden("aim", owner_sees=True)] = None
    # The Snitch card in play, secret from the rival (l.664). A pool of its own: it is never a
    # Golden Snitch card (those are resolved on reveal), so it is not interchangeable with the deck's.
    snitch_in_play: Annotated[int | None, Hidden("snitch_in_play", owner_sees=True)] = None
    # Build Your Team: the Team under construction, secret from the rival until both are formed (l.703).
    draft: Annotated[Draft | None, Hidden("draft", owner_sees=True, per_seat=True)] = None
    # The Player cards in lineup order (Keeper, Beaters, Chasers, Seeker; empty until the Teams are formed).
    lineup: list[str] = msgspec.field(default_factory=list)
    # Lineup indexes (6: the Seeker) whose card holds a Locked token (l.229).
    locked: list[int] = msgspec.field(default_factory=list)
    # The Spectator cards (the Fervent Fan first) and those played since the last Hand Swap.
    spectators: list[str] = msgspec.field(default_factory=list)
    spectators_played: list[str] = msgspec.field(default_factory=list)
    flag: str = ""


class StandSpot(msgspec.Struct):
    """A Zone of the Spectator Stand and the Spectator token on it, if any (l.715)."""

    zone: str
    seat: int | None = None
    card: str | None = None


class RerollGrant(msgspec.Struct):
    """A Swift Intrepid Move's re-roll of up to `dice` dice of one side, for `seat`, on this roll."""

    seat: int
    side: RollSide
    dice: int


class Exchange(msgspec.Struct):
    """A rolled Action (or a Bludger's hit, or a race roll) under way, and its Reaction."""

    kind: ExchangeKind
    seat: int  # the active Coach: the actor's (the Bludger's controller's)
    stage: str = "reaction"
    actor: int | None = None  # the acting Player's index (the Seeker: None, kind "race")
    target_team: int | None = None
    target: int | None = None
    bludger: int | None = None
    free: bool = False
    no_tempo: bool = False
    reactor: int | None = None  # the reacting Player (of the rival Team)
    reaction: RollName | None = None
    aim_bonus: int = 0
    action_roll: Roll | None = None
    reaction_roll: Roll | None = None
    fixed: int | None = None  # fixed Successes (a Bludger's hit, a fixed race step)
    modifier: int = 0  # a race step's printed modifier
    bonus: list[Colour] = msgspec.field(default_factory=list)
    penalty: list[Colour] = msgspec.field(default_factory=list)
    reaction_bonus: list[Colour] = msgspec.field(default_factory=list)
    reaction_penalty: list[Colour] = msgspec.field(default_factory=list)
    # Coaches still to be offered the pre-roll tokens and the post-roll window, in order.
    windows: list[int] = msgspec.field(default_factory=list)
    # Added once the dice are seen (a Swift Intrepid Move, a Locked Trait), to the Action and to the Reaction.
    late_modifier: int = 0
    late_reaction_modifier: int = 0
    swift_rerolls: list[RerollGrant] = msgspec.field(default_factory=list)
    race_step: RacePitchAction | None = None
    # Effects of Spectators placed while the exchange was being resolved: they follow it.
    after: list[SpectatorEffect] = msgspec.field(default_factory=list)


class SnitchState(msgspec.Struct):
    """The whole truth of a match, hidden parts included (declared with Hidden)."""

    mode: Mode
    rng: Rng
    players: Annotated[list[Coach], BySeat()]
    layout: Layout
    attacking: int
    seekers: list[int]
    snitch: int
    snitch_deck: Annotated[list[int], Hidden("snitch")] = msgspec.field(default_factory=list)
    snitch_row: list[int] = msgspec.field(default_factory=list)
    snitch_discard: list[int] = msgspec.field(default_factory=list)
    race_tokens: list[Token] = msgspec.field(default_factory=list)
    held: list[list[HeldDice]] = msgspec.field(default_factory=lambda: [[], []])
    race_turn: int = 0
    decisions: list[SnitchDecision] = msgspec.field(default_factory=list)
    flow: list[FlowStep] = msgspec.field(default_factory=list)
    exchange: Exchange | None = None
    # The Action Block under way: its Coach, index, remaining and skipped Actions.
    block_seat: int | None = None
    block_index: int = 0
    block_remaining: list[PitchAction] = msgspec.field(default_factory=list)
    block_performed: int = 0
    sequence: int = 0
    # Step 5's turns (seat, block index, optional), from the Attacking Coach at its start.
    block_turns: list[list[int]] = []
    last_block_seat: int | None = None
    # Intrepid Moves to resolve this Game Sequence, [seat, card] in play order.
    intrepid_plays: list[list[int]] = []
    deployed: list[list[int]] = []  # [team, index] moved during the Kick-Off deployment
    # The Coach who played an Action last (who resolves first when no Coach is active, l.179).
    last_actor: int = 0
    # Intrepid offers (step 3): the Coach who decided last (None before the first decision).
    offer_last: int | None = None
    # The Bludger the Defending Coach moved in this Bludger Movement (the other is the Attacking Coach's).
    moved_bludger: int | None = None
    block_optional: bool = False
    # Build Your Team (mode "advanced"): the Funding (l.691) and the Spectators optional rule (l.711).
    funding: int = 0
    spectators_on: bool = False
    stand: list[StandSpot] = msgspec.field(default_factory=list)
    outcome: Outcome | None = None


# -------------------------------------------------------------------------------- view


class PlayerView(msgspec.Struct, frozen=True):
    """A Pitch Player as anyone sees it."""

    team: int
    index: int
    position: str
    name: str
    zone: str
    stunned: int
    bonus: list[str]
    penalty: list[str]
    has_quaffle: bool
    disadvantage: int
    # Its name and short code on the Pitch, as every text says them ("Chaser 1", "C1"): boards draw these.
    label: str = ""
    code: str = ""


class DicePoolView(msgspec.Struct, frozen=True):
    """A dice pool of a Player card, by colour."""

    name: str
    orange: int
    purple: int
    black: int


class PlayerCardView(msgspec.Struct, frozen=True):
    """A Player card: name, Position, the dice of each Action and Reaction, its Trait and cost."""

    position: str
    name: str
    actions: list[DicePoolView]
    reactions: list[DicePoolView]
    id: str = ""
    cost: int = 0
    trait: str = ""  # the Trait's text ("" for a basic Player)
    locked_trait: bool = False  # the Trait shows the Locked icon (l.229)


class SpectatorCardView(msgspec.Struct, frozen=True):
    """A Spectator card in the engine's words: where it may go and its two effects (l.719)."""

    id: str
    name: str
    cost: int
    zones: list[str]
    first: str
    second: str


class StandSpotView(msgspec.Struct, frozen=True):
    """A Zone of the Spectator Stand and whose Spectator is on it."""

    zone: str
    seat: int | None = None
    card: str | None = None


class RequirementView(msgspec.Struct, frozen=True):
    """One thing the rules ask of a Team (roster.requirements): its words, how far the draft meets it."""

    text: str
    have: int
    need: int
    met: bool


class TeamOfferView(msgspec.Struct, frozen=True):
    """A card the viewer may add to their Team now (a legal PickForTeam), in the engine's words."""

    part: str  # PickForTeam.part: "house", "player", "tactic" or "spectator"
    card: str  # PickForTeam.card
    name: str
    cost: int
    kind: str  # what it is: "House", the Player's Position, "Tactical card 7", "Spectator"
    details: list[str] = msgspec.field(default_factory=list)  # its Trait, blocks, Intrepid Move or effects


class DraftView(msgspec.Struct, frozen=True):
    """The viewer's own Team under construction (Build Your Team), with its cost and what it still lacks."""

    house: str | None
    players: list[PlayerCardView]
    tactics: list[TacticalCardView]
    spectators: list[SpectatorCardView]
    cost: int
    funding: int
    ready: bool
    missing: str  # why it cannot be confirmed yet ("" once it can)
    # The picks in order, "part:card" (only the last may be taken back: DropFromTeam).
    picks: list[str] = msgspec.field(default_factory=list)
    galleons_left: int = 0  # the Funding not spent (l.693)
    # What the rules ask of a Team, each with how far this draft meets it.
    requirements: list[RequirementView] = msgspec.field(default_factory=list)
    # The cards that may be added now: exactly the legal PickForTeam actions.
    offers: list[TeamOfferView] = msgspec.field(default_factory=list)


class CoachView(msgspec.Struct, frozen=True):
    """One Coach's public side: House, tokens, card counts, face-up cards."""

    seat: int
    house: str
    cards: list[PlayerCardView]
    hand_size: int
    deck_size: int
    discard: list[int]
    pitch_card: int | None
    pitch_card_chosen: bool
    intrepids: list[int]
    declined_intrepid: bool
    tempo: int
    goals: int
    celebrated: int
    has_snitch_card: bool
    aim_chosen: bool
    next_block: int
    # Build Your Team: the Team is formed; Locked tokens (lineup indexes, 6 the Seeker); Flag colour; Spectators.
    team_confirmed: bool = False
    locked: list[int] = msgspec.field(default_factory=list)
    flag: str = ""
    spectators: list[SpectatorCardView] = msgspec.field(default_factory=list)
    spectators_played: list[str] = msgspec.field(default_factory=list)


class ZoneView(msgspec.Struct, frozen=True):
    """A Zone of the pitch with what is in it."""

    id: str
    name: str
    row: int
    column: int
    adjacent: list[str]
    bludgers: list[int]
    quaffle: bool
    scoring_area_of: int | None = None
    deployment_zone_of: int | None = None
    orange: bool = False
    # The Bludgers' names, as every text says them ("Bludger 1"), beside `bludgers`.
    bludger_names: list[str] = msgspec.field(default_factory=list)


class TacticalCardView(msgspec.Struct, frozen=True):
    """A Tactical card of `seat`'s deck: name, Action Blocks, its Intrepid Move in the engine's words."""

    seat: int
    id: int
    name: str
    blocks: list[str]
    intrepid: str = ""
    swift: bool = False
    cost: int = 0  # Galleons (l.307)


class SnitchCardView(msgspec.Struct, frozen=True):
    """A Snitch race card in the engine's words."""

    id: int
    kind: str
    name: str
    type: str = ""
    fast_types: list[str] = msgspec.field(default_factory=list)
    rushed: str = ""
    fast: str = ""
    perfect: str = ""
    text: str = ""


class RaceTokenView(msgspec.Struct, frozen=True):
    """A Snitch Race token on a space."""

    space: int
    kind: str
    owner: int | None = None
    colour: str | None = None


class RaceView(msgspec.Struct, frozen=True):
    """The Snitch Race: spaces, the Seekers, the Snitch, tokens, the row and the deck's size."""

    spaces: int
    seekers: list[int]
    snitch: int
    tokens: list[RaceTokenView]
    held_bonus: list[str]  # "seat:colour" of each Dice token a Seeker holds
    held_penalty: list[str]
    row: list[SnitchCardView]
    deck_size: int
    discard: list[int]
    ahead: int | None
    lagged: int | None


class ExchangeView(msgspec.Struct, frozen=True):
    """The roll under way, as anyone sees it."""

    kind: str
    seat: int
    stage: str
    actor: int | None
    target_team: int | None
    target: int | None
    reactor: int | None
    reaction: str | None
    action_roll: Roll | None
    reaction_roll: Roll | None
    fixed: int | None
    aim_bonus: int
    action_modifier: int
    reaction_modifier: int


class DecisionView(msgspec.Struct, frozen=True):
    """The pending decision's public particulars (what `prompt.kind` alone does not say)."""

    # How many more of the same are asked (Players to deploy or Shift, tokens to place).
    left: int = 0
    # Zones on offer (a Loose Quaffle, a beaten Bludger).
    zones: list[str] = msgspec.field(default_factory=list)
    # Why it is asked: "hand_swap", "intrepid", "break_tempo", "kick_off", "shift_out".
    reason: str = ""
    # The Team whose Players are Shifted, or who get the Dice tokens.
    team: int | None = None
    # The Action a free Action or a Tempo choice is about ("" for any).
    action: str = ""
    # A token to place: "upwind", "bonus" or "penalty", and a Dice token's colour.
    token: str = ""
    colour: str | None = None
    # A Dodge: its Successes and the space the Seeker would end on (where the token lies).
    successes: int = 0
    landing: int | None = None
    # A Bludger to move or to aim (the ones that may be picked).
    bludgers: list[int] = msgspec.field(default_factory=list)
    # A roll window: the side of the roll whose Player is the deciding Coach's (the dice its Locked
    # Trait or a Goal token re-rolls: UseTrait and GoalReroll name dice of this side).
    roll_side: RollSide | None = None


class IntrepidPlay(msgspec.Struct, frozen=True):
    """An Intrepid Move to resolve this Game Sequence: the Coach (seat) who played it and its card."""

    seat: int
    card: int


class TeamPlayer(msgspec.Struct, frozen=True):
    """A Pitch Player by its Team (seat) and its index in the lineup (`pitch.PlayerRef` as a view carries it)."""

    team: int
    index: int


class CoachEffects(msgspec.Struct, omit_defaults=True):
    """One Coach's lasting Intrepid Moves this Game Sequence (face-up cards), and whether each is used."""

    effects: list[LastingEffect] = []


class Procedure(msgspec.Struct, omit_defaults=True):
    """Where the procedure stands, beyond what the rest of a view shows.

    The pending decisions and flow steps, the roll under way, the Game Sequence's
    bookkeeping, the race turn. All of it is public: a decision names who decides, never
    a secret card (who has chosen one is already public, which card is not in here). A
    view carries it (`SnitchView.procedure`) so that a search can rebuild a state from
    the view alone (`SnitchEngine.state_from_view`); a client need not read it.
    """

    decisions: list[SnitchDecision] = []
    flow: list[FlowStep] = []
    exchange: Exchange | None = None
    block_performed: int = 0
    block_optional: bool = False
    # Step 5's turns, from the Attacking Coach at its start.
    block_turns: list[BlockTurn] = []
    last_block_seat: int | None = None
    intrepid_plays: list[IntrepidPlay] = []
    # The Players moved during the Kick-Off deployment.
    deployed: list[TeamPlayer] = []
    last_actor: int = 0
    offer_last: int | None = None
    moved_bludger: int | None = None
    race_turn: int = 0
    # The race turn each race token (in the view's order) was placed in (l.594).
    token_turns: list[int] = []
    # Each Coach's, by seat.
    effects: list[CoachEffects] = []


class SnitchView(msgspec.Struct, frozen=True):
    """Exactly what one seat (or a spectator) may know."""

    mode: Mode
    viewer: int | None
    sequence: int
    attacking: int
    coaches: list[CoachView]
    players: list[PlayerView]
    zones: list[ZoneView]
    quaffle_zone: str
    quaffle_loose: bool
    race: RaceView
    hand: list[TacticalCardView]
    # The viewer's own chosen Pitch Actions card before the reveal, its Aim, its Snitch card in play.
    my_pitch_card: int | None
    my_aim: int | None
    my_snitch_card: SnitchCardView | None
    # Cards shown face-up this Game Sequence (both Pitch Actions cards once revealed, Intrepid Moves), and the discards.
    cards: list[TacticalCardView]
    exchange: ExchangeView | None
    block_seat: int | None
    block_index: int
    block_remaining: list[str]
    prompt: Prompt
    # Extra words on the pending decision (zones to choose, who is shifted): from the engine.
    decision_detail: str = ""
    # The pending decision's particulars as data (None once the match is over).
    decision: DecisionView | None = None
    outcome: Outcome | None = None
    # Build Your Team (mode "advanced"): the Funding, the Spectators rule, the Stand, the viewer's own draft.
    funding: int = 0
    spectators_on: bool = False
    stand: list[StandSpotView] = msgspec.field(default_factory=list)
    draft: DraftView | None = None
    # The viewer's draw pile in card order (its order is secret even to them; what is in it they know).
    my_deck: list[int] = msgspec.field(default_factory=list)
    # The public rest of the state: what a search needs to rebuild a state from the view (None: an evaluation's view).
    procedure: Procedure | None = None
