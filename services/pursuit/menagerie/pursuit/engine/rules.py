"""The rules of the cooperative beast-capture dice game (see RULES.md).

A turn: the active player's dice are rolled (up to three times, keeping any), other
players may help with dice cards, the active player Readies, Sets and Activates actions
on the boards, then the beast reacts with its own roll. The pending decisions are kept
on a stack (model.py): the active player's rolling or assigning, and over them the
reaction windows where any player holding an applicable insight card may act — after
each of the active player's rolls (Reroll), before assigning (dice cards), before the
beast rolls (Muffliato) and between the beast's roll and its resolution (Protego). A
seat in a window may play or pass; passing takes it out of the window, and once the
window is empty it pops and the turn goes on from the decision underneath. Every roll,
the active player's and the beast's, is a chance node of the flow (`procedure`).

This module holds the engine assembled from its parts: the game's mode and data, the one
table of rules (an action kind each: how it is listed, refused and performed), the one
table of steps (the two rolls), the set-up and the start of a turn. Each rule and step is
implemented in the part of its concern (parts.py lists them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar, cast

from menagerie.pursuit.engine.assigning import AssigningDice
from menagerie.pursuit.engine.beast import STACKS as STACKS
from menagerie.pursuit.engine.beast import BeastPhase
from menagerie.pursuit.engine.cards import HAND_LIMIT as HAND_LIMIT
from menagerie.pursuit.engine.cards import InsightCards
from menagerie.pursuit.engine.data import PursuitData, load_data
from menagerie.pursuit.engine.dice import canonical_reroll
from menagerie.pursuit.engine.model import (
    WINDOWS,
    Action,
    Activate,
    AssignStarted,
    BeastRoll,
    CardDrawn,
    Contribute,
    Die,
    Difficulty,
    Discard,
    DiscardDown,
    EndAssign,
    Event,
    HelpWindow,
    MatchStarted,
    MuffliatoWindow,
    Pass,
    PlayDieCard,
    Player,
    PlayMuffliato,
    PlayProtego,
    PlayReroll,
    ProtegoWindow,
    PursuitState,
    PursuitView,
    Ready,
    Reroll,
    RerollWindow,
    RollDice,
    Rolling,
    SetAction,
    StopRolling,
    TurnStarted,
    Window,
)
from menagerie.pursuit.engine.rolling import RollingDice
from menagerie.pursuit.engine.text import TITLES, PursuitText
from menagerie.pursuit.engine.views import ViewsAndDeterminization
from menagerie.rules.contract import GameInfo, MatchSetup, ModeInfo, OptionInfo
from menagerie.rules.decisions import Decision, Refusal, Rule, no_problem
from menagerie.rules.engine import RulesEngine
from menagerie.rules.procedure import Automatic, Chance
from menagerie.rules.rng import Rng
from menagerie.rules.text import listing, seat_name

HEALTH = 10

PursuitRule = Rule[PursuitState, Any, Event]


class PursuitEngine(
    RollingDice,
    InsightCards,
    AssigningDice,
    BeastPhase,
    ViewsAndDeterminization,
    RulesEngine[PursuitState, Action, PursuitView, Event],
):
    """The cooperative dice game, difficulty `easy`, `normal` or `hard`."""

    info: ClassVar[GameInfo] = GameInfo(
        game="pursuit",
        title="Beast Pursuit: the cooperative dice game",
        modes=(
            ModeInfo(
                "coop",
                "Everyone against the beasts",
                1,
                4,
                options=(
                    OptionInfo(
                        "difficulty",
                        "Difficulty: easy, normal or hard (one more beast)",
                        ("easy", "normal", "hard"),
                        "normal",
                    ),
                ),
                cooperative=True,
            ),
        ),
    )
    titles: ClassVar[Mapping[str, str]] = TITLES
    passes: ClassVar[tuple[type, ...]] = (Pass,)
    state_type: ClassVar[Any] = PursuitState
    action_type: ClassVar[Any] = Action
    view_type: ClassVar[Any] = PursuitView
    event_type: ClassVar[Any] = Event

    def __init__(self, data: PursuitData | None = None) -> None:
        self.data = data or load_data()
        self.beasts = {b.id: b for b in self.data.beasts}
        self.cards = {c.id: c for c in self.data.cards}
        self.characters = {c.id: c for c in self.data.characters}
        self.text = PursuitText(self.data.beasts)
        # What happens once a window is empty: the turn goes on from the decision underneath.
        self._after: dict[type[Window], Callable[[PursuitState], list[Event]]] = {
            # After its last roll the active player still decides: stop, or play a Reroll card.
            # Ending the roll by itself when they hold no Reroll card would tell everyone so.
            RerollWindow: lambda state: [],
            HelpWindow: lambda state: [AssignStarted(seat=state.active)],
            MuffliatoWindow: self._beast_roll,
            ProtegoWindow: self._beast_resolve,
        }
        super().__init__()

    def rulebook(self) -> dict[type, PursuitRule]:
        """One rule per action: how it is listed, refused and performed."""
        not_now = self._not_now
        return {
            Reroll: PursuitRule(
                "Rolling",
                self._reroll_options,
                self._reroll_problem,
                self._reroll,
                lambda s, seat, a: canonical_reroll(a),
                not_now=not_now,
                exact=True,
            ),
            StopRolling: PursuitRule(
                "Rolling", lambda s, seat: [StopRolling()], no_problem, self._stop, not_now=not_now
            ),
            PlayReroll: self._card_rule(PlayReroll, "reroll", self._play_reroll),
            Contribute: self._card_rule(Contribute, "die", self._contribute),
            Pass: PursuitRule("Insight cards", lambda s, seat: [Pass()], no_problem, self._pass, not_now=not_now),
            Ready: PursuitRule("Ready", self._ready_options, self._ready_problem, self._ready, not_now=not_now),
            SetAction: PursuitRule("Set", self._set_options, self._set_problem, self._set, not_now=not_now),
            Activate: PursuitRule(
                "Activate",
                self._activate_options,
                lambda s, seat, a: self._activation_problem(s, a.seat, a.action, a.color),
                self._activate,
                self._activate_canonical,
                not_now=not_now,
            ),
            PlayDieCard: self._card_rule(PlayDieCard, "die", self._play_die_card),
            EndAssign: PursuitRule("Assign", lambda s, seat: [EndAssign()], no_problem, self._end, not_now=not_now),
            Discard: self._card_rule(Discard, None, self._discard, rule="Hand limit"),
            PlayMuffliato: self._card_rule(PlayMuffliato, "muffliato", self._play_muffliato),
            PlayProtego: PursuitRule(
                "Insight cards",
                self._protego_options,
                self._protego_problem,
                self._play_protego,
                self._same_card,
                not_now=not_now,
            ),
        }

    def _card_rule(
        self,
        action_type: Callable[[int], Any],
        kind: str | None,
        perform: Callable[[PursuitState, int, Any], list[Event]],
        rule: str = "Insight cards",
    ) -> PursuitRule:
        """The rule of an action naming one insight card of `kind` (any card for None: a discard)."""

        def options(state: PursuitState, seat: int) -> list[Any]:
            hand = state.players[seat].hand
            cards = self._distinct(hand) if kind is None else self._held(state.players[seat], kind)
            return [action_type(card) for card in cards]

        return PursuitRule(
            rule,
            options,
            lambda s, seat, a: self._card_problem(s, seat, a.card, kind),
            perform,
            self._same_card,
            not_now=self._not_now,
        )

    def out_of_turn(self, state: PursuitState, seat: int, decision: Decision) -> Refusal:
        """A window admits only the seats in it; otherwise it is the active player's turn."""
        if isinstance(decision, WINDOWS):
            waiting = listing([seat_name(s) for s in decision.seats()])
            return Refusal("Insight cards", f"{seat_name(seat)} is not to act in this window; it waits for {waiting}")
        return Refusal("Turn order", f"it is {seat_name(state.active)}'s turn, not {seat_name(seat)}'s")

    def _not_now(self, state: PursuitState, seat: int, decision: Decision) -> Refusal:
        """The pending decision's rule, and what it allows instead."""
        if isinstance(decision, WINDOWS):
            return Refusal("Insight cards", "in this window you may only play an applicable insight card or pass")
        if isinstance(decision, DiscardDown):
            return Refusal("Hand limit", f"discard one of your cards first: you may hold {HAND_LIMIT}")
        if isinstance(decision, Rolling):
            return Refusal("Rolling", "roll again, stop rolling, or play a Reroll card")
        return Refusal("Assign", "that is not something you can do while assigning dice")

    # ------------------------------------------------------------------ setup

    def setup(self, setup: MatchSetup, seed: int) -> tuple[PursuitState, list[Event]]:
        """Boards, one insight card each, the beasts stacked by level; a random first player."""
        options = self.info.validate(setup)
        difficulty = cast("Difficulty", options["difficulty"])
        rng = Rng(seed)
        by_level: dict[int, list[str]] = {1: [], 2: [], 3: []}
        for beast in self.data.beasts:
            by_level[beast.level].append(beast.id)
        for ids in by_level.values():
            rng.shuffle(ids)
        stack = [by_level[level].pop() for level in STACKS[difficulty]]
        deck = [c.id for c in self.data.cards]
        rng.shuffle(deck)
        players = [
            Player(character=self.data.characters[seat].id, health=HEALTH, hand=[deck.pop()])
            for seat in range(setup.seats)
        ]
        first = rng.below(setup.seats)
        state = PursuitState(
            difficulty=difficulty,
            rng=rng,
            players=players,
            beasts=stack[1:],
            beast=stack[0],
            position=self.beasts[stack[0]].to_escape,
            deck=deck,
            active=first,
        )
        events: list[Event] = [MatchStarted(first_seat=first, beasts=stack)]
        for seat, player in enumerate(players):
            events.append(CardDrawn(seat=seat, card=self.cards[player.hand[0]]))
        return state, events + self._start_turn(state) + self._run(state)

    # -------------------------------------------------------------------- flow

    def procedure(self) -> dict[type, Automatic[Any, Any, Any] | Chance[Any, Any, Any, Any]]:
        """Every roll is a chance node: the active player's dice and the beast's."""
        return {
            RollDice: Chance(self._roll_faces, self._draw_roll, self._dice_rolled),
            BeastRoll: Chance(self._beast_faces, self._draw_beast, self._beast_rolled),
        }

    def _run(self, state: PursuitState) -> list[Event]:
        """The rolls pushed are made (drawn, or chosen by a search or a test) and what they ask is asked."""
        events: list[Event] = []
        self.advance(state, events)
        return events

    def _start_turn(self, state: PursuitState) -> list[Event]:
        """A new turn: nothing is asked until its first roll (a chance node, made by `_run`) has fallen."""
        state.turn += 1
        self.restart(state)
        self.then(state, RollDice(seat=state.active))
        state.rolls = 0
        state.roll_limit = 3
        state.pool = []
        state.card_boards = {}
        state.activations = []
        state.muffled = 0
        state.beast_dice = []
        state.ignored = []
        state.dice = [Die("black", "wild") for _ in range(self.data.dice.black.count)] + [Die("teal", "protect")]
        state.kept = [False] * len(state.dice)
        return [TurnStarted(seat=state.active, turn=state.turn)]
