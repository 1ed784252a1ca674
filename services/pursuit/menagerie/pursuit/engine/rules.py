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
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache
from typing import Any, ClassVar, Literal, cast, get_args

import msgspec

from menagerie.pursuit.engine.data import (
    ACTIONS,
    ACTIVATED_BY,
    CAPTURE_STEPS,
    ActionName,
    Beast,
    Character,
    Face,
    InsightCard,
    PursuitData,
    load_data,
)
from menagerie.pursuit.engine.dice import (
    MUFFLIATO_DICE,
    beast_dice,
    canonical_reroll,
    die_effect,
    harms,
    is_reroll_choice,
    pattern_dice,
    reroll_choices,
    roll_die,
    roll_outcomes,
    spent_die,
    usable,
)
from menagerie.pursuit.engine.model import (
    WINDOWS,
    Action,
    ActionActivated,
    ActionReadied,
    ActionSet,
    Activate,
    Activation,
    AssignEnded,
    Assigning,
    AssignStarted,
    BeastAboutToRoll,
    BeastAppeared,
    BeastCaptured,
    BeastEscaped,
    BeastMoved,
    BeastReacted,
    BeastRoll,
    BeastRolled,
    BeastTrack,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CharacterView,
    Color,
    Contribute,
    DeckEmpty,
    DeckReshuffled,
    DiceRolled,
    Die,
    Difficulty,
    Discard,
    DiscardDown,
    EndAssign,
    Event,
    HelpWindow,
    MatchFinished,
    MatchStarted,
    MuffliatoWindow,
    Pass,
    Passed,
    PlayDieCard,
    Player,
    PlayerHurt,
    PlayerView,
    PlayMuffliato,
    PlayProtego,
    PlayReroll,
    PoolDie,
    ProtegoWindow,
    PursuitState,
    PursuitView,
    Ready,
    Reroll,
    RerollWindow,
    RollDice,
    Rolling,
    RollingStopped,
    SetAction,
    ShieldGained,
    ShieldLost,
    StopRolling,
    TurnDecision,
    TurnStarted,
    Window,
)
from menagerie.pursuit.engine.text import (
    ACTION_NAMES,
    CARDS,
    TITLES,
    PursuitText,
    beast_card_text,
    beast_die_text,
    card_book,
)
from menagerie.rules.chance import Distribution
from menagerie.rules.contract import (
    GameInfo,
    MatchSetup,
    ModeInfo,
    OptionInfo,
    Outcome,
    ResultKind,
    SeatResult,
)
from menagerie.rules.decisions import Decision, Refusal, Rule, no_problem
from menagerie.rules.engine import RulesEngine
from menagerie.rules.procedure import Automatic, Chance
from menagerie.rules.rng import Rng
from menagerie.rules.text import listing, seat_name

HEALTH = 10
HAND_LIMIT = 3
TURN_CAP = 300
STACKS: dict[str, tuple[int, ...]] = {
    # Levels of the beasts stacked face up, top first.
    "easy": (1, 2, 2, 3, 3),
    "normal": (1, 2, 3, 3, 3),
    "hard": (1, 2, 3, 3, 3, 3),
}
DECISIONS: dict[str, type[TurnDecision]] = {d.kind(): d for d in get_args(TurnDecision)}

PursuitRule = Rule[PursuitState, Any, Event]


class PursuitEngine(RulesEngine[PursuitState, Action, PursuitView, Event]):
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

    # ----------------------------------------------------------------- rolling

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

    @staticmethod
    def _rolled_dice(state: PursuitState) -> list[Die]:
        """The dice not kept, in order (the black ones, then the teal one): the dice a roll throws."""
        return [die for die, kept in zip(state.dice, state.kept, strict=True) if not kept]

    def _roll_faces(self, state: PursuitState, step: RollDice) -> Distribution[tuple[Face, ...]]:
        """Every way the dice not kept may fall, with its chance (equal black dice as one)."""
        colors = [die.color for die in self._rolled_dice(state)]
        return roll_outcomes(self.data.dice, colors.count("black"), "teal" in colors)

    def _draw_roll(self, state: PursuitState, step: RollDice) -> tuple[Face, ...]:
        """The dice not kept, rolled one by one in order with the match's Rng."""
        return tuple(roll_die(state.rng, self.data.dice, die.color) for die in self._rolled_dice(state))

    def _dice_rolled(self, state: PursuitState, step: RollDice, faces: tuple[Face, ...], events: list[Event]) -> None:
        """The dice not kept show `faces`; a beast-reaction face is resolved at once; Rolling and the Reroll window."""
        for die, face in zip(self._rolled_dice(state), faces, strict=True):
            die.face = face
        state.rolls += 1
        events.append(DiceRolled(seat=step.seat, roll=state.rolls, dice=_dice(state.dice), kept=list(state.kept)))
        if "reaction" in faces:
            events += self._react(state, "roll")
            if state.outcome is not None:
                return
        self.ask(state, Rolling(must=[step.seat]))
        self._open(state, RerollWindow(may=self._others(state)))

    def _reroll_options(self, state: PursuitState, seat: int) -> list[Reroll]:
        """Exactly the legal rerolls: every keep the dice allow (`is_reroll_choice`), while rolls remain."""
        return reroll_choices(state.dice) if state.rolls < state.roll_limit else []

    def _reroll_problem(self, state: PursuitState, seat: int, action: Reroll) -> str | None:
        if state.rolls >= state.roll_limit:
            return f"you have rolled {state.rolls} times: keep the dice"
        if not is_reroll_choice(state.dice, action.keep, action.keep_teal):
            return "keep only dice you rolled, and roll at least one again"
        return None

    def _reroll(self, state: PursuitState, seat: int, action: Reroll) -> list[Event]:
        wanted = {face: action.keep.count(face) for face in action.keep}
        for index, die in enumerate(state.dice):
            if die.color == "teal":
                state.kept[index] = action.keep_teal
            elif wanted.get(die.face, 0) > 0:
                wanted[die.face] -= 1
                state.kept[index] = True
            else:
                state.kept[index] = False
        self.settle(state)  # Rolling is asked again once the dice have fallen
        self.then(state, RollDice(seat=seat))
        return self._run(state)

    def _stop_rolling(self, state: PursuitState) -> list[Event]:
        """The dice as they lie are the pool to assign; the help window opens before assigning."""
        state.pool = [PoolDie(d.face, d.color) for d in state.dice if d.face != "reaction"]
        self.replace(state, Assigning(must=[state.active]))
        events: list[Event] = [RollingStopped(seat=state.active, dice=_dice(state.dice))]
        self._open(state, HelpWindow(may=self._others(state)))
        return events

    def _stop(self, state: PursuitState, seat: int, action: StopRolling) -> list[Event]:
        return self._stop_rolling(state)

    def _play_reroll(self, state: PursuitState, seat: int, action: PlayReroll) -> list[Event]:
        events = self._play(state, seat, action.card)
        state.roll_limit += 1
        return events + self._played(state, seat)

    # --------------------------------------------------------------- windows

    def _open(self, state: PursuitState, window: Window) -> bool:
        """Pushes the window when someone may act in it; False (nothing pushed) when nobody may."""
        if not window.may:
            return False
        window.actor = state.active
        self.interrupt(state, window)
        return True

    def _held(self, player: Player, kind: str) -> list[int]:
        """The player's cards of `kind`, one per distinct card (identical cards are one choice)."""
        return self._distinct([c for c in player.hand if self.cards[c].kind == kind])

    def _distinct(self, cards: Iterable[int]) -> list[int]:
        """One card per kind of card (identical cards are one choice): the lowest id of each."""
        seen: dict[tuple[str, str | None, int], int] = {}
        for card in sorted(cards):
            info = self.cards[card]
            seen.setdefault((info.kind, info.face, info.dice), card)
        return sorted(seen.values())

    def _others(self, state: PursuitState) -> list[int]:
        """Every seat but the active player's: whoever could hold a card for this window.

        A window opens to every seat that could be eligible, whatever it holds, so that
        who is asked to decide tells nobody who holds what (RULES.md "Reaction windows").
        """
        return [s for s in range(len(state.players)) if s != state.active]

    def _everyone(self, state: PursuitState) -> list[int]:
        return list(range(len(state.players)))

    def _same_card(self, state: PursuitState, seat: int, action: Any) -> Any:
        """The same play with the lowest-numbered of the seat's identical cards (any of them is accepted)."""
        hand = state.players[seat].hand
        if action.card not in hand:
            return action
        info = self.cards[action.card]
        first = min(c for c in hand if _same_card(self.cards[c], info))
        return msgspec.structs.replace(action, card=first)

    def _card_problem(self, state: PursuitState, seat: int, card: int, kind: str | None) -> str | Refusal | None:
        """Why `seat` cannot play (or discard, kind None) insight card `card` now."""
        hand = state.players[seat].hand
        if card not in hand:
            return Refusal("Insight cards", f"you hold no insight card {card}")
        info = self.cards[card]
        if kind is not None and info.kind != kind:
            return f"card #{card} is not {_a_card(kind)}"
        return None

    def _played(self, state: PursuitState, seat: int) -> list[Event]:
        """After a card is played in a window the seat stays in it until it passes.

        Leaving by itself once it had nothing more to play would tell the others so.
        """
        return []

    def _pass(self, state: PursuitState, seat: int, action: Pass) -> list[Event]:
        """The seat leaves the window; once nobody is left in it, the turn goes on from underneath."""
        window = self.top(state)
        assert isinstance(window, WINDOWS)
        events: list[Event] = [Passed(seat=seat)]
        if self.decided(state, seat):
            return events + self._after[type(window)](state) + self._run(state)
        return events

    def _play(self, state: PursuitState, seat: int, card: int) -> list[Event]:
        state.players[seat].hand.remove(card)
        state.discard.append(card)
        return [CardPlayed(seat=seat, card=self.cards[card])]

    def _card_dice(self, state: PursuitState, card: int) -> None:
        info = self.cards[card]
        assert info.face is not None
        state.pool += [PoolDie(info.face, "black", info.id) for _ in range(info.dice)]

    def _contribute(self, state: PursuitState, seat: int, action: Contribute) -> list[Event]:
        events = self._play(state, seat, action.card)
        self._card_dice(state, action.card)
        return events + self._played(state, seat)

    # --------------------------------------------------------------- assigning

    def _character(self, state: PursuitState, seat: int) -> Character:
        return self.characters[state.players[seat].character]

    def _faces(self, state: PursuitState, seat: int) -> list[Face]:
        return sorted({d.face for d in state.pool if usable(d, seat, state.card_boards)})

    def _pattern_dice(self, state: PursuitState, action: ActionName) -> list[int] | None:
        """Dice (pool indexes) that Ready `action` on the active board, or None if they are missing."""
        pattern = self._character(state, state.active).ready[action]
        return pattern_dice(state.pool, state.card_boards, state.active, pattern)

    def _ready_options(self, state: PursuitState, seat: int) -> Iterator[Ready]:
        return (Ready(a) for a in ACTIONS if a not in state.players[seat].ready)

    def _ready_problem(self, state: PursuitState, seat: int, action: Ready) -> str | None:
        if action.action in state.players[seat].ready:
            return f"your {action.action} action is Ready already"
        if self._pattern_dice(state, action.action) is None:
            pattern = " ".join(self._character(state, seat).ready[action.action])
            return f"readying {action.action} takes {pattern} at once (wild counts as any face)"
        return None

    def _ready(self, state: PursuitState, seat: int, action: Ready) -> list[Event]:
        chosen = self._pattern_dice(state, action.action)
        assert chosen is not None
        for index in chosen:
            if state.pool[index].card:
                state.card_boards[state.pool[index].card] = seat
        used = [state.pool[i] for i in chosen]
        state.pool = [d for i, d in enumerate(state.pool) if i not in chosen]
        state.players[seat].ready.append(action.action)
        return [ActionReadied(seat=seat, action=action.action, dice=[PoolDie(d.face, d.color, d.card) for d in used])]

    def _set_options(self, state: PursuitState, seat: int) -> list[SetAction]:
        player = state.players[seat]
        return [
            SetAction(action, face)
            for action in ACTIONS
            if action in player.ready and action not in player.set
            for face in self._faces(state, seat)
        ]

    def _set_problem(self, state: PursuitState, seat: int, action: SetAction) -> str | None:
        player = state.players[seat]
        if action.action not in player.ready:
            return f"Ready {action.action} before you Set it"
        if action.action in player.set:
            return f"your {action.action} action is Set already"
        if action.face not in self._faces(state, seat):
            return f"you have no {action.face} die to Set it with"
        return None

    def _set(self, state: PursuitState, seat: int, action: SetAction) -> list[Event]:
        die = self._take(state, seat, action.face, exact=True)
        state.players[seat].set.append(action.action)
        return [ActionSet(seat=seat, action=action.action, face=die.face)]

    def _take(
        self, state: PursuitState, board: int, face: str, exact: bool = False, color: Color | None = None
    ) -> PoolDie:
        """Takes the die an activation (or Set) on `board` spends."""
        index = spent_die(state.pool, state.card_boards, face, board, exact, color)
        assert index is not None
        die = state.pool.pop(index)
        if die.card:
            state.card_boards[die.card] = board
        return die

    def _activate_options(self, state: PursuitState, seat: int) -> list[Activate]:
        """Every board and action; for Distract, once per colour of die that could go on it."""
        return list(_activations(len(state.players)))

    def _activate_canonical(self, state: PursuitState, seat: int, action: Activate) -> Activate:
        """Distract names the die's colour (the engine's choice when none is named); other actions never do."""
        if action.action != "distract":
            return Activate(action.seat, action.action) if action.color is not None else action
        if action.color is not None or not 0 <= action.seat < len(state.players):
            return action
        index = spent_die(state.pool, state.card_boards, ACTIVATED_BY["distract"], action.seat)
        return action if index is None else Activate(action.seat, action.action, state.pool[index].color)

    def _activation_problem(
        self, state: PursuitState, target: int, action: str, color: Color | None = None
    ) -> str | None:
        """Why the active player cannot activate `action` on `target`'s board now (None if it can)."""
        if not 0 <= target < len(state.players):
            return f"there is no {seat_name(target)}"
        board = state.players[target]
        if action not in board.ready or action not in board.set:
            return f"the {action} action of {seat_name(target)} is not Ready and Set"
        if target != state.active and action not in state.players[state.active].set:
            return f"Set your own {action} action before you place dice on other players' boards"
        if any(a.seat == target and a.action == action for a in state.activations):
            return f"the {action} space of {seat_name(target)} was activated this turn already"
        face = ACTIVATED_BY[action]
        if spent_die(state.pool, state.card_boards, face, target, color=color) is None:
            die = f"{color} {face} die" if color else f"{face} die"
            return f"you have no {die} (or wild) for that board"
        return None

    def _activate(self, state: PursuitState, seat: int, action: Activate) -> list[Event]:
        die = self._take(state, action.seat, ACTIVATED_BY[action.action], color=action.color)
        state.activations.append(Activation(action.seat, action.action, die.color))
        return [
            ActionActivated(seat=state.active, target=action.seat, action=action.action, face=die.face, color=die.color)
        ]

    def _play_die_card(self, state: PursuitState, seat: int, action: PlayDieCard) -> list[Event]:
        events = self._play(state, seat, action.card)
        self._card_dice(state, action.card)
        return events

    def _end(self, state: PursuitState, seat: int, action: EndAssign) -> list[Event]:
        return self._end_assign(state)

    def _end_assign(self, state: PursuitState) -> list[Event]:
        """The activated actions take effect, in the order they were activated."""
        events: list[Event] = [AssignEnded(seat=state.active)]
        for activation in state.activations:
            player = state.players[activation.seat]
            if activation.action == "protect":
                player.shields += 1
                events.append(ShieldGained(seat=activation.seat, shields=player.shields))
            elif activation.action in CAPTURE_STEPS:
                events += self._move_beast(state, CAPTURE_STEPS[activation.action])
                if state.outcome is not None:
                    return events
            elif activation.action == "insight":
                events += self._draw(state, activation.seat)
        state.pool = []
        self.settle(state)
        over = self._over_the_limit(state)
        if over:
            self.interrupt(state, DiscardDown(must=over, actor=state.active))
            return events
        return events + self._before_beast(state)

    def _over_the_limit(self, state: PursuitState) -> list[int]:
        return [s for s, p in enumerate(state.players) if len(p.hand) > HAND_LIMIT]

    def _draw(self, state: PursuitState, seat: int) -> list[Event]:
        events: list[Event] = []
        if not state.deck:
            if not state.discard:
                return [DeckEmpty(seat=seat)]
            state.deck, state.discard = state.discard, []
            state.rng.shuffle(state.deck)
            events.append(DeckReshuffled(size=len(state.deck)))
        card = state.deck.pop()
        state.players[seat].hand.append(card)
        return [*events, CardDrawn(seat=seat, card=self.cards[card])]

    def _discard(self, state: PursuitState, seat: int, action: Discard) -> list[Event]:
        player = state.players[seat]
        player.hand.remove(action.card)
        state.discard.append(action.card)
        events: list[Event] = [CardDiscarded(seat=seat, card=self.cards[action.card])]
        if seat in self._over_the_limit(state) or not self.decided(state, seat):
            return events  # this seat discards again, or others still must
        return events + self._before_beast(state)

    # ------------------------------------------------------------------ beast

    def _beast(self, state: PursuitState) -> Beast:
        return self.beasts[state.beast]

    def _before_beast(self, state: PursuitState) -> list[Event]:
        self._open(state, MuffliatoWindow(may=self._everyone(state)))
        return [BeastAboutToRoll(beast=state.beast)]

    def _play_muffliato(self, state: PursuitState, seat: int, action: PlayMuffliato) -> list[Event]:
        events = self._play(state, seat, action.card)
        state.muffled += MUFFLIATO_DICE
        return events + self._played(state, seat)

    def _beast_roll(self, state: PursuitState) -> list[Event]:
        """The beast's dice are rolled (a chance node): its card's dice, less the distracted and muffled ones."""
        black, teal = beast_dice(self._beast(state), state.activations, state.muffled)
        self.then(state, BeastRoll(black=black, teal=teal))
        return []

    def _beast_faces(self, state: PursuitState, step: BeastRoll) -> Distribution[tuple[Face, ...]]:
        """Every way the beast's dice may fall, with its chance (equal black dice as one)."""
        return roll_outcomes(self.data.dice, step.black, step.teal)

    def _draw_beast(self, state: PursuitState, step: BeastRoll) -> tuple[Face, ...]:
        """The beast's dice, rolled one by one (the black ones, then the teal one) with the match's Rng."""
        return tuple(roll_die(state.rng, self.data.dice, color) for color in _colors(step))

    def _beast_rolled(self, state: PursuitState, step: BeastRoll, faces: tuple[Face, ...], events: list[Event]) -> None:
        """The beast's dice show `faces`: the Protego window opens while one may do harm, or they take effect."""
        state.beast_dice = [Die(color, face) for color, face in zip(_colors(step), faces, strict=True)]
        state.ignored = []
        distracted = sum(1 for a in state.activations if a.action == "distract")
        events.append(BeastRolled(beast=state.beast, dice=_dice(state.beast_dice), distracted=distracted))
        # Whether any die may do harm is public (the roll is): no harm, no window.
        if not self._open(state, ProtegoWindow(may=self._everyone(state) if self._harmful_faces(state) else [])):
            events += self._beast_resolve(state)

    def _harmful_faces(self, state: PursuitState) -> list[Face]:
        """The faces of the beast's roll, not ignored, that may do something (Protego's targets)."""
        beast = self._beast(state)
        live = (d.face for i, d in enumerate(state.beast_dice) if i not in state.ignored)
        return sorted({face for face in live if harms(beast, face)})

    def _protego_options(self, state: PursuitState, seat: int) -> list[PlayProtego]:
        faces = self._harmful_faces(state)
        return [PlayProtego(c, f) for c in self._held(state.players[seat], "protego") for f in faces]

    def _protego_problem(self, state: PursuitState, seat: int, action: PlayProtego) -> str | Refusal | None:
        problem = self._card_problem(state, seat, action.card, "protego")
        if problem is None and action.face not in self._harmful_faces(state):
            return f"no die of the beast's roll that may do harm shows {action.face}"
        return problem

    def _play_protego(self, state: PursuitState, seat: int, action: PlayProtego) -> list[Event]:
        events = self._play(state, seat, action.card)
        index = next(i for i, d in enumerate(state.beast_dice) if d.face == action.face and i not in state.ignored)
        state.ignored.append(index)
        if not self._harmful_faces(state):  # nothing left to ignore, as everyone can see
            self.settle(state)
            return events + self._beast_resolve(state) + self._run(state)
        return events + self._played(state, seat)

    def _beast_resolve(self, state: PursuitState) -> list[Event]:
        """Each die the beast rolled (and nobody ignored) takes effect; then the next turn."""
        beast = self._beast(state)
        events: list[Event] = []
        for index, die in enumerate(state.beast_dice):
            if index in state.ignored or state.outcome is not None:
                continue
            effect = die_effect(beast, die.face)
            if effect.reacts:
                events += self._react(state, "beast")
                continue
            if effect.escape:
                events += self._move_beast(state, -effect.escape)
            if effect.attack and state.outcome is None:
                events += self._hurt(state, state.active, effect.attack)
        if state.outcome is not None:
            return events
        if state.turn >= TURN_CAP:
            return events + self._finish(state, False, f"the beasts were still loose after {TURN_CAP} turns")
        state.active = (state.active + 1) % len(state.players)
        return events + self._start_turn(state)

    def _react(self, state: PursuitState, when: Literal["roll", "beast"]) -> list[Event]:
        """The beast's own reaction (the teal die's reaction face)."""
        reaction = self._beast(state).reaction
        events: list[Event] = [BeastReacted(beast=state.beast, when=when)]
        if reaction.strip_shields:
            for seat, player in enumerate(state.players):
                if player.shields:
                    player.shields -= 1
                    events.append(ShieldLost(seat=seat, shields=player.shields))
        if reaction.escape:
            events += self._move_beast(state, -reaction.escape)
        if reaction.attack and state.outcome is None:
            events += self._hurt(state, state.active, reaction.attack)
        if reaction.attack_all:
            for seat in range(len(state.players)):
                if state.outcome is None:
                    events += self._hurt(state, seat, reaction.attack_all)
        return events

    def _hurt(self, state: PursuitState, seat: int, damage: int) -> list[Event]:
        """Shields absorb damage one point each; health 0 stuns the player and loses the game."""
        player = state.players[seat]
        absorbed = min(player.shields, damage)
        player.shields -= absorbed
        player.health = max(0, player.health - (damage - absorbed))
        events: list[Event] = [PlayerHurt(seat=seat, health=player.health, shields=player.shields)]
        if player.health == 0:
            events += self._finish(state, False, f"{seat_name(seat)} was stunned by the {self._beast(state).name}")
        return events

    def _move_beast(self, state: PursuitState, steps: int) -> list[Event]:
        """Captures move the marker toward the suitcase (+), escapes away from it (−)."""
        beast = self._beast(state)
        length = beast.to_escape + beast.to_suitcase
        state.position = min(length, state.position + steps)
        events: list[Event] = [BeastMoved(beast=state.beast, position=state.position, steps=steps)]
        if state.position >= length:
            state.captured.append(state.beast)
            events.append(BeastCaptured(beast=state.beast))
            to_win = self.beasts_to_win(state.difficulty)
            if len(state.captured) >= to_win:
                return events + self._finish(state, True, f"{to_win} beasts are back in the suitcase")
            return events + self._next_beast(state)
        if state.position < 0:
            state.escaped.append(state.beast)
            events.append(BeastEscaped(beast=state.beast))
            if len(state.escaped) > self.escapes_allowed(state.difficulty):
                return events + self._finish(state, False, f"the {beast.name} escaped: too many beasts got away")
            return events + self._next_beast(state)
        return events

    @staticmethod
    def beasts_to_win(difficulty: str) -> int:
        """Every beast of the stack: five, and six on hard (the added Level 3 beast must be caught too)."""
        return len(STACKS[difficulty])

    @staticmethod
    def escapes_allowed(difficulty: str) -> int:
        """How many beasts may escape before the team loses: none, at every difficulty."""
        return len(STACKS[difficulty]) - PursuitEngine.beasts_to_win(difficulty)

    def _next_beast(self, state: PursuitState) -> list[Event]:
        state.beast = state.beasts.pop(0)
        state.position = self._beast(state).to_escape
        return [BeastAppeared(beast=state.beast, position=state.position)]

    def _finish(self, state: PursuitState, won: bool, reason: str) -> list[Event]:
        """One result for the whole team."""
        result: ResultKind = "win" if won else "loss"
        seats = [SeatResult(seat, result, float(len(state.captured)), 1) for seat in range(len(state.players))]
        state.outcome = Outcome(seats=seats, reason=reason)
        self.clear(state)
        return [MatchFinished(outcome=state.outcome)]

    # -------------------------------------------------------------------- view

    def view(self, state: PursuitState, seat: int | None) -> PursuitView:
        """Everything but the deck's order, the other players' cards and the RNG."""
        beast = self._beast(state)
        black, teal = beast_dice(beast, state.activations, state.muffled)
        stack = [state.beast, *state.beasts, *state.captured, *state.escaped]
        return PursuitView(
            difficulty=state.difficulty,
            viewer=seat,
            players=[
                PlayerView(
                    seat=i,
                    character=CharacterView.of(self.characters[p.character], ACTION_NAMES),
                    health=p.health,
                    shields=p.shields,
                    ready=list(p.ready),
                    set=list(p.set),
                    hand_size=len(p.hand),
                    hand=[self.cards[c] for c in p.hand] if i == seat else [],
                )
                for i, p in enumerate(state.players)
            ],
            active=state.active,
            turn=state.turn,
            prompt=self.prompt(state),
            track=BeastTrack(beast, state.position, beast.to_escape + beast.to_suitcase, beast_card_text(beast)),
            beasts_to_come=[self.beasts[b] for b in state.beasts],
            captured=list(state.captured),
            escaped=list(state.escaped),
            beast_names={b: self.beasts[b].name for b in stack},
            escapes_allowed=self.escapes_allowed(state.difficulty),
            beasts_to_win=self.beasts_to_win(state.difficulty),
            dice=_dice(state.dice),
            kept=list(state.kept),
            rolls=state.rolls,
            roll_limit=state.roll_limit,
            pool=[PoolDie(d.face, d.color, d.card) for d in state.pool],
            card_boards=dict(state.card_boards),
            activations=list(state.activations),
            muffled=state.muffled,
            beast_black_dice=black,
            beast_teal_die=teal,
            beast_dice=_dice(state.beast_dice),
            beast_die_effects=[beast_die_text(beast, d.face) for d in state.beast_dice],
            ignored=list(state.ignored),
            deck_size=len(state.deck),
            discard=[self.cards[c] for c in state.discard],
            hand_limit=HAND_LIMIT,
            card_book=card_book(),
            outcome=state.outcome,
        )

    def state_from_view(self, view: PursuitView, seat: int | None) -> PursuitState:
        """A state consistent with `view`: the cards `seat` (None: a spectator) has not seen, in catalogue order."""
        own = view.players[seat].hand if seat is not None else []
        known = {c.id for c in own} | {c.id for c in view.discard}
        unseen = [c.id for c in self.data.cards if c.id not in known]
        players = []
        for p in view.players:
            hand = [c.id for c in p.hand] if p.seat == seat else [unseen.pop() for _ in range(p.hand_size)]
            players.append(
                Player(
                    character=p.character.id,
                    health=p.health,
                    shields=p.shields,
                    ready=list(p.ready),
                    set=list(p.set),
                    hand=hand,
                )
            )
        if len(unseen) != view.deck_size:
            raise ValueError("the view's card counts do not add up")
        return PursuitState(
            difficulty=view.difficulty,
            rng=Rng(0),
            players=players,
            beasts=[b.id for b in view.beasts_to_come],
            beast=view.track.beast.id,
            position=view.track.position,
            deck=unseen,
            active=view.active,
            decisions=self._decisions_of(view),
            turn=view.turn,
            dice=_dice(view.dice),
            kept=list(view.kept),
            rolls=view.rolls,
            roll_limit=view.roll_limit,
            pool=[PoolDie(d.face, d.color, d.card) for d in view.pool],
            card_boards=dict(view.card_boards),
            activations=list(view.activations),
            muffled=view.muffled,
            beast_dice=_dice(view.beast_dice),
            ignored=list(view.ignored),
            discard=[c.id for c in view.discard],
            captured=list(view.captured),
            escaped=list(view.escaped),
            outcome=view.outcome,
        )

    @staticmethod
    def _decisions_of(view: PursuitView) -> list[TurnDecision]:
        """The decision stack the prompt shows: the active player's decisions under the top one."""
        prompt = view.prompt
        if prompt.kind not in DECISIONS:
            return []
        below = [DECISIONS[kind](must=[view.active]) for kind in prompt.stack]
        top = DECISIONS[prompt.kind](must=list(prompt.must), may=list(prompt.may), actor=prompt.actor)
        return [*below, top]

    # ------------------------------------------------------------------ words


def _colors(step: BeastRoll) -> list[Color]:
    """The beast's dice in rolling order: the black ones, then the teal one."""
    colors: list[Color] = ["black" for _ in range(step.black)]
    return [*colors, "teal"] if step.teal else colors


@cache
def _activations(players: int) -> tuple[Activate, ...]:
    """Every board and action of a team of `players` (actions are frozen: listed once per team size)."""
    options: list[Activate] = []
    for target in range(players):
        for action in ACTIONS:
            if action == "distract":
                options += [Activate(target, action, color) for color in ("teal", "black")]
            else:
                options.append(Activate(target, action))
    return tuple(options)


def _dice(dice: Iterable[Die]) -> list[Die]:
    """A copy of the dice (states and views must not share them)."""
    return [Die(d.color, d.face) for d in dice]


def _a_card(kind: str) -> str:
    """ "a Reroll card", "a dice card"."""
    if kind == "die":
        return "a dice card"
    return f"a {CARDS[kind].name} card"  # type: ignore[index]


def _same_card(a: InsightCard, b: InsightCard) -> bool:
    """Identical cards (all but the id) are one choice."""
    return (a.kind, a.face, a.dice) == (b.kind, b.face, b.dice)
