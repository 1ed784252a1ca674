"""Seeded matches of the dice game, played in process by simple policies, for the words and drawing tests.

A scenario is the first position of the first seed whose match reaches it. The
policies are uniform, greedy for dice and cards, or hoarding insight cards so the hand
limit bites; the bot pool's greedy level can play every seat instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec

from menagerie.pursuit.bots import PursuitGreedy
from menagerie.pursuit.engine import Action, PursuitEngine, PursuitState
from menagerie.pursuit.engine.model import (
    Activate,
    Contribute,
    Event,
    Pass,
    PlayDieCard,
    PlayMuffliato,
    PlayProtego,
    PlayReroll,
    Ready,
    SetAction,
    StopRolling,
)
from menagerie.rules.contract import Label, MatchSetup
from menagerie.rules.text import Narrator

ENGINE = PursuitEngine()
GREEDY_TEAM = PursuitGreedy(ENGINE.data)
NAMES = ["Ann", "Bob", "Cat", "Dan"]
SEARCH_SEEDS = range(40)
Policy = Callable[[random.Random, list[Action]], Action]
Predicate = Callable[[PursuitState], bool]


def clone(state: PursuitState) -> PursuitState:
    """A deep copy (the engine changes a state in place)."""
    return msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=PursuitState)


def uniform(rng: random.Random, actions: list[Action]) -> Action:
    """Any legal action."""
    return rng.choice(actions)


def greedy(rng: random.Random, actions: list[Action]) -> Action:
    """Mostly the most useful kind of action there is: activate, set, ready, then play cards."""
    for kind in (Activate, SetAction, Ready, PlayDieCard, Contribute, PlayProtego, PlayMuffliato, PlayReroll):
        group = [a for a in actions if isinstance(a, kind)]
        if group and rng.random() < 0.8:
            return rng.choice(group)
    return rng.choice(actions)


def hoarding(rng: random.Random, actions: list[Action]) -> Action:
    """Draws insight cards and never plays one, so hands outgrow the limit."""
    insight = [a for a in actions if isinstance(a, Activate | Ready | SetAction) and a.action == "insight"]
    if insight:
        return rng.choice(insight)
    for kind in (Activate, SetAction, Ready, Pass, StopRolling):
        group = [a for a in actions if isinstance(a, kind)]
        if group:
            return rng.choice(group)
    return rng.choice(actions)


def decision(state: PursuitState) -> str:
    """The kind of decision the match waits for (its prompt)."""
    return ENGINE.prompt(state).kind


def window(state: PursuitState) -> list[int]:
    """The seats that may play (or pass) in the open reaction window."""
    return ENGINE.prompt(state).may


@dataclass
class Match:
    """A seeded match played by one policy: the first seat to act chooses."""

    seed: int
    seats: int = 3
    difficulty: str = "normal"
    policy: Policy = greedy
    bot: PursuitGreedy | None = None  # when set, the bot pool's greedy level plays every seat instead
    state: PursuitState = field(init=False)
    events: list[Event] = field(init=False)

    def __post_init__(self) -> None:
        setup = MatchSetup("coop", self.seats, {"difficulty": self.difficulty})
        self.state, self.events = ENGINE.setup(setup, self.seed)
        self.rng = random.Random(self.seed)

    def step(self) -> list[Event]:
        """The first seat to act takes the policy's choice."""
        seat = ENGINE.to_act(self.state).seats()[0]
        legal = ENGINE.legal_actions(self.state, seat)
        if self.bot is None:
            action = self.policy(self.rng, legal)
        else:
            action = self.bot.choose(ENGINE.view(self.state, seat), legal, seat, self.rng)
        events = ENGINE.apply(self.state, seat, action)
        self.events += events
        return events

    def until(self, predicate: Predicate) -> bool:
        """Plays until `predicate` holds (True) or the match is over without it (False)."""
        while not predicate(self.state):
            if self.state.outcome is not None:
                return False
            self.step()
        return True

    def labels(self, seat: int) -> list[tuple[Action, Label]]:
        """Every legal action of `seat` with the engine's label for it."""
        view = ENGINE.view(self.state, seat)
        reader = Narrator(seat, NAMES)
        return [(a, ENGINE.describe_action(view, a, reader)) for a in ENGINE.legal_actions(self.state, seat)]

    def prompt(self, viewer: int | None) -> str:
        """The engine's sentence for what the match waits for, as `viewer` reads it."""
        return ENGINE.describe_prompt(ENGINE.view(self.state, viewer), Narrator(viewer, NAMES))


def find(predicate: Predicate, policy: Policy = greedy, seats: int = 3, difficulty: str = "normal") -> Match:
    """The first state, over the search seeds, where `predicate` holds."""
    for seed in SEARCH_SEEDS:
        match = Match(seed, seats, difficulty, policy)
        if match.until(predicate):
            return match
    raise AssertionError("no seeded match reaches the scenario")


def finished(result: str) -> Predicate:
    """The match is over with the team's `result`."""
    return lambda s: s.outcome is not None and s.outcome.seats[0].result == result


def won_match(seats: int = 3) -> Match:
    """The first easy match the greedy team wins (the simple policies rarely do)."""
    for seed in SEARCH_SEEDS:
        match = Match(seed, seats, "easy", bot=GREEDY_TEAM)
        if match.until(finished("win")):
            return match
    raise AssertionError("the greedy team won no seeded match")
