"""The terminal UI of Fantasy Zoo on real positions: the engine in-process, messages through the codec.

A seeded match is played by random choices (the first seat to act picks uniformly among
its legal actions). Each viewer — the three seats and a spectator — has its own ZooUI
and reads the events and views exactly as its Watch stream would bring them.
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass, field

import pytest
from rich.console import Console

from menagerie.cli.games import GAMES
from menagerie.rules.contract import MatchSetup
from menagerie.shared import codec
from menagerie.shared.engine import Event, project_event
from menagerie.zoo.cli import ZooUI
from menagerie.zoo.engine import Action, ZooEngine, ZooState
from menagerie.zoo.engine.model import Build, ChooseReward, ChooseSecretGoal, Finish, Keep, Pick, Place
from menagerie.zoo.v1 import zoo_pb2

ENGINE = ZooEngine()
SEATS = 3
NAMES = {0: "Ann", 1: "Bob", 2: "Cat"}
VIEWERS: tuple[int | None, ...] = (0, 1, 2, None)
# Seeds whose random match shows everything: in advanced mode an open goal met by two
# seats at once (rewards to choose) and a seat that met both secret goals; in beginner
# mode a large animal placed.
SEEDS = {"advanced": 10, "beginner": 0}
EVENT_KINDS = {f.name for f in zoo_pb2.Event.DESCRIPTOR.oneofs_by_name["kind"].fields}
ACTION_KINDS = {f.name for f in zoo_pb2.Action.DESCRIPTOR.oneofs_by_name["kind"].fields}
GOAL_EVENTS = {
    "secret_goals_dealt",
    "open_goals_revealed",
    "goal_met",
    "reward_taken",
    "secret_goals_revealed",
    "secret_goal_scored",
}
# Events about one seat's hidden cards: only that seat has something to read.
PRIVATE_EVENTS = {"cards_dealt", "secret_goals_dealt"}
VALUE_WORDS = {"dangerous": "Dangerous", "cute": "Cute", "rare": "Rare"}


def view_message(state: ZooState, viewer: int | None) -> zoo_pb2.View:
    """The view as GetView/Watch would send it."""
    return codec.to_message(zoo_pb2.View, ENGINE.view(state, viewer))


def values_text(values: zoo_pb2.Values) -> str:
    """How the UI writes a zoo's values."""
    return f"D {values.dangerous} · C {values.cute} · R {values.rare}"


@dataclass
class Labelled:
    """One legal action of the acting seat, as the engine and as the player reads it."""

    action: Action
    message: zoo_pb2.Action
    label: str


@dataclass
class Line:
    """One event as one viewer received it, and what the UI made of it."""

    viewer: int | None
    event: zoo_pb2.Event
    line: str | None


@dataclass
class Match:
    """A seeded match played by random choices, seen through one ZooUI per viewer."""

    mode: str
    seed: int
    state: ZooState = field(init=False)
    uis: dict[int | None, ZooUI] = field(init=False)
    steps: list[list[Labelled]] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state, events = ENGINE.setup(MatchSetup(self.mode, SEATS), self.seed)
        self.rng = random.Random(self.seed)
        self.uis = {viewer: ZooUI() for viewer in VIEWERS}
        self.tell(events)

    def tell(self, events: list[Event]) -> None:
        """Every viewer reads the events, with its view after them (as Watch brings them)."""
        for viewer in VIEWERS:
            view = view_message(self.state, viewer)
            for event in events:
                message = codec.fill_oneof(zoo_pb2.Event(), event.kind, project_event(event, viewer))
                line = self.uis[viewer].describe_event(message, NAMES, viewer, view)
                self.lines.append(Line(viewer, message, line))

    def acting(self) -> int:
        """The first seat that still has to act."""
        return ENGINE.to_act(self.state).seats()[0]

    def labels(self) -> list[Labelled]:
        """Every legal action of the first seat to act, with the label its UI gives it."""
        seat = self.acting()
        view = view_message(self.state, seat)
        labelled = []
        for action in ENGINE.legal_actions(self.state, seat):
            message = codec.tagged_to_message(zoo_pb2.Action, action)
            labelled.append(Labelled(action, message, self.uis[seat].describe_action(message, view, NAMES)))
        return labelled

    def step(self) -> None:
        """The first seat to act labels every legal action it has, then takes one at random."""
        seat = self.acting()
        labelled = self.labels()
        self.steps.append(labelled)
        self.tell(ENGINE.apply(self.state, seat, self.rng.choice(labelled).action))

    def play_out(self) -> Match:
        """Plays to the end."""
        while self.state.outcome is None:
            self.step()
        return self

    def draw(self, viewer: int | None) -> str:
        """What the viewer's terminal shows, 120 columns wide."""
        console = Console(record=True, width=120, file=io.StringIO())
        console.print(self.uis[viewer].draw(view_message(self.state, viewer), NAMES))
        return console.export_text()


@pytest.fixture(scope="module", params=sorted(SEEDS))
def played(request: pytest.FixtureRequest) -> Match:
    """A whole match of each mode."""
    mode = str(request.param)
    return Match(mode, SEEDS[mode]).play_out()


def test_the_zoo_ui_is_registered() -> None:
    assert isinstance(GAMES["zoo"], ZooUI)
    assert GAMES["zoo"].pb2 is zoo_pb2


# ------------------------------------------------------------------------ actions


def check_label(item: Labelled) -> None:
    """The label says what the action does, naming the card where there is one."""
    action, label = item.action, item.label
    card = ENGINE.cards[action.card] if isinstance(action, (Pick, Build, Place, Keep)) else None
    if card is not None:
        assert f"#{card.id}" in label
    if isinstance(action, Pick):
        assert card is not None
        assert label.startswith(f"Pick #{card.id} {card.animal.name} ({card.animal.habitat}")
    elif isinstance(action, Build):
        assert label.startswith(f"Build #{action.card} (") and f"at the {action.end} end" in label
    elif isinstance(action, Place):
        assert card is not None
        assert label.startswith(f"Place #{card.id} {card.animal.name} in the {action.level} enclosure")
        assert f"position{'s' if card.animal.size == 'large' else ''} {action.position}" in label
        if action.increase is not None:
            assert f"+1 {VALUE_WORDS[action.increase]}" in label
        if action.decrease is not None:
            assert f"−1 {VALUE_WORDS[action.decrease]}" in label
    elif isinstance(action, Keep):
        assert card is not None
        assert label == f"Keep #{card.id} {card.animal.name} for the next round"
    elif isinstance(action, Finish):
        assert label.startswith("Finish construction (")
    elif isinstance(action, ChooseReward):
        title = ENGINE.open_goals[action.goal].title
        assert label.startswith(f"Take reward {action.option + 1} of goal “{title}”: +")
    elif isinstance(action, ChooseSecretGoal):
        assert label.startswith(f"Score secret goal {ENGINE.secret_goals[action.goal].title}: +")


def test_every_legal_action_gets_a_distinct_label_naming_its_card(played: Match) -> None:
    kinds = set()
    for labelled in played.steps:
        labels = [item.label for item in labelled]
        assert all(label.strip() for label in labels)
        assert len(set(labels)) == len(labels), labels  # the player can tell every choice apart
        for item in labelled:
            kinds.add(item.message.WhichOneof("kind"))
            check_label(item)
    expected = ACTION_KINDS if played.mode == "advanced" else ACTION_KINDS - {"choose_reward", "choose_secret_goal"}
    assert kinds == expected


def test_finishing_names_the_cards_it_discards() -> None:
    match = Match("beginner", SEEDS["beginner"])
    while match.state.phase != "construction":
        match.step()
    picks = match.state.players[match.acting()].picks
    finish = next(item for item in match.labels() if isinstance(item.action, Finish))
    assert len(picks) > 1
    assert f"discard {len(picks)} cards" in finish.label
    assert all(f"{ENGINE.cards[c].animal.name} #{c}" in finish.label for c in picks)


# ------------------------------------------------------------------------- events


def test_every_event_is_described_or_deliberately_quiet(played: Match) -> None:
    described = set()
    for item in played.lines:
        kind = item.event.WhichOneof("kind")
        assert kind is not None
        body = getattr(item.event, kind)
        if kind in PRIVATE_EVENTS:
            assert (item.line is not None) == (item.viewer == body.seat), (kind, item.viewer)
        else:
            assert item.line is not None, (kind, item.viewer)
        if item.line is not None:
            assert item.line.strip() == item.line and item.line
            described.add(kind)
    expected = EVENT_KINDS if played.mode == "advanced" else EVENT_KINDS - GOAL_EVENTS
    assert described == expected


def test_event_lines_say_what_the_viewer_may_know(played: Match) -> None:
    for item in played.lines:
        kind = item.event.WhichOneof("kind")
        body = getattr(item.event, kind or "")
        line = item.line or ""
        if kind == "card_picked":
            if item.viewer == body.seat:
                assert line == f"You picked the {body.card.animal.name} (#{body.card.id})."
            else:
                assert line == f"{NAMES[body.seat]} picked a card."
        elif kind == "hands_passed" and item.viewer is not None:
            assert all(f"{c.animal.name} #{c.id}" in line for c in body.hand)
            assert body.hand
        elif kind == "animal_placed":
            assert body.card.animal.name in line and values_text(body.values) in line
        elif kind == "card_kept" and item.viewer != body.seat:
            assert line == f"{NAMES[body.seat]} kept a card for the next round."
        elif kind == "match_finished":
            others = [NAMES[s] for s in range(SEATS) if s != item.viewer]
            assert line.startswith("Game over: ") and all(name in line for name in others)


# ------------------------------------------------------------------------ drawing


def test_drawing_while_drafting_shows_own_hand_and_hides_the_others() -> None:
    match = Match("advanced", SEEDS["advanced"])
    text = match.draw(0)
    view = ENGINE.view(match.state, 0)
    assert "round 1/5" in text and "Drafting" in text and "pick 1" in text
    assert "Still to act: you, Bob, Cat" in text
    assert all(f"#{card.id}" in text and card.animal.name in text for card in view.hand)
    assert text.count("ENTRANCE") == SEATS
    assert "D 0 · C 0 · R 0" in text and "score 0" in text
    assert all(state.goal.title in text for state in view.open_goals)
    assert all(goal.title in text for goal in view.zoos[0].secret_goals)
    known = {card.animal.name for card in view.hand}
    hidden = {ENGINE.cards[c].animal.name for p in match.state.players[1:] for c in p.hand} - known
    assert hidden
    assert not any(name in text for name in hidden)
    theirs = {ENGINE.secret_goals[g].title for p in match.state.players[1:] for g in p.secret_goals}
    hidden_goals = theirs - {goal.title for goal in view.zoos[0].secret_goals}
    assert hidden_goals
    assert not any(title in text for title in hidden_goals)


def construction_with_zoos(mode: str) -> Match:
    """A match in construction where every seat's zoo has at least two cards and an animal."""
    match = Match(mode, SEEDS[mode])
    while not (
        match.state.phase == "construction"
        and match.acting() == 0
        and all(
            len(p.row) >= 2 and any(e.animals for c in p.row for e in (c.top, c.bottom)) for p in match.state.players
        )
        and match.state.players[0].picks
    ):
        match.step()
    return match


@pytest.mark.parametrize("mode", sorted(SEEDS))
def test_drawing_during_construction_shows_every_zoo_and_own_cards(mode: str) -> None:
    match = construction_with_zoos(mode)
    text = match.draw(0)
    view = ENGINE.view(match.state, 0)
    assert "Construction" in text and "ENTRANCE" in text
    for zoo in view.zoos:
        values = zoo.values
        assert f"D {values.dangerous} · C {values.cute} · R {values.rare}" in text
        assert f"score {zoo.score} (" in text
        assert f"{zoo.animals} animal" in text
        for placed in zoo.row:
            for enclosure in (placed.top, placed.bottom):
                assert all(a.animal.name in text for a in enclosure.animals)
    assert all(f"#{placed.card.id}" in text for placed in view.zoos[0].row)
    assert all(f"#{card.id}" in text and card.animal.name in text for card in view.picks)
    assert f"Draw pile: {view.draw_pile_size} cards" in text
    assert ("L mid · R mid" in text) == (mode == "advanced")  # the sheet's paths, advanced mode only
    assert all((state.goal.title in text) for state in view.open_goals)
    assert bool(view.open_goals) == (mode == "advanced")
    known = {card.animal.name for card in (*view.picks, *view.discards)} | {
        a.animal.name for zoo in view.zoos for p in zoo.row for a in (*p.top.animals, *p.bottom.animals)
    }
    hidden = {ENGINE.cards[c].animal.name for p in match.state.players[1:] for c in p.picks} - known
    assert hidden
    assert not any(name in text for name in hidden)


def test_drawing_marks_large_animals() -> None:
    match = Match("beginner", SEEDS["beginner"]).play_out()
    large = [
        ENGINE.cards[e.animals[0]].animal.name
        for p in match.state.players
        for c in p.row
        for e in (c.top, c.bottom)
        if e.large
    ]
    assert large
    text = match.draw(1)
    assert all(f"{name} (large)" in text for name in large)


def test_a_fresh_client_names_every_animal_from_the_view_alone() -> None:
    match = construction_with_zoos("advanced")
    console = Console(record=True, width=120, file=io.StringIO())
    console.print(ZooUI().draw(view_message(match.state, 0), NAMES))
    text = console.export_text()
    others = [a for p in match.state.players[1:] for c in p.row for e in (c.top, c.bottom) for a in e.animals]
    assert others
    assert all(ENGINE.cards[a].animal.name in text for a in others)


def test_a_long_row_is_drawn_in_bands_as_wide_as_the_terminal(played: Match) -> None:
    bands = {}
    for width in (80, 160):
        console = Console(record=True, width=width, file=io.StringIO())
        console.print(played.uis[0].draw(view_message(played.state, 0), NAMES))
        lines = console.export_text().splitlines()
        assert max(len(line) for line in lines) <= width
        bands[width] = sum(1 for line in lines if line.startswith("│ pos"))  # the viewer's own row
    assert len(played.state.players[0].row) >= 6
    assert bands[80] > bands[160] >= 1


def test_drawing_the_end_shows_the_results(played: Match) -> None:
    text = played.draw(None)
    assert "Results" in text and "Finished" in text
    outcome = played.state.outcome
    assert outcome is not None
    for seat in outcome.seats:
        assert NAMES[seat.seat] in text
    assert ("won" in text) or ("drew" in text)
    if played.mode == "advanced":
        revealed = {ENGINE.secret_goals[g].title for p in played.state.players for g in p.secret_goals}
        assert all(title in text for title in revealed)
