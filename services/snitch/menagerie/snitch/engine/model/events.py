"""What happened: the events of a match, tagged by `kind`, with who may see their secret parts."""

from __future__ import annotations

from typing import Annotated

import msgspec

from menagerie.rules.contract import Outcome
from menagerie.rules.events import GameEvent, SeenBy
from menagerie.snitch.engine.rolls import Roll

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
