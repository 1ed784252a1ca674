"""Fantasy Zoo's data types: actions, decisions, events, state and view (msgspec structs).

Field names match the protobuf messages of menagerie.zoo.v1, which is how the generic
codec translates them.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from menagerie.rules.contract import Outcome, Prompt
from menagerie.rules.decisions import Decision
from menagerie.rules.events import GameEvent, SeenBy
from menagerie.rules.hidden import BySeat, Hidden
from menagerie.rules.rng import Rng
from menagerie.zoo.engine.data import Card, Connector, Enclosures, EnclosureType, Gain, OpenGoal, SecretGoal, ValueName

Mode = Literal["beginner", "advanced"]
# How a negative value scores (the match option `negative_values`): multiplied as it is
# (the rulebook's product, the default) or counted as 0.
NegativeValues = Literal["multiply", "count_as_zero"]
Level = Literal["top", "bottom"]
End = Literal["left", "right"]

# ----------------------------------------------------------------------------- actions


class Pick(msgspec.Struct, frozen=True, tag="pick", tag_field="kind"):
    """Take a card from the hand in front of you."""

    card: int


class Build(msgspec.Struct, frozen=True, tag="build", tag_field="kind"):
    """Play a card as an enclosure card at an open end of your row."""

    card: int
    end: End


class Place(msgspec.Struct, frozen=True, tag="place", tag_field="kind"):
    """Play a card as an animal into the enclosure at (position, level)."""

    card: int
    position: int
    level: Level
    increase: ValueName | None = None
    decrease: ValueName | None = None


class Keep(msgspec.Struct, frozen=True, tag="keep", tag_field="kind"):
    """Set a card aside for the next round."""

    card: int


class Finish(msgspec.Struct, frozen=True, tag="finish", tag_field="kind"):
    """End construction; unused cards (but the kept one) are discarded."""


class ChooseReward(msgspec.Struct, frozen=True, tag="choose_reward", tag_field="kind"):
    """Take one of the two rewards of the open goal you met (the one being rewarded now)."""

    goal: int
    option: int


class ChooseSecretGoal(msgspec.Struct, frozen=True, tag="choose_secret_goal", tag_field="kind"):
    """Score this one of your two met secret goals."""

    goal: int


Action = Pick | Build | Place | Keep | Finish | ChooseReward | ChooseSecretGoal


# --------------------------------------------------------------------------- decisions
# Every phase is simultaneous: one decision whose `must` lists the seats still to decide
# (a seat leaves it once it has decided); when it is empty the next phase replaces it.


class Drafting(Decision, tag="drafting"):
    """Every seat that has not picked this pass picks a card from the hand in front of it."""

    accepts = (Pick,)


class Construction(Decision, tag="construction"):
    """Every seat that has not finished builds, places and keeps its picked cards."""

    accepts = (Build, Place, Keep, Finish)


class Rewards(Decision, tag="rewards"):
    """The seats that met one open goal each choose one of its two rewards.

    One decision per met goal: the goals are checked one by one, in the order they were
    revealed, and the next is checked only once this one's achievers have chosen.
    """

    accepts = (ChooseReward,)
    # The open goal whose rewards are chosen (the check goes on with the goals after it).
    goal: int = 0


class SecretGoals(Decision, tag="secret_goals"):
    """Seats that met both secret goals choose the one that scores."""

    accepts = (ChooseSecretGoal,)


ZooDecision = Drafting | Construction | Rewards | SecretGoals


# ------------------------------------------------------------------------------ events


class Values(msgspec.Struct, frozen=True):
    """The three zoo values."""

    dangerous: int
    cute: int
    rare: int


class SecretGoalsDealt(GameEvent, frozen=True, tag="secret_goals_dealt"):
    """A seat was dealt its two secret goals; only that seat sees which."""

    seat: int
    goals: Annotated[list[SecretGoal] | None, SeenBy("seat")] = None


class OpenGoalsRevealed(GameEvent, frozen=True, tag="open_goals_revealed"):
    """The open goals of the match were revealed."""

    goals: list[OpenGoal]


class RoundStarted(GameEvent, frozen=True, tag="round_started"):
    """A round (of `rounds`) begins with drafting."""

    round: int
    rounds: int


class CardsDealt(GameEvent, frozen=True, tag="cards_dealt"):
    """Cards were dealt to a seat; only that seat learns which."""

    seat: int
    count: int
    cards: Annotated[list[Card] | None, SeenBy("seat")] = None


class CardPicked(GameEvent, frozen=True, tag="card_picked"):
    """A seat picked a card; only that seat sees which."""

    concerns = "seat"
    seat: int
    card: Annotated[Card | None, SeenBy("seat")] = None


class HandsPassed(GameEvent, frozen=True, tag="hands_passed"):
    """Every hand moved one seat to the left."""

    pick: int


class HandReceived(GameEvent, frozen=True, tag="hand_received"):
    """The hand a seat received; only that seat sees it."""

    concerns = "seat"
    seat: int
    cards: Annotated[list[Card] | None, SeenBy("seat")] = None


class ConstructionStarted(GameEvent, frozen=True, tag="construction_started"):
    """Drafting is over: everyone plays their picked cards."""

    round: int


class EnclosureBuilt(GameEvent, frozen=True, tag="enclosure_built"):
    """A seat built an enclosure card at an open end of its row."""

    concerns = "seat"
    seat: int
    card: Card
    position: int


class AnimalPlaced(GameEvent, frozen=True, tag="animal_placed"):
    """A seat placed an animal; `values` are its values after the animal's effect."""

    concerns = "seat"
    seat: int
    card: Card
    position: int
    level: Level
    values: Values


class CardKept(GameEvent, frozen=True, tag="card_kept"):
    """A seat set a card aside for the next round; only that seat sees which."""

    concerns = "seat"
    seat: int
    card: Annotated[Card | None, SeenBy("seat")] = None


class ConstructionFinished(GameEvent, frozen=True, tag="construction_finished"):
    """A seat finished this round's construction, discarding the rest face up."""

    concerns = "seat"
    reveals = True  # the discarded picks were hidden until now
    seat: int
    discarded: list[Card]


class GoalMet(GameEvent, frozen=True, tag="goal_met"):
    """An open goal was met when checked at a round's end: each of `seats` chooses one of its rewards."""

    goal: int
    seats: list[int]


class RewardTaken(GameEvent, frozen=True, tag="reward_taken"):
    """A seat took an open goal's reward."""

    concerns = "seat"
    seat: int
    goal: int
    gain: Gain
    values: Values


class SecretGoalsRevealed(GameEvent, frozen=True, tag="secret_goals_revealed"):
    """A seat's secret goals were revealed at the end, with those it met."""

    reveals = True
    seat: int
    goals: list[SecretGoal]
    met: list[int]


class SecretGoalScored(GameEvent, frozen=True, tag="secret_goal_scored"):
    """A seat scored one of its secret goals."""

    concerns = "seat"
    seat: int
    goal: int
    gain: Gain
    values: Values


class MatchFinished(GameEvent, frozen=True, tag="match_finished"):
    """The match is over."""

    outcome: Outcome


Event = (
    SecretGoalsDealt
    | OpenGoalsRevealed
    | RoundStarted
    | CardsDealt
    | CardPicked
    | HandsPassed
    | HandReceived
    | ConstructionStarted
    | EnclosureBuilt
    | AnimalPlaced
    | CardKept
    | ConstructionFinished
    | GoalMet
    | RewardTaken
    | SecretGoalsRevealed
    | SecretGoalScored
    | MatchFinished
)


# ------------------------------------------------------------------------------- state


class Enclosure(msgspec.Struct):
    """One enclosure: its type and the animals in it (one name only)."""

    type: EnclosureType
    animals: list[int] = []
    # Large animals fill this enclosure and the same level of the next card to the right.
    large: bool = False


class Placed(msgspec.Struct):
    """An enclosure card in a row; the character sheet is position 0."""

    position: int
    card: int
    top: Enclosure
    bottom: Enclosure

    def level(self, level: Level) -> Enclosure:
        """The top or the bottom enclosure."""
        return self.top if level == "top" else self.bottom


class Player(msgspec.Struct):
    """One seat: its zoo, values, cards and choices (hidden parts declared with Hidden)."""

    values: dict[str, int]
    row: list[Placed] = []
    # The edge of the character sheet the zoo grows from, chosen with the first enclosure card.
    side: End | None = None
    hand: Annotated[list[int], Hidden("cards", owner_sees=True)] = []
    # The cards to play this round: picks, and the card kept from the last round.
    picks: Annotated[list[int], Hidden("cards", owner_sees=True)] = []
    # Whether a card is kept is public (None is never hidden); which card is not.
    kept: Annotated[int | None, Hidden("cards", owner_sees=True)] = None
    # Cards this seat saw and passed on this round.
    passed: Annotated[list[int], Hidden("passed", owner_sees=True)] = []
    secret_goals: Annotated[list[int], Hidden("goals", owner_sees=True, revealed="goals_revealed")] = []
    goals_revealed: bool = False
    secret_goal_choices: list[int] = []
    scored_secret_goal: int | None = None


class ZooState(msgspec.Struct):
    """The whole truth of a match, hidden parts included (declared with Hidden)."""

    mode: Mode
    rng: Rng
    rounds: int
    players: Annotated[list[Player], BySeat()]
    # Face down; the next card dealt is the last one, whose enclosure side is visible.
    draw_pile: Annotated[list[int], Hidden("cards", except_last=1)]
    # The match option: how a negative value scores.
    negative_values: NegativeValues = "multiply"
    # The pending decisions, the one the match waits for last.
    decisions: list[ZooDecision] = []
    round: int = 0
    pick: int = 0
    discards: list[int] = []
    open_goals: list[int] = []
    open_in_play: list[int] = []
    # The secret goals nobody was dealt (advanced mode): they stay in the box, unseen.
    secret_goal_box: Annotated[list[int], Hidden("goals")] = []
    outcome: Outcome | None = None


# -------------------------------------------------------------------------------- view


class EnclosureView(msgspec.Struct, frozen=True):
    """An enclosure as anyone sees it."""

    type: EnclosureType
    animals: list[Card]
    large: bool


class PlacedCard(msgspec.Struct, frozen=True):
    """An enclosure card of a row, with its animals."""

    position: int
    card: Card
    top: EnclosureView
    bottom: EnclosureView


class OpenEnd(msgspec.Struct, frozen=True):
    """An open end of a row: where a card built there goes and the path it must meet."""

    end: End
    position: int
    # The connector a card built here must meet with its inner edge (None: paths need not connect).
    connector: Connector | None = None
    # That need in the engine's words ("a card built at the left end needs R mid"; "": none).
    text: str = ""


class PlayerZoo(msgspec.Struct, frozen=True):
    """One player's public zoo; secret goals only for the player (or once revealed)."""

    seat: int
    row: list[PlacedCard]
    values: Values
    # The product of the two lower values (negative below 0 with the default option).
    score: int
    # The two values the score multiplies (as the match's option counts them), the higher first.
    score_factors: list[int]
    animals: int
    hand_size: int
    picked: int
    finished: bool
    secret_goals: list[SecretGoal]
    scored_secret_goal: int | None
    keeps_a_card: bool
    # The open goal whose reward this seat is choosing now (at most one).
    reward_choices: list[int]
    secret_goal_choices: list[int]
    # The open ends of the row: both edges of the sheet before the first card, then the one end it grows at.
    ends: list[OpenEnd]
    # The edge of the sheet the zoo grows from (None until the first enclosure card).
    side: End | None = None


class OpenGoalState(msgspec.Struct, frozen=True):
    """A revealed open goal and whether it is still in play."""

    goal: OpenGoal
    open: bool


class GoalText(msgspec.Struct, frozen=True):
    """A goal card in the engine's words."""

    # What meets it: "≥ 4 desert animals at a round's end".
    needs: str
    # What it pays: "+2 Dangerous or +2 Cute (each achiever chooses one)".
    rewards: str


class Texts(msgspec.Struct, frozen=True):
    """The engine's words for the rules printed on what a view shows, by id."""

    # The match's mode and what it changes.
    mode: str
    # How the score is counted (the match's option on negative values).
    score: str = ""
    # The animal effect of each card in the viewer's hand, picks and kept card, by card id.
    effects: dict[int, str] = {}
    # Each open goal of the view, by goal id.
    open_goals: dict[int, GoalText] = {}
    # Each secret goal the view shows (the viewer's, and any revealed), by goal id.
    secret_goals: dict[int, GoalText] = {}


class Preview(msgspec.Struct, frozen=True):
    """What one of the viewer's cards would do if its animal were placed now (anywhere it fits)."""

    card: int
    # What a count effect would count, the animal itself included.
    count: int | None = None
    # Whether a conditional effect would apply (always True for the others).
    applies: bool = True
    # The change to the values (None for exchange and choose-one effects: it is the player's choice).
    change: Values | None = None


class ZooView(msgspec.Struct, frozen=True):
    """Exactly what one seat (or a spectator) may know."""

    mode: Mode
    viewer: int | None
    round: int
    rounds: int
    pick: int
    zoos: list[PlayerZoo]
    hand: list[Card]
    picks: list[Card]
    kept: Card | None
    passed: list[Card]
    open_goals: list[OpenGoalState]
    draw_pile_size: int
    draw_pile_top: Enclosures | None
    discards: list[Card]
    prompt: Prompt
    # The rules on the cards and goals above, in the engine's words (clients never word them).
    texts: Texts
    # The match option: how a negative value scores (every score in the view counts it so).
    negative_values: NegativeValues = "multiply"
    # While rewards are chosen: the open goal being rewarded (the goals after it are checked next).
    reward_goal: int | None = None
    # One per card among the viewer's picks.
    previews: list[Preview] = []
    # The character sheet's connector on both edges (None: paths need not connect).
    sheet_connector: Connector | None = None
    outcome: Outcome | None = None
