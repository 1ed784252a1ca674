"""Exactly what one seat (or a spectator) may know: `SnitchView` and its parts, `Procedure` included."""

from __future__ import annotations

import msgspec

from menagerie.rules.contract import Outcome, Prompt
from menagerie.snitch.engine.model.common import Mode, RollSide
from menagerie.snitch.engine.model.decisions import SnitchDecision
from menagerie.snitch.engine.model.flow import FlowStep
from menagerie.snitch.engine.model.state import Exchange, LastingEffect
from menagerie.snitch.engine.rolls import Roll
from menagerie.snitch.engine.tactics import BlockTurn

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
