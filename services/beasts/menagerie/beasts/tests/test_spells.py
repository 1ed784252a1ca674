"""The Spell Card Variant (mode II) with the authored spell deck."""

from __future__ import annotations

import pytest

from menagerie.beasts.engine.model import (
    Accio,
    DieRolled,
    EndTurn,
    Expelliarmus,
    FelixFelicis,
    Move,
    Moved,
    Portkey,
    Revelio,
    Roll,
    SpellDrawn,
    TokenRevealed,
    WingardiumLeviosa,
)
from menagerie.beasts.engine.rules import SPELLS_PER_TURN
from menagerie.beasts.tests.scenarios import ENGINE, give, new_match, place, rolled
from menagerie.rules.contract import MatchSetup
from menagerie.rules.errors import IllegalAction
from menagerie.rules.events import project


def test_each_player_starts_with_two_spells_and_draws_one_at_the_start_of_each_turn() -> None:
    state, events = ENGINE.setup(MatchSetup("training", 3, {"spell_cards": "true"}), 11)
    first = state.current
    hands = [len(p.spells) for p in state.players]
    assert hands[first] == 3
    assert sorted(hands) == [2, 2, 3]
    assert len(state.spell_deck) == len(ENGINE.data.spell_deck()) - 7
    draws = [e for e in events if isinstance(e, SpellDrawn)]
    assert len(draws) == 7
    for event in draws:
        seat = event.seat
        assert project(event, seat).spell in state.players[seat].spells
        assert project(event, (seat + 1) % 3).spell is None
        assert project(event, None).spell is None


def test_the_deck_holds_the_authored_spells() -> None:
    deck = ENGINE.data.spell_deck()
    assert len(deck) == 24
    assert set(deck) == {"felix_felicis", "wingardium_leviosa", "revelio", "accio", "expelliarmus", "portkey"}


def test_spells_are_only_for_matches_with_the_variant() -> None:
    state = new_match(mode="training", spells=False)
    state.players[0].spells = ["revelio"]
    with pytest.raises(IllegalAction, match="without the Spell Card Variant"):
        ENGINE.check(state, 0, Revelio(5))


def test_you_cast_only_spells_you_hold() -> None:
    state = new_match(spells=True)
    state.players[0].spells = ["revelio"]
    with pytest.raises(IllegalAction, match="you hold no Portkey card"):
        ENGINE.check(state, 0, Portkey(13))


def test_at_most_three_spells_a_turn() -> None:
    state = new_match(spells=True)
    state.players[0].spells = ["revelio"] * 4
    for space in (1, 2, 3):
        ENGINE.apply(state, 0, Revelio(space))
    assert state.spells_played == SPELLS_PER_TURN
    assert not any(isinstance(a, Revelio) for a in ENGINE.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="at most 3 spells per turn"):
        ENGINE.check(state, 0, Revelio(5))


def test_a_spell_is_drawn_at_the_start_of_every_turn_whatever_the_hand() -> None:
    """Rulebook, Spell Card Variant: "At the start of each of your turns, draw one more spell card."

    The rulebook sets no hand limit, so a full hand still draws.
    """
    state = new_match(seats=2, spells=True)
    state.players[1].spells = ["revelio"] * 8
    place(state, 20, "red")
    rolled(state, 0, position=19, roll=1)
    state.players[0].spells = []
    events = ENGINE.apply(state, 0, Move(20))
    events += ENGINE.apply(state, 0, EndTurn())
    assert state.current == 1
    assert len(state.players[1].spells) == 9
    assert [e.seat for e in events if isinstance(e, SpellDrawn)] == [1]


def test_an_empty_deck_is_refilled_from_the_shuffled_discard_pile() -> None:
    state = new_match(seats=2, spells=True)
    state.spell_discard = state.spell_deck
    state.spell_deck = []
    state.players[1].spells = []
    place(state, 20, "red")
    rolled(state, 0, position=19, roll=1)
    state.players[0].spells = []
    events = ENGINE.apply(state, 0, Move(20)) + ENGINE.apply(state, 0, EndTurn())
    drawn = [e for e in events if isinstance(e, SpellDrawn)]
    assert drawn and drawn[0].reshuffled is True
    assert state.spell_discard == []
    assert len(state.players[1].spells) == 1


def test_felix_felicis_rerolls_after_rolling() -> None:
    state = new_match(spells=True)
    state.players[0].spells = ["felix_felicis"]
    with pytest.raises(IllegalAction, match="after rolling, before moving"):
        ENGINE.check(state, 0, FelixFelicis())
    ENGINE.apply(state, 0, Roll())
    events = ENGINE.apply(state, 0, FelixFelicis())
    assert [e.kind for e in events] == ["spell_cast", "die_rolled"]
    assert isinstance(events[1], DieRolled) and state.roll == events[1].value
    assert state.spell_discard == ["felix_felicis"]


def test_wingardium_leviosa_adds_two_steps() -> None:
    state = new_match(spells=True)
    state.players[0].spells = ["wingardium_leviosa"]
    rolled(state, 0, position=19, roll=1)
    ENGINE.apply(state, 0, WingardiumLeviosa())
    destinations = {a.to for a in ENGINE.legal_actions(state, 0) if isinstance(a, Move)}
    assert 22 in destinations  # three steps away
    assert ENGINE.view(state, 0).steps == 3


def test_revelio_turns_a_token_face_up_for_everyone() -> None:
    state = new_match(spells=True)
    state.players[0].spells = ["revelio"]
    place(state, 9, "graphorn")
    events = ENGINE.apply(state, 0, Revelio(9))
    assert events[1] == TokenRevealed(space=9, state="creature", creature="graphorn")
    for viewer in (None, 1, 2):
        token = next(t for t in ENGINE.view(state, viewer).tokens if t.space == 9)
        assert (token.state, token.creature) == ("creature", "graphorn")
    state.players[0].spells = ["revelio"]
    with pytest.raises(IllegalAction, match="no face-down token"):
        ENGINE.check(state, 0, Revelio(9))


def test_accio_collects_a_face_up_resource_from_afar() -> None:
    state = new_match(spells=True)
    state.players[0].spells = ["accio", "accio"]
    place(state, 9, "yellow", face_up=True)
    events = ENGINE.apply(state, 0, Accio(9))
    assert [e.kind for e in events][:3] == ["spell_cast", "resource_collected", "token_placed"]
    assert state.players[0].resources["yellow"] == 1
    assert not state.face_up[9]
    with pytest.raises(IllegalAction, match="no face-up resource"):
        ENGINE.check(state, 0, Accio(9))


def test_expelliarmus_takes_a_resource_from_another_player() -> None:
    state = new_match(spells=True)
    state.players[0].spells = ["expelliarmus"]
    give(state, 2, blue=1)
    listed = [a for a in ENGINE.legal_actions(state, 0) if isinstance(a, Expelliarmus)]
    assert listed == [Expelliarmus(2, "blue")]
    with pytest.raises(IllegalAction, match="Seat 2 holds no blue"):
        ENGINE.check(state, 0, Expelliarmus(1, "blue"))
    with pytest.raises(IllegalAction, match="another player's seat"):
        ENGINE.check(state, 0, Expelliarmus(0, "blue"))
    ENGINE.apply(state, 0, Expelliarmus(2, "blue"))
    assert state.players[0].resources["blue"] == 1 and state.players[2].resources["blue"] == 0


def test_portkey_travels_to_a_blue_circle_before_rolling() -> None:
    state = new_match(spells=True)
    state.players[0].spells = ["portkey", "portkey"]
    events = ENGINE.apply(state, 0, Portkey(16))
    assert state.players[0].position == 16
    assert events[1] == Moved(seat=0, origin=0, destination=16)
    assert ENGINE.prompt(state).kind == "roll"
    ENGINE.apply(state, 0, Roll())
    with pytest.raises(IllegalAction, match="before rolling"):
        ENGINE.check(state, 0, Portkey(4))


def test_after_stopping_spells_keep_the_turn_open_until_end_turn() -> None:
    state = new_match(spells=True)
    state.players[0].spells = ["revelio"]
    place(state, 20, "green")
    rolled(state, 0, position=19, roll=1)
    ENGINE.apply(state, 0, Move(20))
    assert state.current == 0 and ENGINE.prompt(state).kind == "stopped"
    assert EndTurn() in ENGINE.legal_actions(state, 0)
    revelio = next(a for a in ENGINE.legal_actions(state, 0) if isinstance(a, Revelio))
    ENGINE.apply(state, 0, revelio)  # then only End turn is left
    assert state.current == 0 and ENGINE.legal_actions(state, 0) == [EndTurn()]
    ENGINE.apply(state, 0, EndTurn())
    assert state.current == 1


def test_with_spell_cards_the_turn_ends_when_the_seat_ends_it_whatever_its_hand() -> None:
    """Whether a spell is left to cast must not show: the turn never ends by itself with the variant on.

    A turn that ended on its own exactly when the mover held no castable spell told every
    other seat what that hand held (RULES.md, "Hidden information").
    """
    for hand in ([], ["revelio"], ["felix_felicis"]):
        state = new_match(spells=True)
        state.players[0].spells = list(hand)
        place(state, 20, "green")
        rolled(state, 0, position=19, roll=1)
        ENGINE.apply(state, 0, Move(20))
        assert (state.current, ENGINE.prompt(state).kind, ENGINE.prompt(state).must) == (0, "stopped", [0]), hand


def test_other_players_spells_are_hidden_in_views() -> None:
    state = new_match(spells=True)
    state.players[1].spells = ["portkey", "accio"]
    own = ENGINE.view(state, 1).players[1]
    assert own.spells == ["accio", "portkey"] and own.spell_count == 2
    for viewer in (0, 2, None):
        seen = ENGINE.view(state, viewer).players[1]
        assert seen.spells == [] and seen.spell_count == 2
