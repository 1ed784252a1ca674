"""The rules of the Fantastic Beasts board game (see RULES.md); mode III is its own part, engine/salem.py.

A turn is three decisions of the seat to play, kept on the decision stack: roll the
die (spells may be cast first), choose where to stop, then — in mode II — capture a
creature you can pay for, cast spells or end the turn. When ending the turn is the
only thing left to do, it ends by itself. Every refusal names the rule it enforces.

This module holds the engine assembled from its parts: the game's modes and data, the one
table of rules (an action kind each: how it is listed, refused and performed), the one
table of the procedure (the die) and the set-up. Each rule is implemented in the part of
its concern (parts.py lists them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, cast

from menagerie.beasts.engine.board import Routes
from menagerie.beasts.engine.capture import Capturing
from menagerie.beasts.engine.costs import cost_of
from menagerie.beasts.engine.data import COLOURS, GameData, load_data
from menagerie.beasts.engine.model import (
    SPELL_ACTIONS,
    Action,
    BeastsState,
    BeastsView,
    Capture,
    ChooseCharacter,
    Collect,
    DieRoll,
    EndTurn,
    Event,
    Fight,
    MatchStarted,
    Mode,
    Move,
    Player,
    ResourceCounts,
    Roll,
    Step,
)
from menagerie.beasts.engine.movement import DieAndMovement
from menagerie.beasts.engine.salem import AdvancedMagizoology
from menagerie.beasts.engine.salem_data import (
    DEFAULT_DIFFICULTY,
    DIFFICULTIES,
    Difficulty,
    SalemData,
    load_salem,
)
from menagerie.beasts.engine.spells import SPELLS_PER_TURN as SPELLS_PER_TURN
from menagerie.beasts.engine.spells import SpellCards
from menagerie.beasts.engine.stops import StopsAndTokens
from menagerie.beasts.engine.text import TITLES, BeastsText
from menagerie.beasts.engine.turns import CREATURES_TO_WIN as CREATURES_TO_WIN
from menagerie.beasts.engine.turns import TurnsAndTheEnd
from menagerie.beasts.engine.views import ViewsAndDeterminization
from menagerie.rules.contract import GameInfo, MatchSetup, ModeInfo, OptionInfo
from menagerie.rules.decisions import Decision, Refusal, Rule, no_problem
from menagerie.rules.engine import RulesEngine
from menagerie.rules.procedure import Automatic, Chance
from menagerie.rules.rng import Rng
from menagerie.rules.text import seat_name

STARTING_SPELLS = 2
ROUND_CAP = 60


# The actions without parameters, made once: a playout lists them at every turn.
ROLL, CAPTURE, END_TURN = Roll(), Capture(), EndTurn()


class BeastsEngine(
    AdvancedMagizoology,
    DieAndMovement,
    StopsAndTokens,
    Capturing,
    SpellCards,
    TurnsAndTheEnd,
    ViewsAndDeterminization,
    RulesEngine[BeastsState, Action, BeastsView, Event],
):
    """Modes I (`capture`), II (`training`, optionally with spell cards) and III (`advanced`, co-op)."""

    info: ClassVar[GameInfo] = GameInfo(
        game="beasts",
        title="Fantastic Beasts and Where to Find Them",
        modes=(
            ModeInfo("capture", "Mode I: First Capture Attempts", 2, 6),
            ModeInfo(
                "training",
                "Mode II: Magizoology Training",
                2,
                6,
                options=(OptionInfo("spell_cards", "Play with the Spell Card Variant", ("false", "true"), "false"),),
            ),
            ModeInfo(
                "advanced",
                "Mode III: Advanced Magizoology (co-op against the Second Salemers)",
                2,
                6,
                options=(
                    OptionInfo(
                        "difficulty",
                        "How hard the Second Salemers press: gentle (a careful team usually wins), standard"
                        " (about an even match) or hard (the Salemers usually win)",
                        DIFFICULTIES,
                        DEFAULT_DIFFICULTY,
                    ),
                ),
                cooperative=True,
            ),
        ),
    )
    titles: ClassVar[Mapping[str, str]] = TITLES
    passes: ClassVar[tuple[type, ...]] = (EndTurn,)
    state_type: ClassVar[Any] = BeastsState
    action_type: ClassVar[Any] = Action
    view_type: ClassVar[Any] = BeastsView
    event_type: ClassVar[Any] = Event

    def __init__(self, data: GameData | None = None, salem: SalemData | None = None) -> None:
        self.data = data or load_data()
        self.salem = salem or load_salem()
        self.routes = Routes(self.data.board)
        self._moves = [Move(space.id) for space in self.data.board.spaces]  # actions are frozen: made once
        self._steps = [Step(space.id) for space in self.data.board.spaces]
        self.creatures = {c.id: c for c in self.data.creatures}
        self.costs = {c.id: ResourceCounts(**c.cost) for c in self.data.creatures}
        self.cost_tuples = {c.id: cost_of(c.cost) for c in self.data.creatures}
        self.spells = {s.id: s for s in self.data.spells}
        self.text = BeastsText(self.data, self.salem)
        super().__init__()

    def rulebook(self) -> dict[type, Rule[BeastsState, Any, Event]]:
        """One rule per action: how it is listed, refused and performed."""
        spell = Rule[BeastsState, Any, Event](
            "Spell cards", self._spell_options, self._spell_problem, self._cast, not_now=self._spell_not_now
        )
        return {
            Roll: Rule("Rolling", lambda s, seat: [ROLL], no_problem, self._roll, not_now=self._roll_not_now),
            Move: Rule(
                "Movement", self._move_options, self._move_problem, self._move, not_now=self._move_not_now, exact=True
            ),
            Capture: Rule(
                "Capture",
                lambda s, seat: [CAPTURE],
                self._capture_problem,
                lambda s, seat, a: (
                    self._capture_advanced(s, seat, a) if s.mode == "advanced" else self._capture(s, seat, a)
                ),
                not_now=lambda s, seat, d: "you capture after stopping on the creature's space",
            ),
            EndTurn: Rule(
                "End of turn",
                lambda s, seat: [END_TURN],
                lambda s, seat, a: self._end_turn_problem(s, seat),
                lambda s, seat, a: self._end_advanced_turn(s) if s.mode == "advanced" else self._end_turn(s),
                not_now=lambda s, seat, d: "roll the die and move before you end your turn",
            ),
            ChooseCharacter: Rule(
                "Characters",
                self._character_options,
                lambda s, seat, a: (
                    None if a in self._character_options(s, seat) else "that character is taken or unknown"
                ),
                self._choose_character,
                exact=True,
            ),
            Step: Rule("Moving", self._step_options, self._step_problem, self._step, exact=True),
            Fight: Rule("Fighting Salemers", self._fight_options, self._fight_problem, self._fight, exact=True),
            Collect: Rule(
                "Collecting resources", self._collect_options, self._collect_problem, self._collect, exact=True
            ),
            **dict.fromkeys(SPELL_ACTIONS, spell),
        }

    def out_of_turn(self, state: BeastsState, seat: int, decision: Decision) -> Refusal:
        """Only the seat to play decides."""
        deciding = decision.must[0] if decision.must else state.current
        return Refusal("Turn order", f"it is {seat_name(deciding)}'s turn, not {seat_name(seat)}'s")

    # ------------------------------------------------------------------ setup

    def setup(self, setup: MatchSetup, seed: int) -> tuple[BeastsState, list[Event]]:
        """Tokens face down on every space, the rest a face-down supply; a random first seat."""
        options = self.info.validate(setup)
        rng = Rng(seed)
        if setup.mode == "advanced":
            return self._setup_mode_iii(setup, rng, cast("Difficulty", options["difficulty"]))
        tokens = self.data.all_tokens()
        rng.shuffle(tokens)
        board = self.data.board
        on_board: list[str | None] = [None] * len(board.spaces)
        for space in board.token_spaces:
            on_board[space] = tokens.pop()
        players = [Player(position=board.start_space, resources=dict.fromkeys(COLOURS, 0)) for _ in range(setup.seats)]
        first = rng.below(setup.seats)
        spell_cards = setup.mode == "training" and options.get("spell_cards") == "true"
        state = BeastsState(
            mode=cast("Mode", setup.mode),
            spell_cards=spell_cards,
            rng=rng,
            tokens=on_board,
            face_up=[False] * len(board.spaces),
            supply=tokens,
            players=players,
            current=first,
            decisions=[],
            turn=0,
            turn_cap=ROUND_CAP * setup.seats,
        )
        events: list[Event] = [MatchStarted(first_seat=first, supply_size=len(tokens))]
        if spell_cards:
            state.spell_deck = self.data.spell_deck()
            rng.shuffle(state.spell_deck)
            for offset in range(setup.seats):
                seat = (first + offset) % setup.seats
                for _ in range(STARTING_SPELLS):
                    events += self._draw_spell(state, seat)
        events += self._start_turn(state)
        return state, events

    def _setup_mode_iii(self, setup: MatchSetup, rng: Rng, difficulty: Difficulty) -> tuple[BeastsState, list[Event]]:
        """Mode III: standees on the start space, a random first seat, then setup steps 2–7 (engine/salem.py)."""
        board = self.data.board
        players = [Player(position=board.start_space, resources=dict.fromkeys(COLOURS, 0)) for _ in range(setup.seats)]
        first = rng.below(setup.seats)
        state = BeastsState(
            mode="advanced",
            spell_cards=False,
            rng=rng,
            tokens=[],
            face_up=[],
            supply=[],
            players=players,
            current=first,
            decisions=[],
            turn=0,
            turn_cap=ROUND_CAP * setup.seats,
            first=first,
            difficulty=difficulty,
        )
        events: list[Event] = [MatchStarted(first_seat=first, supply_size=0)]
        return state, events + self._setup_advanced(state, rng)

    # --------------------------------------------------------------- the turn

    def procedure(self) -> dict[type, Automatic[Any, Any, Any] | Chance[Any, Any, Any, Any]]:
        """The die is the game's one chance node; nothing else happens between decisions."""
        return {DieRoll: Chance(self._die_faces, self._draw_die, self._die_rolled)}
