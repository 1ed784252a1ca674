"""The rules of Catch the Golden Snitch (see RULES.md): the match as a decision stack over a flow of steps.

A match waits for the decision on top of its decision stack. When none is pending, the
top step of its flow runs (menagerie.rules.procedure): it does what the rulebook does on its own (roll,
resolve, draw) and pushes the decisions and further steps it needs. Interrupts — a
Keeper's Kick-Off, a Tempo Snitch card, a Loose Quaffle — are steps pushed on top of what
they interrupt, so play "picks up where you left off" (l.576) by itself.

Where things are and who may go where is `pitch.py`; dice are `rolls.py`; the Snitch race
is `race.py`; cards, Hand Swaps, offers, blocks and Tempo are `tactics.py`. This module
only sequences them. Rulebook line numbers (l.) are of catch-the-golden-snitch.txt.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations
from typing import Any, ClassVar

import msgspec

from menagerie.rules.contract import GameInfo, MatchSetup, ModeInfo, OptionInfo, Outcome, SeatResult
from menagerie.rules.decisions import Decision, Refusal, Rule
from menagerie.rules.engine import RulesEngine
from menagerie.rules.procedure import Automatic, Chance
from menagerie.rules.rng import Rng
from menagerie.snitch.data import (
    COLOURS,
    HOUSES,
    STAND_ZONES,
    BoardData,
    Colour,
    DicePool,
    House,
    load_data,
    load_spectators,
)
from menagerie.snitch.data.cards import (
    Bludger,
    ModifyRoll,
    Obstruct,
    PitchAction,
    RaceAction,
    RaceDiceToken,
    Shift,
    Step,
    TacticalCard,
    TacticalDecks,
    Tempo,
    Upwind,
    UpwindToken,
    load_tactics,
)
from menagerie.snitch.data.cards import DiceTokens as DiceTokensEffect
from menagerie.snitch.data.cards import (
    FreeAction as FreeActionEffect,
)
from menagerie.snitch.data.cards import (
    Reroll as RerollEffect,
)
from menagerie.snitch.engine import pitch, race, rolls, roster, tactics, traits
from menagerie.snitch.engine.building import BuildYourTeam
from menagerie.snitch.engine.determinize import Determinization
from menagerie.snitch.engine.model import (
    FLAG_COLOURS,
    PITCH_ACTION_TYPES,
    Action,
    ActionDeclared,
    AdvantageRolled,
    AfterAction,
    Aim,
    AimAtHoop,
    AimChosen,
    Ask,
    AttackChanged,
    Beat,
    BeatenBludger,
    BlockAction,
    BlockEnded,
    BlockStarted,
    BludgerAimed,
    BludgerMove,
    BludgerMoved,
    BludgerPlaced,
    BludgerTarget,
    BreakTempo,
    CardsDrawn,
    ChooseFlag,
    ChoosePitchCard,
    Coach,
    ConfirmTeam,
    ContinueBlock,
    DeclineBlock,
    DeclineIntrepid,
    Deployment,
    DeployPlayer,
    DiceRerolled,
    DiceRolled,
    DiceTokenPlaced,
    DiceTokenPlacement,
    DiceTokens,
    DodgeChoice,
    DodgeToken,
    DropFromTeam,
    Event,
    Exchange,
    ExchangeResolved,
    ExchangeStep,
    FlowStep,
    FreeAction,
    FreeActionStep,
    GainTempo,
    GoalReroll,
    GoalScored,
    GoalTokenFlipped,
    GoldenSnitchRevealed,
    HandSwapBonus,
    HandSwapped,
    HandSwapRecovery,
    HoopsAimed,
    ImpulseStep,
    IntrepidDeclined,
    IntrepidEffect,
    IntrepidOffer,
    IntrepidPlayed,
    IntrepidResolved,
    KeeperKickOff,
    KeepRoll,
    KickOffBludger,
    KickOffPass,
    KickOffStarted,
    KickOffStep,
    LastingEffect,
    LockedRemoved,
    LooseQuaffle,
    LooseQuaffleStep,
    MatchFinished,
    Move,
    MoveBludger,
    NoReaction,
    NoSpectator,
    NoSwift,
    PassQuaffle,
    PickForTeam,
    PitchCardChosen,
    PitchCards,
    PitchCardsRevealed,
    PitchPlayer,
    PlaceBludger,
    PlaceDiceToken,
    PlaceQuaffle,
    PlaceRaceToken,
    PlayerMoved,
    PlayIntrepid,
    PlaySpectator,
    PlaySwift,
    QuaffleCaught,
    QuaffleLoose,
    RaceMoved,
    RaceTokenPlaced,
    RaceTokenPlacement,
    React,
    Reaction,
    ReactionDeclared,
    Recover,
    RefillRow,
    RemoveStunned,
    Reroll,
    RerollGrant,
    RollWindow,
    SequenceEnded,
    SequenceStarted,
    SequenceStep,
    SetupRow,
    ShiftOut,
    ShiftPlayer,
    ShiftPlayers,
    Shoot,
    SkipPass,
    SkipRemove,
    SkipShift,
    SnitchCardChoice,
    SnitchCardDrawn,
    SnitchCardKept,
    SnitchCardTaken,
    SnitchCaught,
    SnitchRowRefilled,
    SnitchState,
    SnitchView,
    SpectatorEffect,
    SpendTokens,
    StandSpot,
    StartMatch,
    Steal,
    Stunned,
    SwiftWindow,
    TakeSnitch,
    TakeSnitchCard,
    TakeTempo,
    TargetPlayer,
    TeamBuilding,
    TempoBroken,
    TempoChoice,
    TempoGained,
    TokensSpent,
    TraitUsed,
    UseTrait,
)
from menagerie.snitch.engine.pitch import PlayerRef, rival
from menagerie.snitch.engine.rolls import Roll
from menagerie.snitch.engine.stand import SpectatorStand
from menagerie.snitch.engine.text import SnitchText

MAX_SEQUENCES = 200  # a guard for search and tests: no match has come near it (see RULES.md "Engine")
ROLLED: tuple[str, ...] = ("pass", "shoot", "steal", "beat")
# The Swift moments a roll of each kind offers, by whose side the Coach is on (l.440).
SWIFT_MOMENTS: dict[tuple[str, bool], tuple[str, ...]] = {
    ("steal", True): ("own_steal",),
    ("steal", False): ("rival_steal",),
    ("shoot", True): ("own_shoot",),
    ("shoot", False): ("rival_shoot",),
    ("beat", False): ("rival_beat",),
}
HOUSE_OPTIONS = tuple(HOUSES)
# Funding values a table may agree on (l.691 "we recommend a Funding value of 5 Gold Galleons").
FUNDING_OPTIONS = ("0", "3", "5", "7", "10", "15")


def _house_option(seat: int, default: House) -> OptionInfo:
    return OptionInfo(f"house_{seat}", f"the House seat {seat} coaches", HOUSE_OPTIONS, default_value=default)


class SnitchEngine(BuildYourTeam, SpectatorStand, Determinization, RulesEngine[SnitchState, Action, SnitchView, Event]):
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
                    OptionInfo("spectators", "the Spectators optional rule", ("off", "on"), "off"),
                ),
            ),
        ),
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
        return {kind: Automatic(run) for kind, run in steps.items()}

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

    @staticmethod
    def race_of(state: SnitchState) -> race.Race:
        """The Snitch race as race.py's value."""
        return race.Race(
            seekers=(state.seekers[0], state.seekers[1]),
            snitch=state.snitch,
            tokens=tuple(state.race_tokens),
            held=(tuple(state.held[0]), tuple(state.held[1])),
            deck=tuple(state.snitch_deck),
            row=tuple(state.snitch_row),
            discard=tuple(state.snitch_discard),
            in_play=(state.players[0].snitch_in_play, state.players[1].snitch_in_play),
            turn=state.race_turn,
        )

    @staticmethod
    def store_race(state: SnitchState, value: race.Race) -> None:
        """Writes race.py's value back into the state."""
        state.seekers = list(value.seekers)
        state.snitch = value.snitch
        state.race_tokens = list(value.tokens)
        state.held = [list(value.held[0]), list(value.held[1])]
        state.snitch_deck = list(value.deck)
        state.snitch_row = list(value.row)
        state.snitch_discard = list(value.discard)
        state.players[0].snitch_in_play = value.in_play[0]
        state.players[1].snitch_in_play = value.in_play[1]
        state.race_turn = value.turn

    def defending(self, state: SnitchState) -> int:
        """The Defending Coach."""
        return rival(state.attacking)

    # ================================================================= the flow

    def _ask_step(self, state: SnitchState, step: Ask, events: list[Event]) -> None:
        """A decision that waits its turn behind other steps."""
        self.interrupt(state, step.decision)

    # ================================================================== setup

    def setup(self, setup: MatchSetup, seed: int) -> tuple[SnitchState, list[Event]]:
        """Basic Teams start at once (l.207); in mode "advanced" both Coaches first build their Team (l.689)."""
        options = self.info.validate(setup)
        rng = Rng(seed)
        # Placeholders until the Setup steps run (`_start_match`): halves, Seekers and the Snitch.
        halves = (self.pitch.halves[0].id, self.pitch.halves[1].id)
        layout = pitch.setup_layout(self.pitch, halves, PlayerRef(0, pitch.PITCH_LINEUP.index("chaser")))
        state = SnitchState(
            mode=setup.mode,  # type: ignore[arg-type]
            rng=rng,
            players=[],
            layout=layout,
            attacking=0,
            seekers=[0, 0],
            snitch=0,
        )
        events: list[Event] = []
        if setup.mode == "advanced":
            state.funding = int(options["funding"])
            state.spectators_on = options["spectators"] == "on"
            state.players = [Coach(house="gryffindor", team=[], draft=roster.Draft()) for _ in (0, 1)]
            self.ask(state, TeamBuilding(must=[0, 1]), StartMatch())
            return state, events
        houses: list[House] = [options["house_0"], options["house_1"]]  # type: ignore[list-item]
        for house in houses:
            basic = [p.id for p in self.data.players.lineup(house)]
            state.players.append(
                Coach(
                    house=house,
                    team=[],
                    lineup=basic,
                    deck=[c.id for c in self.decks.deck(house)],
                    flag=FLAG_COLOURS[house],
                )
            )
        self._start_match(state, events)
        return state, events

    def _start_match(self, state: SnitchState, events: list[Event]) -> None:
        """Setup steps 1–7 (l.233–247): halves, Seekers, Snitch, advantage, the row, hands; then the Kick-Off."""
        rng = state.rng
        # Step 4 (l.241): seat 0 took the Success symbol, seat 1 the Opportunity (authored);
        # the purple die is rolled until it shows one of them (a blank matches neither).
        spec = self.data.dice.setup_roll
        face = rolls.roll_die(rng, self.data.dice, spec.colour)
        while spec.reroll_blank and face == "blank":
            face = rolls.roll_die(rng, self.data.dice, spec.colour)
        attacking = 0 if face in ("success", "double_success") else 1
        halves = (self.pitch.halves[0].id, self.pitch.halves[1].id)
        chaser = pitch.PITCH_LINEUP.index("chaser")
        state.layout = pitch.setup_layout(self.pitch, halves, PlayerRef(attacking, chaser))
        state.attacking = attacking
        the_race = race.new_race(self.data.track, rng)
        state.seekers, state.snitch, state.snitch_deck = list(the_race.seekers), the_race.snitch, list(the_race.deck)
        events.append(AdvantageRolled(face=face, attacking=attacking, chaser=chaser))
        for seat, coach in enumerate(state.players):
            cards = tactics.opening_hand(list(coach.deck), rng)
            coach.team = [PitchPlayer() for _ in pitch.PITCH_LINEUP]
            coach.hand, coach.deck = list(cards.hand), list(cards.deck)
            events.append(CardsDrawn(seat=seat, count=len(cards.hand), cards=list(cards.hand)))
        if state.spectators_on:
            state.stand = [StandSpot(zone=z) for z in STAND_ZONES]
        # Step 5's row (Golden Snitch cards with the Attacking Team), then the Kick-Off.
        self.then(state, SetupRow(seat=attacking), KickOffStep())
        self.advance(state, events)

    # =============================================================== step handlers

    def _refill_row(self, state: SnitchState, step: SetupRow | RefillRow, events: list[Event]) -> None:
        """Draw the row back up to 3; a Golden Snitch card is Glimpsed by `step.seat`'s Seeker first (l.243, l.677)."""
        old_row, old_deck = list(state.snitch_row), len(state.snitch_deck)
        refill = race.refill_row(self.race_of(state), state.rng)
        self.store_race(state, refill.race)
        drawn = [c for c in state.snitch_row if c not in old_row]
        if refill.golden is not None:
            drawn.append(refill.golden)
        # A reshuffle happened when the deck grew (the discard pile became the deck).
        reshuffled = len(state.snitch_deck) + len(drawn) > old_deck
        events.extend(SnitchCardDrawn(card=c, reshuffled=reshuffled and i == 0) for i, c in enumerate(drawn))
        if refill.golden is not None:
            events.append(GoldenSnitchRevealed(seat=step.seat, card=refill.golden))
            self.then(state, RefillRow(seat=step.seat))
            self._race_step(state, step.seat, race.golden_glimpse(refill.golden), events)
            return
        events.append(SnitchRowRefilled(row=list(state.snitch_row)))

    def _kick_off(self, state: SnitchState, step: KickOffStep, events: list[Event]) -> None:
        """The Kick-Off (l.255–273): Bludgers attacking first, then the 2/1/1/2 deployment moves."""
        if step.stage < 2:
            seat = state.attacking if step.stage == 0 else self.defending(state)
            self.ask(state, KickOffBludger(must=[seat]), KickOffStep(stage=step.stage + 1))
            return
        if step.stage < 2 + len(pitch.KICK_OFF_MOVES):
            is_attacking, count = pitch.KICK_OFF_MOVES[step.stage - 2]
            seat = state.attacking if is_attacking else self.defending(state)
            movable = {d.player for d in self._deploy_options(state, seat)}
            left = min(count, len(movable))
            if left:
                self.ask(state, Deployment(must=[seat], left=left), KickOffStep(stage=step.stage + 1))
            else:
                self.then(state, KickOffStep(stage=step.stage + 1))
            return
        state.deployed = []
        self.then(state, SequenceStep(stage="hand_swap"))

    def _sequence(self, state: SnitchState, step: SequenceStep, events: list[Event]) -> None:
        """The Game Sequence (l.279–297, l.526–552), one stage at a time."""
        stage = step.stage
        if stage == "hand_swap":
            state.sequence += 1
            if state.sequence > MAX_SEQUENCES:
                self._finish(state, None, events, reason="the match reached its Game Sequence limit")
                return
            events.append(SequenceStarted(sequence=state.sequence, attacking=state.attacking))
            self._hand_swap(state, events)
        elif stage == "pitch_cards":
            self.ask(state, PitchCards(must=[0, 1]), SequenceStep(stage="reveal"))
        elif stage == "reveal":
            for coach in state.players:
                coach.pitch_revealed = True
            cards = [c.pitch_card or 0 for c in state.players]
            events.append(PitchCardsRevealed(cards=cards, sequence=state.sequence))
            state.offer_last = None
            self.then(state, SequenceStep(stage="intrepid"))
        elif stage == "intrepid":
            seat = self._next_offer(state)
            if seat is None:
                self.then(state, SequenceStep(stage="resolve"))
            else:
                self.ask(state, IntrepidOffer(must=[seat]), SequenceStep(stage="intrepid"))
        elif stage == "resolve":
            order = tactics.resolve_order([(s, c) for s, c in state.intrepid_plays])
            self.then(state, *(IntrepidEffect(seat=s, card=c) for s, c in order), SequenceStep(stage="blocks"))
        elif stage == "blocks":
            self._block_turn(state, step.index, events)
        elif stage == "bludgers":
            self._bludger_movement(state, step.index)
        elif stage == "snitch":
            first = state.last_block_seat if state.last_block_seat is not None else state.attacking
            self.then(state, TakeSnitch(seat=first), TakeSnitch(seat=rival(first)), SequenceStep(stage="end"))
        elif stage == "end":
            self._end_sequence(state, events)

    def _hand_swap(self, state: SnitchState, events: list[Event]) -> None:
        """Step 1 (l.281, l.464–468): a Coach with no cards draws 5; the lone swapper's rival gains."""
        hands = tuple(
            tactics.Cards(deck=tuple(c.deck), hand=tuple(c.hand), discard=tuple(c.discard)) for c in state.players
        )
        new, swap = tactics.hand_swap((hands[0], hands[1]), state.rng)
        after = [SequenceStep(stage="pitch_cards")]
        if swap.swappers:
            events.append(HandSwapped(seats=list(swap.swappers)))
            self._clear_stand(state, events)
            for seat in swap.swappers:
                coach = state.players[seat]
                drawn = [c for c in new[seat].hand if c not in coach.hand]
                coach.hand, coach.deck, coach.discard = (
                    list(new[seat].hand),
                    list(new[seat].deck),
                    list(new[seat].discard),
                )
                events.append(CardsDrawn(seat=seat, count=len(drawn), cards=drawn, hand_swap=True))
        if swap.rival is not None:
            self.then(state, HandSwapBonus(seat=swap.rival), *after)
        else:
            self.then(state, *after)

    def _hand_swap_bonus(self, state: SnitchState, step: HandSwapBonus, events: list[Event]) -> None:
        """The rival of a lone Hand Swap: a Stunned token off, a free Action, then 1 Tempo Point (l.466–468)."""
        if step.stage == 0:
            nxt = HandSwapBonus(seat=step.seat, stage=1)
            coach = state.players[step.seat]
            if coach.locked:  # "all Locked tokens from the cards of your Team" (l.468)
                events.append(LockedRemoved(seat=step.seat, players=sorted(coach.locked)))
                coach.locked = []
            if any(p.stunned for p in state.players[step.seat].team):
                self.ask(state, HandSwapRecovery(must=[step.seat]), nxt)
            else:
                self.then(state, nxt)
        elif step.stage == 1:
            self.then(
                state,
                FreeActionStep(seat=step.seat, action=None, reason="hand_swap"),
                HandSwapBonus(seat=step.seat, stage=2),
            )
        else:
            self.then(state, GainTempo(seat=step.seat))

    def _next_offer(self, state: SnitchState) -> int | None:
        """Who decides next on Intrepid Moves (l.285, l.434): from the Attacking Coach, alternating, at most 2 each."""
        # Every Intrepid Move of the Game Sequence counts, Swift ones included, whenever played:
        # a Swift card counts "towards the limit of 2" (l.444), also one played at the Hand Swap.
        offers = tactics.Offers(
            attacking=state.attacking,
            plays=tuple(seat for seat, coach in enumerate(state.players) for _ in coach.intrepids),
            passed=(state.players[0].declined_intrepid, state.players[1].declined_intrepid),
            last=state.offer_last,
        )
        sizes = (len(state.players[0].hand), len(state.players[1].hand))
        return tactics.next_offer(offers, sizes)

    def _end_sequence(self, state: SnitchState, events: list[Event]) -> None:
        """End of the Game Sequence (l.552): used cards to the discard piles; lasting effects end (l.436)."""
        for coach in state.players:
            played = ([coach.pitch_card] if coach.pitch_card is not None else []) + coach.intrepids
            coach.discard = coach.discard + played
            coach.pitch_card, coach.pitch_revealed = None, False
            coach.intrepids, coach.declined_intrepid, coach.effects = [], False, []
            coach.next_block = 0
        state.intrepid_plays, state.block_turns, state.last_block_seat = [], [], None
        state.moved_bludger = None
        events.append(SequenceEnded(sequence=state.sequence))
        self.then(state, SequenceStep(stage="hand_swap"))

    # ------------------------------------------------------------------ Action Blocks

    def _block_turn(self, state: SnitchState, index: int, events: list[Event]) -> None:
        """Step 5 (l.289–297): the blocks alternate from the Attacking Coach; only that first one is compulsory."""
        if index == 0:
            counts = tuple(len(self.card(state, s, state.players[s].pitch_card or 1).blocks) for s in (0, 1))
            turns = tactics.block_turns(state.attacking, (counts[0], counts[1]))
            state.block_turns = [[t.seat, t.index, int(t.optional)] for t in turns]
        if index >= len(state.block_turns):
            self.then(state, SequenceStep(stage="bludgers"))
            return
        seat, block, optional = state.block_turns[index]
        card = self.card(state, seat, state.players[seat].pitch_card or 1)
        state.block_seat, state.block_index, state.block_optional = seat, block, bool(optional)
        state.block_remaining, state.block_performed = list(card.blocks[block]), 0
        state.players[seat].next_block = block + 1
        events.append(BlockStarted(seat=seat, index=block, actions=list(card.blocks[block])))
        self.then(state, ContinueBlock(), SequenceStep(stage="blocks", index=index + 1))

    def block_choices(self, state: SnitchState) -> list[PitchAction]:
        """The Actions of the block under way its Coach may perform next: any remaining one possible (l.315)."""
        if state.block_seat is None:
            return []
        seat = state.block_seat
        return list(dict.fromkeys(a for a in state.block_remaining if self.can_perform(state, seat, a)))

    def _continue_block(self, state: SnitchState, step: ContinueBlock, events: list[Event]) -> None:
        """Offer the block's next Action; none possible (or none left) ends it."""
        seat = state.block_seat
        if seat is None:
            return
        if not state.block_remaining or not self.block_choices(state):
            self._end_block(state, events)
            return
        if not step.offered and self.spectator_window(state, rival(seat), "block", ContinueBlock(offered=True)):
            return
        may_decline = state.block_optional and state.block_performed == 0
        self.ask(state, BlockAction(must=[seat], may_decline=may_decline))

    def _end_block(self, state: SnitchState, events: list[Event], declined: bool = False) -> None:
        """The block is over; what is left is skipped (none possible, a Loose Quaffle l.476, a Goal l.496)."""
        seat = state.block_seat
        if seat is None:
            return
        if state.block_performed and not declined:
            state.last_block_seat = seat
        events.append(
            BlockEnded(seat=seat, index=state.block_index, skipped=list(state.block_remaining), declined=declined)
        )
        state.block_seat, state.block_remaining, state.block_performed = None, [], 0

    # ------------------------------------------------------------------ what can be done

    def can_perform(self, state: SnitchState, seat: int, action: PitchAction) -> bool:
        """Whether some Player of `seat` can perform this Action now."""
        return any(True for _ in self._instances(state, seat, action))

    def _instances(self, state: SnitchState, seat: int, action: PitchAction) -> Iterable[Action]:
        """Every legal instance of a Pitch Action for `seat`'s Players now."""
        layout, the_pitch = state.layout, self.pitch
        players = layout.team_players(seat)
        if action == "move":
            for p in players:
                for zone in pitch.move_destinations(the_pitch, layout, p):
                    yield Move(player=p.index, zone=zone)
        elif action == "pass":
            holder = layout.holder
            if holder is not None and holder.team == seat:
                for target in pitch.pass_targets(the_pitch, layout, holder):
                    yield PassQuaffle(player=holder.index, target=target.index)
        elif action == "shoot":
            holder = layout.holder
            if holder is not None and holder.team == seat and pitch.may_shoot(the_pitch, layout, holder):
                yield Shoot(player=holder.index)
        elif action == "steal":
            if state.attacking != seat:  # l.374 "Only a Player on the Defending Team"
                for p in pitch.stealers(layout):
                    if p.team == seat:
                        yield Steal(player=p.index)
        elif action == "beat":
            for p in pitch.beaters(layout, seat):
                zone = layout.zone_of(p)
                for bludger in pitch.bludgers_in(layout, zone):
                    for target in pitch.beat_targets(the_pitch, layout, p):
                        yield Beat(player=p.index, bludger=bludger, target=target.index)
        elif action == "recover":
            for p in players:
                if state.players[seat].team[p.index].stunned:
                    yield Recover(player=p.index)

    def _pitch_options(self, state: SnitchState, seat: int) -> list[Action]:
        """The Pitch Actions the top decision offers `seat` (a block's remaining kinds, a free Action's kind)."""
        top = self.top(state)
        if isinstance(top, BlockAction):
            kinds: Sequence[PitchAction] = self.block_choices(state)
        elif isinstance(top, FreeAction):
            kinds = [top.action] if top.action is not None else list(PITCH_ACTION_TYPES)
        elif isinstance(top, KickOffPass):
            keeper = PlayerRef(seat, 0)
            return [PassQuaffle(player=0, target=t.index) for t in pitch.pass_targets(self.pitch, state.layout, keeper)]
        else:
            return []
        out: list[Action] = []
        for kind in kinds:
            out.extend(self._instances(state, seat, kind))
        return out

    def _pitch_allowed(self, state: SnitchState, seat: int, action: Action) -> bool:
        """Whether a Pitch Action is among `_pitch_options`, listing only the options of its own kind."""
        top = self.top(state)
        kind = next(k for k, t in PITCH_ACTION_TYPES.items() if isinstance(action, t))
        if isinstance(top, KickOffPass):
            return action in self._pitch_options(state, seat)
        if isinstance(top, BlockAction):
            if kind not in state.block_remaining or not self.can_perform(state, seat, kind):
                return False
        elif isinstance(top, FreeAction):
            if top.action is not None and top.action != kind:
                return False
        else:
            return False
        return action in list(self._instances(state, seat, kind))

    # ------------------------------------------------------------------ performing Pitch Actions

    def _perform_pitch(self, state: SnitchState, seat: int, action: Action) -> list[Event]:
        """Performs a Move, Pass, Shoot, Steal, Beat or Recover from a block, a free Action or a Kick-Off."""
        events: list[Event] = []
        top = self.settle(state)
        kind = next(k for k, t in PITCH_ACTION_TYPES.items() if isinstance(action, t))
        player = PlayerRef(seat, getattr(action, "player", 0))
        if isinstance(top, KickOffPass):
            assert isinstance(action, PassQuaffle)
            events.append(
                ActionDeclared(seat=seat, action="pass", player=0, target_team=seat, target=action.target, free=True)
            )
            self._give_quaffle(state, PlayerRef(seat, action.target), "kick_off_pass", events)
            self.advance(state, events)
            return events
        free = isinstance(top, FreeAction)
        no_tempo = isinstance(top, FreeAction) and top.reason == "break_tempo"
        if isinstance(top, BlockAction):
            state.block_remaining.remove(kind)
            state.block_performed += 1
            self.then(state, ContinueBlock())
        holder = state.layout.holder
        self.then(state, AfterAction(holder_before=[holder.team, holder.index] if holder else []))
        target_team = rival(seat) if isinstance(action, Beat) else seat if isinstance(action, PassQuaffle) else None
        target = getattr(action, "target", None)
        events.append(
            ActionDeclared(
                seat=seat, action=kind, player=player.index, target_team=target_team, target=target, free=free
            )
        )
        state.last_actor = seat
        if isinstance(action, Move):
            self._place_player(state, player, action.zone, "move", events)
        else:
            self._pick_up(state, player, events)
            if isinstance(action, Recover):
                self._stun(state, player, -1, events)
            elif isinstance(action, PassQuaffle):
                self._start_exchange(
                    state,
                    Exchange(
                        kind="pass",
                        seat=seat,
                        actor=player.index,
                        target_team=seat,
                        target=action.target,
                        free=free,
                        no_tempo=no_tempo,
                    ),
                )
            elif isinstance(action, Shoot):
                self._start_exchange(state, Exchange(kind="shoot", seat=seat, actor=player.index, free=free))
            elif isinstance(action, Steal):
                holder = state.layout.holder
                assert holder is not None
                self._start_exchange(
                    state,
                    Exchange(
                        kind="steal",
                        seat=seat,
                        actor=player.index,
                        target_team=holder.team,
                        target=holder.index,
                        free=free,
                    ),
                )
            elif isinstance(action, Beat):
                self._start_exchange(
                    state,
                    Exchange(
                        kind="beat",
                        seat=seat,
                        actor=player.index,
                        target_team=rival(seat),
                        target=action.target,
                        bludger=action.bludger,
                        free=free,
                    ),
                )
        self.advance(state, events)
        return events

    def _place_player(self, state: SnitchState, player: PlayerRef, zone: str, how: str, events: list[Event]) -> None:
        """A Player goes to a Zone (Move, Shift, deployment) and picks up a Loose Quaffle there (l.478)."""
        state.layout = state.layout.moved(player, zone)
        picked = self._pick_up(state, player, events, announce=False)
        events.append(PlayerMoved(team=player.team, player=player.index, zone=zone, how=how, picked_up=picked))
        if picked:
            events.append(QuaffleCaught(team=player.team, player=player.index, how="pick_up"))

    def _pick_up(self, state: SnitchState, player: PlayerRef, events: list[Event], announce: bool = True) -> bool:
        """A Player in the Loose Quaffle's Zone takes it during its Action, a Shift too (l.478); its Team attacks."""
        if not pitch.picks_up(state.layout, player):
            return False
        if not pitch.may_be_in(self.pitch, state.layout, player, state.layout.zone_of(player), with_quaffle=True):
            return False
        state.layout = state.layout.with_quaffle(player)
        self._set_attacking(state, player.team, events)
        if announce:
            events.append(QuaffleCaught(team=player.team, player=player.index, how="pick_up"))
        return True

    def _set_attacking(self, state: SnitchState, team: int, events: list[Event]) -> None:
        if state.attacking != team:
            state.attacking = team
            events.append(AttackChanged(attacking=team))

    def _give_quaffle(self, state: SnitchState, player: PlayerRef, how: str, events: list[Event]) -> None:
        """A Player takes Possession (a Pass, a Steal, a save); a Change of Possession if the rival had it (l.474)."""
        state.layout = state.layout.with_quaffle(player)
        events.append(QuaffleCaught(team=player.team, player=player.index, how=how))
        self._set_attacking(state, player.team, events)
        self.then(state, ShiftOut())

    def _lose_quaffle(self, state: SnitchState, chooser: int, zones: Sequence[str], events: list[Event]) -> None:
        """The holder loses the Quaffle, Loose where `chooser` says; a Chaser in a Scoring Area Shifts out (l.480)."""
        holder = state.layout.holder
        assert holder is not None
        # Until its Zone is chosen the Quaffle lies where it was lost; it is no one's.
        state.layout = state.layout.with_quaffle(state.layout.zone_of(holder))
        self.then(state, ShiftOut(), LooseQuaffleStep(chooser=chooser, zones=list(zones), lost_by=holder.team))

    def _stun(self, state: SnitchState, player: PlayerRef, delta: int, events: list[Event]) -> None:
        """A Stunned token on (or off) a Player card, at most 3 (l.544)."""
        tokens = state.players[player.team].team[player.index]
        tokens.stunned = max(0, min(rolls.MAX_STUNNED, tokens.stunned + delta))
        events.append(Stunned(team=player.team, player=player.index, tokens=tokens.stunned, delta=delta))

    def _after_action(self, state: SnitchState, step: AfterAction, events: list[Event]) -> None:
        """After an Action: a Keeper newly holding the Quaffle in their own Scoring Area starts a Kick-Off (l.512)."""
        holder = state.layout.holder
        if holder is None or not pitch.keeper_kick_off(self.pitch, state.layout):
            return
        if step.holder_before == [holder.team, holder.index]:
            return  # the Keeper already held it: the Kick-Off was for that Possession
        self.then(state, KeeperKickOff(team=holder.team))

    def _keeper_kick_off(self, state: SnitchState, step: KeeperKickOff, events: list[Event]) -> None:
        """The Keeper's Kick-Off (l.512–522): shift-out, one optional Shift each (attacking first), a free sure Pass."""
        team = step.team
        if step.stage == 0:
            events.append(KickOffStarted(team=team))
            self.then(state, ShiftOut(), KeeperKickOff(team=team, stage=1))
        elif step.stage in (1, 2):
            seat = team if step.stage == 1 else rival(team)
            decision = ShiftPlayers(must=[seat], team=seat, left=1, no_scoring=True, optional=True, reason="kick_off")
            self._ask_shift(state, decision, KeeperKickOff(team=team, stage=step.stage + 1))
        else:
            keeper = PlayerRef(team, 0)
            if state.layout.holder == keeper and pitch.pass_targets(self.pitch, state.layout, keeper):
                self.ask(state, KickOffPass(must=[team]))

    def _shift_out(self, state: SnitchState, step: ShiftOut, events: list[Event]) -> None:
        """Players no longer allowed in a Scoring Area Shift to an adjacent Zone outside it (l.480, l.514)."""
        for player in pitch.must_shift_out(self.pitch, state.layout):
            if pitch.shift_out_zones(self.pitch, state.layout, player):
                decision = ShiftPlayers(
                    must=[player.team],
                    team=player.team,
                    left=1,
                    no_scoring=True,
                    only=[player.index],
                    reason="shift_out",
                )
                self.ask(state, decision)
                return  # one at a time; the next ShiftOut looks again
        return

    def _ask_shift(self, state: SnitchState, decision: ShiftPlayers, *then: FlowStep) -> None:
        """Asks for Shifts if any is possible; else goes straight on."""
        if self.shift_options(state, decision):
            self.ask(state, decision, *then)
        else:
            self.then(state, *then)

    def shift_options(self, state: SnitchState, decision: ShiftPlayers) -> list[ShiftPlayer]:
        """The Shifts a Shift decision allows."""
        out: list[ShiftPlayer] = []
        layout = state.layout
        for p in layout.team_players(decision.team):
            if p.index in decision.shifted or (decision.only and p.index not in decision.only):
                continue
            if decision.role is not None and p.position != decision.role:
                continue
            if decision.reason == "shift_out":
                zones: Sequence[str] = pitch.shift_out_zones(self.pitch, layout, p)
            else:
                zones = pitch.shift_destinations(self.pitch, layout, p, scoring_areas=not decision.no_scoring)
            out.extend(ShiftPlayer(team=p.team, player=p.index, zone=z) for z in zones)
        return out

    # ------------------------------------------------------------------ exchanges (rolls)

    def _start_exchange(self, state: SnitchState, exchange: Exchange) -> None:
        state.exchange = exchange
        self.then(state, ExchangeStep())

    def reaction_options(self, state: SnitchState, ex: Exchange) -> list[React]:
        """The Reactions that may answer the exchange's roll (l.398–412): one at most (l.400)."""
        layout = state.layout
        if ex.kind in ("steal",):
            assert ex.target is not None and ex.target_team is not None
            return [React(player=ex.target, reaction="steal_reaction")]
        if ex.kind in ("beat", "bludger"):
            assert ex.target is not None and ex.target_team is not None
            target = PlayerRef(ex.target_team, ex.target)
            out = [React(player=ex.target, reaction="manoeuvre")]
            out += [React(player=b.index, reaction="defense") for b in pitch.defense_beaters(layout, target)]
            return out
        if ex.kind == "shoot":
            defender = rival(ex.seat)
            keeper = PlayerRef(defender, 0)
            if layout.zone_of(keeper) == pitch.own_half(self.pitch, layout, defender).scoring_area:
                return [React(player=0, reaction="catch")]
        return []

    def reacting_seat(self, ex: Exchange) -> int:
        """The Coach who may react: the target's (the Keeper's for a Shoot)."""
        if ex.kind == "shoot":
            return rival(ex.seat)
        return ex.target_team if ex.target_team is not None else rival(ex.seat)

    def _exchange_step(self, state: SnitchState, step: ExchangeStep, events: list[Event]) -> None:
        """Carries the exchange on: Reaction, Aim at the Hoop, Dice tokens, the roll, re-roll windows, the result."""
        ex = state.exchange
        assert ex is not None
        if ex.stage == "reaction":
            ex.stage = "aim"
            if ex.kind != "race" and self.reaction_options(state, ex):
                self.ask(state, Reaction(must=[self.reacting_seat(ex)]), ExchangeStep())
                return
        if ex.stage == "aim":
            ex.stage = "tokens"
            ex.windows = [s for s in self.resolution_order(state, ex)]
            if ex.kind == "shoot" and self._keeper_in_area(state, ex):
                self.ask(state, AimAtHoop(must=[0, 1]), ExchangeStep())
                return
        if ex.stage == "tokens":
            while ex.windows:
                seat = ex.windows.pop(0)
                if len(self.token_options(state, seat)) > 1 or self.placeable(state, seat):
                    self.ask(state, DiceTokens(must=[seat]), ExchangeStep())
                    return
            ex.stage = "roll"
        if ex.stage == "roll":
            self._roll(state, ex, events)
            ex.stage = "windows"
            ex.windows = [s for s in self.resolution_order(state, ex)]
        if ex.stage == "windows":
            while ex.windows:
                seat = ex.windows.pop(0)
                if self._window_open(state, ex, seat):
                    self.ask(state, RollWindow(must=[seat]), ExchangeStep())
                    return
            ex.stage = "resolve"
        if ex.stage == "resolve":
            self._resolve(state, ex, events)

    def resolution_order(self, state: SnitchState, ex: Exchange) -> tuple[int, int]:
        """Active Coach first, then the other (l.179)."""
        return rolls.resolution_order(ex.seat, state.last_actor)

    def _keeper_in_area(self, state: SnitchState, ex: Exchange) -> bool:
        defender = rival(ex.seat)
        return (
            state.layout.zone_of(PlayerRef(defender, 0))
            == pitch.own_half(self.pitch, state.layout, defender).scoring_area
        )

    def roll_name(self, ex: Exchange) -> str:
        """The name of the exchange's Action roll: the Pitch Action, or the race Action."""
        return ex.race_step if ex.kind == "race" and ex.race_step else ex.kind

    def _action_pool(self, state: SnitchState, ex: Exchange) -> DicePool | None:
        if ex.fixed is not None:
            return None
        if ex.kind == "race":
            assert ex.race_step is not None
            return self.pool(state, ex.seat, 6, ex.race_step)
        assert ex.actor is not None
        return self.pool(state, ex.seat, ex.actor, ex.kind)

    def _reaction_pool(self, state: SnitchState, ex: Exchange) -> DicePool | None:
        if ex.reaction is None or ex.reactor is None:
            return None
        return self.pool(state, self.reacting_seat(ex), ex.reactor, ex.reaction, reaction=True)

    def _roller_tokens(self, state: SnitchState, ex: Exchange, side: str) -> tuple[list[Colour], list[Colour]]:
        """The Bonus and Penalty Dice tokens on the card of one side's roller."""
        if side == "action":
            if ex.kind == "race":
                held = state.held[ex.seat]
                return [h.colour for h in held if h.token == "bonus"], [h.colour for h in held if h.token == "penalty"]
            if ex.actor is None:
                return [], []
            tokens = state.players[ex.seat].team[ex.actor]
        else:
            if ex.reactor is None:
                return [], []
            tokens = state.players[self.reacting_seat(ex)].team[ex.reactor]
        return list(tokens.bonus), list(tokens.penalty)

    def roller_owner(self, state: SnitchState, ex: Exchange, side: str) -> int | None:
        """The Coach whose Player rolls this side of the exchange (None: nobody rolls it, e.g. a Bludger's hit)."""
        if side == "action":
            return ex.seat if self._action_pool(state, ex) is not None else None
        return self.reacting_seat(ex) if ex.reactor is not None else None

    def token_sides(self, state: SnitchState, ex: Exchange, seat: int) -> tuple[str | None, str | None]:
        """The side whose Bonus tokens `seat` may spend and the side whose Penalty tokens it may spend (l.454–456).

        Decided by whose Player rolls, never by who made the Action: a Coach's Bludger may
        hit one of that Coach's own Players, whose Bonus tokens are still its Coach's to spend.
        """
        sides = ("action", "reaction")
        own = next((side for side in sides if self.roller_owner(state, ex, side) == seat), None)
        other = next((side for side in sides if self.roller_owner(state, ex, side) == rival(seat)), None)
        return own, other

    def _side_pool(self, state: SnitchState, ex: Exchange, side: str | None) -> DicePool | None:
        if side is None:
            return None
        return self._action_pool(state, ex) if side == "action" else self._reaction_pool(state, ex)

    def token_options(self, state: SnitchState, seat: int) -> list[SpendTokens]:
        """The ways `seat` may spend Dice tokens on the coming roll: its Bonus, the rival roller's Penalty (l.454–456).

        Always includes spending none.
        """
        ex = state.exchange
        if ex is None:
            return [SpendTokens()]
        own_side, rival_side = self.token_sides(state, ex, seat)
        own_pool = self._side_pool(state, ex, own_side)
        other_pool = self._side_pool(state, ex, rival_side)
        bonus_have = self._roller_tokens(state, ex, own_side)[0] if own_side and own_pool is not None else []
        penalty_have = self._roller_tokens(state, ex, rival_side)[1] if rival_side and other_pool is not None else []
        out = []
        for bonus in _sub_multisets(bonus_have):
            if own_pool is not None and not _pool_allows(self.data.dice, own_pool, bonus, ()):
                continue
            for penalty in _sub_multisets(penalty_have):
                if other_pool is not None and not _pool_allows(self.data.dice, other_pool, (), penalty):
                    continue
                out.append(SpendTokens(bonus=tuple(bonus), penalty=tuple(penalty)))
        return out

    def _roll(self, state: SnitchState, ex: Exchange, events: list[Event]) -> None:
        """Rolls the Action's and the Reaction's dice, with the Dice tokens spent on them (l.167–169)."""
        dice = self.data.dice
        pool = self._action_pool(state, ex)
        if pool is not None:
            pool = rolls.with_dice_tokens(dice, pool, ex.bonus, ex.penalty)
            ex.action_roll = rolls.roll_pool(state.rng, dice, pool, "action", ex.seat)
        reaction_pool = self._reaction_pool(state, ex)
        if reaction_pool is not None:
            reaction_pool = rolls.with_dice_tokens(dice, reaction_pool, ex.reaction_bonus, ex.reaction_penalty)
            ex.reaction_roll = rolls.roll_pool(state.rng, dice, reaction_pool, "reaction", self.reacting_seat(ex))
        result = self.result(state, ex)
        events.append(
            DiceRolled(
                roll=self.roll_name(ex),
                action=ex.action_roll,
                reaction=ex.reaction_roll,
                successes=result.successes,
                opportunities=result.opportunities,
            )
        )

    def modifiers(self, state: SnitchState, ex: Exchange) -> tuple[int, int]:
        """The Action's and the Reaction's modifiers: Disadvantage, Stunned, Intrepid Moves, Aim (l.416–424, l.542)."""
        layout = state.layout
        if ex.kind == "race":
            # A race roll: its printed modifier, the Seeker's Trait, a Locked Trait used on it.
            bonus = (
                traits.lasting_bonus(self.trait(state, ex.seat, None), ex.race_step or "") if ex.fixed is None else 0
            )
            return ex.modifier + bonus + ex.late_modifier, 0
        if ex.kind == "bludger":
            action_mod = 0  # a Bludger's hit is a fixed Success (l.536)
        else:
            assert ex.actor is not None
            actor = PlayerRef(ex.seat, ex.actor)
            if ex.kind == "pass":
                assert ex.target is not None
                disadvantage = pitch.pass_disadvantage(layout, actor, PlayerRef(ex.seat, ex.target))
            else:
                disadvantage = pitch.disadvantage(layout, actor)
            trait = self.trait(state, ex.seat, ex.actor)
            effects = self._effect_bonus(state, ex.seat, ex.kind) + ex.aim_bonus + ex.late_modifier
            effects += traits.lasting_bonus(trait, ex.kind)
            stunned = traits.stunned(trait, state.players[ex.seat].team[ex.actor].stunned)
            action_mod = rolls.modifier(
                ex.kind, disadvantage=traits.disadvantage(trait, disadvantage), stunned=stunned, effects=effects
            )
        reaction_mod = 0
        if ex.reactor is not None and ex.reaction is not None:
            team = self.reacting_seat(ex)
            reactor = PlayerRef(team, ex.reactor)
            trait = self.trait(state, team, ex.reactor)
            effects = self._effect_bonus(state, team, ex.reaction) + ex.late_reaction_modifier
            effects += traits.lasting_bonus(trait, ex.reaction)
            reaction_mod = rolls.modifier(
                ex.reaction,
                disadvantage=traits.disadvantage(trait, pitch.disadvantage(layout, reactor)),
                stunned=traits.stunned(trait, state.players[team].team[ex.reactor].stunned),
                effects=effects,
            )
        return action_mod, reaction_mod

    def _effect_bonus(self, state: SnitchState, roller: int, roll: str) -> int:
        """What the lasting Intrepid Moves in play add to (or deduct from) `roller`'s roll of this kind."""
        total = 0
        for seat, coach in enumerate(state.players):
            for lasting in coach.effects:
                move = self.card(state, seat, lasting.card).intrepid
                effect = move.effect if move else None
                if isinstance(effect, ModifyRoll) and effect.roll == roll:
                    friendly = effect.whose == "friendly"
                    if friendly and roller == seat:
                        total += effect.amount
                    elif not friendly and roller != seat:
                        total -= effect.amount
        return total

    def result(self, state: SnitchState, ex: Exchange) -> rolls.Result:
        """The exchange's result so far."""
        action_mod, reaction_mod = self.modifiers(state, ex)
        action: Roll | int = ex.action_roll if ex.action_roll is not None else (ex.fixed or 0)
        return rolls.resolve(
            self.data.dice, action, ex.reaction_roll, action_modifier=action_mod, reaction_modifier=reaction_mod
        )

    # --- the window after the roll

    def _window_open(self, state: SnitchState, ex: Exchange, seat: int) -> bool:
        """Whether `seat` is asked after the roll: a Goal token, a re-roll in play, a Swift moment (public facts)."""
        if self._goal_reroll_dice(state, ex, seat) or self._reroll_grants(state, ex, seat):
            return True
        if self._trait_use(state, ex, seat) is not None:
            return True
        return bool(self._swift_moments(ex, seat)) and self._may_play_swift(state, seat)

    def _may_play_swift(self, state: SnitchState, seat: int) -> bool:
        coach = state.players[seat]
        return tactics.can_play_swift(tactics.Cards(hand=tuple(coach.hand)), len(coach.intrepids))

    def _swift_moments(self, ex: Exchange, seat: int) -> tuple[str, ...]:
        if ex.kind not in ROLLED:
            return ()
        return SWIFT_MOMENTS.get((ex.kind, seat == ex.seat), ())

    def _own_side(self, ex: Exchange, seat: int) -> str | None:
        """The rolled side whose Player is `seat`'s (a Bludger's hit is nobody's roll, so its target's Reaction is)."""
        if seat == ex.seat and ex.action_roll is not None:
            return "action"
        if ex.reaction_roll is not None and seat == self.reacting_seat(ex):
            return "reaction"
        return None

    def _goal_reroll_dice(self, state: SnitchState, ex: Exchange, seat: int) -> list[int]:
        """The dice of its own Player's roll `seat` may re-roll by flipping a Goal token (l.504)."""
        if state.players[seat].goals <= 0:
            return []
        side = self._own_side(ex, seat)
        roll = ex.action_roll if side == "action" else ex.reaction_roll if side == "reaction" else None
        if roll is None or not rolls.can_use_goal_token(roll, seat):
            return []
        return list(rolls.rerollable(roll, seat))

    def _trait_use(self, state: SnitchState, ex: Exchange, seat: int) -> tuple[int, str, str, int] | None:
        """The Locked Trait `seat`'s roller may use on its own roll: (lineup index, side, "add"/"reroll", amount)."""
        side = self._own_side(ex, seat)
        if side is None:
            return None
        index = ex.actor if side == "action" else ex.reactor
        if side == "reaction" and index is None:
            return None
        roll = (ex.race_step if ex.kind == "race" else ex.kind) if side == "action" else ex.reaction
        lineup_index = 6 if index is None else index
        if lineup_index in state.players[seat].locked:
            return None
        use = traits.locked_use(self.trait(state, seat, index), roll or "")
        if use is None:
            return None
        if use[0] == "reroll":
            rolled = self._roll_of(ex, side)
            if rolled is None or not rolls.rerollable(rolled, seat):
                return None
        return lineup_index, side, use[0], use[1]

    def trait_options(self, state: SnitchState, seat: int) -> list[UseTrait]:
        """The ways `seat` may use its roller's Locked Trait now (an addition, or a re-roll of some dice)."""
        ex = state.exchange
        use = self._trait_use(state, ex, seat) if ex is not None else None
        if ex is None or use is None:
            return []
        _, side, what, amount = use
        if what == "add":
            return [UseTrait()]
        rolled = self._roll_of(ex, side)
        assert rolled is not None
        free = rolls.rerollable(rolled, seat)
        return [UseTrait(dice=chosen) for n in range(1, min(amount, len(free)) + 1) for chosen in combinations(free, n)]

    def _reroll_grants(self, state: SnitchState, ex: Exchange, seat: int) -> list[tuple[int | None, str, int]]:
        """The re-rolls `seat` may use on this roll: (card of a lasting effect or None for a Swift one, side, dice)."""
        grants: list[tuple[int | None, str, int]] = []
        for lasting in state.players[seat].effects:
            move = self.card(state, seat, lasting.card).intrepid
            if lasting.used or move is None or not isinstance(move.effect, RerollEffect):
                continue
            side = self._side_of(ex, seat, move.effect.roll, move.effect.whose)
            if side is not None:
                grants.append((lasting.card, side, move.effect.dice))
        grants += [(None, g.side, g.dice) for g in ex.swift_rerolls if g.seat == seat]
        usable = []
        for grant in grants:
            roll = self._roll_of(ex, grant[1])
            if roll is not None and rolls.rerollable(roll, seat):
                usable.append(grant)
        return usable

    def _side_of(self, ex: Exchange, seat: int, roll: str, whose: str) -> str | None:
        """Which side of the exchange is `whose` (friendly/rival, for `seat`) roll named `roll`, if any."""
        if ex.kind in ROLLED and ex.kind == roll:
            actor_friendly = ex.seat == seat
            if (whose == "friendly") == actor_friendly:
                return "action"
        if ex.reaction is not None and ex.reaction == roll:
            reactor_friendly = self.reacting_seat(ex) == seat
            if (whose == "friendly") == reactor_friendly:
                return "reaction"
        return None

    @staticmethod
    def _roll_of(ex: Exchange, side: str) -> Roll | None:
        return ex.action_roll if side == "action" else ex.reaction_roll

    def window_options(self, state: SnitchState, seat: int) -> list[Action]:
        """Everything `seat` may do in its window after the roll."""
        ex = state.exchange
        if ex is None:
            return []
        out: list[Action] = [KeepRoll()]
        out += [GoalReroll(die=d) for d in self._goal_reroll_dice(state, ex, seat)]
        for _, side, dice in self._reroll_grants(state, ex, seat):
            roll = self._roll_of(ex, side)
            assert roll is not None
            free = rolls.rerollable(roll, seat)
            for n in range(1, min(dice, len(free)) + 1):
                for chosen in combinations(free, n):
                    candidate = Reroll(side=side, dice=tuple(chosen))  # type: ignore[arg-type]
                    if candidate not in out:
                        out.append(candidate)
        out += self._swift_cards(state, seat, self._swift_moments(ex, seat))
        out += self.trait_options(state, seat)
        return out

    def _swift_cards(self, state: SnitchState, seat: int, moments: Sequence[str]) -> list[Action]:
        if not moments or not self._may_play_swift(state, seat):
            return []
        out: list[Action] = []
        for card_id in state.players[seat].hand:
            move = self.card(state, seat, card_id).intrepid
            if move is not None and move.swift in moments:
                out.append(PlaySwift(card=card_id))
        return out

    # --- resolving

    def _resolve(self, state: SnitchState, ex: Exchange, events: list[Event]) -> None:
        """The exchange's outcome and its consequences (l.356–386, l.494, l.536).

        Consequences are steps run in this order: who must leave a Scoring Area, where a
        Loose Quaffle goes, where a beaten Bludger goes, then the Tempo Point (or its Break);
        then the effects of Spectators placed while it was being resolved (pushed first).
        """
        result = self.result(state, ex)
        state.exchange = None
        self.then(state, *ex.after)
        events.append(
            ExchangeResolved(
                roll=self.roll_name(ex),
                seat=ex.seat,
                successes=result.successes,
                action_modifier=result.action_modifier,
                opportunities=result.opportunities,
                reaction_modifier=result.reaction_modifier,
                net=result.net,
                success=result.success,
            )
        )
        layout = state.layout
        if ex.kind == "race":
            assert ex.race_step is not None
            self._apply_race(state, ex.seat, ex.race_step, result.remaining, events)
            return
        if ex.kind == "bludger":
            assert ex.target is not None and ex.target_team is not None
            if result.success:
                self._hit(state, PlayerRef(ex.target_team, ex.target), ex.seat, events)
            return
        assert ex.actor is not None
        actor = PlayerRef(ex.seat, ex.actor)
        if result.success:
            self._earn_tempo(state, ex)  # pushed first: it runs after the other consequences
        if ex.kind == "pass":
            assert ex.target is not None
            target = PlayerRef(ex.seat, ex.target)
            if result.success:
                self._give_quaffle(state, target, "pass", events)
            else:
                zones = pitch.loose_quaffle_zones(self.pitch, "pass", layout.zone_of(target))
                self._lose_quaffle(state, rival(ex.seat), zones, events)
        elif ex.kind == "steal":
            if result.success:
                self._give_quaffle(state, actor, "steal", events)
        elif ex.kind == "shoot":
            self._shoot_result(state, ex, result.success, events)
        elif ex.kind == "beat":
            assert ex.target is not None and ex.bludger is not None
            target = PlayerRef(rival(ex.seat), ex.target)
            zones = pitch.beaten_bludger_zones(self.pitch, layout.zone_of(target))
            # l.382: "Whether or not this Action is successful, your rival places the beaten Bludger".
            self.then(state, Ask(decision=BeatenBludger(must=[rival(ex.seat)], bludger=ex.bludger, zones=list(zones))))
            if result.success:
                self._hit(state, target, ex.seat, events)

    def _hit(self, state: SnitchState, target: PlayerRef, controller: int, events: list[Event]) -> None:
        """A Bludger hits: a Stunned token; a carried Quaffle goes Loose where its Coach says (l.380, l.536)."""
        self._stun(state, target, 1, events)
        if state.layout.holder == target:
            zones = pitch.loose_quaffle_zones(self.pitch, "bludger", state.layout.zone_of(target))
            self._lose_quaffle(state, controller, zones, events)

    def _shoot_result(self, state: SnitchState, ex: Exchange, success: bool, events: list[Event]) -> None:
        """A Goal (l.494–496) or a miss (l.368–370)."""
        assert ex.actor is not None
        seat, defender = ex.seat, rival(ex.seat)
        keeper = PlayerRef(defender, 0)
        area = pitch.own_half(self.pitch, state.layout, defender).scoring_area
        if success:
            coach = state.players[seat]
            coach.goals += 1
            events.append(GoalScored(seat=seat, player=ex.actor, goals=coach.goals + coach.celebrated))
            self._end_block(state, events)
            # Authored (RULES.md "Engine"): after a Goal the Quaffle goes to the conceding Keeper,
            # whose Kick-Off (l.512) brings the scorer out of the Scoring Area.
            state.layout = state.layout.with_quaffle(keeper)
            events.append(QuaffleCaught(team=defender, player=0, how="goal"))
            self._set_attacking(state, defender, events)
            self.then(state, TakeSnitch(seat=seat))
            return
        if state.layout.zone_of(keeper) == area:
            self._give_quaffle(state, keeper, "save", events)
            return
        zones = pitch.loose_quaffle_zones(self.pitch, "shoot", area)
        self._lose_quaffle(state, defender, zones, events)

    def _earn_tempo(self, state: SnitchState, ex: Exchange) -> None:
        """A successful rolled Pass, Beat, Steal or Shoot: a Tempo Point or a Break (l.556–578); extra points."""
        kind: PitchAction = ex.kind  # type: ignore[assignment]
        extra = sum(
            1
            for lasting in state.players[ex.seat].effects
            if isinstance(effect := self._effect(state, ex.seat, lasting.card), Tempo) and effect.on == kind
        )
        extra += traits.extra_tempo(self.trait(state, ex.seat, ex.actor), kind)
        steps: list[FlowStep] = []
        if extra:
            steps.append(GainTempo(seat=ex.seat, points=extra))
        if tactics.can_break_tempo(kind, True, True, ex.no_tempo):
            self.then(state, Ask(decision=TempoChoice(must=[ex.seat], action=kind)), *steps)
            return
        if tactics.earns_tempo(kind, True, True, ex.no_tempo):
            steps.insert(0, GainTempo(seat=ex.seat))
        self.then(state, *steps)

    def _effect(self, state: SnitchState, seat: int, card_id: int) -> Any:
        move = self.card(state, seat, card_id).intrepid
        return move.effect if move else None

    def _gain_tempo(self, state: SnitchState, step: GainTempo, events: list[Event]) -> None:
        """One Tempo Point at a time; above 3, all are discarded for a Snitch card (l.565)."""
        coach = state.players[step.seat]
        gain = tactics.gain_tempo(coach.tempo, 1)
        coach.tempo = gain.points
        events.append(TempoGained(seat=step.seat, points=gain.points, spent=bool(gain.snitch_cards)))
        rest: list[FlowStep] = [GainTempo(seat=step.seat, points=step.points - 1)] if step.points > 1 else []
        if gain.snitch_cards:
            self.then(state, TakeSnitch(seat=step.seat), *rest)
        else:
            self.then(state, *rest)

    def _loose_quaffle_step(self, state: SnitchState, step: LooseQuaffleStep, events: list[Event]) -> None:
        if len(step.zones) == 1:
            self._place_loose(state, step.chooser, step.zones[0], step.lost_by, events)
            return
        self.ask(state, LooseQuaffle(must=[step.chooser], zones=list(step.zones), lost_by=step.lost_by))

    def _place_loose(self, state: SnitchState, chooser: int, zone: str, lost_by: int, events: list[Event]) -> None:
        """The Quaffle lies Loose; the other Team attacks (l.476); the block ends; Swift moments follow."""
        state.layout = state.layout.with_quaffle(zone)
        attacking = rival(lost_by)
        events.append(QuaffleLoose(zone=zone, attacking=attacking))
        self._set_attacking(state, attacking, events)
        self._end_block(state, events)
        for seat in (state.attacking, rival(state.attacking))[::-1]:
            if self._may_play_swift(state, seat):
                self.interrupt(state, SwiftWindow(must=[seat]))

    # ------------------------------------------------------------------ Bludger Movement

    def _bludger_movement(self, state: SnitchState, index: int) -> None:
        """Bludger Movement (l.524–534): the Defending Coach picks and moves one, the Attacking Coach the other."""
        if index == 0 and len(state.layout.bludgers) == 2:
            move = BludgerMove(must=[self.defending(state)], bludgers=[0, 1])
        elif index == 1 and state.moved_bludger is not None:
            move = BludgerMove(must=[state.attacking], bludgers=[1 - state.moved_bludger])
        else:
            self.then(state, SequenceStep(stage="snitch"))
            return
        after = SequenceStep(stage="bludgers", index=index + 1)
        if not self.spectator_window(state, rival(move.must[0]), "bludger", Ask(decision=move), after):
            self.ask(state, move, after)

    def bludger_zones(self, state: SnitchState, decision: BludgerMove, bludger: int) -> tuple[str, ...]:
        """Where a Bludger may go under this decision."""
        if decision.reach == 0:
            return pitch.bludger_destinations(self.pitch, state.layout, bludger)
        return pitch.zones_within(self.pitch, state.layout.bludgers[bludger], decision.reach)

    def bludger_targets(self, state: SnitchState, decision: BludgerTarget, seat: int) -> list[PlayerRef]:
        """Whom a moved Bludger may hit."""
        zone = state.layout.bludgers[decision.bludger]
        players = pitch.bludger_targets(state.layout, zone)
        return [p for p in players if not decision.rival_only or p.team != seat]

    # ------------------------------------------------------------------ Intrepid Moves

    def _intrepid_effect(self, state: SnitchState, step: IntrepidEffect, events: list[Event]) -> None:
        """Step 4 (l.287, l.436): one Intrepid Move takes effect (see RULES.md for when each kind applies)."""
        seat = step.seat
        effect = self._effect(state, seat, step.card)
        events.append(IntrepidResolved(seat=seat, card=step.card))
        self._apply_effect(state, seat, step.card, effect, events)

    def _apply_effect(self, state: SnitchState, seat: int, card_id: int, effect: Any, events: list[Event]) -> None:
        if isinstance(effect, Shift):
            team = seat if effect.whose == "friendly" else rival(seat)
            self._ask_shift(state, ShiftPlayers(must=[seat], team=team, left=effect.players, role=effect.role))
        elif isinstance(effect, FreeActionEffect):
            self.then(state, FreeActionStep(seat=seat, action=effect.action, left=effect.count))
        elif isinstance(effect, DiceTokensEffect):
            self.ask(
                state, DiceTokenPlacement(must=[seat], token=effect.token, colour=effect.colour, left=effect.count)
            )
        elif isinstance(effect, ModifyRoll | RerollEffect) or (isinstance(effect, Tempo) and effect.on is not None):
            state.players[seat].effects.append(LastingEffect(card=card_id))
        elif isinstance(effect, Tempo):
            self.then(state, GainTempo(seat=seat))
        elif isinstance(effect, Bludger):
            decision = BludgerMove(
                must=[seat], bludgers=[0, 1], reach=effect.zones, attack=effect.attack, rival_only=True
            )
            self.ask(state, decision)
        elif isinstance(effect, Upwind):
            self.store_race(state, race.new_turn(self.race_of(state)))
            self._ask_race_token(state, seat, "upwind", None, effect.tokens)

    def _free_action_step(self, state: SnitchState, step: FreeActionStep, events: list[Event]) -> None:
        """A free Action (l.392), if any can be performed."""
        kinds = [step.action] if step.action is not None else list(PITCH_ACTION_TYPES)
        if not any(self.can_perform(state, step.seat, k) for k in kinds):
            return
        if not step.offered:
            again = msgspec.structs.replace(step, offered=True)
            if self.spectator_window(state, rival(step.seat), "free_action", again):
                return
        rest: list[FlowStep] = (
            [FreeActionStep(seat=step.seat, action=step.action, reason=step.reason, left=step.left - 1)]
            if step.left > 1
            else []
        )
        self.ask(state, FreeAction(must=[step.seat], action=step.action, reason=step.reason), *rest)

    # ------------------------------------------------------------------ the Snitch race

    def _take_snitch(self, state: SnitchState, step: TakeSnitch, events: list[Event]) -> None:
        """A Snitch card from the row (l.656), if the row has one."""
        if race.snitch_choices(self.race_of(state), step.seat):
            self.ask(state, SnitchCardChoice(must=[step.seat]))

    def _race_step(self, state: SnitchState, seat: int, step: Step, events: list[Event]) -> None:
        """One step of an Impulse (or a Golden Snitch card's Glimpse) for `seat`."""
        current = self.race_of(state)
        if isinstance(step, UpwindToken | RaceDiceToken):
            token = "upwind" if isinstance(step, UpwindToken) else step.token
            colour = None if isinstance(step, UpwindToken) else step.colour
            self._ask_race_token(state, seat, token, colour, 1)
            return
        assert isinstance(step, RaceAction)
        if isinstance(step, Obstruct) and not race.can_obstruct(current, seat):
            events.append(
                RaceMoved(
                    seat=seat,
                    step="obstruct",
                    successes=0,
                    seekers=list(state.seekers),
                    snitch=state.snitch,
                    skipped=True,
                )
            )
            return
        if step.successes is not None:
            self._apply_race(state, seat, step.name, step.successes, events)
            return
        self._start_exchange(
            state, Exchange(kind="race", seat=seat, race_step=step.name, modifier=step.modifier, stage="aim")
        )

    def _apply_race(self, state: SnitchState, seat: int, name: str, successes: int, events: list[Event]) -> None:
        current = self.race_of(state)
        if name == "dodge" and race.may_ignore(current, seat, successes):
            self.ask(state, DodgeChoice(must=[seat], successes=successes))
            return
        if name == "accelerate":
            current = race.accelerate(current, seat, successes)
        elif name == "dodge":
            current = race.dodge(current, seat, successes, False)
        elif name == "glimpse":
            current = race.glimpse(current, successes)
        else:
            current = race.obstruct(current, seat, successes)
        self.store_race(state, current)
        events.append(
            RaceMoved(seat=seat, step=name, successes=successes, seekers=list(state.seekers), snitch=state.snitch)
        )
        self._check_catch(state, events)

    def _check_catch(self, state: SnitchState, events: list[Event]) -> None:
        """A Seeker on the Snitch's space catches it and wins at once (l.685)."""
        caught = race.catcher(self.race_of(state), state.attacking)
        if caught is not None:
            events.append(SnitchCaught(seat=caught))
            self._finish(state, caught, events, reason=f"seat {caught}'s Seeker caught the Golden Snitch")

    def _finish(self, state: SnitchState, winner: int | None, events: list[Event], reason: str) -> None:
        goals = [c.goals + c.celebrated for c in state.players]
        if winner is None:
            seats = [SeatResult(seat=s, result="draw", score=float(goals[s]), rank=1) for s in (0, 1)]
        else:
            seats = [
                SeatResult(
                    seat=s, result="win" if s == winner else "loss", score=float(goals[s]), rank=1 if s == winner else 2
                )
                for s in (0, 1)
            ]
        state.outcome = Outcome(seats=seats, reason=reason)
        self.clear(state)
        state.exchange = None
        events.append(MatchFinished(outcome=state.outcome))

    def _impulse(self, state: SnitchState, step: ImpulseStep, events: list[Event]) -> None:
        if step.index + 1 < len(step.steps):
            self.then(state, ImpulseStep(seat=step.seat, steps=step.steps, index=step.index + 1))
        self._race_step(state, step.seat, step.steps[step.index], events)

    def _ask_race_token(self, state: SnitchState, seat: int, token: str, colour: Colour | None, left: int) -> None:
        spaces = race.token_spaces(self.race_of(state), seat)
        if spaces:
            self.ask(state, RaceTokenPlacement(must=[seat], token=token, colour=colour, left=left))

    # ================================================================= the rules

    def rulebook(self) -> dict[type, Rule[SnitchState, Any, Event]]:
        """One rule per action: how it is listed, refused and performed."""

        def rule(
            name: str,
            options: Callable[[SnitchState, int], Iterable[Any]],
            perform: Callable[[SnitchState, int, Any], list[Event]],
            allowed: Callable[[SnitchState, int, Any], bool] | None = None,
        ) -> Rule[SnitchState, Any, Event]:
            # An action is legal exactly when it is one of the options (`allowed` checks the
            # same thing without listing every option, where the lists are long).
            def problem(state: SnitchState, seat: int, action: Any) -> str | None:
                legal = allowed(state, seat, action) if allowed else action in list(options(state, seat))
                return None if legal else self.text.refusal(state, seat, action)

            return Rule(name, options, problem, perform, exact=True)

        pitch_rule = rule("Actions", self._pitch_options, self._perform_pitch, self._pitch_allowed)
        return {
            PlaceBludger: rule("Bludgers", self._place_bludger_options, self._do_place_bludger),
            DeployPlayer: rule("Kick-Off", self._deploy_actions, self._do_deploy),
            ChoosePitchCard: rule("Pitch Actions card", self._pitch_card_options, self._do_pitch_card),
            PlayIntrepid: rule("Intrepid Moves", self._intrepid_options, self._do_intrepid),
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
            Aim: rule(
                "Aim at the Hoop", lambda s, seat: [Aim(number=n) for n in self.data.hoops.numbers], self._do_aim
            ),
            SpendTokens: rule("Dice tokens", self.token_options, self._do_spend_tokens),
            Reroll: rule("Re-rolls", self._window_of(Reroll), self._do_window),
            GoalReroll: rule("Goal tokens", self._window_of(GoalReroll), self._do_window),
            PlaySwift: rule("Swift Intrepid Moves", self._swift_options, self._do_swift),
            KeepRoll: rule("Re-rolls", lambda s, seat: [KeepRoll()], self._do_window),
            PlaceQuaffle: rule("Loose Quaffle", self._quaffle_options, self._do_place_quaffle),
            ShiftPlayer: rule("Shift", self._shift_actions, self._do_shift),
            SkipShift: rule("Shift", self._skip_shift_options, self._do_shift),
            SkipPass: rule("Keeper's Kick-Off", lambda s, seat: [SkipPass()], self._do_skip_pass),
            TakeTempo: rule("Tempo", lambda s, seat: [TakeTempo()], self._do_tempo),
            BreakTempo: rule("Breaking the Tempo", self._break_options, self._do_tempo),
            MoveBludger: rule("Bludgers", self._move_bludger_options, self._do_move_bludger),
            TargetPlayer: rule("Bludger Movement", self._target_options, self._do_target),
            PlaceDiceToken: rule("Dice tokens", self._dice_token_options, self._do_dice_token),
            RemoveStunned: rule("Hand Swap", self._remove_stunned_options, self._do_remove_stunned),
            SkipRemove: rule("Hand Swap", lambda s, seat: [SkipRemove()], self._do_remove_stunned),
            TakeSnitchCard: rule("Snitch cards", self._snitch_card_options, self._do_take_snitch_card),
            PlaceRaceToken: rule("Snitch Race tokens", self._race_token_options, self._do_race_token),
            DodgeToken: rule(
                "Dodge", lambda s, seat: [DodgeToken(ignore=False), DodgeToken(ignore=True)], self._do_dodge
            ),
            NoSwift: rule("Swift Intrepid Moves", lambda s, seat: [NoSwift()], self._do_swift),
            PickForTeam: Rule("Build Your Team", self._pick_options, self._pick_problem, self._do_pick, exact=True),
            DropFromTeam: Rule("Build Your Team", self._drop_options, self._drop_problem, self._do_drop, exact=True),
            ConfirmTeam: Rule(
                "Build Your Team", self._confirm_options, self._confirm_problem, self._do_confirm, exact=True
            ),
            ChooseFlag: rule("Flag tokens", self._flag_options, self._do_flag),
            UseTrait: rule("Traits", self.trait_options, self._do_use_trait),
            PlaySpectator: rule("Spectators", self.spectator_options, self._do_spectator),
            NoSpectator: rule("Spectators", self.no_spectator_options, self._do_no_spectator),
        }

    # --- options

    def _place_bludger_options(self, state: SnitchState, seat: int) -> list[Action]:
        top = self.top(state)
        if isinstance(top, BeatenBludger):
            return [PlaceBludger(zone=z) for z in top.zones]
        return [PlaceBludger(zone=z) for z in pitch.bludger_placements(self.pitch, state.layout, seat)]

    def _deploy_options(self, state: SnitchState, seat: int) -> tuple[pitch.Deploy, ...]:
        moved = frozenset(PlayerRef(t, i) for t, i in state.deployed)
        return pitch.deployment_options(self.pitch, state.layout, seat, moved)

    def _deploy_actions(self, state: SnitchState, seat: int) -> list[Action]:
        return [DeployPlayer(player=d.player.index, zone=d.to) for d in self._deploy_options(state, seat)]

    def _pitch_card_options(self, state: SnitchState, seat: int) -> list[Action]:
        if state.players[seat].pitch_card is not None:
            return []
        return [ChoosePitchCard(card=c) for c in dict.fromkeys(state.players[seat].hand)]

    def _intrepid_options(self, state: SnitchState, seat: int) -> list[Action]:
        out: list[Action] = []
        for card_id in dict.fromkeys(state.players[seat].hand):
            move = self.card(state, seat, card_id).intrepid
            # Swift Intrepid Moves wait for their moment (l.440); see RULES.md.
            if move is not None and move.swift is None:
                out.append(PlayIntrepid(card=card_id))
        return out

    def _decline_block_options(self, state: SnitchState, seat: int) -> list[Action]:
        top = self.top(state)
        return [DeclineBlock()] if isinstance(top, BlockAction) and top.may_decline else []

    def _react_options(self, state: SnitchState, seat: int) -> list[Action]:
        return list(self.reaction_options(state, state.exchange)) if state.exchange else []

    def _window_of(self, kind: type) -> Callable[[SnitchState, int], list[Action]]:
        return lambda state, seat: [a for a in self.window_options(state, seat) if isinstance(a, kind)]

    def _swift_options(self, state: SnitchState, seat: int) -> list[Action]:
        top = self.top(state)
        if isinstance(top, SwiftWindow):
            return self._swift_cards(state, seat, ("loose_quaffle",))
        return self._window_of(PlaySwift)(state, seat)

    def _quaffle_options(self, state: SnitchState, seat: int) -> list[Action]:
        top = self.top(state)
        return [PlaceQuaffle(zone=z) for z in top.zones] if isinstance(top, LooseQuaffle) else []

    def _shift_actions(self, state: SnitchState, seat: int) -> list[Action]:
        top = self.top(state)
        return list(self.shift_options(state, top)) if isinstance(top, ShiftPlayers) else []

    def _skip_shift_options(self, state: SnitchState, seat: int) -> list[Action]:
        top = self.top(state)
        return [SkipShift()] if isinstance(top, ShiftPlayers) and top.optional else []

    def _break_options(self, state: SnitchState, seat: int) -> list[Action]:
        out: list[Action] = []
        if self.can_perform(state, seat, "pass"):
            out.append(BreakTempo(option="free_pass"))
        if self.shift_options(state, ShiftPlayers(team=seat, reason="break_tempo")):
            out.append(BreakTempo(option="shift"))
        return out

    def _move_bludger_options(self, state: SnitchState, seat: int) -> list[Action]:
        top = self.top(state)
        if not isinstance(top, BludgerMove):
            return []
        return [MoveBludger(bludger=b, zone=z) for b in top.bludgers for z in self.bludger_zones(state, top, b)]

    def _target_options(self, state: SnitchState, seat: int) -> list[Action]:
        top = self.top(state)
        if not isinstance(top, BludgerTarget):
            return []
        return [TargetPlayer(team=p.team, player=p.index) for p in self.bludger_targets(state, top, seat)]

    def _dice_token_options(self, state: SnitchState, seat: int) -> list[Action]:
        top = self.top(state)
        if not isinstance(top, DiceTokenPlacement):
            return []
        team = seat if top.token == "bonus" else rival(seat)
        return [PlaceDiceToken(team=team, player=i) for i in range(len(pitch.PITCH_LINEUP))]

    def _remove_stunned_options(self, state: SnitchState, seat: int) -> list[Action]:
        return [RemoveStunned(player=i) for i, p in enumerate(state.players[seat].team) if p.stunned]

    def _snitch_card_options(self, state: SnitchState, seat: int) -> list[Action]:
        return [TakeSnitchCard(card=c.card, option=c.option) for c in race.snitch_choices(self.race_of(state), seat)]

    def _race_token_options(self, state: SnitchState, seat: int) -> list[Action]:
        return [PlaceRaceToken(space=s) for s in race.token_spaces(self.race_of(state), seat)]

    # --- performs

    def _do_place_bludger(self, state: SnitchState, seat: int, action: PlaceBludger) -> list[Event]:
        events: list[Event] = []
        top = self.settle(state)
        bludger = top.bludger if isinstance(top, BeatenBludger) else len(state.layout.bludgers)
        state.layout = state.layout.with_bludger(bludger, action.zone)
        events.append(BludgerPlaced(seat=seat, bludger=bludger, zone=action.zone))
        self.advance(state, events)
        return events

    def _do_deploy(self, state: SnitchState, seat: int, action: DeployPlayer) -> list[Event]:
        events: list[Event] = []
        top = self.top(state)
        assert isinstance(top, Deployment)
        player = PlayerRef(seat, action.player)
        state.deployed.append([seat, action.player])
        self._place_player(state, player, action.zone, "deploy", events)
        top.left -= 1
        if top.left <= 0 or not self._deploy_options(state, seat):
            self.settle(state)
        self.advance(state, events)
        return events

    def _do_pitch_card(self, state: SnitchState, seat: int, action: ChoosePitchCard) -> list[Event]:
        coach = state.players[seat]
        coach.hand.remove(action.card)
        coach.pitch_card = action.card
        self.decided(state, seat)
        events: list[Event] = [PitchCardChosen(seat=seat, card=action.card)]
        self.advance(state, events)
        return events

    def _do_intrepid(self, state: SnitchState, seat: int, action: PlayIntrepid | DeclineIntrepid) -> list[Event]:
        self.settle(state)
        coach = state.players[seat]
        state.offer_last = seat
        events: list[Event]
        if isinstance(action, PlayIntrepid):
            coach.hand.remove(action.card)
            coach.intrepids.append(action.card)
            state.intrepid_plays.append([seat, action.card])
            events = [IntrepidPlayed(seat=seat, card=action.card)]
        else:
            coach.declined_intrepid = True
            events = [IntrepidDeclined(seat=seat)]
        self.advance(state, events)
        return events

    def _do_decline_block(self, state: SnitchState, seat: int, action: DeclineBlock) -> list[Event]:
        self.settle(state)
        events: list[Event] = []
        self._end_block(state, events, declined=True)
        self.advance(state, events)
        return events

    def _do_react(self, state: SnitchState, seat: int, action: React | NoReaction) -> list[Event]:
        self.settle(state)
        ex = state.exchange
        assert ex is not None
        if isinstance(action, React):
            ex.reactor, ex.reaction = action.player, action.reaction
            events: list[Event] = [ReactionDeclared(seat=seat, reaction=action.reaction, player=action.player)]
        else:
            events = [ReactionDeclared(seat=seat)]
        self.advance(state, events)
        return events

    def _do_aim(self, state: SnitchState, seat: int, action: Aim) -> list[Event]:
        state.players[seat].aim = action.number
        events: list[Event] = [AimChosen(seat=seat, number=action.number)]
        if self.decided(state, seat):
            ex = state.exchange
            assert ex is not None
            shooter, keeper = state.players[ex.seat].aim or 1, state.players[rival(ex.seat)].aim or 1
            ex.aim_bonus = rolls.aim_bonus(self.data.hoops, shooter, keeper)
            events.append(HoopsAimed(shooter=shooter, keeper=keeper, bonus=ex.aim_bonus))
            for coach in state.players:
                coach.aim = None
        self.advance(state, events)
        return events

    def _do_spend_tokens(self, state: SnitchState, seat: int, action: SpendTokens) -> list[Event]:
        self.settle(state)
        ex = state.exchange
        assert ex is not None
        own, other = self.token_sides(state, ex, seat)
        if own is not None:
            self._take_tokens(state, ex, own, bonus=action.bonus)
            if own == "action":
                ex.bonus = list(action.bonus)
            else:
                ex.reaction_bonus = list(action.bonus)
        if other is not None:
            self._take_tokens(state, ex, other, penalty=action.penalty)
            if other == "action":
                ex.penalty = list(action.penalty)
            else:
                ex.reaction_penalty = list(action.penalty)
        events: list[Event] = []
        if action.bonus or action.penalty:
            events.append(TokensSpent(seat=seat, bonus=list(action.bonus), penalty=list(action.penalty)))
        self.advance(state, events)
        return events

    def _take_tokens(
        self, state: SnitchState, ex: Exchange, side: str, bonus: Sequence[Colour] = (), penalty: Sequence[Colour] = ()
    ) -> None:
        if not bonus and not penalty:
            return
        if ex.kind == "race" and side == "action":
            self.store_race(state, race.spend_held(self.race_of(state), ex.seat, bonus, penalty))
            return
        if side == "action":
            assert ex.actor is not None
            tokens = state.players[ex.seat].team[ex.actor]
        else:
            assert ex.reactor is not None
            tokens = state.players[self.reacting_seat(ex)].team[ex.reactor]
        for colour in bonus:
            tokens.bonus.remove(colour)
        for colour in penalty:
            tokens.penalty.remove(colour)

    def _do_window(self, state: SnitchState, seat: int, action: Reroll | GoalReroll | KeepRoll) -> list[Event]:
        ex = state.exchange
        assert ex is not None
        events: list[Event] = []
        if isinstance(action, KeepRoll):
            self.settle(state)
        elif isinstance(action, GoalReroll):
            side = self._own_side(ex, seat)
            assert side is not None
            roll = self._roll_of(ex, side)
            assert roll is not None
            new = rolls.goal_token_reroll(state.rng, self.data.dice, roll, seat, action.die)
            self._set_roll(ex, side, new)
            coach = state.players[seat]
            coach.goals -= 1
            coach.celebrated += 1
            events += [
                GoalTokenFlipped(seat=seat, left=coach.goals),
                DiceRerolled(seat=seat, side=side, dice=[action.die], roll=new, goal_token=True),
            ]
        else:
            grant = next(
                g for g in self._reroll_grants(state, ex, seat) if g[1] == action.side and g[2] >= len(action.dice)
            )
            roll = self._roll_of(ex, action.side)
            assert roll is not None
            new = rolls.reroll(state.rng, self.data.dice, roll, seat, action.dice, limit=grant[2])
            self._set_roll(ex, action.side, new)
            if grant[0] is not None:
                for lasting in state.players[seat].effects:
                    if lasting.card == grant[0]:
                        lasting.used = True
            else:
                ex.swift_rerolls = [g for g in ex.swift_rerolls if not (g.seat == seat and g.side == action.side)]
            events.append(DiceRerolled(seat=seat, side=action.side, dice=list(action.dice), roll=new))
        self.advance(state, events)
        return events

    @staticmethod
    def _set_roll(ex: Exchange, side: str, roll: Roll) -> None:
        if side == "action":
            ex.action_roll = roll
        else:
            ex.reaction_roll = roll

    def _do_swift(self, state: SnitchState, seat: int, action: PlaySwift | NoSwift) -> list[Event]:
        top = self.top(state)
        events: list[Event] = []
        if isinstance(action, NoSwift):
            self.settle(state)
            self.advance(state, events)
            return events
        coach = state.players[seat]
        coach.hand.remove(action.card)
        coach.intrepids.append(action.card)
        events.append(IntrepidPlayed(seat=seat, card=action.card, swift=True))
        effect = self._effect(state, seat, action.card)
        if isinstance(top, SwiftWindow):
            self.settle(state)
            self._apply_effect(state, seat, action.card, effect, events)
        else:
            ex = state.exchange
            assert ex is not None
            if isinstance(effect, ModifyRoll):
                side = self._side_of(ex, seat, effect.roll, effect.whose)
                sign = 1 if effect.whose == "friendly" else -1
                if side == "action":
                    ex.late_modifier += sign * effect.amount
                elif side == "reaction":
                    ex.late_reaction_modifier += sign * effect.amount
            elif isinstance(effect, RerollEffect):
                side = self._side_of(ex, seat, effect.roll, effect.whose)
                if side is not None:
                    ex.swift_rerolls.append(RerollGrant(seat=seat, side=side, dice=effect.dice))  # type: ignore[arg-type]
        self.advance(state, events)
        return events

    def _do_place_quaffle(self, state: SnitchState, seat: int, action: PlaceQuaffle) -> list[Event]:
        decision = self.settle(state)
        assert isinstance(decision, LooseQuaffle)
        events: list[Event] = []
        self._place_loose(state, seat, action.zone, decision.lost_by, events)
        self.advance(state, events)
        return events

    def _do_shift(self, state: SnitchState, seat: int, action: ShiftPlayer | SkipShift) -> list[Event]:
        top = self.top(state)
        assert isinstance(top, ShiftPlayers)
        events: list[Event] = []
        if isinstance(action, SkipShift):
            self.settle(state)
        else:
            player = PlayerRef(action.team, action.player)
            self._place_player(state, player, action.zone, "shift", events)
            top.shifted.append(action.player)
            top.left -= 1
            if top.left <= 0 or not self.shift_options(state, top):
                self.settle(state)
        self.advance(state, events)
        return events

    def _do_no_spectator(self, state: SnitchState, seat: int, action: NoSpectator) -> list[Event]:
        self.settle(state)
        events: list[Event] = []
        self.advance(state, events)
        return events

    def _do_skip_pass(self, state: SnitchState, seat: int, action: SkipPass) -> list[Event]:
        self.settle(state)
        events: list[Event] = []
        self.advance(state, events)
        return events

    def _do_tempo(self, state: SnitchState, seat: int, action: TakeTempo | BreakTempo) -> list[Event]:
        self.settle(state)
        events: list[Event] = []
        if isinstance(action, TakeTempo):
            self.then(state, GainTempo(seat=seat))
        else:
            events.append(TempoBroken(seat=seat, option=action.option))
            if action.option == "free_pass":
                self.ask(state, FreeAction(must=[seat], action="pass", reason="break_tempo"))
            else:
                self.ask(state, ShiftPlayers(must=[seat], team=seat, left=1, reason="break_tempo"))
        self.advance(state, events)
        return events

    def _do_move_bludger(self, state: SnitchState, seat: int, action: MoveBludger) -> list[Event]:
        top = self.settle(state)
        assert isinstance(top, BludgerMove)
        state.layout = state.layout.with_bludger(action.bludger, action.zone)
        if top.reach == 0:
            state.moved_bludger = action.bludger
        events: list[Event] = [BludgerMoved(seat=seat, bludger=action.bludger, zone=action.zone)]
        if top.attack:
            decision = BludgerTarget(must=[seat], bludger=action.bludger, rival_only=top.rival_only)
            if self.bludger_targets(state, decision, seat):
                self.ask(state, decision)
        self.advance(state, events)
        return events

    def _do_target(self, state: SnitchState, seat: int, action: TargetPlayer) -> list[Event]:
        top = self.settle(state)
        assert isinstance(top, BludgerTarget)
        events: list[Event] = [BludgerAimed(seat=seat, bludger=top.bludger, team=action.team, player=action.player)]
        state.last_actor = seat
        self._start_exchange(
            state,
            Exchange(
                kind="bludger",
                seat=seat,
                target_team=action.team,
                target=action.player,
                bludger=top.bludger,
                fixed=rolls.BLUDGER_HIT,
            ),
        )
        self.advance(state, events)
        return events

    def _do_dice_token(self, state: SnitchState, seat: int, action: PlaceDiceToken) -> list[Event]:
        top = self.top(state)
        assert isinstance(top, DiceTokenPlacement)
        tokens = state.players[action.team].team[action.player]
        (tokens.bonus if top.token == "bonus" else tokens.penalty).append(top.colour)
        events: list[Event] = [
            DiceTokenPlaced(team=action.team, player=action.player, token=top.token, colour=top.colour)
        ]
        top.left -= 1
        if top.left <= 0:
            self.settle(state)
        self.advance(state, events)
        return events

    def _do_remove_stunned(self, state: SnitchState, seat: int, action: RemoveStunned | SkipRemove) -> list[Event]:
        self.settle(state)
        events: list[Event] = []
        if isinstance(action, RemoveStunned):
            self._stun(state, PlayerRef(seat, action.player), -1, events)
        self.advance(state, events)
        return events

    def _do_take_snitch_card(self, state: SnitchState, seat: int, action: TakeSnitchCard) -> list[Event]:
        self.settle(state)
        held = state.players[seat].snitch_in_play
        current, play = race.take_snitch_card(self.race_of(state), seat, race.SnitchChoice(action.card, action.option))
        self.store_race(state, current)
        events: list[Event] = [
            SnitchCardKept(seat=seat, card=action.card)
            if action.option == "keep"
            else SnitchCardTaken(
                seat=seat,
                card=action.card,
                option=action.option,
                in_play=held if action.option == "combine" else None,
                level=play.level,
            )
        ]
        self.then(
            state, *([ImpulseStep(seat=seat, steps=list(play.steps))] if play.steps else []), RefillRow(seat=seat)
        )
        self.advance(state, events)
        return events

    def _do_race_token(self, state: SnitchState, seat: int, action: PlaceRaceToken) -> list[Event]:
        top = self.top(state)
        assert isinstance(top, RaceTokenPlacement)
        step: UpwindToken | RaceDiceToken = (
            UpwindToken() if top.token == "upwind" else RaceDiceToken(token=top.token, colour=top.colour or "orange")  # type: ignore[arg-type]
        )
        self.store_race(state, race.place_token(self.race_of(state), seat, step, action.space))
        events: list[Event] = [RaceTokenPlaced(seat=seat, token=top.token, space=action.space, colour=top.colour)]
        top.left -= 1
        if top.left <= 0 or not race.token_spaces(self.race_of(state), seat):
            self.settle(state)
        self.advance(state, events)
        return events

    def _do_dodge(self, state: SnitchState, seat: int, action: DodgeToken) -> list[Event]:
        top = self.settle(state)
        assert isinstance(top, DodgeChoice)
        self.store_race(state, race.dodge(self.race_of(state), seat, top.successes, action.ignore))
        events: list[Event] = [
            RaceMoved(
                seat=seat, step="dodge", successes=top.successes, seekers=list(state.seekers), snitch=state.snitch
            )
        ]
        self._check_catch(state, events)
        self.advance(state, events)
        return events

    # ------------------------------------------------------------------ Traits

    def _do_use_trait(self, state: SnitchState, seat: int, action: UseTrait) -> list[Event]:
        """A Locked Trait (l.229): add to the roll, or re-roll some of its dice; then the Locked token goes on."""
        ex = state.exchange
        use = self._trait_use(state, ex, seat) if ex is not None else None
        assert ex is not None and use is not None
        index, side, what, amount = use
        events: list[Event] = [TraitUsed(seat=seat, player=index, dice=list(action.dice))]
        if what == "add":
            if side == "action":
                ex.late_modifier += amount
            else:
                ex.late_reaction_modifier += amount
        else:
            rolled = self._roll_of(ex, side)
            assert rolled is not None
            new = rolls.reroll(state.rng, self.data.dice, rolled, seat, action.dice, limit=amount)
            self._set_roll(ex, side, new)
            events.append(DiceRerolled(seat=seat, side=side, dice=list(action.dice), roll=new))
        state.players[seat].locked.append(index)
        self.advance(state, events)
        return events

    def view(self, state: SnitchState, seat: int | None) -> SnitchView:
        """What `seat` (None: a spectator) may know: never the rival's hand, deck, secret choices or Snitch card."""
        from menagerie.snitch.engine.views import build_view

        return build_view(self, state, seat)

    def out_of_turn(self, state: SnitchState, seat: int, decision: Decision) -> Refusal:
        """Why `seat` may not act now, in the game's words."""
        return Refusal("Turn order", self.text.waiting(state, seat, decision))


def _sub_multisets(items: Sequence[Colour]) -> list[tuple[Colour, ...]]:
    """Every sub-multiset of `items`, each once, in a stable order."""
    counts = Counter(items)
    out: list[tuple[Colour, ...]] = [()]
    for colour in COLOURS:
        out = [prefix + (colour,) * n for prefix in out for n in range(counts[colour] + 1)]
    return out


def _pool_allows(dice: Any, pool: DicePool, bonus: Sequence[Colour], penalty: Sequence[Colour]) -> bool:
    try:
        rolls.with_dice_tokens(dice, pool, bonus, penalty)
    except rolls.RollError:
        return False
    return True
