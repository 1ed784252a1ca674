"""The dice game's data files load, and the loader refuses data that breaks an invariant."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

from menagerie.pursuit.engine.data import ACTIONS, DataError, load_data, parse, read_files

DATA = load_data()


def test_six_dice_five_black_and_one_teal() -> None:
    assert DATA.dice.black.count == 5 and DATA.dice.teal.count == 1
    assert "wild" in DATA.dice.black.faces and "wild" not in DATA.dice.teal.faces
    assert "reaction" in DATA.dice.teal.faces and "reaction" not in DATA.dice.black.faces


def test_four_characters_with_a_pattern_for_every_action() -> None:
    assert len(DATA.characters) == 4
    for character in DATA.characters:
        assert set(character.ready) == set(ACTIONS)


def test_twelve_beasts_four_per_level() -> None:
    assert Counter(b.level for b in DATA.beasts) == {1: 4, 2: 4, 3: 4}
    for beast in DATA.beasts:
        assert beast.black_dice + beast.teal >= 1, f"{beast.id} rolls no dice"
        assert any(e.escape or e.attack for e in beast.faces.values()), f"{beast.id} never does anything"


def test_thirty_insight_cards_of_every_kind() -> None:
    kinds = Counter((c.kind, c.dice) for c in DATA.cards)
    assert len(DATA.cards) == 30
    assert kinds[("die", 1)] and kinds[("die", 2)]
    assert kinds[("reroll", 1)] and kinds[("muffliato", 1)] and kinds[("protego", 1)]


def test_higher_levels_are_harder_to_catch() -> None:
    """On average a level's track is longer, or its dice more numerous, than the level below."""

    def threat(level: int) -> float:
        beasts = [b for b in DATA.beasts if b.level == level]
        return sum(b.to_suitcase + b.black_dice + b.teal - b.to_escape / 2 for b in beasts) / len(beasts)

    assert threat(1) < threat(2) < threat(3)


BROKEN: dict[str, Any] = {
    "wild on the teal die": lambda d: d["dice"]["teal"].update(faces=["wild", *d["dice"]["teal"]["faces"][1:]]),
    "reaction on a black die": lambda d: d["dice"]["black"].update(
        faces=["reaction", *d["dice"]["black"]["faces"][1:]]
    ),
    "a die with five faces": lambda d: d["dice"]["black"].update(faces=d["dice"]["black"]["faces"][:5]),
    "seven dice": lambda d: d["dice"]["black"].update(count=6),
    "a missing Ready pattern": lambda d: d["characters"][0]["ready"].pop("insight"),
    "a thirteenth beast": lambda d: d["beasts"].append({**d["beasts"][0], "id": "extra"}),
    "a beast at level 4": lambda d: d["beasts"][0].update(level=4),
    "a reaction that does nothing": lambda d: d["beasts"][0].update(reaction={}),
    "a card numbered twice": lambda d: d["cards"][1].update(id=1),
    "an action card with a face": lambda d: next(c for c in d["cards"] if c["kind"] != "die").update(face="capture"),
    "a misspelt field": lambda d: d["beasts"][0].update(black_dise=2),
    "an unknown face": lambda d: d["characters"][0]["ready"].update(protect=["shield"]),
}


@pytest.mark.parametrize("fault", sorted(BROKEN))
def test_the_loader_refuses_broken_data(fault: str) -> None:
    data = copy.deepcopy(read_files())
    BROKEN[fault](data)
    with pytest.raises(DataError):
        parse(data)


def test_the_files_as_read_are_valid() -> None:
    assert parse(read_files()) == DATA
