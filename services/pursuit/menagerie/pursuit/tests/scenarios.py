"""Building dice-game positions by hand for rule tests.

The real data files are used as they are, except where a test needs a beast (or a teal
die) whose roll is certain: `engine_with` gives every beast the same dice and effects,
so the outcome of the beast's roll does not depend on the RNG.
"""

from __future__ import annotations

from typing import Any

import msgspec

from menagerie.pursuit.engine import PursuitEngine, PursuitState
from menagerie.pursuit.engine.data import ActionName, Dice, Face, FaceEffect, PursuitData, Reaction, load_data
from menagerie.pursuit.engine.model import WINDOWS, Assigning, Color, Event, Pass, PoolDie, Reroll
from menagerie.rules.contract import MatchSetup

ENGINE = PursuitEngine()
BLACK_FACES = ("protect", "capture", "distract", "insight", "wild")


def engine_with(teal_faces: tuple[Face, ...] | None = None, **beast: Any) -> PursuitEngine:
    """An engine whose beasts all have the given fields (e.g. black_dice=2, teal=False)."""
    data = load_data()
    beasts = tuple(msgspec.structs.replace(b, **beast) for b in data.beasts)
    dice = data.dice if teal_faces is None else msgspec.structs.replace(data.dice, teal=Dice(teal_faces))
    return PursuitEngine(PursuitData(dice, data.characters, beasts, data.cards))


def every_face(**effect: int) -> dict[str, FaceEffect]:
    """Beast faces where every black face has the same effect (e.g. attack=1)."""
    return {face: FaceEffect(**effect) for face in BLACK_FACES}


def certain_beast(
    black_dice: int, teal: bool = False, reaction: Reaction | None = None, **effect: int
) -> PursuitEngine:
    """An engine whose beasts roll `black_dice` black dice, each face with `effect`."""
    return engine_with(
        black_dice=black_dice, teal=teal, faces=every_face(**effect), reaction=reaction or Reaction(attack=1)
    )


def new_match(
    seats: int = 3, difficulty: str = "normal", seed: int = 1, engine: PursuitEngine = ENGINE
) -> PursuitState:
    """A fresh match: the first player's dice have been rolled once."""
    state, _ = engine.setup(MatchSetup("coop", seats, {"difficulty": difficulty}), seed)
    return state


def card(kind: str, face: str | None = None, dice: int = 1, engine: PursuitEngine = ENGINE) -> int:
    """The id of the first insight card of that kind (and face, and dice)."""
    return next(c.id for c in engine.data.cards if c.kind == kind and c.face == face and c.dice == dice)


def give(state: PursuitState, seat: int, *cards: int) -> None:
    """Moves the cards into `seat`'s hand from wherever they are."""
    for each in cards:
        for place in [state.deck, state.discard, *(p.hand for p in state.players)]:
            if each in place:
                place.remove(each)
        state.players[seat].hand.append(each)


def empty_hands(state: PursuitState) -> PursuitState:
    """Every player's cards go back into the deck, and the open Reroll window closes (as if all passed)."""
    for player in state.players:
        state.deck += player.hand
        player.hand = []
    state.decisions = [d for d in state.decisions if not isinstance(d, WINDOWS)]
    return state


def pass_windows(state: PursuitState, engine: PursuitEngine = ENGINE) -> list[Event]:
    """Every seat asked in the open reaction windows passes, until none is open; returns the events."""
    events: list[Event] = []
    while isinstance(engine.top(state), WINDOWS):
        events += engine.apply(state, engine.prompt(state).may[0], Pass())
    return events


def roll_again(
    state: PursuitState, keep: tuple[Face, ...] = (), keep_teal: bool = False, engine: PursuitEngine = ENGINE
) -> list[Event]:
    """The active player rolls again keeping `keep`; everyone then passes the Reroll window."""
    events = engine.apply(state, state.active, Reroll(keep, keep_teal))
    return events + pass_windows(state, engine)


def assigning(state: PursuitState, faces: list[str], teal: str | None = None) -> PursuitState:
    """Jumps to the active player's Assign decision with these dice (black, then the teal one)."""
    state.decisions = [Assigning(must=[state.active])]
    dice: list[tuple[str, Color]] = [(f, "black") for f in faces]
    if teal is not None:
        dice.append((teal, "teal"))
    state.pool = [PoolDie(face, color) for face, color in dice]  # type: ignore[arg-type]
    state.activations = []
    state.card_boards = {}
    return state


def ready_and_set(state: PursuitState, seat: int, *actions: ActionName) -> None:
    """Marks actions of `seat`'s board Ready and Set (as earlier turns would have)."""
    player = state.players[seat]
    for action in actions:
        player.ready.append(action)
        player.set.append(action)


def pattern(state: PursuitState, seat: int, action: ActionName, engine: PursuitEngine = ENGINE) -> list[str]:
    """The faces that Ready `action` on `seat`'s board."""
    return list(engine.characters[state.players[seat].character].ready[action])
