"""The terminal's menu in steps and its screen arithmetic, on ListLegalActions messages.

A menu leaf is always the index of one of the server's actions; groups and pages only
arrange them. The choice screen gives up the status, the events and the prompt (oldest
events first) before any of the menu, and never takes more than 23 rows of 80 columns.
"""

from __future__ import annotations

import pytest
from rich.text import Text

from menagerie.cli.menu import Menu, Pick, Quit, Toggles, default_menu, grouped
from menagerie.cli.screen import choice_screen, menu_rows
from menagerie.snitch.v1 import snitch_pb2


def listing(parts: dict[str, int], extra: int = 0) -> snitch_pb2.ListLegalActionsResponse:
    """Picks for a Snitch team (so many of each part), then `extra` Moves."""
    legal = snitch_pb2.ListLegalActionsResponse(view_version=3)
    for part, count in parts.items():
        for n in range(count):
            legal.actions.add().pick_for_team.CopyFrom(snitch_pb2.PickForTeam(part=part, card=f"{part}{n}"))
            legal.labels.add(text=f"Pick {part} {n}", code=f"{part[0]}{n}")
    for n in range(extra):
        legal.actions.add().move.SetInParent()
        legal.labels.add(text=f"Move {n}", code=f"m{n}")
    return legal


def test_a_short_list_is_shown_as_it_comes() -> None:
    legal = listing({"player": 3}, extra=2)
    entries = default_menu(legal, 10)
    assert entries == [Pick(label.text, label.code, i) for i, label in enumerate(legal.labels)]
    menu = Menu(entries, 10)
    assert menu.answer("2").chosen == 1
    assert menu.answer("M1").chosen == 4  # by code, any case


def test_a_long_list_is_grouped_by_kind_and_paged() -> None:
    legal = listing({"player": 25}, extra=3)
    menu = Menu(grouped(legal, lambda a: a.WhichOneof("kind"), 10), 10)
    assert [e.label for e in menu.root] == ["pick_for_team (25)", "move (3)"]
    assert menu.answer("1").chosen is None
    assert menu.pages() == 3 and "(page 1/3)" in menu.title()
    assert menu.answer("n").chosen is None and "(page 2/3)" in menu.title()
    assert [row[0] for row in menu.lines()][:2] == ["11", "12"]
    assert menu.answer("12").chosen == 11
    menu = Menu(grouped(legal, lambda a: a.WhichOneof("kind"), 10), 10)
    menu.answer("2")
    assert menu.answer("0").chosen is None and menu.level is None  # back to the top
    assert menu.answer("9").message.startswith("Type 1–2")


def test_quit_and_board_are_commands_at_every_level() -> None:
    menu = Menu(default_menu(listing({"player": 2}), 10), 10)
    assert menu.answer("b").board
    with pytest.raises(Quit):
        menu.answer(" Q ")


def test_toggles_confirm_only_a_listed_combination() -> None:
    toggles = Toggles("Keep", ("a", "b"), {frozenset(): 0, frozenset({1}): 1}, {0: "none", 1: "keep b"}, code="k")
    menu = Menu([toggles, Pick("Stop", "s", 2)], 10)
    menu.answer("k")
    assert menu.lines()[-2] == ("c", "", "confirm: none")
    menu.answer("1")
    assert menu.answer("c").chosen is None
    menu.answer("1")
    menu.answer("2")
    assert menu.lines()[1] == ("2", "", "[x] b")
    assert menu.answer("c").chosen == 1


def test_the_screen_keeps_the_menu_whole_and_drops_old_events_first() -> None:
    rows = [(str(n), f"c{n}", f"Action number {n} " + "with a long label " * 4) for n in range(1, 9)]
    events = [f"Event {n} happened." for n in range(30)]
    status = [Text("Status line one"), Text("Status line two")]
    lines = choice_screen(status, events, "You choose something.", "Your move", rows, "hint", 80, 24)
    text = "\n".join(line.plain for line in lines)
    assert len(lines) <= 23 and all(line.cell_len <= 80 for line in lines)
    assert all(f"c{n} " in text for n in range(1, 9)) and "Your move" in text and "hint" in text
    assert "Event 29 happened." in text and "Event 0 happened." not in text
    assert len(menu_rows(rows, 80)) == 16  # each long label takes a second row
    short = choice_screen(status, events, "Prompt", "Your move", rows[:2], "", 80, 24)
    assert sum("happened" in line.plain for line in short) == 5  # at most five rows of events


def test_a_long_list_of_one_kind_is_grouped_by_what_its_labels_name_before_to() -> None:
    legal = snitch_pb2.ListLegalActionsResponse(view_version=1)
    for player in ("Beater 1", "Chaser 2", "Keeper"):
        for zone in ("West Centre", "North Midfield", "East Deployment Zone", "South Wing"):
            legal.actions.add().deploy_player.CopyFrom(snitch_pb2.DeployPlayer(zone=zone))
            legal.labels.add(text=f"Deploy {player} to {zone}", code=f"deploy {player} {zone}")
    menu = Menu(grouped(legal, lambda a: a.WhichOneof("kind"), 10), 10)
    assert [e.label for e in menu.root] == ["Deploy Beater 1 (4)", "Deploy Chaser 2 (4)", "Deploy Keeper (4)"]
    menu.answer("2")
    assert menu.answer("3").chosen == 6  # Chaser 2 to East Deployment Zone
    # Codes this long are not shown (the numbers are typed instead); short ones are.
    rows = menu_rows([("1", "deploy Keeper South Wing", "Deploy Keeper to South Wing")], 80)
    assert rows[0].plain == "  1 Deploy Keeper to South Wing"
    assert menu_rows([("1", "k2", "Keep")], 80)[0].plain == "  1 k2 Keep"


def test_an_actions_code_works_at_every_level_unless_two_actions_share_it() -> None:
    toggles = Toggles("Keep", ("a", "b"), {frozenset(): 0, frozenset({1}): 1}, code="k")
    menu = Menu(
        [toggles, Pick("Stop", "s", 2), Pick("Pass", "x", 3), Pick("Pass too", "x", 4)], 10, ["k", "kb", "s", "x", "x"]
    )
    assert menu.answer("kb").chosen == 1  # a Reroll's own code, without opening the toggles
    menu.answer("k")
    assert menu.answer("s").chosen == 2  # from inside the toggles
    assert menu.answer("x").message  # shared by two actions: not a code to pick by
