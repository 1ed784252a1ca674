"""Mode III's data files (characters, locations, events, Salem track) are valid, and faults are refused."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from menagerie.beasts.engine.data import DataError, load_data
from menagerie.beasts.engine.salem_data import (
    DIFFICULTIES,
    LOSS_AT,
    STARTING_SALEMERS,
    ApparateAbility,
    CollectAbility,
    Difficulty,
    Effect,
    FightAbility,
    Lose,
    load_salem,
    salem_from,
    salem_raw,
)


def test_the_shipped_files_load_with_the_counts_the_rules_need() -> None:
    data = load_salem()
    assert len(data.characters) == 6 and len({c.id for c in data.characters}) == 6
    assert len(data.locations) == 32
    assert len(data.events) == 20 and [len(data.event_deck(d)) for d in DIFFICULTIES] == [35, 36, 37]
    assert data.event_deck() == data.event_deck("standard")
    assert len(data.second_salemers) == 6
    assert data.track.spaces == max(LOSS_AT.values()) == 11
    assert [data.track.orange.of(d) for d in DIFFICULTIES] == [(2, 4, 6), (1, 2, 3, 5), (1, 2, 3, 4, 6)]
    assert data.track.salemer_tokens >= max(STARTING_SALEMERS.values()) + max(LOSS_AT.values())
    assert load_salem() is data  # cached


def test_the_files_as_read_are_valid() -> None:
    assert salem_from(salem_raw(), load_data().board) == load_salem()


def test_location_cards_are_the_board_spaces_1_to_32() -> None:
    board = {s.id: s.name for s in load_data().board.spaces}
    assert [(c.id, c.name) for c in load_salem().locations] == [(n, board[n]) for n in range(1, 33)]


def test_characters_are_balanced() -> None:
    characters = {c.id: c for c in load_salem().characters}
    assert set(characters) == {"newt", "tina", "queenie", "jacob", "theseus", "leta"}
    for c in characters.values():
        assert c.id == c.id.lower() and 3 <= c.actions <= 5
        assert c.actions == (3 if c.ability is not None else 4)  # an ability is worth about one action
    kinds = {type(c.ability) for c in characters.values()}
    assert {FightAbility, ApparateAbility, CollectAbility, type(None)} == kinds


def kinds(effects: list[Effect]) -> Counter[str]:
    return Counter(type(e).__name__ for e in effects)


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_every_effect_kind_appears_and_events_are_mostly_mild(difficulty: Difficulty) -> None:
    data = load_salem()
    deck = [data.event(card).effect for card in data.event_deck(difficulty)]
    in_deck = kinds(deck)
    assert set(in_deck) == {"Calm", "Gain", "Lose", "Actions", "NewSalemers", "Track", "ClearBar"}
    # The same 18 cards help or do nothing at every difficulty (a difficulty adds only harm), and
    # at most 12 work for the Salemers (tuned: RULES.md "Mode III: difficulty and balance").
    assert in_deck["Calm"] + in_deck["Gain"] + in_deck["Actions"] == 18
    assert in_deck["NewSalemers"] + in_deck["Track"] + in_deck["ClearBar"] <= 12
    second = kinds([c.effect for c in data.second_salemers])
    assert set(second) == {"NewSalemers", "Track", "Lose"}
    assert all(e.everyone for e in (c.effect for c in data.second_salemers) if isinstance(e, Lose))


def refused(change: Callable[[dict[str, Any]], object]) -> str:
    raw = copy.deepcopy(salem_raw())
    change(raw)
    with pytest.raises(DataError) as info:
        salem_from(raw, load_data().board)
    return str(info.value)


def test_a_character_with_an_ability_and_5_actions_is_refused() -> None:
    message = refused(lambda r: r["characters"][0].update(actions=5))
    assert "characters.toml" in message and "'newt'" in message and "at most 4 actions" in message


def test_character_faults_are_refused() -> None:
    assert "Expected `int` <= 5" in refused(lambda r: r["characters"][3].update(actions=6))
    assert "lowercase" in refused(lambda r: r["characters"][1].update(id="Tina"))
    assert "distinct ids" in refused(lambda r: r["characters"][1].update(id="newt"))
    assert "exactly 6 characters" in refused(lambda r: r["characters"].pop())
    assert "entry 2" in refused(lambda r: r["characters"][1].update(ability={"kind": "fly"}))
    assert "unknown field" in refused(lambda r: r["characters"][1].update(wand="yes")).lower()


def test_location_faults_are_refused() -> None:
    message = refused(lambda r: r["locations"][4].update(name="Brooklyn"))
    assert "locations.toml" in message and "location 5" in message and "Brooklyn Bridge" in message
    assert "one card per board space" in refused(lambda r: r["locations"].pop())
    assert "one card per board space" in refused(lambda r: r["locations"][31].update(id=33))


def test_event_faults_are_refused() -> None:
    assert "distinct ids" in refused(lambda r: r["events"][1].update(id=1))
    assert "exactly 20" in refused(lambda r: r["events"].pop())
    assert "ids count from 1" in refused(lambda r: r["events"][0].update(id=0))
    message = refused(lambda r: r["events"][4].update(effect={"kind": "gain", "colour": "purple"}))
    assert "events.toml" in message and "entry 5 (id 5)" in message
    assert "<= 2" in refused(lambda r: r["events"][9].update(effect={"kind": "lose", "count": 3}))
    assert "<= 4" in refused(lambda r: r["events"][0]["copies"].update(hard=5))
    assert "missing required field `gentle`" in refused(
        lambda r: r["events"][0].update(copies={"standard": 1, "hard": 1})
    )
    assert "in no difficulty's deck" in refused(lambda r: r["events"][0].update(copies=dict.fromkeys(DIFFICULTIES, 0)))


def test_second_salemer_faults_are_refused() -> None:
    message = refused(lambda r: r["second_salemers"][0].update(effect={"kind": "actions", "delta": -1}))
    assert "salem.toml" in message and "active player" in message
    assert "active player" in refused(lambda r: r["second_salemers"][4]["effect"].update(everyone=False))
    assert "exactly 6" in refused(lambda r: r["second_salemers"].pop())


def orange(**boxes: list[int]) -> Callable[[dict[str, Any]], object]:
    """A change to the raw data: these difficulties' orange boxes."""
    return lambda r: r["track"]["orange"].update(boxes)


def test_track_faults_are_refused() -> None:
    assert "hard orange boxes [3, 6, 11] must lie within 1..10" in refused(orange(hard=[3, 6, 11]))
    assert "within 1..10" in refused(orange(gentle=[0, 3]))
    assert "ascending" in refused(orange(standard=[6, 3]))
    assert "its own orange boxes" in refused(orange(gentle=[1, 2, 3, 5]))
    assert "missing required field `hard`" in refused(lambda r: r["track"]["orange"].pop("hard"))
    assert "needs 11 spaces" in refused(
        lambda r: r["track"].update(spaces=9, orange=dict(gentle=[3], standard=[4], hard=[5]))
    )
    assert "at least 23" in refused(lambda r: r["track"].update(salemer_tokens=22))
    assert "[track]" in refused(lambda r: r["track"].pop("spaces"))
