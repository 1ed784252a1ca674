"""What the match does next when no decision is pending: the flow steps, tagged by `kind`."""

from __future__ import annotations

import msgspec

from menagerie.rules.procedure import Step as FlowStepBase
from menagerie.snitch.data.cards import PitchAction, Step
from menagerie.snitch.engine.model.common import RollSide
from menagerie.snitch.engine.model.decisions import SnitchDecision

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
