"""Assigning dice: Ready, Set and Activate the actions of the boards, then end assigning.

The pool (the dice rolled and the dice cards played) Readies and Sets the active player's
actions and activates actions that are Ready and Set, on their own board and, once their
own action is Set, on the other players' boards. Ending the assignment applies the
activated actions in the order they were activated and asks whoever holds more cards than
the hand limit to discard.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from menagerie.pursuit.engine.cards import HAND_LIMIT
from menagerie.pursuit.engine.data import ACTIONS, ACTIVATED_BY, CAPTURE_STEPS, ActionName, Character, Face
from menagerie.pursuit.engine.dice import pattern_dice, spent_die, usable
from menagerie.pursuit.engine.model import (
    ActionActivated,
    ActionReadied,
    ActionSet,
    Activate,
    Activation,
    AssignEnded,
    Color,
    DiscardDown,
    EndAssign,
    Event,
    PlayDieCard,
    PoolDie,
    PursuitState,
    Ready,
    SetAction,
    ShieldGained,
)
from menagerie.pursuit.engine.parts import EngineParts
from menagerie.rules.text import seat_name


class AssigningDice(EngineParts):
    """Ready, Set and Activate on the boards, the dice cards played while assigning, and its end."""

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
