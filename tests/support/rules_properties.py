"""Seeded random-play properties every engine on the rules contract must hold (docs/architecture.md "Engine tests").

For each match, at positions sampled throughout (each check at one position in a few, so
thousands of positions per mode): every listed action is accepted and `perform` does what
`apply` does; sampled unlisted actions are refused with a named rule and change
nothing; the prompt is the top decision (its seats are `to_act`) and reads as a
sentence; every legal action has a label and a code no other legal action has; views
do not change when the hidden zones declared in the state are shuffled, and survive
protobuf; determinize() agrees with the view; every event is one of the game's event
types, its private fields reach only their owners, and it survives storage. Replaying
the accepted actions from the seed rebuilds the identical state and events.

What is hidden is read from the state's own declarations (menagerie.rules.hidden), and
what an event hides from its type (menagerie.rules.events.SeenBy): no per-game tables.
"""

from __future__ import annotations

import os
import random
import typing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from menagerie.rules.contract import MatchSetup
from menagerie.rules.errors import IllegalAction
from menagerie.rules.events import private_fields, project, sees
from menagerie.rules.hidden import permute_hidden
from menagerie.rules.rng import Rng
from menagerie.rules.text import Narrator
from menagerie.shared import codec

Candidates = Callable[[Any, int, random.Random], Iterable[Any]]


def property_matches(default: int = 50) -> int:
    """How many random matches per mode: 50 in `make test` (thousands of positions), 5,000 under `make soak`."""
    return int(os.environ.get("MENAGERIE_PROPERTY_MATCHES", default))


@dataclass
class MatchLog:
    """What a random match did: its setup, seed, accepted actions and events."""

    setup: MatchSetup
    seed: int
    actions: list[tuple[int, Any]] = field(default_factory=list)
    events: list[Any] = field(default_factory=list)
    final: Any = None


@dataclass
class EngineProperties:
    """The per-game knowledge the generic checks need: an engine, wrong actions to try, its View message."""

    engine: Any
    # Actions to try, listed or not; those not listed must be refused.
    candidates: Candidates
    # The game's protobuf View: every view must survive the trip to protobuf and back.
    view_message: Any
    # How often each check runs: at one position in n on average, the positions drawn at
    # random from a generator of the checks' own (so the matches played do not change, and
    # no turn structure can hide a position kind from a check, as every n-th step could).
    # The checks cost fifty times what playing costs, and they were most of `make test`'s
    # time; 200 matches of 100–700 positions still check each property at thousands of
    # positions per mode (one in 4 and one in 8: 5,000–35,000 and 2,500–17,000 positions).
    view_check_every: int = 8
    # Protobuf round trips are slow; a sample of positions is enough.
    proto_check_every: int = 80
    perform_check_every: int = 8
    # How many of the candidate actions to try per step.
    candidates_per_step: int = 4
    # Whether the engine can determinize a view yet (a game without search bots may not).
    determinizes: bool = True
    # The per-position checks: prompt, listed actions, labels, refusals, hidden information.
    contract_check_every: int = 4

    def __post_init__(self) -> None:
        self.event_types = typing.get_args(self.engine.event_type)
        self.events_decoder = msgspec.msgpack.Decoder(list[self.engine.event_type])  # type: ignore[name-defined]
        self.state_decoder = msgspec.msgpack.Decoder(self.engine.state_type)

    def encode(self, state: Any) -> bytes:
        return msgspec.msgpack.encode(state)

    def clone(self, state: Any) -> Any:
        return self.state_decoder.decode(self.encode(state))

    def play(self, setup: MatchSetup, seed: int, max_actions: int = 20_000) -> MatchLog:
        """Plays one random match (its moves drawn from `seed` alone), checking every property at sampled positions."""
        engine = self.engine
        rng = random.Random(seed)
        sampler = random.Random(f"checks {seed}")
        state, events = engine.setup(setup, seed)
        log = MatchLog(setup, seed, events=list(events))
        self.check_events(events, setup.seats, sampler)
        step = 0
        while engine.outcome(state) is None:
            to_act = engine.to_act(state).seats()
            assert to_act, "a match that is not over must have a seat to act"
            checking = sampler.randrange(self.contract_check_every) == 0
            if checking:
                # One reader per position, each in turn: the prompt is the same for all.
                self.check_prompt(state, [None, *range(setup.seats)][step % (setup.seats + 1)])
                for idle in set(range(setup.seats)) - set(to_act):
                    assert engine.legal_actions(state, idle) == [], f"seat {idle} is not to act but has actions"
            seat = rng.choice(to_act)
            legal = engine.legal_actions(state, seat)
            assert legal, f"seat {seat} must act but has no legal action"
            if checking:
                self.check_listed_accepted(state, seat, legal)
                self.check_labels(state, seat, legal)
                self.check_unlisted_refused(state, seat, legal, sampler)
            if sampler.randrange(self.view_check_every) == 0:
                proto = sampler.randrange(self.proto_check_every) < self.view_check_every
                self.check_views(state, setup.seats, sampler, proto=proto)
            action = rng.choice(legal)
            if checking:
                self.check_hidden_steers_nothing(state, seat, action, sampler)
            if sampler.randrange(self.perform_check_every) == 0:
                self.check_perform(state, seat, action)
            new_events = engine.apply(state, seat, action)
            self.check_events(new_events, setup.seats, sampler)
            log.actions.append((seat, action))
            log.events += new_events
            step += 1
            assert step < max_actions, "the match does not end"
        for seat in range(setup.seats):
            assert engine.legal_actions(state, seat) == []
        final = engine.prompt(state)
        assert final.must == final.may == [] and (final.kind, bool(final.title)) == ("finished", True)
        self.check_views(state, setup.seats, sampler, every_viewer=True, proto=True)
        log.final = state
        return log

    def check_prompt(self, state: Any, viewer: int | None) -> None:
        """The prompt names the seats that act; `viewer`'s view carries it, and it reads as a sentence."""
        prompt = self.engine.prompt(state)
        to_act = self.engine.to_act(state)
        assert prompt.kind, "a match in play waits for a named decision"
        assert prompt.title, f"decision {prompt.kind!r} has no title (the game text's `titles`)"
        assert (tuple(prompt.must), tuple(prompt.may)) == (to_act.must, to_act.may)
        view = self.engine.view(state, viewer)
        assert view.prompt == prompt, "every view carries the same prompt"
        assert self.engine.describe_prompt(view, Narrator(viewer)), f"no words for prompt {prompt.kind}"

    def check_listed_accepted(self, state: Any, seat: int, legal: Sequence[Any]) -> None:
        """Every listed action passes validation."""
        assert len(set(legal)) == len(legal), "legal_actions lists an action twice"
        for action in legal:
            self.engine.check(state, seat, action)

    def check_labels(self, state: Any, seat: int, legal: Sequence[Any]) -> None:
        """Every legal action has words and a code, and no two legal actions share a code."""
        view = self.engine.view(state, seat)
        labels = [self.engine.describe_action(view, action, Narrator(seat)) for action in legal]
        assert all(label.text and label.code for label in labels), "an action without a label or code"
        codes = [label.code for label in labels]
        assert len(set(codes)) == len(codes), f"two legal actions share a code: {sorted(codes)}"

    def check_hidden_steers_nothing(self, state: Any, seat: int, action: Any, rng: random.Random) -> None:
        """What everyone sees — the prompt, who acts, the public events — does not depend on hidden things.

        A twin has the hidden zones shuffled (as a spectator cannot see them) and the same
        dice ahead. Its prompt is the same; when the action is legal there too, it makes
        the same public events up to the first one that shows hidden content (a token
        turned face up), and, when nothing was shown, leaves the same prompt behind.
        """
        twin = permute_hidden(self.clone(state), None, Rng(rng.getrandbits(64)), reseed=False)
        assert self.engine.prompt(twin) == self.engine.prompt(state), "the prompt depends on hidden information"
        if self.engine.refusal(twin, seat, action) is not None:
            return  # the action names a card that the shuffle put elsewhere
        after = self.clone(state)
        ours = [project(e, None) for e in self.engine.apply(after, seat, action)]
        theirs = [project(e, None) for e in self.engine.apply(twin, seat, action)]
        reveals = [i for events in (ours, theirs) for i, e in enumerate(events) if type(e).reveals]
        if not reveals:
            assert ours == theirs, f"public events depend on hidden information: {ours} / {theirs}"
            assert self.engine.prompt(after) == self.engine.prompt(twin), (
                "the next prompt depends on hidden information"
            )
            return
        cut = min(reveals)
        assert ours[:cut] == theirs[:cut], f"public events depend on hidden information: {ours} / {theirs}"
        assert type(ours[cut]) is type(theirs[cut]), (
            f"what is revealed depends on hidden information: {ours} / {theirs}"
        )

    def check_perform(self, state: Any, seat: int, action: Any) -> None:
        """The unchecked `perform` does exactly what `apply` does with a legal action."""
        checked, unchecked = self.clone(state), self.clone(state)
        events = self.engine.apply(checked, seat, action)
        assert self.engine.perform(unchecked, seat, action) == events
        assert self.encode(checked) == self.encode(unchecked)

    def check_unlisted_refused(self, state: Any, seat: int, legal: Sequence[Any], rng: random.Random) -> None:
        """Sampled actions that are not listed are refused and change nothing."""
        listed = set(legal)
        before = self.encode(state)
        pool = list(self.candidates(state, seat, rng))
        for action in rng.sample(pool, min(self.candidates_per_step, len(pool))):
            if self.engine.canonical(state, seat, action) in listed:
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
            twin = permute_hidden(self.clone(state), viewer, Rng(rng.getrandbits(64)))
            assert self.engine.view(twin, viewer) == view, f"the view of {viewer} depends on hidden information"
            if viewer is not None and self.determinizes:
                sampled = self.engine.determinize(view, viewer, rng.getrandbits(64))
                assert self.engine.view(sampled, viewer) == view, "determinize() does not match the view"
                assert self.engine.legal_actions(sampled, viewer) == self.engine.legal_actions(state, viewer)

    def check_events(self, events: Sequence[Any], seats: int, rng: random.Random) -> None:
        """Events are the game's types; private fields reach only their owners; they survive storage.

        Every event is checked for leaks to every viewer; its words are checked for one viewer
        drawn at random (the text is the costly part, and every viewer is drawn many times over).
        """
        viewers = [None, *range(seats)]
        for event in events:
            assert isinstance(event, self.event_types), f"{event!r} is not one of the game's events"
            for viewer in viewers:
                shown = project(event, viewer)
                for private in private_fields(type(event)):  # type: ignore[arg-type]
                    if not sees(getattr(event, private.owner), viewer):
                        assert getattr(shown, private.name) == private.blank, f"{event!r} leaks to {viewer}"
            reader = rng.choice(viewers)
            text = self.engine.describe_event(project(event, reader), Narrator(reader))
            assert text is None or text.strip(), "event text is a sentence or nothing"
        assert self.events_decoder.decode(msgspec.msgpack.encode(list(events))) == list(events), "not storable"

    def check_replay(self, log: MatchLog) -> None:
        """Replaying the accepted actions from the seed gives the identical state and events."""
        state, events = self.engine.setup(log.setup, log.seed)
        replayed = list(events)
        for seat, action in log.actions:
            replayed += self.engine.apply(state, seat, action)
        assert self.encode(state) == self.encode(log.final)
        assert msgspec.msgpack.encode(replayed) == msgspec.msgpack.encode(log.events)
