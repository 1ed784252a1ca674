"""The rules of the cooperative beast-capture dice game (see RULES.md).

A turn: the active player's dice are rolled (up to three times, keeping any), other
players may help with dice cards, the active player Readies, Sets and Activates actions
on the boards, then the beast reacts with its own roll. Reaction windows let any player
holding an applicable insight card act: after each of the active player's rolls
(Reroll), before the beast rolls (Muffliato) and between the beast's roll and its
resolution (Protego). A seat in a window may act; passing closes the window for it.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any, ClassVar, cast

import msgspec

from menagerie.pursuit.engine.data import (
    ACTIONS,
    ACTIVATED_BY,
    ActionName,
    Beast,
    Character,
    Face,
    InsightCard,
    PursuitData,
    load_data,
)
from menagerie.pursuit.engine.model import (
    Action,
    Activate,
    Activation,
    BeastTrack,
    CharacterView,
    Color,
    Contribute,
    Die,
    Difficulty,
    Discard,
    EndAssign,
    Pass,
    PlayDieCard,
    Player,
    PlayerView,
    PlayMuffliato,
    PlayProtego,
    PlayReroll,
    PoolDie,
    PursuitState,
    PursuitView,
    Ready,
    Reroll,
    SetAction,
    StopRolling,
)
from menagerie.rules.contract import GameInfo, MatchSetup, ModeInfo, OptionInfo, Outcome, ResultKind, SeatResult, ToAct
from menagerie.rules.errors import IllegalAction
from menagerie.rules.rng import Rng
from menagerie.shared.engine import Event

HEALTH = 10
HAND_LIMIT = 3
BEASTS_TO_WIN = 5
TURN_CAP = 300
MUFFLIATO_DICE = 2
STACKS: dict[str, tuple[int, ...]] = {
    # Levels of the beasts stacked face up, top first.
    "easy": (1, 2, 2, 3, 3),
    "normal": (1, 2, 3, 3, 3),
    "hard": (1, 2, 3, 3, 3, 3),
}

_builtins = msgspec.to_builtins


class PursuitEngine:
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
                        "difficulty", "easy, normal or hard (one more beast)", ("easy", "normal", "hard"), "normal"
                    ),
                ),
                cooperative=True,
            ),
        ),
    )
    state_type: ClassVar[type[Any]] = PursuitState
    action_type: ClassVar[Any] = Action
    view_type: ClassVar[type[Any]] = PursuitView

    def __init__(self, data: PursuitData | None = None) -> None:
        self.data = data or load_data()
        self.beasts = {b.id: b for b in self.data.beasts}
        self.cards = {c.id: c for c in self.data.cards}
        self.characters = {c.id: c for c in self.data.characters}

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
        events = [Event("match_started", {"first_seat": first, "beasts": stack})]
        for seat, player in enumerate(players):
            events.append(self._drawn_event(seat, player.hand[0]))
        return state, events + self._start_turn(state)

    # --------------------------------------------------------------- contract

    def to_act(self, state: PursuitState) -> ToAct:
        """The active player's decision, or the seats of an open window, or those over the hand limit."""
        if state.outcome is not None:
            return ToAct()
        if state.window:
            return ToAct(may=tuple(state.window))
        if state.phase == "discard":
            return ToAct(must=tuple(s for s, p in enumerate(state.players) if len(p.hand) > HAND_LIMIT))
        if state.phase in ("roll", "assign"):
            return ToAct(must=(state.active,))
        return ToAct()

    def outcome(self, state: PursuitState) -> Outcome | None:
        """The team's result once the match is over."""
        return state.outcome

    def legal_actions(self, state: PursuitState, seat: int) -> list[Action]:
        """Every action `seat` may take now."""
        if seat not in self.to_act(state).seats():
            return []
        player = state.players[seat]
        if state.window:
            return [*self._window_plays(state, seat), Pass()]
        if state.phase == "discard":
            return [Discard(c) for c in _distinct_cards(player.hand, self.cards)]
        if state.phase == "roll":
            actions: list[Action] = [StopRolling()]
            if state.rolls < state.roll_limit:
                actions += self._rerolls(state)
            actions += [PlayReroll(c) for c in self._held(player, "reroll")]
            return actions
        actions = [Ready(a) for a in ACTIONS if a not in player.ready and self._pattern_dice(state, a) is not None]
        for action in ACTIONS:
            if action in player.ready and action not in player.set:
                actions += [SetAction(action, face) for face in self._faces(state, seat)]
        for target in range(len(state.players)):
            for action in ACTIONS:
                if self._activation_problem(state, target, action) is None:
                    actions.append(Activate(target, action))
        actions += [PlayDieCard(c) for c in self._held(player, "die")]
        actions.append(EndAssign())
        return actions

    def check(self, state: PursuitState, seat: int, action: Action) -> None:
        """Raises IllegalAction, naming the rule, unless `action` is legal for `seat` now."""
        if state.outcome is not None:
            raise IllegalAction("End of the game", "the match is over")
        if not 0 <= seat < len(state.players):
            raise IllegalAction("Seats", f"there is no seat {seat}")
        to_act = self.to_act(state)
        if seat not in to_act.seats():
            if state.window:
                raise IllegalAction("Insight cards", f"seat {seat} has no card to play in this window")
            raise IllegalAction("Turn order", f"it is seat {state.active}'s turn, not seat {seat}'s")
        if canonical_action(action) not in self.legal_actions(state, seat):
            raise IllegalAction(*self._refusal(state, seat, action))

    def _refusal(self, state: PursuitState, seat: int, action: Action) -> tuple[str, str]:
        """The rule an action breaks (the legal list is exact: anything else is refused)."""
        player = state.players[seat]
        card = getattr(action, "card", None)
        if card is not None and card not in player.hand:
            return "Insight cards", f"you hold no insight card {card}"
        if state.window:
            return "Insight cards", "in this window you may only play an applicable insight card or pass"
        if state.phase == "discard":
            return "Hand limit", f"discard one of your cards first: you may hold {HAND_LIMIT}"
        if state.phase == "roll":
            if isinstance(action, Reroll):
                if state.rolls >= state.roll_limit:
                    return "Rolling", f"you have rolled {state.rolls} times: keep the dice"
                return "Rolling", "keep only dice you rolled, and roll at least one again"
            return "Rolling", "roll again, stop rolling, or play a Reroll card"
        if isinstance(action, Ready):
            if action.action in player.ready:
                return "Ready", f"your {action.action} action is Ready already"
            pattern = " ".join(self._character(state, seat).ready[action.action])
            return "Ready", f"readying {action.action} takes {pattern} at once (wild counts as any face)"
        if isinstance(action, SetAction):
            if action.action not in player.ready:
                return "Set", f"Ready {action.action} before you Set it"
            if action.action in player.set:
                return "Set", f"your {action.action} action is Set already"
            return "Set", f"you have no {action.face} die to Set it with"
        if isinstance(action, Activate):
            problem = self._activation_problem(state, action.seat, action.action)
            return "Activate", problem or "that activation is not possible"
        return "Assign", "that is not something you can do while assigning dice"

    def apply(self, state: PursuitState, seat: int, action: Action) -> list[Event]:
        """Validates `action`, then performs it; returns the events."""
        self.check(state, seat, action)
        action = canonical_action(action)
        if isinstance(action, Pass):
            state.window.remove(seat)
            events = [Event("passed", {"seat": seat}, affects=(seat,))]
            return events + self._after_window(state)
        if isinstance(action, Reroll):
            return self._reroll(state, action)
        if isinstance(action, StopRolling):
            return self._stop_rolling(state)
        if isinstance(action, PlayReroll):
            events = self._play(state, seat, action.card)
            state.roll_limit += 1
            return events + self._refresh_window(state, seat)
        if isinstance(action, Contribute | PlayDieCard):
            events = self._play(state, seat, action.card)
            card = self.cards[action.card]
            assert card.face is not None
            state.pool += [PoolDie(card.face, "black", card.id) for _ in range(card.dice)]
            return events + (self._refresh_window(state, seat) if isinstance(action, Contribute) else [])
        if isinstance(action, Ready):
            return self._ready(state, seat, action.action)
        if isinstance(action, SetAction):
            die = self._take(state, seat, action.face, exact=True)
            state.players[seat].set.append(action.action)
            fields = {"seat": seat, "action": action.action, "face": die.face}
            return [Event("action_set", fields)]
        if isinstance(action, Activate):
            return self._activate(state, action)
        if isinstance(action, EndAssign):
            return self._end_assign(state)
        if isinstance(action, Discard):
            return self._discard(state, seat, action.card)
        if isinstance(action, PlayMuffliato):
            events = self._play(state, seat, action.card)
            state.muffled += MUFFLIATO_DICE
            return events + self._refresh_window(state, seat)
        assert isinstance(action, PlayProtego)
        events = self._play(state, seat, action.card)
        index = next(i for i, d in enumerate(state.beast_dice) if d.face == action.face and i not in state.ignored)
        state.ignored.append(index)
        return events + self._refresh_window(state, seat)

    # ----------------------------------------------------------------- rolling

    def _start_turn(self, state: PursuitState) -> list[Event]:
        state.turn += 1
        state.phase = "roll"
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
        events = [Event("turn_started", {"seat": state.active, "turn": state.turn})]
        return events + self._roll(state)

    def _roll(self, state: PursuitState) -> list[Event]:
        """Rolls every die not kept; a beast-reaction face is resolved at once."""
        state.rolls += 1
        for die, kept in zip(state.dice, state.kept, strict=True):
            if not kept:
                faces = self.data.dice.teal.faces if die.color == "teal" else self.data.dice.black.faces
                die.face = state.rng.choice(faces)
        fields = {"seat": state.active, "roll": state.rolls, "dice": _builtins(state.dice), "kept": list(state.kept)}
        events = [Event("dice_rolled", fields)]
        if any(d.face == "reaction" and not k for d, k in zip(state.dice, state.kept, strict=True)):
            events += self._react(state, "roll")
            if state.outcome is not None:
                return events
        state.window = self._holders(state, "reroll", exclude=state.active)
        if (
            state.rolls >= state.roll_limit
            and not state.window
            and not self._held(state.players[state.active], "reroll")
        ):
            return events + self._stop_rolling(state)
        return events

    def _rerolls(self, state: PursuitState) -> list[Action]:
        """Every distinct choice of dice to keep (identical faces are one choice)."""
        black = Counter(d.face for d in state.dice if d.color == "black")
        faces = sorted(black)
        options: list[Action] = []
        for counts in itertools.product(*(range(black[f] + 1) for f in faces)):
            keep = tuple(f for f, n in zip(faces, counts, strict=True) for _ in range(n))
            for keep_teal in (False, True):
                if len(keep) + keep_teal < len(state.dice):
                    options.append(Reroll(keep, keep_teal))
        return options

    def _reroll(self, state: PursuitState, action: Reroll) -> list[Event]:
        wanted = Counter(action.keep)
        for index, die in enumerate(state.dice):
            if die.color == "teal":
                state.kept[index] = action.keep_teal
            elif wanted[die.face] > 0:
                wanted[die.face] -= 1
                state.kept[index] = True
            else:
                state.kept[index] = False
        return self._roll(state)

    def _stop_rolling(self, state: PursuitState) -> list[Event]:
        state.pool = [PoolDie(d.face, d.color) for d in state.dice if d.face != "reaction"]
        state.phase = "help"
        events = [Event("rolling_stopped", {"seat": state.active, "dice": _builtins(state.dice)})]
        state.window = self._holders(state, "die", exclude=state.active)
        if not state.window:
            state.phase = "assign"
        return events

    # --------------------------------------------------------------- windows

    def _held(self, player: Player, kind: str) -> list[int]:
        """The player's cards of `kind`, one per distinct card (identical cards are one choice)."""
        return _distinct_cards([c for c in player.hand if self.cards[c].kind == kind], self.cards)

    def _holders(self, state: PursuitState, kind: str, exclude: int | None = None) -> list[int]:
        return [s for s, p in enumerate(state.players) if s != exclude and self._held(p, kind)]

    def _window_kind(self, state: PursuitState) -> str:
        return {"roll": "reroll", "help": "die", "before_beast": "muffliato", "beast": "protego"}[state.phase]

    def _window_plays(self, state: PursuitState, seat: int) -> list[Action]:
        player = state.players[seat]
        kind = self._window_kind(state)
        if kind == "reroll":
            return [PlayReroll(c) for c in self._held(player, kind)]
        if kind == "die":
            return [Contribute(c) for c in self._held(player, kind)]
        if kind == "muffliato":
            return [PlayMuffliato(c) for c in self._held(player, kind)]
        faces = sorted(
            {d.face for i, d in enumerate(state.beast_dice) if i not in state.ignored and self._harms(state, d)}
        )
        return [PlayProtego(c, f) for c in self._held(player, kind) for f in faces]

    def _refresh_window(self, state: PursuitState, seat: int) -> list[Event]:
        """After a card is played: the seat stays in the window while it can still play one."""
        if seat in state.window and not self._window_plays(state, seat):
            state.window.remove(seat)
        return self._after_window(state)

    def _after_window(self, state: PursuitState) -> list[Event]:
        """Moves the turn on once nobody is left in the open window."""
        if state.window:
            return []
        if state.phase == "roll":
            if state.rolls >= state.roll_limit and not self._held(state.players[state.active], "reroll"):
                return self._stop_rolling(state)
            return []
        if state.phase == "help":
            state.phase = "assign"
            return [Event("assigning", {"seat": state.active})]
        if state.phase == "before_beast":
            return self._beast_roll(state)
        if state.phase == "beast":
            return self._beast_resolve(state)
        return []

    def _play(self, state: PursuitState, seat: int, card: int) -> list[Event]:
        state.players[seat].hand.remove(card)
        state.discard.append(card)
        return [Event("card_played", {"seat": seat, "card": _builtins(self.cards[card])})]

    # --------------------------------------------------------------- assigning

    def _character(self, state: PursuitState, seat: int) -> Character:
        return self.characters[state.players[seat].character]

    def _usable(self, state: PursuitState, die: PoolDie, board: int) -> bool:
        """A dice card's second die must go on the board its first one went to."""
        return die.card == 0 or state.card_boards.get(die.card, board) == board

    def _find(self, state: PursuitState, face: str, board: int, exact: bool = False) -> int | None:
        """The die to use for `face` on `board`: a matching face first, else a wild; rolled dice first."""
        order = sorted(range(len(state.pool)), key=lambda i: state.pool[i].card != 0)
        for index in order:
            if state.pool[index].face == face and self._usable(state, state.pool[index], board):
                return index
        if exact:
            return None
        for index in order:
            if state.pool[index].face == "wild" and self._usable(state, state.pool[index], board):
                return index
        return None

    def _take(self, state: PursuitState, board: int, face: str, exact: bool = False) -> PoolDie:
        index = self._find(state, face, board, exact)
        assert index is not None
        die = state.pool.pop(index)
        if die.card:
            state.card_boards[die.card] = board
        return die

    def _faces(self, state: PursuitState, seat: int) -> list[Face]:
        return sorted({d.face for d in state.pool if self._usable(state, d, seat)})

    def _pattern_dice(self, state: PursuitState, action: ActionName) -> list[int] | None:
        """Dice (pool indexes) that Ready `action` on the active board, or None if they are missing."""
        board = state.active
        pattern = self._character(state, board).ready[action]
        free = [i for i, d in enumerate(state.pool) if self._usable(state, d, board)]
        free.sort(key=lambda i: state.pool[i].card != 0)
        chosen: list[int] = []
        for face in pattern:
            match = next((i for i in free if i not in chosen and state.pool[i].face == face), None)
            if match is None:
                match = next((i for i in free if i not in chosen and state.pool[i].face == "wild"), None)
            if match is None:
                return None
            chosen.append(match)
        return chosen

    def _ready(self, state: PursuitState, seat: int, action: ActionName) -> list[Event]:
        chosen = self._pattern_dice(state, action)
        assert chosen is not None
        for index in chosen:
            if state.pool[index].card:
                state.card_boards[state.pool[index].card] = seat
        used = [state.pool[i] for i in chosen]
        state.pool = [d for i, d in enumerate(state.pool) if i not in chosen]
        state.players[seat].ready.append(action)
        return [Event("action_readied", {"seat": seat, "action": action, "dice": _builtins(used)})]

    def _activation_problem(self, state: PursuitState, target: int, action: str) -> str | None:
        """Why the active player cannot activate `action` on `target`'s board now (None if it can)."""
        if not 0 <= target < len(state.players):
            return f"there is no seat {target}"
        if state.phase != "assign":
            return "dice are activated in the Assign phase"
        board = state.players[target]
        if action not in board.ready or action not in board.set:
            return f"the {action} action of seat {target} is not Ready and Set"
        if target != state.active and action not in state.players[state.active].set:
            return f"Set your own {action} action before you place dice on other players' boards"
        if any(a.seat == target and a.action == action for a in state.activations):
            return f"the {action} space of seat {target} was activated this turn already"
        if self._find(state, ACTIVATED_BY[action], target) is None:
            return f"you have no {ACTIVATED_BY[action]} die (or wild) for that board"
        return None

    def _activate(self, state: PursuitState, action: Activate) -> list[Event]:
        die = self._take(state, action.seat, ACTIVATED_BY[action.action])
        color: Color = "teal" if die.color == "teal" else "black"
        state.activations.append(Activation(action.seat, action.action, color))
        fields = {"seat": state.active, "target": action.seat, "action": action.action, "face": die.face}
        return [Event("action_activated", fields)]

    def _end_assign(self, state: PursuitState) -> list[Event]:
        """The activated actions take effect, in the order they were activated."""
        events = [Event("assign_ended", {"seat": state.active})]
        for activation in state.activations:
            player = state.players[activation.seat]
            if activation.action == "protect":
                player.shields += 1
                events.append(Event("shield_gained", {"seat": activation.seat, "shields": player.shields}))
            elif activation.action in ("capture_1", "capture_3"):
                events += self._move_beast(state, 1 if activation.action == "capture_1" else 3)
                if state.outcome is not None:
                    return events
            elif activation.action == "insight":
                events += self._draw(state, activation.seat)
        state.pool = []
        if any(len(p.hand) > HAND_LIMIT for p in state.players):
            state.phase = "discard"
            return events
        return events + self._before_beast(state)

    def _draw(self, state: PursuitState, seat: int) -> list[Event]:
        events: list[Event] = []
        if not state.deck:
            if not state.discard:
                return [Event("deck_empty", {"seat": seat})]
            state.deck, state.discard = state.discard, []
            state.rng.shuffle(state.deck)
            events.append(Event("deck_reshuffled", {"size": len(state.deck)}))
        card = state.deck.pop()
        state.players[seat].hand.append(card)
        return [*events, self._drawn_event(seat, card)]

    def _drawn_event(self, seat: int, card: int) -> Event:
        return Event("card_drawn", {"seat": seat}, private={seat: {"card": _builtins(self.cards[card])}})

    def _discard(self, state: PursuitState, seat: int, card: int) -> list[Event]:
        player = state.players[seat]
        player.hand.remove(card)
        state.discard.append(card)
        events = [Event("card_discarded", {"seat": seat, "card": _builtins(self.cards[card])}, affects=(seat,))]
        if any(len(p.hand) > HAND_LIMIT for p in state.players):
            return events
        return events + self._before_beast(state)

    # ------------------------------------------------------------------ beast

    def _beast(self, state: PursuitState) -> Beast:
        return self.beasts[state.beast]

    def _before_beast(self, state: PursuitState) -> list[Event]:
        state.phase = "before_beast"
        state.window = self._holders(state, "muffliato")
        if state.window:
            return [Event("beast_about_to_roll", {"beast": state.beast})]
        return self._beast_roll(state)

    def _beast_roll(self, state: PursuitState) -> list[Event]:
        """The active player rolls the beast's dice: its card's dice, less distracted and muffled ones.

        Each die on a Distract space is one die the beast cannot roll: a black (or card)
        die takes one black die from its roll, the teal die takes the teal one.
        """
        beast = self._beast(state)
        distracted = [a.color for a in state.activations if a.action == "distract"]
        black = max(0, beast.black_dice - distracted.count("black") - state.muffled)
        teal = beast.teal and "teal" not in distracted
        state.beast_dice = [Die("black", state.rng.choice(self.data.dice.black.faces)) for _ in range(black)]
        if teal:
            state.beast_dice.append(Die("teal", state.rng.choice(self.data.dice.teal.faces)))
        state.ignored = []
        state.phase = "beast"
        fields = {"beast": state.beast, "dice": _builtins(state.beast_dice), "distracted": len(distracted)}
        events = [Event("beast_rolled", fields)]
        state.window = [s for s in self._holders(state, "protego") if self._window_plays(state, s)]
        if state.window:
            return events
        return events + self._beast_resolve(state)

    def _harms(self, state: PursuitState, die: Die) -> bool:
        if die.face == "reaction":
            return True
        return die.face in self._beast(state).faces

    def _beast_resolve(self, state: PursuitState) -> list[Event]:
        """Each die the beast rolled (and nobody ignored) takes effect; then the next turn."""
        beast = self._beast(state)
        events: list[Event] = []
        for index, die in enumerate(state.beast_dice):
            if index in state.ignored or state.outcome is not None:
                continue
            if die.face == "reaction":
                events += self._react(state, "beast")
                continue
            effect = beast.faces.get(die.face)
            if effect is None:
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

    def _react(self, state: PursuitState, when: str) -> list[Event]:
        """The beast's own reaction (the teal die's reaction face)."""
        reaction = self._beast(state).reaction
        events = [Event("beast_reacted", {"beast": state.beast, "when": when})]
        if reaction.strip_shields:
            for seat, player in enumerate(state.players):
                if player.shields:
                    player.shields -= 1
                    events.append(Event("shield_lost", {"seat": seat, "shields": player.shields}))
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
        events = [Event("player_hurt", {"seat": seat, "health": player.health, "shields": player.shields})]
        if player.health == 0:
            events += self._finish(state, False, f"seat {seat} was stunned by the {self._beast(state).name}")
        return events

    def _move_beast(self, state: PursuitState, steps: int) -> list[Event]:
        """Captures move the marker toward the suitcase (+), escapes away from it (−)."""
        beast = self._beast(state)
        length = beast.to_escape + beast.to_suitcase
        state.position = min(length, state.position + steps)
        events = [Event("beast_moved", {"beast": state.beast, "position": state.position, "steps": steps})]
        if state.position >= length:
            state.captured.append(state.beast)
            events.append(Event("beast_captured", {"beast": state.beast}))
            if len(state.captured) >= BEASTS_TO_WIN:
                return events + self._finish(state, True, f"{BEASTS_TO_WIN} beasts are back in the suitcase")
            return events + self._next_beast(state)
        if state.position < 0:
            state.escaped.append(state.beast)
            events.append(Event("beast_escaped", {"beast": state.beast}))
            if len(state.escaped) > self._escapes_allowed(state):
                return events + self._finish(state, False, f"the {beast.name} escaped: too many beasts got away")
            return events + self._next_beast(state)
        return events

    def _escapes_allowed(self, state: PursuitState) -> int:
        return len(STACKS[state.difficulty]) - BEASTS_TO_WIN

    def _next_beast(self, state: PursuitState) -> list[Event]:
        state.beast = state.beasts.pop(0)
        state.position = self._beast(state).to_escape
        return [Event("beast_appeared", {"beast": state.beast, "position": state.position})]

    def _finish(self, state: PursuitState, won: bool, reason: str) -> list[Event]:
        """One result for the whole team."""
        result: ResultKind = "win" if won else "loss"
        seats = [SeatResult(seat, result, float(len(state.captured)), 1) for seat in range(len(state.players))]
        state.outcome = Outcome(seats=seats, reason=reason)
        state.phase = "finished"
        state.window = []
        return [Event("match_finished", {"outcome": _builtins(state.outcome)})]

    # -------------------------------------------------------------------- view

    def view(self, state: PursuitState, seat: int | None) -> PursuitView:
        """Everything but the deck's order, the other players' cards and the RNG."""
        beast = self._beast(state)
        return PursuitView(
            difficulty=state.difficulty,
            viewer=seat,
            players=[
                PlayerView(
                    seat=i,
                    character=CharacterView.of(self.characters[p.character]),
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
            phase=state.phase,
            track=BeastTrack(beast, state.position, beast.to_escape + beast.to_suitcase),
            beasts_to_come=[self.beasts[b] for b in state.beasts],
            captured=list(state.captured),
            escaped=list(state.escaped),
            escapes_allowed=self._escapes_allowed(state),
            dice=[Die(d.color, d.face) for d in state.dice],
            kept=list(state.kept),
            rolls=state.rolls,
            roll_limit=state.roll_limit,
            pool=[PoolDie(d.face, d.color, d.card) for d in state.pool],
            card_boards=dict(state.card_boards),
            activations=list(state.activations),
            window=list(state.window),
            muffled=state.muffled,
            beast_dice=[Die(d.color, d.face) for d in state.beast_dice],
            ignored=list(state.ignored),
            deck_size=len(state.deck),
            discard=[self.cards[c] for c in state.discard],
            to_act=list(self.to_act(state).seats()),
            outcome=state.outcome,
        )

    def determinize(self, view: PursuitView, seat: int, seed: int) -> PursuitState:
        """A full state consistent with `view`: the deck and the other players' cards sampled."""
        rng = Rng(seed)
        known = [c.id for c in view.players[seat].hand] + [c.id for c in view.discard]
        unseen = [c.id for c in self.data.cards if c.id not in known]
        rng.shuffle(unseen)
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
        return PursuitState(
            difficulty=view.difficulty,
            rng=Rng(rng.next_u64()),
            players=players,
            beasts=[b.id for b in view.beasts_to_come],
            beast=view.track.beast.id,
            position=view.track.position,
            deck=unseen,
            active=view.active,
            turn=view.turn,
            phase=view.phase,
            dice=[Die(d.color, d.face) for d in view.dice],
            kept=list(view.kept),
            rolls=view.rolls,
            roll_limit=view.roll_limit,
            pool=[PoolDie(d.face, d.color, d.card) for d in view.pool],
            card_boards=dict(view.card_boards),
            activations=list(view.activations),
            window=list(view.window),
            muffled=view.muffled,
            beast_dice=[Die(d.color, d.face) for d in view.beast_dice],
            ignored=list(view.ignored),
            discard=[c.id for c in view.discard],
            captured=list(view.captured),
            escaped=list(view.escaped),
            outcome=view.outcome,
        )


def canonical_action(action: Action) -> Action:
    """The same action as the legal list spells it: the faces a Reroll keeps, in order."""
    if isinstance(action, Reroll):
        return Reroll(tuple(sorted(action.keep)), action.keep_teal)
    return action


def _distinct_cards(cards: list[int], catalogue: dict[int, InsightCard]) -> list[int]:
    """One card per kind of card (identical cards are one choice): the lowest id of each."""
    seen: dict[tuple[str, str | None, int], int] = {}
    for card in sorted(cards):
        info = catalogue[card]
        seen.setdefault((info.kind, info.face, info.dice), card)
    return sorted(seen.values())
