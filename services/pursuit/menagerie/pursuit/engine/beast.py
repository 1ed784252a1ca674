"""The beast's phase, the capture track and the end of the match.

Before the beast rolls, the Muffliato window; its roll is a chance node of the flow
(`BeastRoll`, in `PursuitEngine.procedure`); while a die of it may do harm, the Protego
window; then each die not ignored takes effect and the next turn starts. The beast's
reaction, the damage done to the players, the marker's moves on the capture track (a
capture or an escape brings the next beast) and the one result for the whole team are
here too.
"""

from __future__ import annotations

from typing import Literal

from menagerie.pursuit.engine.data import Beast, Face
from menagerie.pursuit.engine.dice import (
    MUFFLIATO_DICE,
    beast_dice,
    die_effect,
    harms,
    roll_die,
    roll_outcomes,
)
from menagerie.pursuit.engine.model import (
    BeastAboutToRoll,
    BeastAppeared,
    BeastCaptured,
    BeastEscaped,
    BeastMoved,
    BeastReacted,
    BeastRoll,
    BeastRolled,
    Color,
    Die,
    Event,
    MatchFinished,
    MuffliatoWindow,
    PlayerHurt,
    PlayMuffliato,
    PlayProtego,
    ProtegoWindow,
    PursuitState,
    ShieldLost,
)
from menagerie.pursuit.engine.parts import EngineParts
from menagerie.pursuit.engine.rolling import _dice
from menagerie.rules.chance import Distribution
from menagerie.rules.contract import Outcome, ResultKind, SeatResult
from menagerie.rules.decisions import Refusal
from menagerie.rules.text import seat_name

TURN_CAP = 300
STACKS: dict[str, tuple[int, ...]] = {
    # Levels of the beasts stacked face up, top first.
    "easy": (1, 2, 2, 3, 3),
    "normal": (1, 2, 3, 3, 3),
    "hard": (1, 2, 3, 3, 3, 3),
}


class BeastPhase(EngineParts):
    """The Muffliato window, the beast's roll (a chance node), the Protego window, its dice's effects; the end."""

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
        return len(STACKS[difficulty]) - BeastPhase.beasts_to_win(difficulty)

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


def _colors(step: BeastRoll) -> list[Color]:
    """The beast's dice in rolling order: the black ones, then the teal one."""
    colors: list[Color] = ["black" for _ in range(step.black)]
    return [*colors, "teal"] if step.teal else colors
