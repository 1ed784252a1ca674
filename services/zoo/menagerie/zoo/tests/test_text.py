"""The engine's words for Fantasy Zoo: labels, events and prompts of seeded matches.

A seeded match is played by random choices (the first seat to act picks uniformly among
its legal actions). Each viewer — the three seats and a spectator — reads the events as
its Watch stream brings them (projected for it), and the acting seat reads a label for
every legal action, written from its own view.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from menagerie.rules.contract import Label, MatchSetup
from menagerie.rules.events import project
from menagerie.rules.text import Narrator
from menagerie.zoo.engine import Action, ZooEngine, ZooState
from menagerie.zoo.engine.model import (
    AnimalPlaced,
    Build,
    CardKept,
    CardPicked,
    ChooseReward,
    ChooseSecretGoal,
    Event,
    Finish,
    HandReceived,
    Keep,
    MatchFinished,
    Pick,
    Place,
    Values,
)
from menagerie.zoo.v1 import zoo_pb2

ENGINE = ZooEngine()
SEATS = 3
NAMES = ["Ann", "Bob", "Cat"]
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
PRIVATE_EVENTS = {"cards_dealt", "secret_goals_dealt", "hand_received"}
VALUE_WORDS = {"dangerous": "Dangerous", "cute": "Cute", "rare": "Rare"}


def values_text(values: Values) -> str:
    """How the engine writes a zoo's values."""
    return f"D {values.dangerous} · C {values.cute} · R {values.rare}"


@dataclass
class Labelled:
    """One legal action of the acting seat and its label."""

    action: Action
    label: Label


@dataclass
class Line:
    """One event as one viewer received it, and the engine's sentence for it."""

    viewer: int | None
    event: Event
    line: str | None


@dataclass
class Match:
    """A seeded match played by random choices, read by every viewer."""

    mode: str
    seed: int
    state: ZooState = field(init=False)
    steps: list[list[Labelled]] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state, events = ENGINE.setup(MatchSetup(self.mode, SEATS), self.seed)
        self.rng = random.Random(self.seed)
        self.tell(events)

    def tell(self, events: list[Event]) -> None:
        """Every viewer reads the events as projected for it."""
        for viewer in VIEWERS:
            for event in events:
                shown = project(event, viewer)
                self.lines.append(Line(viewer, shown, ENGINE.describe_event(shown, Narrator(viewer, NAMES))))

    def acting(self) -> int:
        """The first seat that still has to act."""
        return ENGINE.to_act(self.state).seats()[0]

    def labels(self) -> list[Labelled]:
        """Every legal action of the first seat to act, with the label its view gives it."""
        seat = self.acting()
        view = ENGINE.view(self.state, seat)
        narrator = Narrator(seat, NAMES)
        return [Labelled(a, ENGINE.describe_action(view, a, narrator)) for a in ENGINE.legal_actions(self.state, seat)]

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


@pytest.fixture(scope="module", params=sorted(SEEDS))
def played(request: pytest.FixtureRequest) -> Match:
    """A whole match of each mode."""
    mode = str(request.param)
    return Match(mode, SEEDS[mode]).play_out()


# ------------------------------------------------------------------------ actions


def check_label(item: Labelled) -> None:
    """The label says what the action does, naming the card where there is one."""
    action, label = item.action, item.label.text
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
        labels = [item.label.text for item in labelled]
        codes = [item.label.code for item in labelled]
        assert all(label.strip() for label in labels)
        assert len(set(labels)) == len(labels), labels  # the player can tell every choice apart
        assert len(set(codes)) == len(codes), codes
        for item in labelled:
            kinds.add(str(type(item.action).__struct_config__.tag))
            check_label(item)
    expected = ACTION_KINDS if played.mode == "advanced" else ACTION_KINDS - {"choose_reward", "choose_secret_goal"}
    assert kinds == expected


def test_finishing_names_the_cards_it_discards() -> None:
    match = Match("beginner", SEEDS["beginner"])
    while ENGINE.prompt(match.state).kind != "construction":
        match.step()
    picks = match.state.players[match.acting()].picks
    finish = next(item for item in match.labels() if isinstance(item.action, Finish))
    assert len(picks) > 1
    assert f"discard {len(picks)} cards" in finish.label.text
    assert all(f"{ENGINE.cards[c].animal.name} #{c}" in finish.label.text for c in picks)


def test_a_placement_label_judges_the_effect_in_the_zoo_as_it_is() -> None:
    """Conditions are judged and counts counted (the animal included) by the engine, as placing would."""
    judged = {"applies": 0, "not now": 0, "you would have": 0, "per": 0}
    for mode, seed in SEEDS.items():
        for labelled in Match(mode, seed).play_out().steps:
            for item in labelled:
                text = item.label.text
                if not isinstance(item.action, Place):
                    continue
                effect = ENGINE.cards[item.action.card].animal.effect
                if effect.__struct_config__.tag == "if_value_at_most":
                    judged["applies" if text.endswith("— applies)") else "not now"] += 1
                    assert text.endswith(("— applies)", "— not now)"))
                elif effect.__struct_config__.tag == "if_count_at_least":
                    judged["you would have"] += 1
                    assert "— you would have " in text
                elif effect.__struct_config__.tag == "per_count":
                    judged["per"] += 1
                    assert text.rsplit(": +", 1)[1].rstrip(")").isdigit()
    assert all(judged.values()), judged


# ------------------------------------------------------------------------- events


def test_every_event_is_described_or_deliberately_quiet(played: Match) -> None:
    described = set()
    for item in played.lines:
        kind = item.event.kind
        if kind in PRIVATE_EVENTS:
            seat = item.event.seat  # type: ignore[union-attr]
            assert (item.line is not None) == (item.viewer == seat), (kind, item.viewer)
        else:
            assert item.line is not None, (kind, item.viewer)
        if item.line is not None:
            assert item.line.strip() == item.line and item.line
            described.add(kind)
    expected = EVENT_KINDS if played.mode == "advanced" else EVENT_KINDS - GOAL_EVENTS
    assert described == expected


def test_event_lines_say_what_the_viewer_may_know(played: Match) -> None:
    for item in played.lines:
        event, line = item.event, item.line or ""
        if isinstance(event, CardPicked):
            if item.viewer == event.seat:
                assert event.card is not None
                assert line == f"You picked the {event.card.animal.name} (#{event.card.id})."
            else:
                assert line == f"{NAMES[event.seat]} picked a card."
        elif isinstance(event, HandReceived) and item.viewer == event.seat:
            assert event.cards
            assert line.startswith("You now hold: ")
            assert all(f"{c.animal.name} #{c.id}" in line for c in event.cards)
        elif isinstance(event, AnimalPlaced):
            assert event.card.animal.name in line and values_text(event.values) in line
        elif isinstance(event, CardKept) and item.viewer != event.seat:
            assert line == f"{NAMES[event.seat]} kept a card for the next round."
        elif isinstance(event, MatchFinished):
            others = [NAMES[s] for s in range(SEATS) if s != item.viewer]
            assert line.startswith("Game over: ") and all(name in line for name in others)


# ------------------------------------------------------------------------ prompts


def test_the_prompt_names_who_is_still_to_decide() -> None:
    match = Match("advanced", SEEDS["advanced"])
    view = ENGINE.view(match.state, 0)
    assert ENGINE.describe_prompt(view, Narrator(0, NAMES)) == (
        "Waiting for you, Bob and Cat to pick a card (round 1 of 5, pick 1)."
    )
    ENGINE.apply(match.state, 1, ENGINE.legal_actions(match.state, 1)[0])
    spectator = ENGINE.view(match.state, None)
    assert ENGINE.describe_prompt(spectator, Narrator(None, NAMES)).startswith("Waiting for Ann and Cat to pick")
    while ENGINE.prompt(match.state).kind != "construction":
        match.step()
    assert ENGINE.describe_prompt(ENGINE.view(match.state, 2), Narrator(2, NAMES)) == (
        "Waiting for Ann, Bob and you to finish building (round 1 of 5)."
    )


def test_every_prompt_of_a_match_reads_as_a_sentence(played: Match) -> None:
    replay = Match(played.mode, played.seed)
    kinds = set()
    while replay.state.outcome is None:
        for viewer in VIEWERS:
            text = ENGINE.describe_prompt(ENGINE.view(replay.state, viewer), Narrator(viewer, NAMES))
            assert text.startswith("Waiting for ") and text.endswith(".")
        kinds.add(ENGINE.prompt(replay.state).kind)
        replay.step()
    final = ENGINE.describe_prompt(ENGINE.view(replay.state, None), Narrator(None, NAMES))
    assert final.startswith("The match is over: ")
    expected = {"drafting", "construction", "rewards", "secret_goals"} if played.mode == "advanced" else set()
    assert kinds == (expected or {"drafting", "construction"})
