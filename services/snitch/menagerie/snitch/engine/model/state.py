"""The whole truth of a match (`SnitchState`) and its parts, hidden parts declared with Hidden."""

from __future__ import annotations

from typing import Annotated

import msgspec

from menagerie.rules.contract import Outcome
from menagerie.rules.hidden import BySeat, Hidden
from menagerie.rules.rng import Rng
from menagerie.snitch.data import Colour, House
from menagerie.snitch.data.cards import PitchAction, RacePitchAction, RollName
from menagerie.snitch.engine.model.common import ExchangeKind, Mode, RollSide
from menagerie.snitch.engine.model.decisions import SnitchDecision
from menagerie.snitch.engine.model.flow import FlowStep, SpectatorEffect
from menagerie.snitch.engine.pitch import Layout
from menagerie.snitch.engine.race import HeldDice, Token
from menagerie.snitch.engine.rolls import Roll
from menagerie.snitch.engine.roster import Draft

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
