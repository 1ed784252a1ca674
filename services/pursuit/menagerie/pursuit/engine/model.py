"""The dice game's data types: actions, decisions, events, state and view (msgspec structs).

Field names match the protobuf messages of menagerie.pursuit.v1, which is how the
generic codec translates them.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from menagerie.pursuit.engine.data import (
    ACTIONS,
    ACTIVATED_BY,
    ActionName,
    Beast,
    Character,
    Face,
    InsightCard,
    Symbol,
)
from menagerie.rules.contract import Outcome, Prompt
from menagerie.rules.decisions import Decision
from menagerie.rules.events import GameEvent, SeenBy
from menagerie.rules.hidden import BySeat, Hidden
from menagerie.rules.procedure import Step as FlowStep
from menagerie.rules.rng import Rng

Difficulty = Literal["easy", "normal", "hard"]
Color = Literal["black", "teal"]
CardKind = Literal["die", "reroll", "muffliato", "protego"]

# ----------------------------------------------------------------------------- actions


class Reroll(msgspec.Struct, frozen=True, tag="reroll", tag_field="kind"):
    """Keep these black faces (and the teal die if keep_teal); roll the other dice again."""

    keep: tuple[Face, ...]
    keep_teal: bool


class StopRolling(msgspec.Struct, frozen=True, tag="stop_rolling", tag_field="kind"):
    """Keep the dice as they are and go on to assigning them."""


class PlayReroll(msgspec.Struct, frozen=True, tag="play_reroll", tag_field="kind"):
    """Play a Reroll card: the active player gets one more roll this turn."""

    card: int


class Contribute(msgspec.Struct, frozen=True, tag="contribute", tag_field="kind"):
    """Give the active player a dice card's dice to assign this turn."""

    card: int


class Pass(msgspec.Struct, frozen=True, tag="pass", tag_field="kind"):
    """Play nothing in the open reaction window."""


class Ready(msgspec.Struct, frozen=True, tag="ready", tag_field="kind"):
    """Ready an action of your board with its full pattern of dice."""

    action: ActionName


class SetAction(msgspec.Struct, frozen=True, tag="set", tag_field="kind"):
    """Set a Ready action of your board with one die showing `face`."""

    action: ActionName
    face: Face


class Activate(msgspec.Struct, frozen=True, tag="activate", tag_field="kind"):
    """Activate an action on `seat`'s board with one die of the action's face (or a wild).

    For Distract the die matters ("the removed die must be the one in the Action
    Space"): `color` names it, teal or black; None lets the engine choose as it does
    for the other actions.
    """

    seat: int
    action: ActionName
    color: Color | None = None


class PlayDieCard(msgspec.Struct, frozen=True, tag="play_die_card", tag_field="kind"):
    """Add your own dice card's dice to the dice you assign."""

    card: int


class EndAssign(msgspec.Struct, frozen=True, tag="end_assign", tag_field="kind"):
    """Stop assigning; the activated actions take effect."""


class Discard(msgspec.Struct, frozen=True, tag="discard", tag_field="kind"):
    """Discard an insight card (you hold more than three)."""

    card: int


class PlayMuffliato(msgspec.Struct, frozen=True, tag="play_muffliato", tag_field="kind"):
    """Before the beast rolls: it rolls two fewer black dice."""

    card: int


class PlayProtego(msgspec.Struct, frozen=True, tag="play_protego", tag_field="kind"):
    """After the beast rolls: ignore one of its dice showing `face`."""

    card: int
    face: Face


Action = (
    Reroll
    | StopRolling
    | PlayReroll
    | Contribute
    | Pass
    | Ready
    | SetAction
    | Activate
    | PlayDieCard
    | EndAssign
    | Discard
    | PlayMuffliato
    | PlayProtego
)


# --------------------------------------------------------------------------- decisions
# A turn: the active player rolls (a Reroll window opens over it after each roll to the
# other players holding a Reroll card), then assigns (a help window opens over it first
# to the other players holding a dice card); the players over the hand limit discard;
# a Muffliato window opens before the beast rolls and a Protego window after it rolls.
# A window's seats may play its card or pass; once nobody is left in it, it pops and
# the turn goes on from the decision underneath.


class Rolling(Decision, tag="roll"):
    """The active player keeps dice and rolls again, stops, or plays a Reroll card."""

    accepts = (StopRolling, Reroll, PlayReroll)


class RerollWindow(Decision, tag="reroll_window"):
    """After a roll: the other players holding a Reroll card may give the active player one more roll."""

    accepts = (PlayReroll, Pass)


class Assigning(Decision, tag="assign"):
    """The active player Readies, Sets and Activates actions with the dice, then stops."""

    accepts = (Ready, SetAction, Activate, PlayDieCard, EndAssign)


class HelpWindow(Decision, tag="help_window"):
    """Before assigning: the other players holding a dice card may lend its dice to the active player."""

    accepts = (Contribute, Pass)


class DiscardDown(Decision, tag="discard"):
    """The players holding more than the hand limit discard down to it."""

    accepts = (Discard,)


class MuffliatoWindow(Decision, tag="muffliato_window"):
    """Before the beast rolls: players holding Muffliato may make it roll two fewer black dice."""

    accepts = (PlayMuffliato, Pass)


class ProtegoWindow(Decision, tag="protego_window"):
    """The beast has rolled: players holding Protego may ignore one of its harmful dice."""

    accepts = (PlayProtego, Pass)


TurnDecision = Rolling | RerollWindow | Assigning | HelpWindow | DiscardDown | MuffliatoWindow | ProtegoWindow
Window = RerollWindow | HelpWindow | MuffliatoWindow | ProtegoWindow
WINDOWS: tuple[type[Window], ...] = (RerollWindow, HelpWindow, MuffliatoWindow, ProtegoWindow)


# -------------------------------------------------------------------------- flow
# Every roll is a chance node (menagerie.rules.procedure): pushed by the action or step
# that rolls, drawn (or chosen by a search or a test) once no decision is pending.


class RollDice(FlowStep, tag="roll_dice"):
    """The active player's dice not kept are rolled: at the start of a turn and on each Reroll."""

    seat: int


class BeastRoll(FlowStep, tag="beast_roll"):
    """The beast's dice are rolled: `black` black dice and the teal die if `teal` (Distract and Muffliato applied)."""

    black: int
    teal: bool


TurnStep = RollDice | BeastRoll


# ------------------------------------------------------------------------------- state


class Die(msgspec.Struct):
    """One of the six dice and the face it shows."""

    color: Color
    face: Face


class PoolDie(msgspec.Struct):
    """A die the active player may assign: a rolled die, or one of a dice card's dice."""

    face: Face
    color: Color
    card: int = 0  # the dice card it comes from; 0 for a rolled die


class Activation(msgspec.Struct, frozen=True):
    """An action activated this turn: on whose board, which, and with what die."""

    seat: int
    action: ActionName
    color: Color


class Player(msgspec.Struct):
    """One seat: its board, health, shields and insight cards (only it sees them)."""

    character: str
    health: int
    shields: int = 0
    ready: list[str] = []
    set: list[str] = []
    hand: Annotated[list[int], Hidden("cards", owner_sees=True)] = []


class PursuitState(msgspec.Struct):
    """The whole truth of a match, hidden parts included (declared with Hidden)."""

    difficulty: Difficulty
    rng: Rng
    players: Annotated[list[Player], BySeat()]
    # The beasts still to come, the next one first; `beast` is the one being chased.
    beasts: list[str]
    beast: str
    position: int
    deck: Annotated[list[int], Hidden("cards")]
    active: int
    # The pending decisions, the one the match waits for last.
    decisions: list[TurnDecision] = []
    # The rolls to make once no decision is pending (chance nodes; menagerie.rules.procedure).
    flow: list[TurnStep] = []
    turn: int = 0
    dice: list[Die] = []
    kept: list[bool] = []
    rolls: int = 0
    roll_limit: int = 3
    pool: list[PoolDie] = []
    # A dice card's dice go on one board: card -> the board its first die went to.
    card_boards: dict[int, int] = {}
    activations: list[Activation] = []
    muffled: int = 0
    beast_dice: list[Die] = []
    ignored: list[int] = []
    discard: list[int] = []
    captured: list[str] = []
    escaped: list[str] = []
    outcome: Outcome | None = None


# ------------------------------------------------------------------------------ events


class MatchStarted(GameEvent, frozen=True, tag="match_started"):
    """The beasts are stacked and the first player is drawn."""

    first_seat: int
    beasts: list[str]


class TurnStarted(GameEvent, frozen=True, tag="turn_started"):
    """A player's turn begins (its first roll follows at once)."""

    seat: int
    turn: int


class DiceRolled(GameEvent, frozen=True, tag="dice_rolled"):
    """The active player's dice were rolled (kept dice show their old faces)."""

    seat: int
    roll: int
    dice: list[Die]
    kept: list[bool]


class RollingStopped(GameEvent, frozen=True, tag="rolling_stopped"):
    """The active player keeps the dice as they lie."""

    seat: int
    dice: list[Die]


class Passed(GameEvent, frozen=True, tag="passed"):
    """A seat played no card in the open window."""

    concerns = "seat"
    seat: int


class CardPlayed(GameEvent, frozen=True, tag="card_played"):
    """A seat played an insight card (it goes to the discard pile face up)."""

    seat: int
    card: InsightCard


class AssignStarted(GameEvent, frozen=True, tag="assigning"):
    """The help window closed: the active player assigns the dice."""

    seat: int


class ActionReadied(GameEvent, frozen=True, tag="action_readied"):
    """An action of the active board was Readied with these dice."""

    seat: int
    action: ActionName
    dice: list[PoolDie]


class ActionSet(GameEvent, frozen=True, tag="action_set"):
    """A Ready action of the active board was Set with a die of this face."""

    seat: int
    action: ActionName
    face: Face


class ActionActivated(GameEvent, frozen=True, tag="action_activated"):
    """The active player (`seat`) activated an action on `target`'s board with a die of this face and colour."""

    seat: int
    target: int
    action: ActionName
    face: Face
    color: Color = "black"


class AssignEnded(GameEvent, frozen=True, tag="assign_ended"):
    """The active player stopped assigning: the activated actions take effect."""

    seat: int


class ShieldGained(GameEvent, frozen=True, tag="shield_gained"):
    """A seat gained a shield."""

    seat: int
    shields: int


class ShieldLost(GameEvent, frozen=True, tag="shield_lost"):
    """A seat lost a shield to the beast's reaction."""

    seat: int
    shields: int


class CardDrawn(GameEvent, frozen=True, tag="card_drawn"):
    """A seat drew an insight card; only that seat sees which."""

    seat: int
    card: Annotated[InsightCard | None, SeenBy("seat")] = None


class CardDiscarded(GameEvent, frozen=True, tag="card_discarded"):
    """A seat over the hand limit discarded a card."""

    concerns = "seat"
    seat: int
    card: InsightCard


class DeckReshuffled(GameEvent, frozen=True, tag="deck_reshuffled"):
    """The discard pile was shuffled into a new deck."""

    size: int


class DeckEmpty(GameEvent, frozen=True, tag="deck_empty"):
    """No card was left to draw, in the deck or the discard pile."""

    seat: int


class BeastAboutToRoll(GameEvent, frozen=True, tag="beast_about_to_roll"):
    """The Muffliato window opened before the beast's roll."""

    beast: str


class BeastRolled(GameEvent, frozen=True, tag="beast_rolled"):
    """The beast rolled its dice (less the distracted and muffled ones)."""

    beast: str
    dice: list[Die]
    distracted: int


class BeastReacted(GameEvent, frozen=True, tag="beast_reacted"):
    """The beast's reaction face came up: on the active player's roll ("roll") or the beast's ("beast")."""

    beast: str
    when: Literal["roll", "beast"]


class BeastMoved(GameEvent, frozen=True, tag="beast_moved"):
    """The beast's marker moved toward the suitcase (steps > 0) or away from it."""

    beast: str
    position: int
    steps: int


class BeastCaptured(GameEvent, frozen=True, tag="beast_captured"):
    """A beast is back in the suitcase."""

    beast: str


class BeastEscaped(GameEvent, frozen=True, tag="beast_escaped"):
    """A beast ran off the far end of its track."""

    beast: str


class BeastAppeared(GameEvent, frozen=True, tag="beast_appeared"):
    """The next beast of the stack is chased from its starting space."""

    beast: str
    position: int


class PlayerHurt(GameEvent, frozen=True, tag="player_hurt"):
    """A seat took damage (shields absorbed what they could)."""

    seat: int
    health: int
    shields: int


class MatchFinished(GameEvent, frozen=True, tag="match_finished"):
    """The match is over: one result for the whole team."""

    outcome: Outcome


Event = (
    MatchStarted
    | TurnStarted
    | DiceRolled
    | RollingStopped
    | Passed
    | CardPlayed
    | AssignStarted
    | ActionReadied
    | ActionSet
    | ActionActivated
    | AssignEnded
    | ShieldGained
    | ShieldLost
    | CardDrawn
    | CardDiscarded
    | DeckReshuffled
    | DeckEmpty
    | BeastAboutToRoll
    | BeastRolled
    | BeastReacted
    | BeastMoved
    | BeastCaptured
    | BeastEscaped
    | BeastAppeared
    | PlayerHurt
    | MatchFinished
)


# -------------------------------------------------------------------------------- view


class ReadyPattern(msgspec.Struct, frozen=True):
    """One action of a board: its name, the faces that Ready it, the face that activates it."""

    action: ActionName
    faces: list[str]
    activated_by: Symbol
    name: str


class CharacterView(msgspec.Struct, frozen=True):
    """A player board: its character and each action's Ready pattern."""

    id: str
    name: str
    ready: list[ReadyPattern]

    @classmethod
    def of(cls, character: Character, names: dict[str, str]) -> CharacterView:
        """The view of a character card (`names`: each action's display name)."""
        patterns = [ReadyPattern(a, list(character.ready[a]), ACTIVATED_BY[a], names[a]) for a in ACTIONS]
        return cls(character.id, character.name, patterns)


class CardInfo(msgspec.Struct, frozen=True):
    """A kind of insight card: its name and what playing it does."""

    kind: CardKind
    name: str
    text: str


class PlayerView(msgspec.Struct, frozen=True):
    """One seat as anyone sees it; its cards only for itself."""

    seat: int
    character: CharacterView
    health: int
    shields: int
    ready: list[str]
    set: list[str]
    hand_size: int
    hand: list[InsightCard]


class BeastTrack(msgspec.Struct, frozen=True):
    """The beast being chased and where its marker stands."""

    beast: Beast
    # Spaces from the far end of the track; it escapes below 0 and is captured at length.
    position: int
    length: int
    # The beast card in words: its dice and what each face does.
    card_text: str


class PursuitView(msgspec.Struct, frozen=True):
    """Exactly what one seat (or a spectator) may know."""

    difficulty: Difficulty
    viewer: int | None
    players: list[PlayerView]
    active: int
    turn: int
    prompt: Prompt
    track: BeastTrack
    beasts_to_come: list[Beast]
    captured: list[str]
    escaped: list[str]
    # Every beast of the match's stack by id (captured and escaped ones are named by id).
    beast_names: dict[str, str]
    escapes_allowed: int
    beasts_to_win: int
    dice: list[Die]
    kept: list[bool]
    rolls: int
    roll_limit: int
    pool: list[PoolDie]
    card_boards: dict[int, int]
    activations: list[Activation]
    muffled: int
    # The dice the beast rolls this turn, after Distract and Muffliato.
    beast_black_dice: int
    beast_teal_die: bool
    beast_dice: list[Die]
    # What each die of the beast's roll does, in words.
    beast_die_effects: list[str]
    ignored: list[int]
    deck_size: int
    discard: list[InsightCard]
    hand_limit: int
    card_book: list[CardInfo]
    outcome: Outcome | None = None
