"""The rules of Race to Ten: seats take turns adding a card from their hidden hand to a total; reaching 10 wins.

A deck of twelve cards (four each of 1, 2 and 3) is shuffled; each seat holds two, which
only it sees, and draws a new one after each play while the deck lasts. The hands always
last: the whole deck adds up to 24, and no seat runs out before the total reaches 10.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar

import msgspec

from menagerie.rules.contract import GameInfo, Label, MatchSetup, ModeInfo, Outcome, Prompt, SeatResult
from menagerie.rules.decisions import Decision, Rule
from menagerie.rules.engine import RulesEngine
from menagerie.rules.events import GameEvent, SeenBy
from menagerie.rules.hidden import BySeat, Hidden
from menagerie.rules.rng import Rng
from menagerie.rules.text import Narrator, seat_name

TARGET = 10
DECK = (1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3)
HAND = 2
TITLES: Mapping[str, str] = {"turn": "Play a card", "finished": "The race is over"}


class Play(msgspec.Struct, frozen=True, tag="play", tag_field="kind"):
    """Add this card of the seat's hand to the total."""

    card: int


class Turn(Decision, tag="turn"):
    """One seat plays a card."""

    accepts = (Play,)


class Hand(msgspec.Struct):
    """One seat: its cards (only it sees them) and the points it added."""

    cards: Annotated[list[int], Hidden("cards", owner_sees=True)] = []
    score: int = 0


class RaceState(msgspec.Struct):
    """The whole truth of a match."""

    rng: Rng
    players: Annotated[list[Hand], BySeat()]
    deck: Annotated[list[int], Hidden("cards")]
    played: list[int] = []
    total: int = 0
    decisions: list[Turn] = []
    outcome: Outcome | None = None


class Dealt(GameEvent, frozen=True, tag="dealt"):
    """A seat was dealt its hand (which only it sees)."""

    concerns: ClassVar[str | None] = "seat"
    seat: int
    cards: Annotated[list[int] | None, SeenBy("seat")] = None


class Played(GameEvent, frozen=True, tag="played"):
    """A seat played a card."""

    seat: int
    card: int
    total: int


class Drew(GameEvent, frozen=True, tag="drew"):
    """A seat drew a card (which only it sees)."""

    concerns: ClassVar[str | None] = "seat"
    seat: int
    card: Annotated[int | None, SeenBy("seat")] = None


class Won(GameEvent, frozen=True, tag="won"):
    """A seat reached the target."""

    seat: int
    total: int


Event = Dealt | Played | Drew | Won


class SeatView(msgspec.Struct, frozen=True):
    """One seat as a viewer sees it: its hand only if it is the viewer's."""

    seat: int
    score: int
    hand_size: int
    hand: list[int] | None = None


class RaceView(msgspec.Struct, frozen=True):
    """Exactly what one seat (or a spectator) may know."""

    viewer: int | None
    target: int
    total: int
    deck_size: int
    played: list[int]
    players: list[SeatView]
    prompt: Prompt
    outcome: Outcome | None = None


class RaceText:
    """The game's words."""

    def action(self, view: RaceView, action: Play, narrator: Narrator) -> Label:
        """ "Play your 3 (total 7)"."""
        return Label(f"Play your {action.card} (total {view.total + action.card})", f"p{action.card}")

    def event(self, event: Any, narrator: Narrator) -> str | None:
        """One sentence per event."""
        if isinstance(event, Dealt):
            cards = "" if event.cards is None else f": {' and '.join(map(str, event.cards))}"
            return f"{narrator.does(event.seat, 'get')} {HAND} cards{cards}."
        if isinstance(event, Played):
            return f"{narrator.does(event.seat, 'play')} a {event.card}: the total is {event.total}."
        if isinstance(event, Drew):
            return f"{narrator.does(event.seat, 'draw')} {'a card' if event.card is None else f'a {event.card}'}."
        return f"{narrator.does(event.seat, 'win')} the race at {event.total}."

    def prompt(self, view: RaceView, narrator: Narrator) -> str:
        """Whose turn, and how far the total is."""
        if view.outcome is not None:
            return narrator.named(view.outcome.reason)
        whose = narrator.whose(view.prompt.must[0])
        return f"{whose[:1].upper()}{whose[1:]} turn: the total is {view.total}; whoever reaches {view.target} wins."


class RaceEngine(RulesEngine[RaceState, Play, RaceView, Event]):
    """Race to Ten, for two seats."""

    info: ClassVar[GameInfo] = GameInfo(game="race", title="Race to Ten", modes=(ModeInfo("classic", "Classic", 2, 2),))
    titles: ClassVar[Mapping[str, str]] = TITLES
    state_type: ClassVar[Any] = RaceState
    action_type: ClassVar[Any] = Play
    view_type: ClassVar[Any] = RaceView
    event_type: ClassVar[Any] = Event

    def __init__(self) -> None:
        self.text = RaceText()
        super().__init__()

    def rulebook(self) -> dict[type, Rule[RaceState, Play, Event]]:
        """One rule: play a card of your hand."""
        return {Play: Rule("Cards", self._options, self._problem, self._play)}

    def setup(self, setup: MatchSetup, seed: int) -> tuple[RaceState, list[Event]]:
        """Shuffles the deck, deals two cards to each seat; the first seat plays first."""
        self.info.validate(setup)
        rng = Rng(seed)
        deck = list(DECK)
        rng.shuffle(deck)
        players = [Hand(cards=[deck.pop() for _ in range(HAND)]) for _ in range(setup.seats)]
        state = RaceState(rng=rng, players=players, deck=deck)
        self.ask(state, Turn(must=[0]))
        return state, [Dealt(seat=seat, cards=list(hand.cards)) for seat, hand in enumerate(players)]

    def _options(self, state: RaceState, seat: int) -> list[Play]:
        return [Play(card) for card in sorted(set(state.players[seat].cards))]

    def _problem(self, state: RaceState, seat: int, action: Play) -> str | None:
        return None if action.card in state.players[seat].cards else f"you hold no {action.card}"

    def _play(self, state: RaceState, seat: int, action: Play) -> list[Event]:
        hand = state.players[seat]
        hand.cards.remove(action.card)
        hand.score += action.card
        state.played.append(action.card)
        state.total += action.card
        events: list[Event] = [Played(seat=seat, card=action.card, total=state.total)]
        if state.total >= TARGET:
            results = [
                SeatResult(s, "win" if s == seat else "loss", float(p.score), 1 if s == seat else 2)
                for s, p in enumerate(state.players)
            ]
            state.outcome = Outcome(results, f"{seat_name(seat)} reached {state.total}")
            self.clear(state)
            return [*events, Won(seat=seat, total=state.total)]
        if state.deck:
            hand.cards.append(state.deck.pop())
            events.append(Drew(seat=seat, card=hand.cards[-1]))
        self.restart(state, Turn(must=[(seat + 1) % len(state.players)]))
        return events

    def view(self, state: RaceState, seat: int | None) -> RaceView:
        """The total, the played cards, each seat's score and hand size, and the viewer's own hand."""
        players = [
            SeatView(s, p.score, len(p.cards), list(p.cards) if s == seat else None)
            for s, p in enumerate(state.players)
        ]
        return RaceView(
            seat, TARGET, state.total, len(state.deck), list(state.played), players, self.prompt(state), state.outcome
        )

    def state_from_view(self, view: RaceView, seat: int | None) -> RaceState:
        """The viewer's hand as it is; the cards it cannot see dealt to the others and the deck in any order."""
        own = view.players[seat].hand if seat is not None else None  # a spectator sees no hand
        unseen = Counter(DECK) - Counter(view.played) - Counter(own or [])
        pool = sorted(unseen.elements())
        players = []
        for other in view.players:
            cards = list(other.hand or []) if other.seat == seat else [pool.pop() for _ in range(other.hand_size)]
            players.append(Hand(cards, other.score))
        turn = [Turn(must=list(view.prompt.must))] if view.prompt.must else []
        return RaceState(Rng(0), players, pool, list(view.played), view.total, turn, view.outcome)
