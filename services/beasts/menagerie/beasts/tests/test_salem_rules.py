"""Mode III (Advanced Magizoology), rule by rule, with the rulebook's own examples (l.91–166).

States come from a seeded setup and are then set by hand where a test needs a position
(the rulebook's examples name spaces and cards).
"""

from __future__ import annotations

from typing import Any

import pytest

from menagerie.beasts.engine.data import DIE_FACES
from menagerie.beasts.engine.model import (
    BeastsState,
    Capture,
    CharacterChoice,
    ChooseCharacter,
    Collect,
    CreatureRecaptured,
    EndTurn,
    EventRevealed,
    Fight,
    FightRolled,
    SalemerPlaced,
    SecondSalemerRevealed,
    Step,
    TurnActions,
)
from menagerie.beasts.engine.rules import BeastsEngine
from menagerie.beasts.engine.salem_data import (
    BAR,
    CREATURES_GOAL,
    DEFAULT_DIFFICULTY,
    DIFFICULTIES,
    FIGHT_WINS_FROM,
    LOSS_AT,
    STARTING_SALEMERS,
    Calm,
    Difficulty,
    Lose,
)
from menagerie.rules.contract import MatchSetup
from menagerie.rules.decisions import Refusal
from menagerie.rules.errors import IllegalAction, InvalidArgument
from menagerie.rules.rng import Rng
from menagerie.rules.text import Narrator

ENGINE = BeastsEngine()
CHARACTERS = [c.id for c in ENGINE.salem.characters]
PLAIN = next(c.id for c in ENGINE.salem.characters if c.ability is None)  # no ability: the rulebook's rules


def legal(state: BeastsState, seat: int) -> list[Any]:
    """The seat's legal actions (typed loosely: tests read their fields)."""
    return list(ENGINE.legal_actions(state, seat))


def new_match(seats: int = 2, seed: int = 1, difficulty: Difficulty = DEFAULT_DIFFICULTY) -> BeastsState:
    state, _ = ENGINE.setup(MatchSetup("advanced", seats, {"difficulty": difficulty}), seed)
    return state


def playing(
    seats: int = 2, seed: int = 1, characters: list[str] | None = None, difficulty: Difficulty = DEFAULT_DIFFICULTY
) -> BeastsState:
    """Characters chosen (the plain one for the first seat unless given), the first turn under way."""
    state = new_match(seats, seed, difficulty)
    chosen = characters or [PLAIN, *[c for c in CHARACTERS if c != PLAIN][: seats - 1]]
    for offset in range(seats):
        seat = (state.first + offset) % seats
        ENGINE.apply(state, seat, ChooseCharacter(chosen[offset]))
    return state


def calm_events(state: BeastsState) -> None:
    """Every event card drawn from now on is one whose effect is "nothing happens"."""
    calm = next(e.id for e in ENGINE.salem.events if isinstance(e.effect, Calm))
    state.event_deck = [calm] * len(state.event_deck)


def clear_board(state: BeastsState) -> None:
    """No Salemer and no creature anywhere (a test then places what it needs)."""
    state.salemers = [False] * len(state.salemers)
    state.tokens = [None] * len(state.tokens)
    state.face_up = [False] * len(state.face_up)


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_setup_reveals_creatures_salemers_and_five_bar_cards_by_player_count(seats: int) -> None:
    """l.97 goals 2/3/4; l.109 creatures; l.113 10 or 12 Salemers; l.117 five cards on the bar."""
    state = new_match(seats)
    creatures = [t for t in state.tokens if t is not None]
    assert len(creatures) == CREATURES_GOAL[seats] == {2: 2, 3: 3}.get(seats, 4)
    assert sum(state.salemers) == STARTING_SALEMERS[seats] == (10 if seats <= 3 else 12)
    assert not any(state.salemers[s] for s, t in enumerate(state.tokens) if t is not None)
    assert len([c for c in state.bar[: len(BAR)] if c]) == 5 and BAR == ("wild", "blue", "green", "yellow", "red")
    assert sorted(state.location_deck + state.bar[:5]) == list(range(1, 33)), "every location card is in play"
    assert isinstance(ENGINE.top(state), CharacterChoice) and ENGINE.to_act(state).must == (state.first,)


def test_the_rulebook_setup_examples() -> None:
    """l.111: the Niffler and the Demiguise on the Bank (1) and Customs (9); l.115: Salemers on locations 1–10."""
    state = new_match()
    clear_board(state)
    ENGINE.place_creatures(state, ["niffler", "demiguise"], [1, 9])
    assert (state.tokens[1], state.tokens[9]) == ("niffler", "demiguise")
    fresh = new_match()
    clear_board(fresh)
    ENGINE.place_salemers(fresh, list(range(1, 11)))
    assert [s for s, there in enumerate(fresh.salemers) if there] == list(range(1, 11))


def test_each_seat_chooses_a_different_character_then_has_its_actions() -> None:
    """l.99 and l.123: a character each; "Each character may perform a certain number of actions"."""
    state = new_match(3)
    first = state.first
    ENGINE.apply(state, first, ChooseCharacter(CHARACTERS[0]))
    second = (first + 1) % 3
    assert ChooseCharacter(CHARACTERS[0]) not in legal(state, second)
    ENGINE.apply(state, second, ChooseCharacter(CHARACTERS[1]))
    ENGINE.apply(state, (first + 2) % 3, ChooseCharacter(CHARACTERS[2]))
    assert isinstance(ENGINE.top(state), TurnActions) and state.current == first
    assert state.actions_left == ENGINE.salem.characters[0].actions


def test_moving_costs_one_action_per_space_and_apparating_one_action() -> None:
    """l.125: each movement costs one action; from a blue circle (4, 13, 16, 29) Apparate for one action."""
    state = playing()
    clear_board(state)
    seat = state.current
    state.players[seat].position = 4
    left = state.actions_left
    options = {a.to for a in legal(state, seat) if isinstance(a, Step)}
    assert {13, 16, 29} <= options and set(ENGINE.data.board.spaces[4].neighbours) <= options
    ENGINE.apply(state, seat, Step(29))
    assert state.players[seat].position == 29 and state.actions_left == left - 1


def test_a_salemer_stops_the_move_and_must_be_fought_on_a_3_to_6() -> None:
    """l.127–129: stop on a Salemer and fight it (one action); 3–6 defeats it and reveals an event."""
    state = playing()
    clear_board(state)
    calm_events(state)
    seat = state.current
    state.players[seat].position = 2
    state.salemers[3] = True
    ENGINE.apply(state, seat, Step(3))
    assert legal(state, seat) == [Fight()]
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, seat, Step(4))
    assert "must fight the Salemer on space 3" in refused.value.detail
    while state.salemers[3] and state.current == seat and state.outcome is None:
        events = ENGINE.apply(state, seat, Fight())
        rolled = next(e for e in events if isinstance(e, FightRolled))
        assert rolled.won == (rolled.value >= 3)
        assert any(isinstance(e, EventRevealed) for e in events) == rolled.won


def test_a_turn_that_begins_on_a_salemer_must_fight_it() -> None:
    """l.129: "If your turn begins on a space with a Salemer token, you must also fight it." """
    state = playing()
    clear_board(state)
    seat = state.current
    state.salemers[state.players[seat].position] = True
    assert legal(state, seat) == [Fight()]


def losing_rng() -> Rng:
    """A generator whose next die roll is a 1 or a 2: a fight lost by a character without the fight ability."""
    seed = next(n for n in range(100) if Rng(n).choice(DIE_FACES) < FIGHT_WINS_FROM)
    return Rng(seed)


@pytest.mark.parametrize("begins_there", [False, True])
def test_on_a_salemer_with_actions_left_fighting_is_the_only_legal_action(begins_there: bool) -> None:
    """Item 4, l.127: "As soon as you move onto or across a space with a Salemer token, you must stop on that
    space and fight it"; l.129: "If your turn begins on a space with a Salemer token, you must also fight it."

    Ending the turn, moving on and collecting are refused under "Fighting Salemers", naming the space; a lost
    fight leaves the seat bound to fight again while it has actions; with none left its turn ends.
    """
    state = playing()
    clear_board(state)
    calm_events(state)
    seat = state.current
    state.bar = [1, 2, 3, 4, 5, 0]  # space 3's card is on the bar: without the Salemer, Collect would be legal
    state.salemers[3] = True
    if begins_there:
        state.players[seat].position = 3
    else:
        state.players[seat].position = 2
        ENGINE.apply(state, seat, Step(3))
    assert state.actions_left >= 2 and legal(state, seat) == [Fight()]
    for action in (EndTurn(), Step(4), Collect()):
        refusal = ENGINE.refusal(state, seat, action)
        assert refusal == Refusal("Fighting Salemers", "you must fight the Salemer on space 3 before anything else")
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, seat, action)
    prompt = ENGINE.describe_prompt(ENGINE.view(state, None), Narrator(None, ["Ann", "Bob"]))
    assert "must fight the Salemer on 3 New York Harbour" in prompt
    state.actions_left = 2
    state.rng = losing_rng()
    ENGINE.apply(state, seat, Fight())
    assert state.salemers[3] and state.current == seat and state.actions_left == 1
    assert legal(state, seat) == [Fight()], "lost: the only thing to do is to try again"
    state.rng = losing_rng()
    ENGINE.apply(state, seat, Fight())
    assert state.salemers[3] and state.current != seat, "no action left: the turn is over (l.135), the fight waits"


def test_collecting_takes_the_bar_spaces_colour_and_the_card_goes_under_the_deck() -> None:
    """l.131: the colour of the bar space the card lies on; the card under the deck; the space stays empty."""
    state = playing()
    clear_board(state)
    calm_events(state)
    seat = state.current
    state.bar = [1, 2, 3, 4, 5, 0]
    state.players[seat].position = 3  # New York Harbour: its card on the green space
    events = ENGINE.apply(state, seat, Collect())
    assert state.players[seat].resources["green"] == 1
    assert state.bar[:5] == [1, 2, 0, 4, 5] and state.location_deck[0] == 3
    assert any(isinstance(e, EventRevealed) for e in events), "an event each time"
    state.players[seat].position = 7
    assert Collect() not in legal(state, seat), "a location whose card is not on the bar"


def test_the_end_of_round_example_places_a_salemer_on_the_brooklyn_bridge() -> None:
    """l.145–155: cards 2 and 3 collected; the rest slide right; card 5 on the Second Salemer's space → space 5."""
    state = playing()
    clear_board(state)
    calm_events(state)
    first, second = state.first, 1 - state.first
    state.bar = [1, 2, 3, 4, 5, 0]
    deck_top = state.location_deck[-3:]
    state.players[first].position = 3
    ENGINE.apply(state, first, Collect())  # green
    ENGINE.apply(state, first, EndTurn())
    state.players[second].position = 2
    if state.salemers[2]:
        state.salemers[2] = False
    ENGINE.apply(state, second, Collect())  # blue
    events = ENGINE.apply(state, second, EndTurn())
    placed = [e for e in events if isinstance(e, SalemerPlaced)]
    assert placed and placed[0].space == 5 and state.salemers[5], "a Salemer on the Brooklyn Bridge"
    assert state.bar[3:5] == [1, 4], "the remaining cards slid right"
    assert state.bar[:3] == list(reversed(deck_top)), "new cards fill the free spaces"
    assert state.location_deck[0] == 5, "the Second Salemer's card went under the deck"


def test_a_taken_location_sends_the_salemer_to_the_track_and_orange_boxes_reveal_cards() -> None:
    """l.157 the first free space of the Salem track; l.165 an orange box reveals a Second Salemer card."""
    state = playing()
    clear_board(state)
    calm_events(state)
    state.tokens[5] = "niffler"
    state.face_up[5] = True
    orange = ENGINE.salem.track.orange.of(state.difficulty)[0]
    # A card that puts no token on the track, so that the track stops at the box.
    state.second_deck = [next(c.id for c in ENGINE.salem.second_salemers if isinstance(c.effect, Lose))]
    state.track = orange - 1
    events = ENGINE._place_salemer(state, 5)
    assert state.track == orange and not state.salemers[5]
    assert any(isinstance(e, SecondSalemerRevealed) for e in events)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_team_loses_on_the_7th_9th_or_11th_token_on_the_track(seats: int) -> None:
    """l.159–161."""
    state = playing(seats)
    state.track = LOSS_AT[seats] - 1
    state.salemers[5] = True
    ENGINE._place_salemer(state, 5)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and {s.result for s in outcome.seats} == {"loss"}
    assert LOSS_AT[seats] == {2: 7, 3: 9, 4: 11}[seats]


def test_the_round_cap_is_the_rulebooks_loss_for_the_whole_team() -> None:
    """Item 5, l.157: "you lose the game if the Salemers gather enough evidence of the existence of the
    wizarding world and expose the No-Majs" — the rulebook's only loss, so the safety cap ends a match
    that is still going after 60 rounds that way: every seat loses, none draws."""
    for seats in (2, 4, 6):
        state = playing(seats)
        clear_board(state)
        assert state.turn_cap == 60 * seats
        state.turn = state.turn_cap - 1
        while ENGINE.outcome(state) is None:
            ENGINE.apply(state, state.current, EndTurn())
        outcome = ENGINE.outcome(state)
        assert outcome is not None and state.turn == state.turn_cap
        assert [s.result for s in outcome.seats] == ["loss"] * seats
        assert outcome.reason == "the Salemers exposed the wizarding world after 60 rounds (the round cap)"


def test_the_thunderbird_example_newt_and_queenie_pool_their_resources() -> None:
    """l.137–139: both must stand on the creature's space; capturing costs no action; the resources go back."""
    state = playing()
    clear_board(state)
    newt, queenie = state.current, 1 - state.current
    state.tokens[20], state.face_up[20] = "thunderbird", True
    state.players[newt].resources.update(red=2, blue=2, yellow=1)
    state.players[queenie].resources.update(blue=1, yellow=2, green=2)
    state.players[newt].position = 20
    state.players[queenie].position = 19
    assert Capture() not in legal(state, newt), "Queenie is not on the space yet"
    problem = ENGINE.refusal(state, newt, Capture())
    assert problem is not None and "gather there together" in problem.detail
    state.players[queenie].position = 20
    left, pool = state.actions_left, dict(state.pool)
    events = ENGINE.apply(state, newt, Capture())
    captured = next(e for e in events if isinstance(e, CreatureRecaptured))
    assert captured.seats == sorted([newt, queenie]) and state.tokens[20] is None
    assert state.actions_left == left, "capturing costs no action"
    assert all(v == 0 for p in (newt, queenie) for v in state.players[p].resources.values())
    assert state.pool["red"] == pool["red"] + 2 and state.pool["blue"] == pool["blue"] + 3


def test_capturing_the_goal_number_of_creatures_wins_together() -> None:
    """l.97: "With 2 players you must capture 2 creatures"."""
    state = playing()
    clear_board(state)
    seat = state.current
    state.players[1 - seat].captured = ["niffler"]
    state.tokens[state.players[seat].position] = "bowtruckle"
    state.face_up[state.players[seat].position] = True
    state.players[seat].resources.update(blue=1, green=2)
    ENGINE.apply(state, seat, Capture())
    outcome = ENGINE.outcome(state)
    assert outcome is not None and {s.result for s in outcome.seats} == {"win"}


def test_a_view_shows_the_table_and_hides_the_decks_order() -> None:
    """The bar, Salemers, track and supply are on the table; the location, event and Second Salemer decks are not."""
    state = playing()
    view = ENGINE.view(state, 0)
    assert view.bar == state.bar[:5] and view.salemers == [s for s, t in enumerate(state.salemers) if t]
    assert view.location_deck_size == len(state.location_deck) and view.loss_at == 7
    twin = ENGINE.state_from_view(view, 0)
    assert ENGINE.view(twin, 0).bar == view.bar and ENGINE.view(twin, 0).salemers == view.salemers


# ------------------------------------------------------------------ difficulty (issue item 6)


def rng_rolling(face: int) -> Rng:
    """A generator whose next die roll is `face`."""
    return Rng(next(n for n in range(1_000) if Rng(n).choice(DIE_FACES) == face))


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_the_rulebooks_numbers_hold_at_every_difficulty(difficulty: Difficulty, seats: int) -> None:
    """Item 6: a difficulty changes only authored cards and boxes, never the rulebook's numbers:
    l.97 "With 2 players you must capture 2 creatures; with 3 players you must capture 3 creatures; and
    with 4, 5 or 6 players you must capture 4 creatures"; l.113 "Reveal 10 location cards with 2 or 3
    players, or 12 location cards with 4, 5 or 6 players. Place a Salemer token on each"; l.159–161 "You
    lose as soon as you place the 7th / 9th / 11th Salemer token on the track"; l.127 "If you roll a 3, 4,
    5 or 6, you defeat the Salemer" (a character without the fight ability)."""
    goal, salemers, loss = {2: (2, 10, 7), 3: (3, 10, 9)}.get(seats, (4, 12, 11))
    state = new_match(seats, difficulty=difficulty)
    assert state.difficulty == difficulty
    assert len([t for t in state.tokens if t is not None]) == goal and sum(state.salemers) == salemers
    view = ENGINE.view(state, None)
    assert (view.creatures_to_win, view.loss_at) == (goal, loss)
    # The loss: the token before the threshold is not yet one (no Second Salemer card left to add more).
    state = playing(seats, difficulty=difficulty)
    state.second_deck = []
    state.track = loss - 2
    state.salemers[5] = True
    ENGINE._place_salemer(state, 5)
    assert state.track == loss - 1 and ENGINE.outcome(state) is None
    ENGINE._place_salemer(state, 5)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and [s.result for s in outcome.seats] == ["loss"] * seats
    # The fight: a plain character wins on 3, 4, 5 or 6 and on nothing else.
    won = []
    for face in DIE_FACES:
        state = playing(seats, difficulty=difficulty)
        clear_board(state)
        calm_events(state)
        seat = state.current
        assert ENGINE.character(state, seat).ability is None
        state.salemers[state.players[seat].position] = True
        state.rng = rng_rolling(face)
        rolled = next(e for e in ENGINE.apply(state, seat, Fight()) if isinstance(e, FightRolled))
        assert rolled.value == face
        won.append(rolled.won)
    assert won == [False, False, True, True, True, True]


def test_the_difficulty_is_a_table_option_and_the_view_tells_it() -> None:
    """Item 6: the rulebook leaves the cards to us (l.107 "Shuffle the event cards", l.165 "reveal a Second
    Salemer card" — no card is printed); the option `difficulty` chooses the authored event deck and orange
    boxes. The view shows the boxes, which tell the difficulty, so a state built from a view deals that deck."""
    (advanced,) = [m for m in ENGINE.info.modes if m.mode == "advanced"]
    (option,) = advanced.options
    assert (option.name, option.allowed_values, option.default_value) == (
        "difficulty",
        ("gentle", "standard", "hard"),
        "standard",
    )
    assert "gentle" in option.description and "hard" in option.description
    assert new_match().difficulty == "standard"
    decks = set()
    for difficulty in DIFFICULTIES:
        state = playing(difficulty=difficulty)
        view = ENGINE.view(state, 0)
        assert view.orange == list(ENGINE.salem.track.orange.of(difficulty))
        twin = ENGINE.state_from_view(view, 0)
        assert twin.difficulty == difficulty
        assert sorted(twin.event_deck) == sorted(ENGINE.salem.event_deck(difficulty)) == sorted(state.event_deck)
        decks.add(tuple(sorted(state.event_deck)))
    assert len(decks) == 3, "each difficulty has its own event deck"
    with pytest.raises(InvalidArgument):
        ENGINE.setup(MatchSetup("advanced", 2, {"difficulty": "nightmare"}), 1)


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_an_orange_box_of_the_difficulty_reveals_a_second_salemer_card(difficulty: Difficulty) -> None:
    """l.165: "Whenever you reach an orange box on the Salem track, you must reveal a Second Salemer card and
    apply its effect immediately" — at the boxes of the table's difficulty, and only there."""
    boxes = ENGINE.salem.track.orange.of(difficulty)
    revealed_at = []
    for space in range(1, LOSS_AT[6]):
        state = playing(6, difficulty=difficulty)
        clear_board(state)
        state.track = space - 1
        state.salemers[5] = True
        if any(isinstance(e, SecondSalemerRevealed) for e in ENGINE._place_salemer(state, 5)):
            revealed_at.append(space)
    assert tuple(revealed_at) == boxes


def test_the_apparate_ability_is_free_once_a_turn_so_every_turn_ends() -> None:
    """l.125: Apparating "for one action"; the authored ability (RULES.md, Characters) makes it free once per turn.

    Free every time, a character could Apparate back and forth for ever without ending its turn
    (a greedy team did, at seed 435 of a hard 6-seat table).
    """
    state = playing(characters=["queenie", PLAIN])
    clear_board(state)
    seat = state.current
    state.players[seat].position = 4
    left = state.actions_left
    ENGINE.apply(state, seat, Step(29))
    assert state.actions_left == left, "the first Apparate of the turn is free"
    ENGINE.apply(state, seat, Step(4))
    assert state.actions_left == left - 1, "the second costs an action, as for everyone"
