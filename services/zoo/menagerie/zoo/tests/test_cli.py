"""The terminal renderer of Fantasy Zoo draws real positions: the engine in-process, views through the codec.

A seeded match is played by random choices (the first seat to act picks uniformly among
its legal actions). The renderer draws each viewer's view — the three seats' and a
spectator's — exactly as GetView or Watch would bring it; it never names actions or
events, and never words the rules on cards and goals: it prints the view's `texts`
(those words are the engine's, see test_text.py).
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
from menagerie.zoo.cli import ZooUI
from menagerie.zoo.engine import ZooEngine, ZooState
from menagerie.zoo.v1 import zoo_pb2

ENGINE = ZooEngine()
UI = ZooUI()
SEATS = 3
NAMES = {0: "Ann", 1: "Bob", 2: "Cat"}
VIEWERS: tuple[int | None, ...] = (0, 1, 2, None)
# Seeds whose random match shows everything: in advanced mode open goals met (rewards to
# choose) and a seat that met both secret goals; in beginner mode a large animal placed;
# in both, a row of 6 cards or more for the first seat.
SEEDS = {"advanced": 101, "beginner": 13}


def view_message(state: ZooState, viewer: int | None) -> zoo_pb2.View:
    """The view as GetView/Watch would send it."""
    return codec.to_message(zoo_pb2.View, ENGINE.view(state, viewer))


@dataclass
class Match:
    """A seeded match played by random choices, drawn for any viewer."""

    mode: str
    seed: int
    state: ZooState = field(init=False)
    drawn: int = 0

    def __post_init__(self) -> None:
        self.state, _ = ENGINE.setup(MatchSetup(self.mode, SEATS), self.seed)
        self.rng = random.Random(self.seed)

    def acting(self) -> int:
        """The first seat that still has to act."""
        return ENGINE.to_act(self.state).seats()[0]

    def phase(self) -> str:
        """The kind of decision the match waits for."""
        return ENGINE.prompt(self.state).kind

    def step(self, draw: bool = False) -> None:
        """The first seat to act takes a legal action at random (its view drawn first, if asked)."""
        seat = self.acting()
        if draw:
            self.draw(seat)
            self.drawn += 1
        ENGINE.apply(self.state, seat, self.rng.choice(ENGINE.legal_actions(self.state, seat)))

    def play_out(self, draw: bool = False) -> Match:
        """Plays to the end."""
        while self.state.outcome is None:
            self.step(draw)
        return self

    def draw(self, viewer: int | None, width: int = 120) -> str:
        """What the viewer's terminal shows."""
        console = Console(record=True, width=width, file=io.StringIO())
        console.print(UI.draw(view_message(self.state, viewer), NAMES))
        return console.export_text()


@pytest.fixture(scope="module", params=sorted(SEEDS))
def played(request: pytest.FixtureRequest) -> Match:
    """A whole match of each mode, every position drawn for the seat to act."""
    mode = str(request.param)
    return Match(mode, SEEDS[mode]).play_out(draw=True)


def test_the_zoo_ui_is_registered() -> None:
    assert isinstance(GAMES["zoo"], ZooUI)
    assert GAMES["zoo"].pb2 is zoo_pb2


def test_the_renderer_draws_every_position_of_a_match_from_the_view_alone(played: Match) -> None:
    assert played.drawn > 50
    for viewer in VIEWERS:
        text = played.draw(viewer)
        assert "Finished" in text and all(name in text for name in NAMES.values())


def test_the_renderer_names_no_action_or_event() -> None:
    assert not hasattr(ZooUI(), "describe_action") and not hasattr(ZooUI(), "describe_event")


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
        match.phase() == "construction"
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
        assert f"score {zoo.score} ({zoo.score_factors[0]}×{zoo.score_factors[1]})" in text
        assert f"{zoo.animals} animal" in text
        for placed in zoo.row:
            for enclosure in (placed.top, placed.bottom):
                assert all(a.animal.name in text for a in enclosure.animals)
    assert all(f"#{placed.card.id}" in text for placed in view.zoos[0].row)
    assert all(f"#{card.id}" in text and card.animal.name in text for card in view.picks)
    assert f"Draw pile: {view.draw_pile_size} cards" in text
    assert ("L mid · R mid" in text) == (mode == "advanced")  # the sheet's paths, advanced mode only
    short = {"upper": "up", "middle": "mid", "lower": "low"}
    (end,) = view.zoos[0].ends  # the zoo grows from one edge: one open end
    inner = "R" if end.end == "left" else "L"
    needs = f"paths: a card built at the {end.end} end needs {inner} {short.get(end.connector or '', '')}"
    assert (needs in text) == (mode == "advanced")  # the open end's path, as the engine reckons it
    grows = {"left": "← grows", "right": "grows →"}
    assert all(zoo.side is not None for zoo in view.zoos)
    assert text.count(grows["left"]) + text.count(grows["right"]) == len(view.zoos)  # the edge each zoo grows from
    assert all((state.goal.title in text) for state in view.open_goals)
    assert bool(view.open_goals) == (mode == "advanced")
    known = {card.animal.name for card in (*view.picks, *view.discards)} | {
        a.animal.name for zoo in view.zoos for p in zoo.row for a in (*p.top.animals, *p.bottom.animals)
    }
    hidden = {ENGINE.cards[c].animal.name for p in match.state.players[1:] for c in p.picks} - known
    assert hidden
    assert not any(name in text for name in hidden)


def test_the_renderer_prints_the_engines_words_for_the_rules_on_cards_and_goals() -> None:
    match = construction_with_zoos("advanced")
    text = match.draw(0, width=250)  # wide enough that no cell wraps
    view = view_message(match.state, 0)
    assert view.picks and view.open_goals and view.zoos[0].secret_goals
    assert all(view.texts.effects[card.id] in text for card in view.picks)
    goals = [*view.texts.open_goals.values(), *view.texts.secret_goals.values()]
    assert len(goals) == len(view.open_goals) + len(view.zoos[0].secret_goals)
    assert all(words.needs in text and words.rewards in text for words in goals)
    assert view.texts.mode in text and view.texts.score in text


def test_the_renderer_words_no_rule_itself() -> None:
    """Without the engine's words in the view, no effect, goal condition, reward or mode is drawn."""
    match = construction_with_zoos("advanced")
    view = view_message(match.state, 0)
    texts = view.texts
    goals = [*texts.open_goals.values(), *texts.secret_goals.values()]
    words = [*texts.effects.values(), texts.mode, texts.score, *(g.needs for g in goals), *(g.rewards for g in goals)]
    words += [end.text for zoo in view.zoos for end in zoo.ends]
    view.ClearField("texts")
    for zoo in view.zoos:
        for end in zoo.ends:
            end.ClearField("text")
    console = Console(record=True, width=250, file=io.StringIO())
    console.print(UI.draw(view, NAMES))
    text = console.export_text()
    assert words and not any(w in text for w in words)
    assert all(card.animal.name in text for card in view.picks)  # the cards are still drawn


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
        console.print(UI.draw(view_message(played.state, 0), NAMES))
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
