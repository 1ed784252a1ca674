"""Building Beasts positions by hand for rule tests."""

from __future__ import annotations

from menagerie.beasts.engine import BeastsEngine, BeastsState
from menagerie.beasts.engine.data import COLOURS
from menagerie.beasts.engine.model import AfterStop, ChooseStop, RollDie
from menagerie.rules.contract import MatchSetup

ENGINE = BeastsEngine()


def new_match(mode: str = "training", seats: int = 3, seed: int = 7, spells: bool = False) -> BeastsState:
    """A fresh match; seat 0 to act, at the start of its turn."""
    options = {"spell_cards": "true" if spells else "false"} if mode == "training" else {}
    state, _ = ENGINE.setup(MatchSetup(mode, seats, options), seed)
    state.current = 0
    state.decisions = [RollDie(must=[0])]
    return state


def place(state: BeastsState, space: int, token: str | None, face_up: bool = False) -> None:
    """Puts `token` on `space`, returning the previous token to the supply so counts stay whole."""
    previous = state.tokens[space]
    if token is not None:
        if token in state.supply:
            state.supply.remove(token)
        else:
            holder = next(s for s, t in enumerate(state.tokens) if t == token and s != space)
            state.tokens[holder] = state.supply.pop(0)
    if previous is not None:
        state.supply.insert(0, previous)
    state.tokens[space] = token
    state.face_up[space] = face_up


def give(state: BeastsState, seat: int, **counts: int) -> None:
    """Moves resource tokens from the supply (or the board) into a seat's collection."""
    for colour, n in counts.items():
        assert colour in COLOURS
        for _ in range(n):
            if colour in state.supply:
                state.supply.remove(colour)
            else:
                space = next(s for s, t in enumerate(state.tokens) if t == colour)
                state.tokens[space] = state.supply.pop(0)
                state.face_up[space] = False
            state.players[seat].resources[colour] += 1


def rolled(state: BeastsState, seat: int, position: int, roll: int) -> None:
    """Seat `seat` stands on `position` and has just rolled `roll`."""
    state.current = seat
    state.players[seat].position = position
    state.roll = roll
    state.decisions = [ChooseStop(must=[seat])]


def stopped(state: BeastsState, seat: int) -> None:
    """Seat `seat` has moved and stopped: it may capture, cast spells or end its turn."""
    state.current = seat
    state.decisions = [AfterStop(must=[seat])]


def all_tokens(state: BeastsState) -> list[str]:
    """Every token wherever it is: board, supply, collections, captures, set aside."""
    tokens = [t for t in state.tokens if t is not None] + list(state.supply) + list(state.set_aside)
    for player in state.players:
        tokens += player.captured
        tokens += [c for c, n in player.resources.items() for _ in range(n)]
    return sorted(tokens)
