"""Seeded random-play properties every engine must hold (DESIGN.md "Tests").

For each match: every listed action is accepted; sampled unlisted actions are refused
without any change to the state; views do not change when only hidden information
changes; redacted events carry only allowed fields; determinize() is consistent with
the view; replaying the accepted actions from the seed rebuilds the identical state.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from menagerie.rules.contract import MatchSetup
from menagerie.rules.errors import IllegalAction
from menagerie.shared import codec
from menagerie.shared.engine import Event, project_event

Permute = Callable[[Any, int | None, random.Random], Any]
Candidates = Callable[[Any, int, random.Random], Iterable[Any]]


def property_matches(default: int = 200) -> int:
    """How many random matches per mode: 200 in CI, more under `make soak`."""
    return int(os.environ.get("MENAGERIE_PROPERTY_MATCHES", default))


@dataclass
class MatchLog:
    """What a random match did: its setup, seed, accepted actions and events."""

    setup: MatchSetup
    seed: int
    actions: list[tuple[int, Any]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    final: Any = None


@dataclass
class EngineProperties:
    """The per-game knowledge the generic checks need."""

    engine: Any
    # Actions to try, listed or not; those not listed must be refused.
    candidates: Candidates
    # A copy of the state with everything hidden from `viewer` changed.
    permute_hidden: Permute
    # Per event kind, the public fields it may carry.
    public_fields: dict[str, set[str]]
    # The game's protobuf View: every view must survive the trip to protobuf and back.
    view_message: Any
    # Per event kind, the fields only the concerned seat may see.
    private_fields: dict[str, set[str]] = field(default_factory=dict)
    view_check_every: int = 2
    # Protobuf round trips are slow; a sample of positions is enough.
    proto_check_every: int = 10
    # How many of the candidate actions to try per step.
    candidates_per_step: int = 4
    # The listed spelling of an action the engine accepts in other spellings too.
    canonical: Callable[[Any], Any] = lambda action: action

    def encode(self, state: Any) -> bytes:
        return msgspec.msgpack.encode(state)

    def clone(self, state: Any) -> Any:
        return msgspec.msgpack.decode(self.encode(state), type=self.engine.state_type)

    def play(self, setup: MatchSetup, seed: int, max_actions: int = 20_000) -> MatchLog:
        """Plays one random match, checking every property at every step."""
        engine = self.engine
        rng = random.Random(seed)
        state, events = engine.setup(setup, seed)
        log = MatchLog(setup, seed, events=list(events))
        self.check_events(events, setup.seats)
        step = 0
        while engine.outcome(state) is None:
            to_act = engine.to_act(state).seats()
            assert to_act, "a match that is not over must have a seat to act"
            for idle in set(range(setup.seats)) - set(to_act):
                assert engine.legal_actions(state, idle) == [], f"seat {idle} is not to act but has actions"
            seat = rng.choice(to_act)
            legal = engine.legal_actions(state, seat)
            assert legal, f"seat {seat} must act but has no legal action"
            self.check_listed_accepted(state, seat, legal)
            self.check_unlisted_refused(state, seat, legal, rng)
            if step % self.view_check_every == 0:
                self.check_views(state, setup.seats, rng, proto=step % self.proto_check_every == 0)
            action = rng.choice(legal)
            new_events = engine.apply(state, seat, action)
            self.check_events(new_events, setup.seats)
            log.actions.append((seat, action))
            log.events += new_events
            step += 1
            assert step < max_actions, "the match does not end"
        for seat in range(setup.seats):
            assert engine.legal_actions(state, seat) == []
        self.check_views(state, setup.seats, rng, every_viewer=True, proto=True)
        log.final = state
        return log

    def check_listed_accepted(self, state: Any, seat: int, legal: Sequence[Any]) -> None:
        """Every listed action passes validation."""
        assert len(set(legal)) == len(legal), "legal_actions lists an action twice"
        for action in legal:
            self.engine.check(state, seat, action)

    def check_unlisted_refused(self, state: Any, seat: int, legal: Sequence[Any], rng: random.Random) -> None:
        """Sampled actions that are not listed are refused and change nothing."""
        listed = set(legal)
        before = self.encode(state)
        pool = list(self.candidates(state, seat, rng))
        for action in rng.sample(pool, min(self.candidates_per_step, len(pool))):
            if self.canonical(action) in listed:
                continue
            try:
                self.engine.apply(state, seat, action)
            except IllegalAction as refusal:
                reason = (refusal.rule, refusal.detail)
            else:
                raise AssertionError(f"unlisted action {action!r} was accepted")
            assert all(reason), f"refusing {action!r} must name a rule and say why"
            assert self.encode(state) == before, f"refusing {action!r} changed the state"

    def check_views(
        self, state: Any, seats: int, rng: random.Random, every_viewer: bool = False, proto: bool = False
    ) -> None:
        """Views ignore hidden information, and determinize() agrees with them.

        During play one random viewer (a seat or a spectator) is checked per step, so a
        few hundred matches cover every viewer many times over; the end checks them all.
        """
        viewers = [None, *range(seats)]
        for viewer in viewers if every_viewer else [rng.choice(viewers)]:
            view = self.engine.view(state, viewer)
            if proto:
                message = codec.to_message(self.view_message, view)
                assert codec.from_message(message, self.engine.view_type) == view, "the view does not survive protobuf"
            twin = self.permute_hidden(self.clone(state), viewer, rng)
            assert self.engine.view(twin, viewer) == view, f"the view of {viewer} depends on hidden information"
            if viewer is not None:
                sampled = self.engine.determinize(view, viewer, rng.getrandbits(64))
                assert self.engine.view(sampled, viewer) == view, "determinize() does not match the view"
                assert self.engine.legal_actions(sampled, viewer) == self.engine.legal_actions(state, viewer)

    def check_events(self, events: Sequence[Event], seats: int) -> None:
        """Redacted events carry only the fields their kind may show to that viewer."""
        for event in events:
            assert event.kind in self.public_fields, f"unknown event kind {event.kind}"
            assert set(event.public) <= self.public_fields[event.kind], f"{event.kind} shows {set(event.public)}"
            private_allowed = self.private_fields.get(event.kind, set())
            for seat, extra in event.private.items():
                assert 0 <= seat < seats
                assert set(extra) <= private_allowed, f"{event.kind} hides unexpected fields {set(extra)}"
            for viewer in [None, *range(seats)]:
                shown = project_event(event, viewer)
                if viewer not in event.private:
                    assert not (set(shown) & private_allowed), f"{event.kind} leaks private fields to {viewer}"
            msgspec.msgpack.encode(event)  # storable

    def check_replay(self, log: MatchLog) -> None:
        """Replaying the accepted actions from the seed gives the identical state and events."""
        state, events = self.engine.setup(log.setup, log.seed)
        replayed = list(events)
        for seat, action in log.actions:
            replayed += self.engine.apply(state, seat, action)
        assert self.encode(state) == self.encode(log.final)
        assert msgspec.msgpack.encode(replayed) == msgspec.msgpack.encode(log.events)
