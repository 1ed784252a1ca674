"""The terminal UI of Beast Pursuit on real positions: the engine in-process, messages through the codec.

Seeded matches are played by simple policies (uniform, greedy for dice and cards, or
hoarding insight cards so the hand limit bites); a scenario is the first state of the
first seed whose match reaches it. Views and events reach the UI as the Watch stream
would bring them.
"""

from __future__ import annotations

import copy
import io
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from rich.console import Console

from menagerie.cli.games import GAMES
from menagerie.pursuit.bots import PursuitGreedy
from menagerie.pursuit.cli import PursuitUI
from menagerie.pursuit.engine import Action, PursuitEngine, PursuitState
from menagerie.pursuit.engine.model import (
    Activate,
    Contribute,
    Discard,
    Pass,
    PlayDieCard,
    PlayMuffliato,
    PlayProtego,
    PlayReroll,
    Ready,
    Reroll,
    SetAction,
    StopRolling,
)
from menagerie.pursuit.v1 import pursuit_pb2
from menagerie.rules.contract import MatchSetup
from menagerie.shared import codec
from menagerie.shared.engine import Event, project_event

ENGINE = PursuitEngine()
GREEDY_TEAM = PursuitGreedy(ENGINE.data)
NAMES = {0: "Ann", 1: "Bob", 2: "Cat", 3: "Dan"}
ACTION_KINDS = {f.name for f in pursuit_pb2.Action.DESCRIPTOR.oneofs_by_name["kind"].fields}
ACTION_WORDS = {
    "protect": "Protect",
    "capture_1": "Capture 1",
    "distract": "Distract",
    "insight": "Insight",
    "capture_3": "Capture 3",
}
SEARCH_SEEDS = range(40)
Policy = Callable[[random.Random, list[Action]], Action]
Predicate = Callable[[PursuitState], bool]


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


def view_message(state: PursuitState, viewer: int | None) -> pursuit_pb2.View:
    """The view as GetView/Watch would send it."""
    return codec.to_message(pursuit_pb2.View, ENGINE.view(state, viewer))


def action_message(action: Action) -> pursuit_pb2.Action:
    """The action as ListLegalActions would send it."""
    return codec.tagged_to_message(pursuit_pb2.Action, action)


def event_message(event: Event, viewer: int | None) -> pursuit_pb2.Event:
    """The event as `viewer`'s Watch stream would send it."""
    return codec.fill_oneof(pursuit_pb2.Event(), event.kind, project_event(event, viewer))


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

    def labels(self, seat: int) -> list[tuple[Action, str]]:
        """Every legal action of `seat` with the label a fresh UI gives it."""
        view = view_message(self.state, seat)
        ui = PursuitUI()
        return [(a, ui.describe_action(action_message(a), view, NAMES)) for a in ENGINE.legal_actions(self.state, seat)]

    def draw(self, viewer: int | None, width: int = 120) -> str:
        """What the viewer's terminal shows."""
        console = Console(record=True, width=width, file=io.StringIO())
        console.print(PursuitUI().draw(view_message(self.state, viewer), NAMES))
        return console.export_text()


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


def shows(text: str, card: int) -> bool:
    """True if card #`card` is named (and not merely a prefix of a longer id)."""
    return re.search(rf"#{card}\b", text) is not None


def test_the_pursuit_ui_is_registered() -> None:
    assert isinstance(GAMES["pursuit"], PursuitUI)
    assert GAMES["pursuit"].pb2 is pursuit_pb2


# ------------------------------------------------------------------------ drawing


def test_drawing_the_roll_shows_the_chase_the_boards_and_the_kept_dice() -> None:
    match = find(lambda s: s.turn == 1 and s.phase == "roll" and not s.window and s.rolls == 1)
    state = match.state
    keep = next(
        a
        for a in ENGINE.legal_actions(state, state.active)
        if isinstance(a, Reroll) and a.keep_teal and len(a.keep) >= 2
    )
    ENGINE.apply(state, state.active, keep)
    assert state.phase == "roll" and state.rolls == 2  # a Reroll-card window may be open: drawn too
    text = match.draw(state.active)
    view = ENGINE.view(state, state.active)
    beast = view.track.beast

    assert f"turn {state.turn}" in text and "Rolling the dice" in text
    assert f"Chasing the {beast.name} (level {beast.level})" in text
    assert "escape ◂" in text and "▸ suitcase" in text and "●" in text
    assert f"{view.track.length - view.track.position} spaces to the suitcase" in text
    assert f"escapes after {view.track.position + 1} space" in text
    assert all(b.name in text for b in view.beasts_to_come)
    assert "Captured 0 of 5 needed" in text and f"escaped 0 of {view.escapes_allowed} allowed" in text
    for player in view.players:
        assert NAMES[player.seat] in text and player.character.name in text
    assert f"{NAMES[state.active]} (you)" in text
    assert text.count("not Ready") == 5 * len(view.players)

    dice = next(line for line in text.splitlines() if line.startswith("Dice (roll"))
    assert f"roll {state.rolls} of {state.roll_limit}" in dice
    shown = [
        ("teal " if d.color == "teal" else "") + d.face + ("✓" if kept else "")
        for d, kept in zip(view.dice, view.kept, strict=True)
    ]
    assert dice.split(": ", 1)[1].split() == " ".join(shown).split()
    assert sum(state.kept) == len(keep.keep) + 1

    mine = state.players[state.active].hand
    assert mine and all(shows(text, c) for c in mine)
    theirs = [c for s, p in enumerate(state.players) if s != state.active for c in p.hand]
    assert theirs and not any(shows(text, c) for c in theirs)
    assert "Others hold: " in text


def test_drawing_assignment_marks_activations_and_the_dice_left() -> None:
    match = find(
        lambda s: (
            s.phase == "assign" and any(a.seat != s.active for a in s.activations) and any(d.card for d in s.pool)
        ),
        seats=3,
        difficulty="easy",
    )
    state = match.state
    text = match.draw(state.active)
    assert "Assigning dice" in text
    assert text.count("⚡ activated") == len(state.activations)
    assert text.count("Ready ✓ Set ✓") == sum(len(set(p.ready) & set(p.set)) for p in state.players)
    pool = next(line for line in text.splitlines() if line.startswith("Dice to assign: "))
    for die in state.pool:
        assert ("teal " if die.color == "teal" else "") + die.face in pool
        if die.card:
            assert f"card #{die.card}" in pool


def test_activation_and_ready_labels_name_the_dice_the_engine_spends() -> None:
    checked = {"activate": 0, "ready": 0}
    for seed in range(6):
        match = Match(seed, seats=2, difficulty="easy")
        while match.until(lambda s: s.phase == "assign"):
            state = match.state
            for action, label in match.labels(state.active):
                if not isinstance(action, Activate | Ready):
                    continue
                after = copy.deepcopy(state)
                body = ENGINE.apply(after, state.active, action)[0].public
                assert f"{ACTION_WORDS[action.action]} " in label
                if isinstance(action, Activate):
                    owner = "your" if action.seat == state.active else f"{NAMES[action.seat]}'s"
                    assert f" on {owner} board with " in label
                    if after.activations[-1].color == "teal":
                        assert f"with the teal {body['face']} die: " in label, label
                    else:
                        assert re.search(rf"with an? {body['face']} die: ", label), label
                    checked["activate"] += 1
                else:
                    wilds = sum(1 for d in body["dice"] if d["face"] == "wild")
                    assert ("wild di" in label) == (wilds > 0), label
                    if wilds:
                        assert f"({wilds} wild di" in label
                    checked["ready"] += 1
            match.step()
    assert checked["activate"] > 10 and checked["ready"] > 10


def test_drawing_the_beasts_roll_strikes_the_ignored_dice() -> None:
    match = find(lambda s: s.phase == "beast" and bool(s.ignored), difficulty="easy")
    state = match.state
    beast = ENGINE.beasts[state.beast]
    text = match.draw(state.window[0])
    assert f"The {beast.name} rolled" in text
    assert len(re.findall(r"\bignored\b", text)) == len(state.ignored)
    table = text[text.index(f"The {beast.name} rolled") :]
    for die in state.beast_dice:
        assert re.search(rf"{die.color}\s+{die.face}", table)
    assert "Reaction window: Protego cards may be played now" in text
    labels = [label for _, label in match.labels(state.window[0])]
    assert "Pass: play no Protego; let the beast's roll take effect" in labels
    assert all(beast.name in label for label in labels if label.startswith("Play Protego"))


@pytest.mark.parametrize(
    ("phase", "card", "passing"),
    [
        ("roll", "Reroll", "Pass: play no Reroll card"),
        ("help", "dice", "Pass: lend no dice card"),
        ("before_beast", "Muffliato", "Pass: play no Muffliato; let the beast roll"),
        ("beast", "Protego", "Pass: play no Protego; let the beast's roll take effect"),
    ],
)
def test_drawing_a_reaction_window_says_which_card_and_who_may_play(phase: str, card: str, passing: str) -> None:
    match = find(lambda s: s.phase == phase and bool(s.window) and s.outcome is None, seats=4)
    state = match.state
    seat = state.window[0]
    text = match.draw(seat)
    assert f"Reaction window: {card} cards may be played now" in text
    may = text[text.index("May play or pass: ") :].splitlines()[0]
    assert "you" in may
    assert all(NAMES[s] in may for s in state.window if s != seat)
    labelled = match.labels(seat)
    assert labelled[-1] == (Pass(), passing)
    assert len(labelled) > 1
    for action, label in labelled[:-1]:
        check_label(action, label, state)


def test_drawing_the_hand_limit_names_who_must_discard() -> None:
    match = find(lambda s: s.phase == "discard", policy=hoarding, seats=2, difficulty="easy")
    state = match.state
    seat = ENGINE.to_act(state).seats()[0]
    text = match.draw(seat)
    assert "Discarding down to the hand limit" in text and "must discard: you" in text
    labels = match.labels(seat)
    assert labels and all(isinstance(a, Discard) for a, _ in labels)
    assert all(label.startswith(f"Discard #{a.card} ") for a, label in labels if isinstance(a, Discard))


@pytest.mark.parametrize("viewer", [0, None])
def test_drawing_a_won_match_shows_the_shared_win(viewer: int | None) -> None:
    # The simple policies above rarely win; the bot pool's greedy team often does on easy.
    match = next(m for seed in SEARCH_SEEDS if (m := Match(seed, 3, "easy", bot=GREEDY_TEAM)).until(finished("win")))
    text = match.draw(viewer)
    outcome = match.state.outcome
    assert outcome is not None
    assert f"The team won: {outcome.reason}" in text
    assert "Finished" in text and "Captured 5 of 5 needed" in text and "in the suitcase" in text
    assert all(ENGINE.beasts[b].name in text for b in match.state.captured)
    assert ("Your insight cards" in text) == (viewer is not None)


@pytest.mark.parametrize("cause", ["stunned", "escaped"])
def test_drawing_a_lost_match_shows_the_shared_loss_and_why(cause: str) -> None:
    def lost(state: PursuitState) -> bool:
        stunned = any(p.health == 0 for p in state.players)
        return finished("loss")(state) and stunned == (cause == "stunned")

    match = find(lost, difficulty="hard")
    state = match.state
    text = match.draw(None)
    assert state.outcome is not None
    assert f"The team lost: {state.outcome.reason}" in text
    stunned = [NAMES[s] for s, p in enumerate(state.players) if p.health == 0]
    if cause == "stunned":
        assert "0 (stunned)" in text and f"— {stunned[0]} was stunned" in text
    else:
        assert f"escaped {len(state.escaped)} of 1 allowed" in text
        assert all(ENGINE.beasts[b].name in text for b in state.escaped)
    assert "Your insight cards" not in text
    assert not any(shows(text, c) for p in state.players for c in p.hand)


def test_the_drawing_fits_a_narrow_terminal() -> None:
    match = find(lambda s: s.phase == "assign" and len(s.activations) >= 2, seats=4)
    text = match.draw(0, width=80)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert all(name in text for name in NAMES.values())


# ------------------------------------------------------------------------ actions


def check_label(action: Action, label: str, state: PursuitState) -> None:
    """The label says what the action does, naming its card, dice and board."""
    beast = ENGINE.beasts[state.beast]
    card = getattr(action, "card", None)
    if card is not None:
        assert shows(label, card), label
    if isinstance(action, Reroll):
        assert label.startswith("Keep ") or label.startswith("Roll all "), label
        assert ("teal die" in label) == action.keep_teal
        assert all(face in label for face in action.keep)
    elif isinstance(action, StopRolling):
        assert label.startswith("Stop rolling and assign these dice: ")
    elif isinstance(action, PlayReroll):
        assert label.startswith(f"Play Reroll #{action.card}: one more roll")
    elif isinstance(action, Contribute):
        assert label.startswith(f"Lend {NAMES[state.active]} your #{action.card} ")
    elif isinstance(action, Ready):
        assert label.startswith(f"Ready your {ACTION_WORDS[action.action]} action: ")
    elif isinstance(action, SetAction):
        assert label.startswith(f"Set your {ACTION_WORDS[action.action]} action with ")
        assert f" {action.face} die" in label
    elif isinstance(action, Activate):
        assert label.startswith(f"Activate {ACTION_WORDS[action.action]} on ")
    elif isinstance(action, PlayDieCard):
        assert label.startswith(f"Add your #{action.card} ")
    elif isinstance(action, PlayMuffliato):
        assert label == f"Play Muffliato #{action.card}: the {beast.name} rolls two fewer black dice"
    elif isinstance(action, PlayProtego):
        assert label.startswith(f"Play Protego #{action.card}: ignore ")
        assert f"{beast.name}'s" in label and f" {action.face} di" in label


def test_every_legal_action_gets_a_distinct_label() -> None:
    kinds: set[str] = set()
    for policy in (uniform, greedy, hoarding):
        for seed in range(6):
            seats, difficulty = 1 + seed % 4, ("easy", "normal", "hard")[seed % 3]
            match = Match(seed, seats, difficulty, policy)
            while True:
                for seat in ENGINE.to_act(match.state).seats():  # each seat in a window has its own choice
                    labelled = match.labels(seat)
                    labels = [label for _, label in labelled]
                    assert all(label and label.strip() == label for label in labels)
                    assert len(set(labels)) == len(labels), labels  # the player can tell every choice apart
                    for action, label in labelled:
                        kinds.add(action_message(action).WhichOneof("kind") or "")
                        check_label(action, label, match.state)
                if match.state.outcome is not None:
                    break
                match.step()
    assert kinds == ACTION_KINDS


# ------------------------------------------------------------------------- events


@pytest.mark.parametrize("viewer", [0, 1, None])
def test_every_event_reads_well_and_drawn_cards_stay_private(viewer: int | None) -> None:
    kinds: set[str] = set()
    for seed in range(4):
        match = Match(seed, seats=2, difficulty="easy", policy=greedy)
        ui = PursuitUI()
        match.until(lambda s: s.outcome is not None)
        view = view_message(match.state, viewer)
        for event in match.events:
            message = event_message(event, viewer)
            line = ui.describe_event(message, NAMES, viewer, view)
            assert line and line.strip() == line, event.kind
            kinds.add(event.kind)
            if event.kind == "card_drawn":
                seat = event.public["seat"]
                if seat == viewer:
                    assert line.startswith("You drew #")
                else:
                    assert line == f"{NAMES[seat]} drew an insight card."
            if event.kind == "beast_captured":
                assert ENGINE.beasts[event.public["beast"]].name in line
            if event.kind == "match_finished":
                assert line.startswith("Game over — the team ")
    assert {"match_started", "dice_rolled", "action_activated", "beast_rolled", "match_finished"} <= kinds
