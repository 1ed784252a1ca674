"""Real positions for the terminal's screens: seeded matches played in process, messages as the service sends them.

Each position is what one seat's terminal holds when it must decide: the view
(GetView/Watch), ListLegalActions with the engine's labels, the prompt's sentence and
the event sentences so far, all built the way the game service builds them
(menagerie.shared.games.host, translated by menagerie.shared.games.outbound), for the
game's own service or, given generic_pb2, for the generic one.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from menagerie.generic.v1 import generic_pb2
from menagerie.rules.contract import MatchSetup
from menagerie.rules.events import project
from menagerie.rules.registry import engine
from menagerie.rules.text import Narrator
from menagerie.shared.games.messages import JsonMessages, Messages, TypedMessages

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]


@dataclass
class Position:
    """What the seat's terminal has when it is asked to decide."""

    seat: int
    view: Any  # the game's View message, prompt text filled in
    legal: Any  # ListLegalActionsResponse
    events: list[str]  # every event sentence so far, as this seat reads it


def names(seats: int) -> dict[int, str]:
    """Seat -> display name."""
    return dict(enumerate(NAMES[:seats]))


def messages(game: Any, pb2: ModuleType) -> Messages:
    """How the service translates `game`'s values to `pb2`'s messages (the generic service's: as JSON)."""
    return JsonMessages(pb2, game) if pb2 is generic_pb2 else TypedMessages(pb2, game)


def view_message(game: Any, pb2: ModuleType, state: Any, viewer: int | None, seats: int) -> Any:
    """The view of `viewer` as the service sends it (its prompt in the engine's words)."""
    view = game.view(state, viewer)
    message = messages(game, pb2).view(view)
    message.prompt.text = game.describe_prompt(view, Narrator(viewer, NAMES[:seats]))
    return message


def legal_message(game: Any, pb2: ModuleType, state: Any, seat: int, seats: int) -> Any:
    """ListLegalActions as the service answers it."""
    actions = game.legal_actions(state, seat)
    response = pb2.ListLegalActionsResponse(view_version=1)
    response.actions.extend(messages(game, pb2).action(a) for a in actions)
    view = game.view(state, seat)
    narrator = Narrator(seat, NAMES[:seats])
    for action in actions:
        label = game.describe_action(view, action, narrator)
        response.labels.add(text=label.text, code=label.code, passes=label.passes)
    return response


def positions(
    game_id: str, pb2: ModuleType, mode: str, seats: int, options: dict[str, str], seed: int, every: int = 1
) -> Iterator[Position]:
    """Every `every`-th decision of a match played by uniform random choices, as the deciding seat sees it."""
    game = engine(game_id)
    state, first = game.setup(MatchSetup(mode, seats, options), seed)
    rng = random.Random(seed)
    history: list[Any] = list(first)
    step = 0
    while game.outcome(state) is None and step < 2000:
        seat = game.to_act(state).seats()[0]
        if step % every == 0:
            narrator = Narrator(seat, NAMES[:seats])
            texts = [game.describe_event(project(e, seat), narrator) for e in history]
            yield Position(
                seat,
                view_message(game, pb2, state, seat, seats),
                legal_message(game, pb2, state, seat, seats),
                [t for t in texts if t],
            )
        history += game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        step += 1
