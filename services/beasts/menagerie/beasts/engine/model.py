"""The Beasts engine's data types: actions, decisions, events, state and view (msgspec structs).

Field names match the protobuf messages of menagerie.beasts.v1, which is how the
generic codec translates them.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from menagerie.beasts.engine.data import Board, Colour, SpellId
from menagerie.beasts.engine.salem_data import Difficulty
from menagerie.rules.contract import Outcome, Prompt
from menagerie.rules.decisions import Decision
from menagerie.rules.events import GameEvent, SeenBy
from menagerie.rules.hidden import BySeat, Hidden
from menagerie.rules.procedure import Step as FlowStep
from menagerie.rules.rng import Rng

Mode = Literal["capture", "training", "advanced"]


# ----------------------------------------------------------------------------- actions


class Roll(msgspec.Struct, frozen=True, tag="roll", tag_field="kind"):
    """Roll the die."""


class Move(msgspec.Struct, frozen=True, tag="move", tag_field="kind"):
    """Stop on space `to`, within the steps allowed."""

    to: int


class Capture(msgspec.Struct, frozen=True, tag="capture", tag_field="kind"):
    """Capture the face-up creature on your space (mode II)."""


class EndTurn(msgspec.Struct, frozen=True, tag="end_turn", tag_field="kind"):
    """End your turn after stopping."""


class FelixFelicis(msgspec.Struct, frozen=True, tag="felix_felicis", tag_field="kind"):
    """Reroll the die."""


class WingardiumLeviosa(msgspec.Struct, frozen=True, tag="wingardium_leviosa", tag_field="kind"):
    """Two more steps this move."""


class Revelio(msgspec.Struct, frozen=True, tag="revelio", tag_field="kind"):
    """Turn a face-down token face up."""

    space: int


class Accio(msgspec.Struct, frozen=True, tag="accio", tag_field="kind"):
    """Collect a face-up resource token from any space."""

    space: int


class Expelliarmus(msgspec.Struct, frozen=True, tag="expelliarmus", tag_field="kind"):
    """Take one resource of a colour from another player."""

    target_seat: int
    colour: Colour


class Portkey(msgspec.Struct, frozen=True, tag="portkey", tag_field="kind"):
    """Travel to a blue-circle space before rolling."""

    space: int


SpellAction = FelixFelicis | WingardiumLeviosa | Revelio | Accio | Expelliarmus | Portkey


# Mode III (Advanced Magizoology): every action but a capture and ending the turn costs one action point.
class ChooseCharacter(msgspec.Struct, frozen=True, tag="choose_character", tag_field="kind"):
    """Setup step 1: take this character (its card gives the actions per turn)."""

    character: str


class Step(msgspec.Struct, frozen=True, tag="step", tag_field="kind"):
    """Move to the next space `to` (or Apparate between blue circles): one action."""

    to: int


class Fight(msgspec.Struct, frozen=True, tag="fight", tag_field="kind"):
    """Fight the Salemer on your space: roll the die (one action)."""


class Collect(msgspec.Struct, frozen=True, tag="collect", tag_field="kind"):
    """Take a resource of the colour of the bar space where your location's card lies (one action)."""


Action = Roll | Move | Capture | EndTurn | SpellAction | ChooseCharacter | Step | Fight | Collect
SPELL_ACTIONS: tuple[type[SpellAction], ...] = (FelixFelicis, WingardiumLeviosa, Revelio, Accio, Expelliarmus, Portkey)


# --------------------------------------------------------------------------- decisions
# A turn is three decisions of the seat to play, one after the other; spells of the
# Spell Card Variant are cast during the one their timing names.


class RollDie(Decision, tag="roll"):
    """The seat to play rolls the die (it may cast spells first)."""

    accepts = (Roll, *SPELL_ACTIONS)


class ChooseStop(Decision, tag="move"):
    """The seat to play chooses where to stop, within the steps rolled."""

    accepts = (Move, *SPELL_ACTIONS)


class AfterStop(Decision, tag="stopped"):
    """The seat has stopped: it may capture the creature there, cast spells or end its turn."""

    accepts = (Capture, EndTurn, *SPELL_ACTIONS)


class CharacterChoice(Decision, tag="character"):
    """Mode III setup step 1: the seat chooses a character."""

    accepts = (ChooseCharacter,)


class TurnActions(Decision, tag="actions"):
    """Mode III: the seat to play spends its actions (or captures, or ends its turn)."""

    accepts = (Step, Fight, Collect, Capture, EndTurn)


TurnDecision = RollDie | ChooseStop | AfterStop | CharacterChoice | TurnActions


class DieRoll(FlowStep, tag="die_roll"):
    """A chance node: the die is rolled for `seat`'s move, a Felix Felicis re-roll, or a fight (mode III)."""

    seat: int
    purpose: Literal["move", "felix", "fight"] = "move"


# ------------------------------------------------------------------------------ events


class ResourceCounts(msgspec.Struct, frozen=True):
    """Tokens per colour."""

    red: int = 0
    blue: int = 0
    yellow: int = 0
    green: int = 0
    wild: int = 0


class MatchStarted(GameEvent, frozen=True, tag="match_started"):
    """The tokens are out and the first seat is drawn."""

    first_seat: int
    supply_size: int


class TurnStarted(GameEvent, frozen=True, tag="turn_started"):
    """A seat's turn begins."""

    seat: int
    turn: int


class SpellDrawn(GameEvent, frozen=True, tag="spell_drawn"):
    """A seat drew a spell card; only that seat sees which."""

    seat: int
    reshuffled: bool = False
    spell: Annotated[SpellId | None, SeenBy("seat")] = None


class DieRolled(GameEvent, frozen=True, tag="die_rolled"):
    """The die was rolled (or rolled again by Felix Felicis)."""

    seat: int
    value: int


class Moved(GameEvent, frozen=True, tag="moved"):
    """A standee moved (by a roll or a Portkey)."""

    seat: int
    origin: int
    destination: int


class TokenRevealed(GameEvent, frozen=True, tag="token_revealed"):
    """A face-down token was turned face up."""

    reveals = True

    space: int
    state: Literal["creature", "resource"]
    creature: str | None = None
    colour: Colour | None = None


class CreatureCaptured(GameEvent, frozen=True, tag="creature_captured"):
    """A seat captured a creature (paying its cost in mode II)."""

    seat: int
    creature: str
    space: int
    paid: ResourceCounts


class ResourceCollected(GameEvent, frozen=True, tag="resource_collected"):
    """A seat took a resource token (mode I: set aside for good)."""

    seat: int
    colour: Colour
    space: int
    set_aside: bool = False


class TokenPlaced(GameEvent, frozen=True, tag="token_placed"):
    """A face-down token from the supply was placed on a space."""

    space: int


class SpaceLeftEmpty(GameEvent, frozen=True, tag="space_left_empty"):
    """The supply was empty, so the space stays empty."""

    space: int


class SupplyShuffled(GameEvent, frozen=True, tag="supply_shuffled"):
    """Paid resources went back into the supply, which was shuffled."""

    returned: int
    size: int


class SpellCast(GameEvent, frozen=True, tag="spell_cast"):
    """A seat cast a spell card."""

    seat: int
    spell: SpellId
    space: int | None = None
    target_seat: int | None = None
    colour: Colour | None = None


class TurnEnded(GameEvent, frozen=True, tag="turn_ended"):
    """A seat's turn ended."""

    seat: int


class MatchFinished(GameEvent, frozen=True, tag="match_finished"):
    """The match is over."""

    outcome: Outcome


class CharacterChosen(GameEvent, frozen=True, tag="character_chosen"):
    """Mode III: a seat took a character."""

    seat: int
    character: str


class CreaturePlaced(GameEvent, frozen=True, tag="creature_placed"):
    """Mode III setup step 5: a creature token went face up on a revealed location."""

    creature: str
    space: int


class SalemerPlaced(GameEvent, frozen=True, tag="salemer_placed"):
    """A Salemer token went on a location, or (that location being taken) onto the Salem track."""

    space: int
    on_track: bool = False
    track: int = 0


class BarRefilled(GameEvent, frozen=True, tag="bar_refilled"):
    """The location bar's cards, left to right (0: an empty space), and the Second Salemer space's card."""

    reveals = True  # the cards drawn from the face-down location deck
    bar: list[int]
    second_salemer: int = 0


class FightRolled(GameEvent, frozen=True, tag="fight_rolled"):
    """A seat fought the Salemer on its space."""

    seat: int
    space: int
    value: int
    won: bool


class EventRevealed(GameEvent, frozen=True, tag="event_revealed"):
    """An event card was revealed and applied (then it went under its deck)."""

    reveals = True
    seat: int
    card: int


class ResourceReturned(GameEvent, frozen=True, tag="resource_returned"):
    """A seat returned a resource token to the supply (an event's loss)."""

    seat: int
    colour: Colour


class ActionsChanged(GameEvent, frozen=True, tag="actions_changed"):
    """An event changed the actions the seat to play has left."""

    seat: int
    left: int


class SecondSalemerRevealed(GameEvent, frozen=True, tag="second_salemer_revealed"):
    """A Salemer token reached an orange box of the Salem track: a Second Salemer card is applied."""

    reveals = True
    card: int


class BarCleared(GameEvent, frozen=True, tag="bar_cleared"):
    """Every location card on the bar went under the deck."""


class CreatureRecaptured(GameEvent, frozen=True, tag="creature_recaptured"):
    """Mode III: the players on the creature's space pooled their resources and captured it."""

    seats: list[int]
    creature: str
    space: int
    paid: ResourceCounts


class RoundEnded(GameEvent, frozen=True, tag="round_ended"):
    """Every seat has had a turn: the location bar is refilled and a new Salemer appears."""

    round: int


Event = (
    MatchStarted
    | TurnStarted
    | SpellDrawn
    | DieRolled
    | Moved
    | TokenRevealed
    | CreatureCaptured
    | ResourceCollected
    | TokenPlaced
    | SpaceLeftEmpty
    | SupplyShuffled
    | SpellCast
    | TurnEnded
    | MatchFinished
    | CharacterChosen
    | CreaturePlaced
    | SalemerPlaced
    | BarRefilled
    | FightRolled
    | EventRevealed
    | ResourceReturned
    | ActionsChanged
    | SecondSalemerRevealed
    | BarCleared
    | CreatureRecaptured
    | RoundEnded
)


# ------------------------------------------------------------------------------- state


class Player(msgspec.Struct):
    """One seat's standee, tokens, creatures and spells."""

    position: int
    resources: dict[str, int]
    captured: list[str] = []
    spells: Annotated[list[str], Hidden("spells", owner_sees=True)] = []
    character: str = ""  # mode III


class BeastsState(msgspec.Struct):
    """The whole truth of a match, hidden parts included (declared with Hidden)."""

    mode: Mode
    spell_cards: bool
    rng: Rng
    # Per space id: the token lying there (a creature id or a colour), or None.
    tokens: Annotated[list[str | None], Hidden("tokens", face_up="face_up")]
    face_up: list[bool]
    # Face-down supply; the next token drawn is the last one.
    supply: Annotated[list[str], Hidden("tokens")]
    players: Annotated[list[Player], BySeat()]
    current: int
    # The pending decisions, the one the match waits for last.
    decisions: list[TurnDecision]
    turn: int
    turn_cap: int
    roll: int = 0
    bonus: int = 0
    spells_played: int = 0
    spell_deck: Annotated[list[str], Hidden("spells")] = []
    spell_discard: list[str] = []
    set_aside: list[str] = []
    # Mode III: the face-down decks (the next card drawn is the last), the location bar (0 empty;
    # the last space is the Second Salemer's), Salemer tokens on spaces, the Salem track, the
    # public supply of resource tokens, and the turn's action points.
    location_deck: Annotated[list[int], Hidden("locations")] = []
    event_deck: Annotated[list[int], Hidden("events")] = []
    second_deck: Annotated[list[int], Hidden("second_salemers")] = []
    second_revealed: list[int] = []
    bar: list[int] = []
    salemers: list[bool] = []
    track: int = 0
    salemer_supply: int = 0
    pool: dict[str, int] = {}
    actions_left: int = 0
    collect_bonus_used: bool = False
    apparate_used: bool = False  # the character's free Apparate, once per turn
    round: int = 0
    first: int = 0
    outcome: Outcome | None = None
    difficulty: Difficulty = "standard"  # mode III's table option (engine/salem_data.py)
    # The steps to run once no decision is pending (the die's chance nodes; menagerie.rules.procedure).
    flow: list[DieRoll] = []


# -------------------------------------------------------------------------------- view


class SpaceToken(msgspec.Struct, frozen=True):
    """What a viewer can tell about the token on one space."""

    space: int
    state: Literal["empty", "hidden", "creature", "resource"]
    creature: str | None = None
    colour: Colour | None = None


class CreatureCard(msgspec.Struct, frozen=True):
    """A creature card, its cost, and where it is if anyone can tell."""

    id: str
    name: str
    cost: ResourceCounts
    captured_by: int | None = None
    face_up_on: int | None = None


class SpellInfo(msgspec.Struct, frozen=True):
    """A spell of the deck: its name and when it may be cast."""

    id: SpellId
    name: str
    timing: str
    text: str


class CharacterInfo(msgspec.Struct, frozen=True):
    """Mode III: a character card — its name, actions per turn and ability in words."""

    id: str
    name: str
    actions: int
    ability: str = ""


class SalemCardInfo(msgspec.Struct, frozen=True):
    """Mode III: a revealed card in words."""

    id: int
    name: str
    text: str


class PlayerView(msgspec.Struct, frozen=True):
    """One seat as a viewer sees it; `spells` only for the viewer's own seat."""

    seat: int
    position: int
    resources: ResourceCounts
    captured: list[str]
    spell_count: int
    spells: list[str]
    character: str = ""
    actions: int = 0  # mode III: the character's actions per turn


class BeastsView(msgspec.Struct, frozen=True):
    """Exactly what one seat (or a spectator) may know."""

    mode: Mode
    spell_cards: bool
    viewer: int | None
    board: Board
    tokens: list[SpaceToken]
    players: list[PlayerView]
    creatures: list[CreatureCard]
    current_seat: int
    prompt: Prompt
    roll: int
    steps: int
    spells_played: int
    spells_per_turn: int
    turn: int
    turn_cap: int
    supply_size: int
    spell_deck_size: int
    spell_discard: list[str]
    set_aside: ResourceCounts
    creatures_to_win: int
    spell_book: list[SpellInfo]
    outcome: Outcome | None = None
    # Mode III.
    salemers: list[int] = msgspec.field(default_factory=list)  # spaces holding a Salemer token
    bar: list[int] = msgspec.field(default_factory=list)  # location cards left to right, 0 empty
    bar_colours: list[str] = msgspec.field(default_factory=list)
    location_deck_size: int = 0
    event_deck_size: int = 0
    second_deck_size: int = 0
    second_revealed: list[int] = msgspec.field(default_factory=list)
    track: int = 0
    track_spaces: int = 0
    orange: list[int] = msgspec.field(default_factory=list)
    loss_at: int = 0
    pool: ResourceCounts | None = None
    actions_left: int = 0
    round: int = 0
    team_captured: int = 0
    first_seat: int = 0  # whose turn starts each round
    collect_bonus_used: bool = False
    apparate_used: bool = False  # the character's free Apparate, once per turn
    character_book: list[CharacterInfo] = msgspec.field(default_factory=list)
    second_revealed_cards: list[SalemCardInfo] = msgspec.field(default_factory=list)
