"""The terminal renderer of Catch the Golden Snitch draws real positions: the engine in process, views via the codec.

A seeded match is played by random choices (the seat to act picks uniformly among its
legal actions). The renderer draws each viewer's view — both seats' and a spectator's —
exactly as GetView or Watch would bring it (`codec.to_message`), at 80 columns and wider.
It never names actions or events: the session prints the prompt's text and the labels of
ListLegalActions, which are the engine's.

Mode "advanced" (Build Your Team): the team-building screen shows the viewer's own draft
and nothing of the rival's; once the Teams are on the table the board shows the Flags,
each unique Player's Trait and Locked token, and the Spectator Stand.
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from rich.console import Console

from menagerie.cli.games import GAMES
from menagerie.rules.contract import MatchSetup
from menagerie.shared import codec
from menagerie.snitch.cli import SnitchUI
from menagerie.snitch.engine.model import PickForTeam, PlaySpectator, SnitchState
from menagerie.snitch.engine.rules import SnitchEngine
from menagerie.snitch.v1 import snitch_pb2

ENGINE = SnitchEngine()
UI = SnitchUI()
NAMES = {0: "Ann", 1: "Bob"}
VIEWERS: tuple[int | None, ...] = (0, 1, None)
WIDTHS = (80, 132)
SEED = 4
EVERY = 9  # a whole match is ~250 decisions: every 9th is drawn, for each viewer and width


def view_message(state: SnitchState, viewer: int | None) -> snitch_pb2.View:
    """The view as GetView/Watch would send it."""
    return codec.to_message(snitch_pb2.View, ENGINE.view(state, viewer))


def draw(state: SnitchState, viewer: int | None, width: int = 132) -> str:
    """What the viewer's terminal shows."""
    console = Console(record=True, width=width, file=io.StringIO())
    console.print(UI.draw(view_message(state, viewer), NAMES))
    return console.export_text()


@dataclass
class Match:
    """A seeded match played by random choices."""

    seed: int
    options: dict[str, str] = field(default_factory=dict)
    mode: str = "basic"
    state: SnitchState = field(init=False)
    kinds: set[str] = field(default_factory=set)
    drawn: int = 0

    def __post_init__(self) -> None:
        self.state, _ = ENGINE.setup(MatchSetup(self.mode, 2, self.options), self.seed)
        self.rng = random.Random(self.seed)
        self.steps = 0

    def kind(self) -> str:
        return ENGINE.prompt(self.state).kind

    def step(self) -> None:
        seat = ENGINE.to_act(self.state).must[0]
        ENGINE.apply(self.state, seat, self.rng.choice(ENGINE.legal_actions(self.state, seat)))
        self.steps += 1

    def until(self, kind: str, test: Callable[[SnitchState], bool] | None = None) -> Match:
        """Plays on until a decision of `kind` is pending (and the state passes `test`, if given)."""
        while ENGINE.outcome(self.state) is None:
            if self.kind() == kind and (test is None or test(self.state)):
                return self
            self.step()
        raise AssertionError(f"seed {self.seed}: the match ended before a {kind} decision")


@pytest.fixture(scope="module")
def played() -> Match:
    """A whole match, every EVERY-th position drawn for every viewer at every width."""
    match = Match(SEED, {"house_0": "ravenclaw", "house_1": "hufflepuff"})
    while True:
        if match.steps % EVERY == 0 or ENGINE.outcome(match.state) is not None:
            match.kinds.add(match.kind())
            for viewer in VIEWERS:
                for width in WIDTHS:
                    text = draw(match.state, viewer, width)
                    assert "Catch the Golden Snitch" in text and "Race" in text
                    assert max(len(line) for line in text.splitlines()) <= width
                    match.drawn += 1
        if ENGINE.outcome(match.state) is not None:
            return match
        match.step()


# --------------------------------------------------------------------------- a match


def test_the_renderer_draws_positions_all_through_a_match_from_the_view_alone(played: Match) -> None:
    assert played.drawn > 100
    assert {"block_action", "snitch_card_choice", "finished"} <= played.kinds
    for viewer in VIEWERS:
        text = draw(played.state, viewer)
        assert "Results" in text and "won" in text and "lost" in text


def test_the_renderer_names_no_action_or_event() -> None:
    assert not hasattr(UI, "describe_action") and not hasattr(UI, "describe_event")


def test_the_snitch_ui_is_registered() -> None:
    assert isinstance(GAMES["snitch"], SnitchUI)
    assert GAMES["snitch"].pb2 is snitch_pb2


# ----------------------------------------------------------------------- the pitch


def test_the_pitch_shows_every_zone_by_name_with_its_players() -> None:
    match = Match(SEED)
    view = ENGINE.view(match.state, 0)
    wide = draw(match.state, 0, 160)
    assert all(zone.name in wide for zone in view.zones)
    # At 80 columns the long names are shortened (or wrapped), never cut.
    narrow = draw(match.state, 0, 80)
    for name in ("W Scoring", "E Scoring", "W Deploy", "E Deploy", "W Centre", "E South", "North", "Midfield"):
        assert name in narrow
    middle = draw(match.state, 0, 110)
    assert "W Deployment" in middle and "West Scoring Area" not in middle
    # Setup: the Keepers in their Scoring Areas, everyone else in the Deployment Zones; one Chaser holds the Quaffle.
    assert "G K" in wide and "S K" in wide
    assert "G B1 B2 C1 C2 C3" in wide.replace("◉", "") or "S B1 B2 C1 C2 C3" in wide.replace("◉", "")
    assert wide.count("◉") == 1


def test_the_zones_are_laid_out_by_row_and_column() -> None:
    lines = draw(Match(SEED).state, None, 160).splitlines()

    def line_of(name: str) -> int:
        return next(i for i, line in enumerate(lines) if name in line)

    def column_of(name: str) -> int:
        return lines[line_of(name)].index(name)

    assert line_of("West North Wing") < line_of("West Centre") < line_of("West South Wing")
    assert line_of("West Scoring Area") == line_of("East Scoring Area")
    assert column_of("West Scoring Area") < column_of("West Centre") < column_of("East Centre")
    assert column_of("West North Wing") == column_of("West Centre") == column_of("West South Wing")


def test_stunned_players_bludgers_and_a_loose_quaffle_are_marked() -> None:
    match = Match(SEED).until("block_action", lambda s: any(p.stunned for c in s.players for p in c.team))
    text = draw(match.state, 0)
    assert "×" in text and "●1" in text and "●2" in text
    match.until("loose_quaffle").step()
    assert "◉ loose" in draw(match.state, None)


# ------------------------------------------------------------------------ the race


def test_the_race_shows_the_track_the_seekers_and_the_snitch() -> None:
    match = Match(SEED)
    state = match.state
    state.seekers, state.snitch = [3, 7], 18
    text = draw(state, 0)
    numbers = next(line for line in text.splitlines() if line.startswith("Race"))
    assert numbers.split()[1:] == [str(n) for n in range(1, 21)]
    pieces = text.splitlines()[text.splitlines().index(numbers) + 1]
    assert pieces[numbers.index(" 3") + 1] == "G" and pieces[numbers.index(" 7") + 1] == "S"
    assert pieces[numbers.index("18") + 1] == "★"
    assert "Spaces to the Snitch: you 15, Bob 11 · Bob ahead" in text


def test_race_tokens_are_drawn_on_their_spaces() -> None:
    match = Match(SEED).until("race_token_placement")
    match.step()
    tokens = ENGINE.view(match.state, None).race.tokens
    if not tokens:
        pytest.skip("the token was discarded")
    text = draw(match.state, None)
    lines = text.splitlines()
    numbers = next(i for i, line in enumerate(lines) if line.startswith("Race"))
    token_line = lines[numbers + 2]
    assert "^" in token_line or "+" in token_line or "-" in token_line


# ------------------------------------------------------------------ coaches, cards


def test_the_coaches_tempo_goals_and_hand_sizes_are_shown() -> None:
    match = Match(SEED)
    state = match.state
    state.players[0].tempo, state.players[1].goals, state.players[1].celebrated = 3, 1, 1
    text = draw(state, 0)
    assert "Ann (you)" in text and "Bob" in text
    assert "3/4" in text and "2 (1 to flip)" in text
    assert "Gryffindor" in text and "Slytherin" in text


def test_the_viewer_sees_its_own_hand_and_the_snitch_row_but_not_the_rivals_cards() -> None:
    match = Match(SEED).until("pitch_cards")
    view = ENGINE.view(match.state, 0)
    rival = ENGINE.view(match.state, 1)
    text = draw(match.state, 0)
    assert "Your hand" in text and all(card.name in text for card in view.hand)
    assert all(card.name in text for card in view.race.row if card.kind == "snitch")
    assert "Rushed:" in text and "Perfect:" in text
    assert not any(card.name in text for card in rival.hand if card.name not in {c.name for c in view.hand})
    spectator = draw(match.state, None)
    assert "Your hand" not in spectator


def test_a_chosen_pitch_card_is_secret_until_the_reveal() -> None:
    match = Match(SEED).until("pitch_cards")
    seat = ENGINE.to_act(match.state).must[0]
    match.step()
    mine = draw(match.state, seat)
    theirs = draw(match.state, 1 - seat)
    assert "(secret)" in mine and "chosen" in theirs


def test_the_roll_under_way_is_shown_with_its_dice() -> None:
    match = Match(SEED).until("roll_window")
    text = draw(match.state, None)
    assert "Roll:" in text and "Action:" in text
    assert any(f"{c}:" in text for c in ("o", "p", "b"))


def test_the_header_names_the_decision_and_who_must_act() -> None:
    match = Match(SEED).until("snitch_card_choice")
    seat = ENGINE.to_act(match.state).must[0]
    text = draw(match.state, seat)
    assert "Snitch card" in text.splitlines()[0]
    assert "To act: you" in text
    assert f"To act: {NAMES[seat]}" in draw(match.state, None)


# ------------------------------------------------------------------- Build Your Team

ADVANCED = {"funding": "15", "spectators": "on"}


def words(text: str) -> str:
    """The drawing's words on one line (a table cell wraps a long text over several lines)."""
    return " ".join(re.sub(r"[│─╭╮╰╯├┤┬┴┼]", " ", text).split())


def picked(seed: int = SEED) -> Match:
    """An advanced match where seat 0 has picked a House, two unique Players, a Tactical card and a Spectator."""
    match = Match(seed, ADVANCED, mode="advanced")
    for part, card in [
        ("house", "gryffindor"),
        ("player", "harry_potter_seeker"),
        ("player", "oliver_wood"),
        ("tactic", "16"),
        ("spectator", "lee_jordan"),
    ]:
        ENGINE.apply(match.state, 0, PickForTeam(part=part, card=card))
    return match


@pytest.mark.parametrize("width", WIDTHS)
def test_the_team_building_screen_shows_the_viewers_own_draft(width: int) -> None:
    match = picked()
    draft = ENGINE.view(match.state, 0).draft
    assert draft is not None
    text = draw(match.state, 0, width)
    assert max(len(line) for line in text.splitlines()) <= width
    assert text.splitlines()[0] == "Catch the Golden Snitch · Build Your Team"
    flat = words(text)
    assert "Your Team: Gryffindor · Funding 15: 6 spent, 9 left · Spectators on" in flat
    assert "Players (2 of 7)" in flat
    for card in draft.players:  # Position, cost, the Trait in the engine's words
        assert card.name in flat and words(card.trait) in flat
    assert "Keeper Oliver Wood ✷ 2 G" in flat and "Seeker Harry Potter ✷ 2 G" in flat
    tactic = draft.tactics[0]
    assert f"Tactical deck: 1 of 15 cards, 1 G · {tactic.name} (1 G)" in flat
    assert "1 G Lee Jordan ✷ (Encouragement): Gain 1 Tempo Point." in flat
    assert draft.missing and f"Still missing: {words(draft.missing)}" in flat
    assert "You are still building" in flat and "Bob is still building" in flat
    assert "Race" not in text and "Coach" not in text  # no board before the Teams are on the table


def test_the_rivals_draft_stays_secret_on_the_team_building_screen() -> None:
    match = picked()
    rival = words(draw(match.state, 1))
    assert "Your Team: no House yet" in rival and "Players: none yet" in rival
    assert "Harry Potter" not in rival and "Oliver Wood" not in rival and "Gryffindor" not in rival
    watcher = words(draw(match.state, None))
    assert "Your Team:" not in watcher and "Harry Potter" not in watcher
    assert "Ann is still building" in watcher and "Bob is still building" in watcher


def test_a_complete_team_says_so_then_the_flag_choice_shows_it_confirmed() -> None:
    match = Match(SEED, ADVANCED, mode="advanced")
    while True:  # seat 0 picks until its Team may be confirmed
        legal = ENGINE.legal_actions(match.state, 0)
        if any(type(a).__name__ == "ConfirmTeam" for a in legal):
            break
        ENGINE.apply(match.state, 0, next(a for a in legal if isinstance(a, PickForTeam)))
    assert "Complete: confirm it when you are ready." in words(draw(match.state, 0))
    match.until("flag_choice")
    text = words(draw(match.state, 0))
    assert "Flag colour" in text.split(" To act")[0]
    assert "Confirmed: the Team is formed." in text and "You have formed the Team" in text


def test_the_board_shows_flags_traits_locked_tokens_and_the_stand() -> None:
    match = picked()
    match.until("block_action", lambda s: any(spot.seat is not None for spot in s.stand))
    state = match.state
    state.players[0].locked = [6]  # Harry Potter ✷ used his Locked Trait
    view = ENGINE.view(state, 0)
    for width in WIDTHS:
        text = draw(state, 0, width)
        assert max(len(line) for line in text.splitlines()) <= width
        flat = words(text)
        assert f"({state.players[0].flag})" in flat and f"({state.players[1].flag})" in flat
        seeker = view.coaches[0].cards[6]
        assert f"S {seeker.name}: {words(seeker.trait)} ⊘ Locked" in flat
        keeper = view.coaches[0].cards[0]
        assert f"K {keeper.name}: {words(keeper.trait)}" in flat
        assert "K✷" in text  # the unique Keeper on the pitch
        assert "Spectator Stand" in flat and "Magic Zone" in flat and "Encouragement Zone" in flat
        for spot in view.stand:
            if spot.seat is not None and spot.card is not None:
                name = ENGINE.spectator_cards[spot.card].name
                assert f"{spot.zone.title()} Zone {marks(state)[spot.seat]} {name}" in flat
        fan = next(c for c in view.coaches[0].spectators if c.id == "fervent_fan")
        assert f"Fervent Fan (Magic or Encouragement): {fan.first}" in flat


def marks(state: SnitchState) -> tuple[str, str]:
    """Each Team's mark: its House's initial, or the seat numbers when both share one."""
    initials = (state.players[0].house[:1].upper(), state.players[1].house[:1].upper())
    return ("1", "2") if initials[0] == initials[1] else initials


def test_an_advanced_match_draws_all_through_for_every_viewer() -> None:
    match = Match(SEED + 1, ADVANCED, mode="advanced")
    spectators = False
    while True:
        if match.steps % EVERY == 0 or ENGINE.outcome(match.state) is not None:
            match.kinds.add(match.kind())
            for viewer in VIEWERS:
                for width in WIDTHS:
                    text = draw(match.state, viewer, width)
                    assert "Catch the Golden Snitch" in text
                    assert max(len(line) for line in text.splitlines()) <= width
        if ENGINE.outcome(match.state) is not None:
            break
        seat = ENGINE.to_act(match.state).must[0]
        legal = ENGINE.legal_actions(match.state, seat)
        spectators = spectators or any(isinstance(a, PlaySpectator) for a in legal)
        match.step()
    assert {"team_building", "block_action", "finished"} <= match.kinds and spectators
    assert "Results" in draw(match.state, None)
