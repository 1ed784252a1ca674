"""The rules of Catch the Golden Snitch (see RULES.md): the engine assembled from its parts.

A match waits for the decision on top of its decision stack. When none is pending, the
top step of its flow runs (menagerie.rules.procedure): it does what the rulebook does on
its own (roll, resolve, draw) and asks the decisions and pushes the steps it needs.
Interrupts — a Keeper's Kick-Off, a Tempo Snitch card, a Loose Quaffle — are steps pushed
on top of what they interrupt, so play "picks up where you left off" (l.576) by itself.

This module holds what the parts share: the game's modes, the data, the one table of
rules (an action kind each: how it is listed, refused and performed) and the one table of
steps. Each rule and step is implemented in the part of its concern (parts.py lists them),
and so is each rule's reason for refusing an action (the text module never works it out).
Rulebook line numbers (l.) are of catch-the-golden-snitch.txt.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar

from menagerie.rules.contract import GameInfo, ModeInfo, OptionInfo
from menagerie.rules.decisions import Decision, Refusal, Rule
from menagerie.rules.engine import RulesEngine
from menagerie.rules.procedure import Automatic, Chance
from menagerie.rules.text import seat_name
from menagerie.snitch.data import (
    HOUSES,
    BoardData,
    DicePool,
    House,
    load_data,
    load_spectators,
)
from menagerie.snitch.data.cards import (
    TacticalCard,
    TacticalDecks,
    load_tactics,
)
from menagerie.snitch.engine import roster
from menagerie.snitch.engine.actions import ActionBlocks
from menagerie.snitch.engine.bludgers import BludgerMovement
from menagerie.snitch.engine.building import BuildYourTeam
from menagerie.snitch.engine.chase import SnitchRace
from menagerie.snitch.engine.determinize import Determinization
from menagerie.snitch.engine.exchanges import Exchanges
from menagerie.snitch.engine.intrepid import IntrepidMoves
from menagerie.snitch.engine.model import (
    Action,
    AdvantageRoll,
    AfterAction,
    Aim,
    Ask,
    Beat,
    BreakTempo,
    ChooseFlag,
    ChoosePitchCard,
    ConfirmTeam,
    ContinueBlock,
    DeclineBlock,
    DeclineIntrepid,
    DeployPlayer,
    DodgeToken,
    DropFromTeam,
    Event,
    ExchangeStep,
    FreeActionStep,
    GainTempo,
    GoalReroll,
    HandSwapBonus,
    ImpulseStep,
    IntrepidEffect,
    KeeperKickOff,
    KeepRoll,
    KickOffStep,
    LooseQuaffleStep,
    Move,
    MoveBludger,
    NoReaction,
    NoSpectator,
    NoSwift,
    PassQuaffle,
    PickForTeam,
    PlaceBludger,
    PlaceDiceToken,
    PlaceQuaffle,
    PlaceRaceToken,
    PlayIntrepid,
    PlaySpectator,
    PlaySwift,
    React,
    Recover,
    RefillRow,
    RemoveStunned,
    Reroll,
    RerollDice,
    RollDice,
    SequenceStep,
    SetupRow,
    ShiftOut,
    ShiftPlayer,
    Shoot,
    SkipPass,
    SkipRemove,
    SkipShift,
    SnitchState,
    SnitchView,
    SpectatorEffect,
    SpendTokens,
    StartMatch,
    Steal,
    TakeSnitch,
    TakeSnitchCard,
    TakeTempo,
    TargetPlayer,
    UseTrait,
)
from menagerie.snitch.engine.movement import PitchAndMovement
from menagerie.snitch.engine.pitch import rival
from menagerie.snitch.engine.pitch_rules import PitchRules
from menagerie.snitch.engine.scoring import ScoringAndTheEnd
from menagerie.snitch.engine.sequence import GameSequence
from menagerie.snitch.engine.setup import SetUpAndKickOff
from menagerie.snitch.engine.stand import SpectatorStand
from menagerie.snitch.engine.text import TITLES, SnitchText
from menagerie.snitch.engine.windows import RollWindows
from menagerie.snitch.engine.wording import not_a_choice

HOUSE_OPTIONS = tuple(HOUSES)
# Funding values a table may agree on (l.691 "we recommend a Funding value of 5 Gold Galleons").
FUNDING_OPTIONS = ("0", "3", "5", "7", "10", "15")


def _house_option(seat: int, default: House) -> OptionInfo:
    return OptionInfo(f"house_{seat}", f"The House {seat_name(seat)} coaches", HOUSE_OPTIONS, default_value=default)


class SnitchEngine(
    BuildYourTeam,
    SetUpAndKickOff,
    GameSequence,
    ActionBlocks,
    PitchAndMovement,
    PitchRules,
    BludgerMovement,
    Exchanges,
    RollWindows,
    IntrepidMoves,
    SnitchRace,
    ScoringAndTheEnd,
    SpectatorStand,
    Determinization,
    RulesEngine[SnitchState, Action, SnitchView, Event],
):
    """Catch the Golden Snitch: the basic Teams (mode "basic") or Teams built under a Funding (mode "advanced")."""

    info: ClassVar[GameInfo] = GameInfo(
        game="snitch",
        title="Catch the Golden Snitch",
        modes=(
            ModeInfo(
                "basic",
                "Basic Teams (Galleon cost 0) and each House's basic Tactical deck",
                2,
                2,
                options=(_house_option(0, "gryffindor"), _house_option(1, "slytherin")),
            ),
            ModeInfo(
                "advanced",
                "Build Your Team: Funding, unique Players, the full Tactical library, optional Spectators",
                2,
                2,
                options=(
                    OptionInfo("funding", "Galleons each Coach may spend on their Team", FUNDING_OPTIONS, "5"),
                    OptionInfo("spectators", "The Spectators optional rule", ("off", "on"), "off"),
                ),
            ),
        ),
    )
    titles: ClassVar[Mapping[str, str]] = TITLES
    passes: ClassVar[tuple[type, ...]] = (
        DeclineIntrepid,
        DeclineBlock,
        NoReaction,
        SkipShift,
        SkipPass,
        SkipRemove,
        NoSwift,
        KeepRoll,
    )
    state_type: ClassVar[Any] = SnitchState
    action_type: ClassVar[Any] = Action
    view_type: ClassVar[Any] = SnitchView
    event_type: ClassVar[Any] = Event
    # The game's words (labels, event and prompt text, refusals).
    text: SnitchText

    def __init__(self, data: BoardData | None = None, decks: TacticalDecks | None = None) -> None:
        self.data = data or load_data()
        self.decks = decks or load_tactics()
        self.pitch = self.data.pitch
        self.text = SnitchText(self)
        self.players_by_id = {p.id: p for p in self.data.players.players}
        self.spectator_cards = {c.id: c for c in load_spectators().spectators}
        self.catalogue = roster.Catalogue(
            players=self.players_by_id,
            library={h: {c.id: c for c in self.decks.library(h)} for h in HOUSES},
            spectators=self.spectator_cards,
        )
        super().__init__()

    def procedure(self) -> dict[type, Automatic[Any, Any, Any] | Chance[Any, Any, Any, Any]]:
        """One handler per kind of flow step: what the rulebook does by itself between decisions."""
        steps: dict[type, Callable[[SnitchState, Any, list[Event]], None]] = {
            SetupRow: self._refill_row,
            RefillRow: self._refill_row,
            KickOffStep: self._kick_off,
            SequenceStep: self._sequence,
            ContinueBlock: self._continue_block,
            ExchangeStep: self._exchange_step,
            AfterAction: self._after_action,
            Ask: self._ask_step,
            KeeperKickOff: self._keeper_kick_off,
            GainTempo: self._gain_tempo,
            TakeSnitch: self._take_snitch,
            ImpulseStep: self._impulse,
            FreeActionStep: self._free_action_step,
            IntrepidEffect: self._intrepid_effect,
            HandSwapBonus: self._hand_swap_bonus,
            LooseQuaffleStep: self._loose_quaffle_step,
            ShiftOut: self._shift_out,
            StartMatch: self._start_step,
            SpectatorEffect: self._spectator_effect,
        }
        handlers: dict[type, Automatic[Any, Any, Any] | Chance[Any, Any, Any, Any]] = {
            kind: Automatic(run) for kind, run in steps.items()
        }
        handlers[RollDice] = Chance(self._dice_faces, self._draw_dice, self._dice_rolled)
        handlers[AdvantageRoll] = Chance(self._advantage_faces, self._draw_advantage, self._advantage_rolled)
        handlers[RerollDice] = Chance(self._reroll_faces, self._draw_reroll, self._rerolled)
        return handlers

    # ================================================================ data helpers

    def card(self, state: SnitchState, seat: int, card_id: int) -> TacticalCard:
        """A Tactical card of `seat`'s House library."""
        return self.decks.card(state.players[seat].house, card_id)

    def lineup(self, state: SnitchState, seat: int) -> tuple[Any, ...]:
        """The seven Player cards of `seat`'s Team: the six Pitch Players in lineup order, then the Seeker."""
        return tuple(self.players_by_id[p] for p in state.players[seat].lineup)

    def trait(self, state: SnitchState, seat: int, index: int | None) -> Any | None:
        """The Trait of a Player of `seat`'s Team (index 6 or None: the Seeker), None without one."""
        lineup = state.players[seat].lineup
        return self.players_by_id[lineup[6 if index is None else index]].trait if lineup else None

    def pool(self, state: SnitchState, team: int, index: int, name: str, reaction: bool = False) -> DicePool:
        """The dice a Player's card lists for an Action or Reaction (index 6: the Seeker)."""
        player_card = self.lineup(state, team)[index]
        pools = player_card.reactions if reaction else player_card.actions
        # The card lists the Steal Reaction as "steal"; rolls name it "steal_reaction".
        return pools["steal" if name == "steal_reaction" else name]  # type: ignore[no-any-return]

    def defending(self, state: SnitchState) -> int:
        """The Defending Coach."""
        return rival(state.attacking)

    def _ask_step(self, state: SnitchState, step: Ask, events: list[Event]) -> None:
        """A decision that waits its turn behind other steps."""
        self.interrupt(state, step.decision)

    # ================================================================= the rules

    def rulebook(self) -> dict[type, Rule[SnitchState, Any, Event]]:
        """One rule per action: how it is listed, refused and performed.

        A rule with more to say than "not a choice" decides legality itself and says why it
        refuses, in its part beside its options (a `*_problem`; tests/test_refusals.py and
        tests/test_pitch_refusals.py check that the two agree). The others' options are the
        rule: an action is legal when listed.
        """

        def rule(
            name: str,
            options: Callable[[SnitchState, int], Iterable[Any]],
            perform: Callable[[SnitchState, int, Any], list[Event]],
            problem: Callable[[SnitchState, int, Any], str | None] | None = None,
        ) -> Rule[SnitchState, Any, Event]:
            def listed(state: SnitchState, seat: int, action: Any) -> str | None:
                return None if action in list(options(state, seat)) else not_a_choice(action)

            return Rule(name, options, problem or listed, perform, exact=True)

        # The Pitch Actions: listed by ActionBlocks, refused (and why) by PitchRules.
        pitch_rule = rule("Actions", self._pitch_options, self._perform_pitch, self.pitch_problem)
        return {
            PlaceBludger: rule(
                "Bludgers", self._place_bludger_options, self._do_place_bludger, self._place_bludger_problem
            ),
            DeployPlayer: rule("Kick-Off", self._deploy_actions, self._do_deploy),
            ChoosePitchCard: rule(
                "Pitch Actions card", self._pitch_card_options, self._do_pitch_card, self._pitch_card_problem
            ),
            PlayIntrepid: rule("Intrepid Moves", self._intrepid_options, self._do_intrepid, self._intrepid_problem),
            DeclineIntrepid: rule("Intrepid Moves", lambda s, seat: [DeclineIntrepid()], self._do_intrepid),
            Move: pitch_rule,
            PassQuaffle: pitch_rule,
            Shoot: pitch_rule,
            Steal: pitch_rule,
            Beat: pitch_rule,
            Recover: pitch_rule,
            DeclineBlock: rule("Action Blocks", self._decline_block_options, self._do_decline_block),
            React: rule("Reactions", self._react_options, self._do_react),
            NoReaction: rule("Reactions", lambda s, seat: [NoReaction()], self._do_react),
            Aim: rule("Aim at the Hoop", self._aim_options, self._do_aim, self._aim_problem),
            SpendTokens: rule("Dice tokens", self.token_options, self._do_spend_tokens),
            Reroll: rule("Re-rolls", self._window_of(Reroll), self._do_window),
            GoalReroll: rule("Goal tokens", self._window_of(GoalReroll), self._do_window),
            PlaySwift: rule("Swift Intrepid Moves", self._swift_options, self._do_swift, self._swift_problem),
            KeepRoll: rule("Re-rolls", lambda s, seat: [KeepRoll()], self._do_window),
            PlaceQuaffle: rule("Loose Quaffle", self._quaffle_options, self._do_place_quaffle, self._quaffle_problem),
            ShiftPlayer: rule("Shift", self._shift_actions, self._do_shift),
            SkipShift: rule("Shift", self._skip_shift_options, self._do_shift),
            SkipPass: rule("Keeper's Kick-Off", lambda s, seat: [SkipPass()], self._do_skip_pass),
            TakeTempo: rule("Tempo", lambda s, seat: [TakeTempo()], self._do_tempo),
            BreakTempo: rule("Breaking the Tempo", self._break_options, self._do_tempo),
            MoveBludger: rule(
                "Bludgers", self._move_bludger_options, self._do_move_bludger, self._move_bludger_problem
            ),
            TargetPlayer: rule("Bludger Movement", self._target_options, self._do_target),
            PlaceDiceToken: rule("Dice tokens", self._dice_token_options, self._do_dice_token),
            RemoveStunned: rule("Hand Swap", self._remove_stunned_options, self._do_remove_stunned),
            SkipRemove: rule("Hand Swap", lambda s, seat: [SkipRemove()], self._do_remove_stunned),
            TakeSnitchCard: rule("Snitch cards", self._snitch_card_options, self._do_take_snitch_card),
            PlaceRaceToken: rule(
                "Snitch Race tokens", self._race_token_options, self._do_race_token, self._race_token_problem
            ),
            DodgeToken: rule(
                "Dodge", lambda s, seat: [DodgeToken(ignore=False), DodgeToken(ignore=True)], self._do_dodge
            ),
            NoSwift: rule("Swift Intrepid Moves", lambda s, seat: [NoSwift()], self._do_swift),
            PickForTeam: rule("Build Your Team", self._pick_options, self._do_pick, self._pick_problem),
            DropFromTeam: rule("Build Your Team", self._drop_options, self._do_drop, self._drop_problem),
            ConfirmTeam: rule("Build Your Team", self._confirm_options, self._do_confirm, self._confirm_problem),
            ChooseFlag: rule("Flag tokens", self._flag_options, self._do_flag, self._flag_problem),
            UseTrait: rule("Traits", self.trait_options, self._do_use_trait, self.trait_problem),
            PlaySpectator: rule("Spectators", self.spectator_options, self._do_spectator, self.spectator_problem),
            NoSpectator: rule("Spectators", self.no_spectator_options, self._do_no_spectator),
        }

    def _do_no_spectator(self, state: SnitchState, seat: int, action: NoSpectator) -> list[Event]:
        self.settle(state)
        events: list[Event] = []
        self.advance(state, events)
        return events

    def view(self, state: SnitchState, seat: int | None) -> SnitchView:
        """What `seat` (None: a spectator) may know: never the rival's hand, deck, secret choices or Snitch card."""
        from menagerie.snitch.engine.views import build_view

        return build_view(self, state, seat)

    def out_of_turn(self, state: SnitchState, seat: int, decision: Decision) -> Refusal:
        """Why `seat` may not act now, in the game's words."""
        return Refusal("Turn order", self.text.waiting(state, seat, decision))
