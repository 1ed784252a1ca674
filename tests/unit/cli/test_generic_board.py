"""The generic board: every game drawn in the terminal from the generic service alone, at 80×24.

The positions are real (seeded matches of every installed game, translated as the game
service translates them for menagerie.generic.v1.Game), so the board is checked against
what any game, with or without a renderer of its own, would send it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from menagerie.cli.games import GAMES, GENERIC, ui_for
from menagerie.cli.games.generic import GenericUI, Readers, choices, outline
from menagerie.cli.menu import Group, Menu, Pick, Toggles
from menagerie.cli.play import MENU_ROWS
from menagerie.cli.screen import HEIGHT, WIDTH, choice_screen, render
from menagerie.generic.v1 import generic_pb2
from menagerie.rules.registry import game_ids
from tests.unit.cli.positions import Position, names, positions
from tests.unit.cli.test_choice_screens import MATCHES, reachable


def generic_screen(position: Position, seats: int) -> tuple[list[str], Menu]:
    """The generic choice screen of the position at 80×24, as plain rows, and its menu."""
    menu = Menu(GENERIC.menu(position.view, position.legal, MENU_ROWS), MENU_ROWS)
    status = render(GENERIC.status(position.view, names(seats)), WIDTH)[:4]
    lines = choice_screen(
        status, position.events[-12:], position.view.prompt.text, menu.title(), menu.lines(), menu.hint()
    )
    assert all(line.cell_len <= WIDTH for line in lines)
    return [line.plain for line in lines], menu


@pytest.mark.parametrize(("game", "mode", "seats", "options", "seed", "every"), MATCHES)
def test_every_game_fits_80_by_24_on_the_generic_board_and_offers_exactly_the_legal_actions(
    game: str, mode: str, seats: int, options: dict[str, str], seed: int, every: int
) -> None:
    drawn = 0
    for position in positions(game, generic_pb2, mode, seats, options, seed, every * 2):
        lines, menu = generic_screen(position, seats)
        text = "\n".join(lines)
        assert len(lines) <= HEIGHT - 1, text
        assert lines[0].startswith(position.view.prompt.title), "the decision's title heads the screen"
        assert reachable(menu) == set(range(len(position.legal.actions))), text
        board = render(GENERIC.draw(position.view, names(seats)), WIDTH)
        assert all(line.cell_len <= WIDTH for line in board)
        drawn += 1
    assert drawn >= 3


def test_the_headline_names_the_deciders_and_the_board_names_the_seats_and_their_scores() -> None:
    position = next(iter(positions("zoo", generic_pb2, "beginner", 3, {}, 6)))
    seat = position.seat
    lines, _menu = generic_screen(position, 3)
    assert "to decide: " in lines[0] and f"{names(3)[seat]} (you)" in lines[0]
    assert f"{names(3)[seat]} (you): score 0" in "\n".join(lines), "each zoo's score by its seat's name"
    board = "\n".join(line.plain for line in render(GENERIC.draw(position.view, names(3)), WIDTH))
    assert all(f"  {name}" in board for name in names(3).values()), "the zoos are listed by their seats' names"


def test_a_finished_match_shows_the_result_in_the_engines_words() -> None:
    *_, last = positions("zoo", generic_pb2, "beginner", 2, {}, 6)
    view = generic_pb2.View()
    view.CopyFrom(last.view)
    view.viewer = 1
    view.outcome.reason = "Seat 1 has the best zoo"
    view.outcome.seats.add(seat=0, result=1, score=12, rank=1)
    view.outcome.seats.add(seat=1, result=2, score=7, rank=2)
    drawn = [line.plain for line in render(GENERIC.draw(view, names(2)), WIDTH)]
    assert drawn[0] == "Game over: Ann has the best zoo"
    assert drawn[1:3] == ["1. Ann won (score 12)", "2. Bob (you) lost (score 7)"]


def test_a_set_valued_choice_is_marked_item_by_item_then_confirmed() -> None:
    # Pursuit's dice to keep, through the generic service: one action per set of faces (and the teal die).
    rolling = next(
        p
        for p in positions("pursuit", generic_pb2, "coop", 2, {"difficulty": "normal"}, 4)
        if sum(json.loads(a.json)["kind"] == "reroll" for a in p.legal.actions) > MENU_ROWS
    )
    menu = Menu(GENERIC.menu(rolling.view, rolling.legal, MENU_ROWS), MENU_ROWS)
    toggles = next(entry for entry in menu.root if isinstance(entry, Toggles))
    assert toggles.label.startswith("Reroll (") and "keep teal" in toggles.items
    rerolls = [i for i, a in enumerate(rolling.legal.actions) if json.loads(a.json)["kind"] == "reroll"]
    assert set(toggles.combos.values()) == set(rerolls)
    assert reachable(menu) == set(range(len(rolling.legal.actions)))
    # Mark the teal die, confirm: the action that keeps only the teal die.
    menu.answer(str(menu.root.index(toggles) + 1))
    menu.answer(str(toggles.items.index("keep teal") + 1))
    chosen = menu.answer("c").chosen
    assert chosen is not None
    assert json.loads(rolling.legal.actions[chosen].json) == {"kind": "reroll", "keep": [], "keep_teal": True}


def legal_of(actions: list[dict[str, Any]]) -> generic_pb2.ListLegalActionsResponse:
    """A ListLegalActions answer of the generic service listing `actions`, labelled "Label N"."""
    response = generic_pb2.ListLegalActionsResponse(view_version=1)
    for number, action in enumerate(actions):
        response.actions.add(json=json.dumps(action))
        response.labels.add(text=f"Label {number}", code=f"c{number}")
    return response


def test_a_long_list_is_grouped_by_kind_and_actions_that_only_look_alike_stay_a_list() -> None:
    # Ten targets of one kind (an int, not a set: no toggles) and two of another.
    legal = legal_of([{"kind": "take", "count": n} for n in range(10)] + [{"kind": "pass_turn"}] * 2)
    entries = choices(legal, 4)
    assert [type(entry) for entry in entries] == [Group, Group]
    assert [entry.label for entry in entries if isinstance(entry, Group)] == ["Take (10)", "Pass turn (2)"]
    short = choices(legal_of([{"kind": "take", "count": 1}, {"kind": "pass_turn"}]), 4)
    assert short == [Pick("Label 0", "c0", 0), Pick("Label 1", "c1", 1)], "a list that fits is shown as listed"
    # Two actions that would be marked alike are not a set-valued choice.
    same = legal_of([{"kind": "give", "cards": [1, 2]}, {"kind": "give", "cards": [2, 1]}] * 3)
    assert not any(isinstance(entry, Toggles) for entry in choices(same, 2))


def test_the_outline_reads_the_views_fields_by_name_and_seat() -> None:
    fields = {"pile": 7, "face_up": True, "players": [{"score": 2}, {"score": 5, "hand": None}], "log": [[1, 2]]}
    lines = outline(fields, Readers({0: "Ann"}, viewer=1))
    assert lines == [
        "pile: 7",
        "face up: yes",
        "players:",
        "  Ann: score 2",
        "  Seat 2 (you): score 5 · hand –",
        "log:",
        "  1: 1, 2",
    ]


def test_games_without_a_renderer_get_the_generic_board() -> None:
    assert ui_for("a-game-without-a-renderer") is GENERIC and isinstance(GENERIC, GenericUI)
    for game in game_ids():
        assert ui_for(game) is GAMES.get(game, GENERIC)
    assert "generic service" in GENERIC.how_to_play()
