"""The rulebook's rules for modes I and II, one test each (see services/beasts/RULES.md)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from menagerie.beasts.engine.data import BLUE_CIRCLES
from menagerie.beasts.engine.model import (
    Capture,
    CreatureCaptured,
    EndTurn,
    Event,
    MatchStarted,
    Move,
    ResourceCounts,
    Roll,
    TokenRevealed,
)
from menagerie.beasts.tests.scenarios import ENGINE, all_tokens, give, new_match, place, rolled, stopped
from menagerie.rules.contract import MatchSetup
from menagerie.rules.errors import IllegalAction, InvalidArgument
from menagerie.rules.procedure import Step, choosing_outcomes


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


# ------------------------------------------------------------------------------ setup


def test_setup_puts_a_face_down_token_on_every_space_and_the_rest_in_the_supply() -> None:
    state = new_match()
    board = ENGINE.data.board
    assert state.tokens[board.start_space] is None
    assert all(state.tokens[s] is not None for s in board.token_spaces)
    assert not any(state.face_up)
    assert len(state.supply) == len(ENGINE.data.all_tokens()) - len(board.token_spaces) == 24
    assert all_tokens(state) == sorted(ENGINE.data.all_tokens())
    assert all(p.position == board.start_space for p in state.players)


def test_the_first_seat_is_drawn_and_recorded_in_an_event() -> None:
    firsts: Counter[int] = Counter()
    for seed in range(60):
        state, events = ENGINE.setup(MatchSetup("capture", 4), seed)
        assert events[0].kind == "match_started"
        assert isinstance(events[0], MatchStarted) and events[0].first_seat == state.current
        firsts[state.current] += 1
    assert set(firsts) == {0, 1, 2, 3}


def test_setup_refuses_bad_modes_seat_counts_and_options() -> None:
    assert [m.mode for m in ENGINE.info.modes] == ["capture", "training", "advanced"]
    with pytest.raises(InvalidArgument, match="no mode"):
        ENGINE.setup(MatchSetup("expert", 3), 1)
    with pytest.raises(InvalidArgument, match="2–6 seats"):
        ENGINE.setup(MatchSetup("capture", 7), 1)
    with pytest.raises(InvalidArgument, match="2–6 seats"):
        ENGINE.setup(MatchSetup("advanced", 1), 1)
    with pytest.raises(InvalidArgument, match="no option"):
        ENGINE.setup(MatchSetup("capture", 3, {"spell_cards": "true"}), 1)
    with pytest.raises(InvalidArgument, match="must be one of"):
        ENGINE.setup(MatchSetup("training", 3, {"spell_cards": "maybe"}), 1)


# ------------------------------------------------------------------ turn and die


def test_a_turn_starts_with_the_die_roll_and_play_proceeds_clockwise() -> None:
    state = new_match(mode="capture", seats=3)
    assert ENGINE.legal_actions(state, 0) == [Roll()]
    assert ENGINE.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="Turn order"):
        ENGINE.apply(state, 1, Roll())
    events = ENGINE.apply(state, 0, Roll())
    assert kinds(events) == ["die_rolled"]
    assert 1 <= state.roll <= 6
    with pytest.raises(IllegalAction, match="Rolling"):
        ENGINE.apply(state, 0, Roll())
    ENGINE.apply(state, 0, ENGINE.legal_actions(state, 0)[0])
    assert state.current == 1
    assert ENGINE.prompt(state).kind == "roll"
    assert ENGINE.prompt(state).must == [1]


def test_the_die_shows_every_face_from_one_to_six() -> None:
    faces = set()
    for seed in range(80):
        state = new_match(mode="capture", seed=seed)
        ENGINE.apply(state, 0, Roll())
        faces.add(state.roll)
    assert faces == {1, 2, 3, 4, 5, 6}


# -------------------------------------------------------------------- movement


def test_moving_up_to_the_roll_with_any_route_and_stopping_early() -> None:
    state = new_match(mode="capture")
    rolled(state, 0, position=19, roll=2)
    destinations = sorted(a.to for a in ENGINE.legal_actions(state, 0) if isinstance(a, Move))
    # 19 → 18, 20 (one step); 17, 27, 21, 32 (two steps, either way round)
    assert destinations == [17, 18, 20, 21, 27, 32]


def test_moving_too_far_or_not_at_all_is_refused_naming_the_rule() -> None:
    state = new_match(mode="capture")
    rolled(state, 0, position=19, roll=2)
    with pytest.raises(IllegalAction, match=r"Movement: space 24 is 5 steps away; you may move at most 2"):
        ENGINE.check(state, 0, Move(24))
    with pytest.raises(IllegalAction, match="at least one step"):
        ENGINE.check(state, 0, Move(19))
    with pytest.raises(IllegalAction, match="no space 99"):
        ENGINE.check(state, 0, Move(99))
    fresh = new_match(mode="capture")
    with pytest.raises(IllegalAction, match="roll the die before you move"):
        ENGINE.check(fresh, 0, Move(1))


def test_apparating_between_blue_circles_is_one_step() -> None:
    state = new_match(mode="capture")
    rolled(state, 0, position=4, roll=1)
    destinations = {a.to for a in ENGINE.legal_actions(state, 0) if isinstance(a, Move)}
    assert destinations == {3, 5, 13, 16, 29}
    # Moving onto a blue circle, then Apparating: 3 → 4 → 16 is two steps.
    rolled(state, 0, position=3, roll=2)
    destinations = {a.to for a in ENGINE.legal_actions(state, 0) if isinstance(a, Move)}
    assert {13, 16, 29} <= destinations
    assert 17 not in destinations  # 3 → 4 → 16 → 17 would be three steps


def test_blue_circles_are_the_rulebooks_spaces() -> None:
    assert tuple(s.id for s in ENGINE.data.board.spaces if s.blue_circle) == BLUE_CIRCLES == (4, 13, 16, 29)


# ------------------------------------------------------------- revealing tokens


def test_the_token_where_you_stop_is_revealed_and_replaced_from_the_supply() -> None:
    state = new_match(mode="training")
    place(state, 20, "red")
    rolled(state, 0, position=19, roll=1)
    supply_before = len(state.supply)
    events = ENGINE.apply(state, 0, Move(20))
    assert kinds(events)[:4] == ["moved", "token_revealed", "resource_collected", "token_placed"]
    assert events[1] == TokenRevealed(space=20, state="resource", colour="red")
    assert state.players[0].resources["red"] == 1
    assert state.tokens[20] is not None and not state.face_up[20]
    assert len(state.supply) == supply_before - 1
    assert state.current == 1  # nothing left to decide, so the turn ended


def test_an_empty_supply_leaves_the_space_empty() -> None:
    state = new_match(mode="training")
    place(state, 20, "blue")
    state.supply.clear()
    rolled(state, 0, position=19, roll=1)
    events = ENGINE.apply(state, 0, Move(20))
    assert "space_left_empty" in kinds(events)
    assert state.tokens[20] is None
    view = ENGINE.view(state, 1)
    assert next(t for t in view.tokens if t.space == 20).state == "empty"


# ---------------------------------------------------------------------- mode I


def test_mode_one_captures_a_creature_at_once_and_sets_resources_aside() -> None:
    state = new_match(mode="capture")
    place(state, 20, "niffler")
    place(state, 18, "green")
    rolled(state, 0, position=19, roll=1)
    events = ENGINE.apply(state, 0, Move(20))
    assert "creature_captured" in kinds(events)
    assert state.players[0].captured == ["niffler"]
    assert state.tokens[20] is not None and not state.face_up[20]
    rolled(state, 1, position=19, roll=1)
    ENGINE.apply(state, 1, Move(18))
    assert state.set_aside == ["green"]
    assert state.players[1].resources["green"] == 0


def test_mode_one_first_to_three_creatures_wins() -> None:
    state = new_match(mode="capture")
    state.players[0].captured = ["bowtruckle", "murtlap"]
    place(state, 20, "niffler")
    rolled(state, 0, position=19, roll=1)
    events = ENGINE.apply(state, 0, Move(20))
    assert events[-1].kind == "match_finished"
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert [s.result for s in outcome.seats] == ["win", "loss", "loss"]
    assert ENGINE.legal_actions(state, 1) == []


def test_mode_one_when_all_ten_are_captured_everyone_with_two_wins() -> None:
    state = new_match(mode="capture", seats=5)
    creatures = [c.id for c in ENGINE.data.creatures]
    # Nine creatures captured: 2, 2, 2, 2, 1 — the tenth lies on space 20.
    hands = [creatures[0:2], creatures[2:4], creatures[4:6], creatures[6:8], creatures[8:9]]
    for seat, hand in enumerate(hands):
        state.players[seat].captured = list(hand)
        for creature in hand:
            if creature in state.supply:
                state.supply.remove(creature)
            else:
                space = state.tokens.index(creature)
                state.tokens[space] = state.supply.pop(0)
    place(state, 20, creatures[9])
    rolled(state, 4, position=19, roll=1)
    ENGINE.apply(state, 4, Move(20))
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert [s.result for s in outcome.seats] == ["win"] * 5
    assert "all creatures are captured" in outcome.reason


# --------------------------------------------------------------------- mode II


def test_mode_two_a_creature_you_cannot_pay_for_stays_face_up() -> None:
    state = new_match(mode="training")
    place(state, 20, "thunderbird")
    rolled(state, 0, position=19, roll=1)
    supply_before = len(state.supply)
    events = ENGINE.apply(state, 0, Move(20))
    assert "creature_captured" not in kinds(events)
    assert "token_placed" not in kinds(events)
    assert state.tokens[20] == "thunderbird" and state.face_up[20]
    assert len(state.supply) == supply_before
    view = ENGINE.view(state, 2)
    card = next(c for c in view.creatures if c.id == "thunderbird")
    assert card.face_up_on == 20 and card.captured_by is None


def test_mode_two_the_thunderbird_needs_the_rulebooks_resources() -> None:
    thunderbird = next(c for c in ENGINE.data.creatures if c.id == "thunderbird")
    assert thunderbird.cost == {"red": 2, "blue": 3, "yellow": 3, "green": 2}
    state = new_match(mode="training")
    place(state, 20, "thunderbird", face_up=True)
    give(state, 0, red=2, blue=3, yellow=3, green=1)
    rolled(state, 0, position=19, roll=1)
    ENGINE.apply(state, 0, Move(20))
    assert state.current == 1  # one green short: nothing to decide, the turn ended
    stopped(state, 0)
    with pytest.raises(IllegalAction, match="Capture: the Thunderbird needs"):
        ENGINE.check(state, 0, Capture())


def test_mode_two_capture_pays_colours_first_then_wild_and_reshuffles_the_supply() -> None:
    state = new_match(mode="training")
    place(state, 20, "thunderbird", face_up=True)
    give(state, 0, red=2, blue=3, yellow=2, green=2, wild=2)
    rolled(state, 0, position=19, roll=1)
    ENGINE.apply(state, 0, Move(20))
    assert ENGINE.legal_actions(state, 0) == [Capture(), EndTurn()]
    supply_before = len(state.supply)
    events = ENGINE.apply(state, 0, Capture())
    assert kinds(events)[:3] == ["creature_captured", "supply_shuffled", "token_placed"]
    assert isinstance(events[0], CreatureCaptured)
    assert events[0].paid == ResourceCounts(red=2, blue=3, yellow=2, green=2, wild=1)
    assert state.players[0].resources == {"red": 0, "blue": 0, "yellow": 0, "green": 0, "wild": 1}
    assert state.players[0].captured == ["thunderbird"]
    assert len(state.supply) == supply_before + 10 - 1
    assert state.tokens[20] is not None and not state.face_up[20]
    assert all_tokens(state) == sorted(ENGINE.data.all_tokens())


def test_mode_two_capturing_is_optional() -> None:
    state = new_match(mode="training")
    place(state, 20, "niffler", face_up=True)
    give(state, 0, red=1, yellow=2)
    rolled(state, 0, position=19, roll=1)
    ENGINE.apply(state, 0, Move(20))
    ENGINE.apply(state, 0, EndTurn())
    assert state.tokens[20] == "niffler" and state.face_up[20]
    assert state.current == 1


def test_mode_two_a_face_up_creature_can_be_captured_later_by_anyone_who_can_pay() -> None:
    state = new_match(mode="training")
    place(state, 20, "niffler")
    rolled(state, 0, position=19, roll=1)
    ENGINE.apply(state, 0, Move(20))  # revealed; seat 0 cannot pay
    give(state, 1, red=1, yellow=2)
    rolled(state, 1, position=21, roll=1)
    ENGINE.apply(state, 1, Move(20))
    ENGINE.apply(state, 1, Capture())
    assert state.players[1].captured == ["niffler"]


def test_mode_two_two_creatures_win() -> None:
    state = new_match(mode="training")
    state.players[2].captured = ["murtlap"]
    state.supply.remove("murtlap") if "murtlap" in state.supply else None
    place(state, 20, "niffler", face_up=True)
    give(state, 2, red=1, yellow=2)
    rolled(state, 2, position=19, roll=1)
    ENGINE.apply(state, 2, Move(20))
    events = ENGINE.apply(state, 2, Capture())
    assert events[-1].kind == "match_finished"
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert outcome.winners() == [2]
    assert outcome.reason == "Seat 3 captured 2 creatures"


def test_end_turn_only_after_moving() -> None:
    state = new_match(mode="training")
    with pytest.raises(IllegalAction, match="End of turn"):
        ENGINE.check(state, 0, EndTurn())


def test_the_turn_cap_ends_a_stalled_match_as_a_draw() -> None:
    state = new_match(mode="training", seats=2)
    state.turn = state.turn_cap
    place(state, 20, "red")
    rolled(state, 0, position=19, roll=1)
    events = ENGINE.apply(state, 0, Move(20))
    assert events[-1].kind == "match_finished"
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert [s.result for s in outcome.seats] == ["draw", "draw"]
    assert state.turn_cap == 60 * 2


def test_apply_refuses_without_changing_anything() -> None:
    import msgspec

    state = new_match(mode="training")
    rolled(state, 0, position=19, roll=2)
    before = msgspec.msgpack.encode(state)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, Move(24))
    assert msgspec.msgpack.encode(state) == before


# ------------------------------------------------------------------------------ the die, a chance node


def test_the_die_is_a_chance_node_with_six_equal_faces_that_a_search_may_choose() -> None:
    """ "On your turn, roll the die and move your standee forward" (mode I): a d6 (RULES.md "Turn order")."""
    seen: list[tuple[Step, dict[int, Fraction]]] = []

    def six(node: Step, outcomes: list[tuple[int, Fraction]]) -> int:
        seen.append((node, dict(outcomes)))
        return 6

    state = new_match()
    seat = ENGINE.to_act(state).must[0]
    counter = state.rng.counter
    with choosing_outcomes(six):
        events = ENGINE.apply(state, seat, Roll())
    assert [e.kind for e in events] == ["die_rolled"] and state.roll == 6
    assert seen[0][1] == {face: Fraction(1, 6) for face in range(1, 7)}
    assert state.rng.counter == counter, "a chosen outcome draws nothing from the match's Rng"
    assert ENGINE.prompt(state).kind == "move"
