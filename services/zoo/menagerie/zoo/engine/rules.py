"""The rules of Fantasy Zoo, beginner and advanced modes (see RULES.md).

Every phase is simultaneous and is one decision on the stack: drafting, construction,
choosing the reward of each open goal met (one decision per goal, in turn), choosing the
secret goal that scores. Its `must` lists the seats still to decide; a seat leaves it
once it has decided, and when nobody is left the next decision replaces it. An action by one seat concerns only that
seat (its events say so), so the others' picks land at the same moment; the events
that move the whole table on (hands passed, a new phase) concern everyone.

This module holds the engine assembled from its parts: the game's modes and data, the one
table of rules (an action kind each: how it is listed, refused and performed), the
phase's decision asked and settled, and the set-up. Each rule is implemented in the part
of its concern (parts.py lists them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, cast

from menagerie.rules.contract import GameInfo, MatchSetup, ModeInfo, OptionInfo
from menagerie.rules.decisions import Decision, Refusal, Rule
from menagerie.rules.engine import RulesEngine
from menagerie.rules.rng import Rng
from menagerie.zoo.engine.construction import BuildingTheZoo
from menagerie.zoo.engine.data import VALUES, ZooData, load_data
from menagerie.zoo.engine.drafting import HAND_SIZE as HAND_SIZE
from menagerie.zoo.engine.drafting import DraftingCards
from menagerie.zoo.engine.ending import SECRET_GOALS_EACH, SecretGoalsAndTheEnd
from menagerie.zoo.engine.model import (
    Action,
    Build,
    ChooseReward,
    ChooseSecretGoal,
    Construction,
    Drafting,
    Event,
    Finish,
    Keep,
    Mode,
    NegativeValues,
    OpenGoalsRevealed,
    Pick,
    Place,
    Player,
    Rewards,
    SecretGoalsDealt,
    ZooDecision,
    ZooState,
    ZooView,
)
from menagerie.zoo.engine.open_goals import OpenGoals
from menagerie.zoo.engine.open_goals import goals_to_check as goals_to_check
from menagerie.zoo.engine.text import MODE_WORDS, NEGATIVE_VALUES_OPTION, TITLES, ZooText
from menagerie.zoo.engine.views import ViewsAndDeterminization

OPEN_GOALS_SHOWN = 6
# The match option on negative values, in both modes: the rulebook's product by default.
NEGATIVE_VALUES = OptionInfo(
    "negative_values", NEGATIVE_VALUES_OPTION, ("multiply", "count_as_zero"), default_value="multiply"
)


class ZooEngine(
    DraftingCards,
    BuildingTheZoo,
    OpenGoals,
    SecretGoalsAndTheEnd,
    ViewsAndDeterminization,
    RulesEngine[ZooState, Action, ZooView, Event],
):
    """Fantasy Zoo: `beginner` (no goal cards, paths need not connect) and `advanced`."""

    info: ClassVar[GameInfo] = GameInfo(
        game="zoo",
        title="Fantasy Zoo",
        modes=(
            ModeInfo("beginner", MODE_WORDS["beginner"], 2, 6, options=(NEGATIVE_VALUES,)),
            ModeInfo("advanced", MODE_WORDS["advanced"], 2, 6, options=(NEGATIVE_VALUES,)),
        ),
    )
    titles: ClassVar[Mapping[str, str]] = TITLES
    passes: ClassVar[tuple[type, ...]] = (Finish,)
    state_type: ClassVar[Any] = ZooState
    action_type: ClassVar[Any] = Action
    view_type: ClassVar[Any] = ZooView
    event_type: ClassVar[Any] = Event
    # The game's words (labels, event and prompt text, and the rules printed on what a view shows).
    text: ZooText

    def __init__(self, data: ZooData | None = None) -> None:
        self.data = data or load_data()
        self.cards = {c.id: c for c in self.data.cards}
        self.secret_goals = {g.id: g for g in self.data.secret_goals}
        self.open_goals = {g.id: g for g in self.data.open_goals}
        self.text = ZooText(self.data)
        super().__init__()

    def rulebook(self) -> dict[type, Rule[ZooState, Any, Event]]:
        """One rule per action: how it is listed, refused and performed."""
        construction = Rule[ZooState, Any, Event](
            "Construction",
            self._construction_options,
            self._construction_problem,
            self._construct,
            not_now=lambda s, seat, d: "cards are played only in the construction phase",
            exact=True,
        )
        return {
            Pick: Rule(
                "Drafting",
                lambda s, seat: [Pick(c) for c in s.players[seat].hand],
                self._pick_problem,
                self._pick,
                not_now=lambda s, seat, d: "cards are picked only while drafting",
            ),
            **dict.fromkeys((Build, Place, Keep, Finish), construction),
            ChooseReward: Rule(
                "Open goals",
                self._reward_options,
                self._reward_problem,
                self._choose_reward,
                not_now=lambda s, seat, d: "you have no open-goal reward to choose now",
            ),
            ChooseSecretGoal: Rule(
                "Secret goals",
                lambda s, seat: [ChooseSecretGoal(g) for g in s.players[seat].secret_goal_choices],
                self._secret_goal_problem,
                self._choose_secret_goal,
                not_now=lambda s, seat, d: "you have no secret goal to choose now",
            ),
        }

    def out_of_turn(self, state: ZooState, seat: int, decision: Decision) -> Refusal:
        """A seat that has decided waits for the others."""
        if isinstance(decision, Drafting):
            return Refusal("Drafting", "you have picked this pass already; wait until the others have")
        if isinstance(decision, Construction):
            return Refusal("Construction", "you have finished this round's construction")
        if isinstance(decision, Rewards):
            return Refusal("Open goals", "you have no open-goal reward to choose")
        return Refusal("Secret goals", "you have no secret goal to choose now")

    def _decide(self, state: ZooState, decision: ZooDecision) -> None:
        """The next phase replaces the one everyone has decided."""
        self.restart(state, decision)

    def _decided(self, state: ZooState, seat: int) -> bool:
        """`seat` has decided this phase; True once everyone has (the phase's decision is then settled)."""
        return self.decided(state, seat)

    # ------------------------------------------------------------------ setup

    def setup(self, setup: MatchSetup, seed: int) -> tuple[ZooState, list[Event]]:
        """Shuffle the pile; in advanced mode deal 2 secret goals each and reveal 6 open goals."""
        options = self.info.validate(setup)
        rng = Rng(seed)
        pile = [c.id for c in self.data.cards]
        rng.shuffle(pile)
        players = [Player(values=dict.fromkeys(VALUES, 0)) for _ in range(setup.seats)]
        state = ZooState(
            mode=cast("Mode", setup.mode),
            rng=rng,
            rounds=4 if setup.seats == 6 else 5,
            players=players,
            draw_pile=pile,
            negative_values=cast("NegativeValues", options[NEGATIVE_VALUES.name]),
        )
        events: list[Event] = []
        if state.mode == "advanced":
            secret = [g.id for g in self.data.secret_goals]
            rng.shuffle(secret)
            for seat, player in enumerate(players):
                player.secret_goals = [secret.pop() for _ in range(SECRET_GOALS_EACH)]
                goals = [self.secret_goals[g] for g in player.secret_goals]
                events.append(SecretGoalsDealt(seat=seat, goals=goals))
            state.secret_goal_box = secret
            shown = [g.id for g in self.data.open_goals]
            rng.shuffle(shown)
            state.open_goals = shown[:OPEN_GOALS_SHOWN]
            state.open_in_play = list(state.open_goals)
            events.append(OpenGoalsRevealed(goals=[self.open_goals[g] for g in state.open_goals]))
        return state, events + self._start_round(state)
