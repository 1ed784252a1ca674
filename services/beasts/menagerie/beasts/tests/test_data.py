"""The Beasts data files are validated when they load."""

from __future__ import annotations

import copy
from typing import Any

import msgspec
import pytest

from menagerie.beasts.engine.data import GameData, load_data, read_data_file


def raw() -> dict[str, Any]:
    return {
        "board": read_data_file("board.toml"),
        "creatures": read_data_file("creatures.toml")["creatures"],
        "resources": read_data_file("tokens.toml")["resources"],
        "spells": read_data_file("spells.toml")["spells"],
    }


def test_the_shipped_data_loads_with_the_components_the_rules_need() -> None:
    data = load_data()
    assert len(data.board.spaces) == 33 and len(data.board.token_spaces) == 32
    assert len(data.creatures) == 10
    assert len(data.all_tokens()) == 56
    assert len(data.spell_deck()) == 24
    named = {s.id: s.name for s in data.board.spaces}
    assert named[1] == "Steen National Bank" and named[2] == "Statue of Liberty"
    assert named[3] == "New York Harbour" and named[5] == "Brooklyn Bridge" and named[9] == "Customs"


def broken(change: Any) -> str:
    data = copy.deepcopy(raw())
    change(data)
    with pytest.raises(msgspec.ValidationError) as info:
        msgspec.convert(data, GameData)
    return str(info.value)


def test_a_street_listed_one_way_is_refused() -> None:
    assert "not listed both ways" in broken(lambda d: d["board"]["spaces"][3]["neighbours"].append(20))


def test_blue_circles_must_be_the_rulebooks() -> None:
    assert "blue circles must be" in broken(lambda d: d["board"]["spaces"][5].update(blue_circle=True))


def test_an_unreachable_space_is_refused() -> None:
    def cut(d: dict[str, Any]) -> None:
        spaces = d["board"]["spaces"]
        spaces[31]["neighbours"] = [32]
        spaces[32]["neighbours"] = [31]
        spaces[30]["neighbours"] = [0]
        spaces[20]["neighbours"] = [19, 21]

    assert "reachable" in broken(cut)


def test_the_thunderbird_costs_what_the_rulebook_says() -> None:
    assert "Thunderbird" in broken(lambda d: d["creatures"][9]["cost"].update(red=1))


def test_a_negative_cost_or_unknown_spell_is_refused() -> None:
    assert "positive counts" in broken(lambda d: d["creatures"][0]["cost"].update(red=-1))
    assert "spells" in broken(lambda d: d["spells"].pop())
    assert "supply remains" in broken(lambda d: d["resources"].update(red=0, blue=0, yellow=0, green=0, wild=0))
