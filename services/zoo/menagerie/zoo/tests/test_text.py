"""The engine's words for Fantasy Zoo: labels, events, prompts and the rules on the cards.

A seeded match is played by random choices (the first seat to act picks uniformly among
its legal actions). Each viewer — the three seats and a spectator — reads the events as
its Watch stream brings them (projected for it), and the acting seat reads a label for
every legal action, written from its own view. Every view carries the engine's words for
the rules printed on what it shows (each held card's effect, each goal's condition and
rewards, the mode, the path each open end needs): no client words them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from menagerie.rules.contract import Label, MatchSetup
from menagerie.rules.events import project
from menagerie.rules.text import Narrator
from menagerie.zoo.engine import Action, ZooEngine, ZooState, ZooView
from menagerie.zoo.engine.data import Card
from menagerie.zoo.engine.model import (
    AnimalPlaced,
    Build,
    CardKept,
    CardPicked,
    ChooseReward,
    ChooseSecretGoal,
    Event,
    Finish,
    GoalMet,
    HandReceived,
    Keep,
    MatchFinished,
    NegativeValues,
    Pick,
    Place,
    Rewards,
    Values,
)
from menagerie.zoo.engine.text import (
    MODE_WORDS,
    NEGATIVE_VALUES_OPTION,
    SCORE_WORDS,
    effect_words,
    open_goal_text,
    secret_goal_text,
)
from menagerie.zoo.v1 import zoo_pb2

ENGINE = ZooEngine()
SEATS = 3
NAMES = ["Ann", "Bob", "Cat"]
VIEWERS: tuple[int | None, ...] = (0, 1, 2, None)
# Seeds whose random match shows everything: in advanced mode open goals met (rewards to
# choose) and a seat that met both secret goals; in beginner mode a large animal placed;
# in both, a row of 6 cards or more for the first seat.
SEEDS = {"advanced": 101, "beginner": 13}
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


def test_a_met_open_goal_and_its_reward_choice_name_the_goal_and_who_chooses() -> None:
    """One reward decision per met goal, each achiever choosing one of its two rewards ("If multiple players
    meet the condition on a goal card simultaneously, each may choose one of the two rewards shown on the
    card"; the rulebook's example pays a lone achiever one reward too)."""
    alone = ENGINE.describe_event(GoalMet(goal=1, seats=[0]), Narrator(0, NAMES))
    assert alone == "Open goal met: “Ten enclosures” by you — one of its two rewards to choose."
    several = ENGINE.describe_event(GoalMet(goal=1, seats=[0, 2]), Narrator(1, NAMES))
    assert several == "Open goal met: “Ten enclosures” by Ann and Cat — each chooses one of its two rewards."
    state, _ = ENGINE.setup(MatchSetup("advanced", SEATS), 1)
    state.decisions = [Rewards(must=[0, 2], goal=1)]
    assert ENGINE.describe_prompt(ENGINE.view(state, 1), Narrator(1, NAMES)) == (
        "Waiting for Ann and Cat to choose a reward of the open goal “Ten enclosures”: +2 Dangerous or +2 Cute."
    )


def test_the_first_enclosure_cards_label_says_the_zoo_grows_from_that_edge() -> None:
    """ "Start building your zoo from one edge of your Character Sheet": the first card chooses the edge."""
    match = Match("beginner", SEEDS["beginner"])
    while ENGINE.prompt(match.state).kind != "construction":
        match.step()
    seat = match.acting()
    builds = [item for item in match.labels() if isinstance(item.action, Build)]
    first = builds[0].action
    assert isinstance(first, Build)
    assert {item.label.text.split(" at the ", 1)[1] for item in builds} == {
        "left end (position -1: the zoo then grows leftwards only)",
        "right end (position 1: the zoo then grows rightwards only)",
    }
    ENGINE.apply(match.state, seat, first)
    later = [item for item in match.labels() if isinstance(item.action, Build)]
    assert later and all("grows" not in item.label.text for item in later)
    assert {item.action.end for item in later if isinstance(item.action, Build)} == {first.end}


@pytest.mark.parametrize("negatives", ["multiply", "count_as_zero"])
def test_the_view_words_how_the_score_counts_a_negative_value(negatives: NegativeValues) -> None:
    state, _ = ENGINE.setup(MatchSetup("advanced", SEATS, {"negative_values": negatives}), 1)
    for viewer in VIEWERS:
        assert ENGINE.view(state, viewer).texts.score == SCORE_WORDS[negatives]
    assert all(mode.options[0].description == NEGATIVE_VALUES_OPTION for mode in ENGINE.info.modes)


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


# -------------------------------------------------------------- rules on the cards


def card_named(name: str) -> Card:
    """The first card of an animal."""
    return next(card for card in ENGINE.data.cards if card.animal.name == name)


@pytest.mark.parametrize(
    ("animal", "words"),
    [
        ("Moss Troll", "+1 Dangerous +1 Cute"),
        ("Unicorn", "+2 Cute +1 Rare, −1 Dangerous"),
        ("Manticore", "+3 Dangerous, −1 Cute"),
        ("Will-o'-Wisp", "if Rare ≤ 2: +1 Cute +2 Rare"),
        ("Cockatrice", "if ≥ 3 mountain animals: +2 Dangerous +1 Rare"),
        ("Bubble Newt", "if ≥ 3 water enclosures: +2 Cute +1 Rare"),
        ("Pixie Hare", "+1 Cute per forest animal"),
        ("Thunder Ram", "+1 Dangerous per mountain enclosure"),
        ("Fairy Moth", "+1 Cute or +1 Rare"),
        ("Selkie", "exchange: −1 one value, +1 another"),
    ],
)
def test_the_engine_words_every_kind_of_animal_effect(animal: str, words: str) -> None:
    assert effect_words(card_named(animal).animal.effect) == words


@pytest.mark.parametrize(
    ("goal", "needs", "rewards"),
    [
        (1, "≥ 10 enclosures at a round's end", "+2 Dangerous or +2 Cute (each achiever chooses one)"),
        (3, "≥ 2 animals of each habitat at a round's end", "+3 Dangerous or +3 Rare (each achiever chooses one)"),
        (4, "≥ 2 enclosures of each habitat at a round's end", "+2 Cute or +2 Rare (each achiever chooses one)"),
        (
            5,
            "≥ 3 animals stacked in one enclosure at a round's end",
            "+2 Dangerous or +2 Rare (each achiever chooses one)",
        ),
        (6, "≥ 6 kinds of animal at a round's end", "+2 Dangerous or +2 Cute (each achiever chooses one)"),
        (7, "≥ 1 large animal at a round's end", "+2 Cute or +2 Rare (each achiever chooses one)"),
        (10, "≥ 4 desert animals at a round's end", "+2 Dangerous or +2 Cute (each achiever chooses one)"),
        (13, "≥ 4 mountain enclosures at a round's end", "+2 Dangerous or +2 Cute (each achiever chooses one)"),
        (18, "≥ 6 Rare at a round's end", "+2 Dangerous or +2 Cute (each achiever chooses one)"),
    ],
)
def test_an_open_goal_reads_what_meets_it_when_and_what_it_pays(goal: int, needs: str, rewards: str) -> None:
    """Judged at each round's end; every achiever chooses one reward, alone or not: "each may choose one of the
    two rewards shown on the card", and the rulebook's example pays a lone achiever one ("such as two dangerous
    points")."""
    words = open_goal_text(ENGINE.open_goals[goal])
    assert (words.needs, words.rewards) == (needs, rewards)


@pytest.mark.parametrize(
    ("goal", "needs", "reward"),
    [
        (1, "strictly the most forest animals at the end", "+2 Dangerous +1 Rare"),
        (5, "strictly the most animals at the end", "+1 Dangerous +1 Cute +1 Rare"),
        (7, "strictly the most mystic enclosures at the end", "+3 Rare"),
        (8, "strictly the most animals stacked in one enclosure at the end", "+3 Cute"),
        (13, "strictly the most Dangerous at the end", "+2 Cute +1 Rare"),
    ],
)
def test_a_secret_goal_reads_strictly_the_most_and_that_one_scores(goal: int, needs: str, reward: str) -> None:
    words = secret_goal_text(ENGINE.secret_goals[goal])
    assert (words.needs, words.rewards) == (needs, f"{reward} (only one may score)")


def test_every_goal_and_card_is_worded() -> None:
    cards = {effect_words(card.animal.effect) for card in ENGINE.data.cards}
    goals = [open_goal_text(g) for g in ENGINE.data.open_goals]
    goals += [secret_goal_text(g) for g in ENGINE.data.secret_goals]
    assert all(words and "?" not in words for words in cards)
    assert len({g.needs for g in goals}) == len(goals)  # no two goals read alike
    assert all(g.rewards.startswith("+") for g in goals)


def test_the_modes_read_the_same_in_the_lobby_and_in_the_view() -> None:
    assert {mode.mode: mode.title for mode in ENGINE.info.modes} == MODE_WORDS


def check_texts(view: ZooView) -> None:
    """The view words exactly the rules on what it shows: held cards, its goals, its mode, open ends."""
    held = [*view.hand, *view.picks, *([view.kept] if view.kept is not None else [])]
    texts = view.texts
    assert texts.mode == MODE_WORDS[view.mode]
    assert texts.score == SCORE_WORDS[view.negative_values]
    assert texts.effects == {card.id: effect_words(card.animal.effect) for card in held}
    assert texts.open_goals == {state.goal.id: open_goal_text(state.goal) for state in view.open_goals}
    assert texts.secret_goals == {goal.id: secret_goal_text(goal) for zoo in view.zoos for goal in zoo.secret_goals}
    short = {"upper": "up", "middle": "mid", "lower": "low"}
    for zoo in view.zoos:
        for end in zoo.ends:
            if view.mode == "beginner":
                assert end.text == "" and end.connector is None
            else:
                assert end.connector is not None
                edge = "R" if end.end == "left" else "L"  # a card built at an end meets it with its inner edge
                assert end.text == f"a card built at the {end.end} end needs {edge} {short[end.connector]}"


def test_every_view_carries_the_engines_words_for_the_rules_it_shows(played: Match) -> None:
    replay = Match(played.mode, played.seed)
    shown = {"effects": 0, "open_goals": 0, "secret_goals": 0}
    while True:
        for viewer in VIEWERS:
            view = ENGINE.view(replay.state, viewer)
            check_texts(view)
            for kind in shown:
                shown[kind] += len(getattr(view.texts, kind))
            if viewer is None:
                assert not view.texts.effects  # a spectator holds no card
        if replay.state.outcome is not None:
            break
        replay.step()
    assert shown["effects"]
    assert bool(shown["open_goals"]) == bool(shown["secret_goals"]) == (played.mode == "advanced")
    if played.mode == "advanced":
        final = ENGINE.view(replay.state, None)
        assert len(final.texts.secret_goals) == 2 * SEATS  # revealed at the end, to everyone
