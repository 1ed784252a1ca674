"""The dice game's rules, one at a time, in hand-made positions (see services/pursuit/RULES.md)."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest

from menagerie.pursuit.engine import PursuitEngine, PursuitState
from menagerie.pursuit.engine.data import Face, Reaction
from menagerie.pursuit.engine.model import (
    Activate,
    Activation,
    BeastRolled,
    Contribute,
    Discard,
    EndAssign,
    Event,
    Pass,
    PlayDieCard,
    PlayMuffliato,
    PlayProtego,
    PlayReroll,
    Ready,
    Reroll,
    SetAction,
    ShieldLost,
    StopRolling,
)
from menagerie.pursuit.engine.rules import HAND_LIMIT, HEALTH, STACKS
from menagerie.pursuit.tests.scenarios import (
    ENGINE,
    assigning,
    card,
    certain_beast,
    empty_hands,
    engine_with,
    give,
    new_match,
    pass_windows,
    pattern,
    ready_and_set,
    roll_again,
)
from menagerie.rules.contract import MatchSetup
from menagerie.rules.errors import IllegalAction, InvalidArgument


def refused(state: PursuitState, seat: int, action: object, rule: str, engine: PursuitEngine = ENGINE) -> str:
    """Asserts that `action` is refused under `rule` and changes nothing; returns the message."""
    snapshot = msgspec.msgpack.encode(state)
    with pytest.raises(IllegalAction) as refusal:
        engine.apply(state, seat, action)  # type: ignore[arg-type]
    assert refusal.value.message.startswith(f"{rule}: "), refusal.value.message
    assert msgspec.msgpack.encode(state) == snapshot, "a refused action changed the state"
    return refusal.value.message


def finish_assign(state: PursuitState, engine: PursuitEngine = ENGINE) -> list[str]:
    """Ends the Assign phase, everyone passing the windows before and after the beast's roll; the event kinds."""
    return [e.kind for e in end_assign(state, engine)]


def end_assign(state: PursuitState, engine: PursuitEngine = ENGINE) -> list[Event]:
    """Ends the Assign phase, everyone passing the windows before and after the beast's roll; the events."""
    return engine.apply(state, state.active, EndAssign()) + pass_windows(state, engine)


def beast_roll(events: list[Event]) -> Counter[str]:
    """The colours of the dice the beast rolled, from the events."""
    rolled = next(e for e in events if isinstance(e, BeastRolled))
    return Counter(d.color for d in rolled.dice)


def kind(state: PursuitState, engine: PursuitEngine = ENGINE) -> str:
    """The kind of decision the match waits for (its prompt)."""
    return engine.prompt(state).kind


def may(state: PursuitState, engine: PursuitEngine = ENGINE) -> list[int]:
    """The seats in the open reaction window."""
    return engine.prompt(state).may


def far_from_escape(state: PursuitState, engine: PursuitEngine) -> None:
    """Puts the beast one space from the suitcase: an escape roll cannot end the match."""
    beast = engine.beasts[state.beast]
    state.position = beast.to_escape + beast.to_suitcase - 1


def this_turn(events: list[Event]) -> list[Event]:
    """The events before the next turn starts."""
    kinds = [e.kind for e in events]
    return events[: kinds.index("turn_started")] if "turn_started" in kinds else events


# ----------------------------------------------------------------------------- setup


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_setup_gives_each_player_a_board_ten_health_and_one_card(seats: int) -> None:
    state = new_match(seats)
    assert [p.health for p in state.players] == [HEALTH] * seats
    assert [p.shields for p in state.players] == [0] * seats
    assert [len(p.hand) for p in state.players] == [1] * seats
    assert len({p.character for p in state.players}) == seats
    assert len(state.deck) == len(ENGINE.data.cards) - seats


@pytest.mark.parametrize("seats", [0, 5])
def test_setup_refuses_tables_outside_one_to_four(seats: int) -> None:
    with pytest.raises(InvalidArgument):
        ENGINE.setup(MatchSetup("coop", seats, {"difficulty": "normal"}), 1)


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_beasts_are_stacked_by_level_level_one_on_top(difficulty: str) -> None:
    for seed in range(5):
        state = new_match(difficulty=difficulty, seed=seed)
        stack = [state.beast, *state.beasts]
        assert tuple(ENGINE.beasts[b].level for b in stack) == STACKS[difficulty]
        assert len(set(stack)) == len(stack)
        assert state.position == ENGINE.beasts[state.beast].to_escape


def test_difficulty_levels_differ_as_the_rulebook_says() -> None:
    """Rulebook, setup: "For a harder game add an additional Level 3 Beast to the bottom of the stack";
    "For an easier game choose two Level 2 Beasts and only two Level 3 Beasts".

    The added beast is one more to capture, not one that may escape: hard needs all six
    back in the suitcase and, like normal, lets none escape, so it is strictly harder.
    """
    assert sorted(STACKS["easy"]) == [1, 2, 2, 3, 3]
    assert sorted(STACKS["normal"]) == [1, 2, 3, 3, 3]
    assert STACKS["hard"] == (*STACKS["normal"], 3)
    for difficulty, to_win in (("easy", 5), ("normal", 5), ("hard", 6)):
        view = ENGINE.view(new_match(difficulty=difficulty), 0)
        assert (view.beasts_to_win, view.escapes_allowed) == (to_win, 0), difficulty


def test_on_hard_the_team_wins_only_with_the_sixth_beast() -> None:
    """Rulebook: "For a harder game add an additional Level 3 Beast": five captures are not enough on hard."""
    state = empty_hands(new_match(difficulty="hard", seed=2))
    state.captured = [state.beast, *state.beasts[:3]]
    state.beast, state.beasts = state.beasts[3], state.beasts[4:]
    beast = ENGINE.beasts[state.beast]
    state.position = beast.to_escape + beast.to_suitcase - 1
    ready_and_set(state, state.active, "capture_1")
    assigning(state, ["capture"])
    ENGINE.apply(state, state.active, Activate(state.active, "capture_1"))
    end_assign(state)
    assert len(state.captured) == 5 and state.outcome is None, "the sixth beast is still to catch"
    assert state.beast == state.beasts[-1] if state.beasts else True


def test_unknown_difficulty_is_refused() -> None:
    with pytest.raises(InvalidArgument):
        ENGINE.setup(MatchSetup("coop", 2, {"difficulty": "brutal"}), 1)


def test_the_first_roll_is_made_for_the_active_player() -> None:
    state = empty_hands(new_match())
    assert kind(state) == "roll" and state.rolls == 1
    assert [d.color for d in state.dice] == ["black"] * 5 + ["teal"]
    assert ENGINE.to_act(state).must == (state.active,)


# --------------------------------------------------------------------------- rolling


def test_kept_dice_keep_their_faces_and_the_others_are_rolled_again() -> None:
    state = empty_hands(new_match(seed=3))
    black = [d.face for d in state.dice if d.color == "black"]
    keep = tuple(sorted(black[:3]))
    teal = state.dice[-1].face
    ENGINE.apply(state, state.active, Reroll(keep, keep_teal=True))
    assert state.rolls == 2
    kept = [d.face for d, k in zip(state.dice, state.kept, strict=True) if k and d.color == "black"]
    assert Counter(kept) == Counter(keep)
    assert state.dice[-1].face == teal and state.kept[-1]


def test_the_order_of_the_kept_faces_does_not_matter() -> None:
    state = empty_hands(new_match(seed=3))
    black = [d.face for d in state.dice if d.color == "black"]
    ENGINE.apply(state, state.active, Reroll(tuple(sorted(black, reverse=True)), keep_teal=False))
    assert state.kept == [True] * 5 + [False]


def test_a_player_may_change_their_mind_about_kept_dice() -> None:
    state = empty_hands(new_match(seed=3))
    roll_again(state, tuple(d.face for d in state.dice[:5]))
    assert state.kept == [True] * 5 + [False]
    roll_again(state, keep_teal=True)
    assert state.kept == [False] * 5 + [True]


def test_after_the_third_roll_the_player_keeps_the_dice() -> None:
    """After the third roll the only choice is to stop rolling, and the player makes it.

    The roll does not stop by itself when the player holds no Reroll card: that would
    tell the others what the hand holds (RULES.md "Reaction windows").
    """
    state = empty_hands(new_match(seed=4))
    roll_again(state)
    roll_again(state)
    assert state.rolls == 3 and kind(state) == "roll"
    assert ENGINE.legal_actions(state, state.active) == [StopRolling()]
    ENGINE.apply(state, state.active, StopRolling())
    pass_windows(state)
    assert kind(state) == "assign", "after the third roll the dice are assigned"
    assert len(state.pool) == 6 - sum(d.face == "reaction" for d in state.dice)


def test_a_fourth_roll_is_refused() -> None:
    state = empty_hands(new_match(seed=4))
    roll_again(state)
    give(state, state.active, card("reroll"))
    roll_again(state)
    assert kind(state) == "roll" and state.rolls == 3
    refused(state, state.active, Reroll((), keep_teal=False), "Rolling")


def test_keeping_a_face_that_was_not_rolled_is_refused() -> None:
    state = empty_hands(new_match(seed=5))
    rolled = Counter(d.face for d in state.dice if d.color == "black")
    wild: Face = "wild"
    keep = (wild,) * (rolled["wild"] + 1)
    refused(state, state.active, Reroll(keep, keep_teal=False), "Rolling")


def test_only_the_active_player_rolls() -> None:
    state = empty_hands(new_match(seed=5))
    other = (state.active + 1) % 3
    refused(state, other, StopRolling(), "Turn order")


def test_a_reroll_card_gives_the_active_player_one_more_roll() -> None:
    state = empty_hands(new_match(seed=6))
    reroll = card("reroll")
    give(state, state.active, reroll)
    ENGINE.apply(state, state.active, PlayReroll(reroll))
    assert state.roll_limit == 4 and reroll in state.discard
    for _ in range(3):
        roll_again(state)
    assert state.rolls == 4 and ENGINE.legal_actions(state, state.active) == [StopRolling()]


def test_a_beast_reaction_rolled_by_the_player_resolves_at_once() -> None:
    engine = engine_with(teal_faces=("reaction",) * 6, reaction=Reaction(attack=1))
    state, events = engine.setup(MatchSetup("coop", 2, {"difficulty": "normal"}), 7)
    assert "beast_reacted" in [e.kind for e in events]
    assert state.players[state.active].health == HEALTH - 1
    empty_hands(state)
    engine.apply(state, state.active, StopRolling())
    assert all(d.color == "black" for d in state.pool), "the reaction face is not a die to assign"
    assert len(state.pool) == 5


def test_a_kept_reaction_face_does_not_react_again() -> None:
    engine = engine_with(teal_faces=("reaction",) * 6, reaction=Reaction(attack=1))
    state = empty_hands(new_match(2, seed=7, engine=engine))
    active = state.players[state.active]
    roll_again(state, keep_teal=True, engine=engine)
    assert active.health == HEALTH - 1
    roll_again(state, engine=engine)
    assert active.health == HEALTH - 2


# ------------------------------------------------------------------------ windows


def test_every_other_player_gets_a_reroll_window_after_each_roll_whatever_they_hold() -> None:
    """Rulebook: action cards may be played "at any time"; who is asked must not show who holds one.

    The window opens to every other player, holding a Reroll card or not (issue: a window
    listing exactly the holders told everyone who held what); each may play or pass.
    """
    state = empty_hands(new_match(seed=8))
    helper, bystander = (state.active + 1) % 3, (state.active + 2) % 3
    give(state, helper, card("reroll"))
    ENGINE.apply(state, state.active, Reroll((), keep_teal=False))
    assert kind(state) == "reroll_window" and may(state) == sorted([helper, bystander])
    to_act = ENGINE.to_act(state)
    assert to_act.may == tuple(sorted([helper, bystander])) and to_act.must == ()
    assert Pass() in ENGINE.legal_actions(state, helper)
    assert ENGINE.legal_actions(state, bystander) == [Pass()]
    refused(state, state.active, StopRolling(), "Insight cards")
    ENGINE.apply(state, helper, Pass())
    ENGINE.apply(state, bystander, Pass())
    assert kind(state) == "roll" and ENGINE.to_act(state).must == (state.active,)


def test_a_helpers_reroll_card_adds_a_roll_for_the_active_player() -> None:
    state = empty_hands(new_match(seed=8))
    helper = (state.active + 1) % 3
    reroll = card("reroll")
    give(state, helper, reroll)
    ENGINE.apply(state, state.active, Reroll((), keep_teal=False))
    ENGINE.apply(state, helper, PlayReroll(reroll))
    assert state.roll_limit == 4 and kind(state) == "reroll_window", "the helper stays until it passes"
    pass_windows(state)
    assert kind(state) == "roll"
    assert reroll not in state.players[helper].hand


def test_other_players_may_give_dice_cards_to_help_the_active_player() -> None:
    state = empty_hands(new_match(seed=9))
    helper = (state.active + 1) % 3
    capture = card("die", "capture")
    give(state, helper, capture)
    ENGINE.apply(state, state.active, StopRolling())
    assert kind(state) == "help_window" and may(state) == sorted([helper, (state.active + 2) % 3])
    ENGINE.apply(state, helper, Contribute(capture))
    pass_windows(state)
    assert kind(state) == "assign"
    assert [d.face for d in state.pool if d.card == capture] == ["capture"]


def test_passing_closes_the_window_only_for_that_seat() -> None:
    state = empty_hands(new_match(4, seed=9))
    first, second = (state.active + 1) % 4, (state.active + 2) % 4
    give(state, first, card("die", "capture"))
    give(state, second, card("die", "protect"))
    third = (state.active + 3) % 4
    ENGINE.apply(state, state.active, StopRolling())
    ENGINE.apply(state, first, Pass())
    assert may(state) == sorted([second, third]) and kind(state) == "help_window"
    refused(state, first, Pass(), "Insight cards")
    ENGINE.apply(state, second, Pass())
    ENGINE.apply(state, third, Pass())
    assert kind(state) == "assign"


def test_a_window_opens_over_the_decision_it_interrupts_and_closes_back_to_it() -> None:
    state = empty_hands(new_match(seed=9))
    active, helper = state.active, (state.active + 1) % 3
    others = sorted([helper, (active + 2) % 3])
    give(state, helper, card("reroll"), card("die", "capture"))
    ENGINE.apply(state, active, Reroll((), keep_teal=False))
    prompt = ENGINE.prompt(state)
    assert (prompt.kind, prompt.stack, prompt.may, prompt.actor) == ("reroll_window", ["roll"], others, active)
    pass_windows(state)
    assert ENGINE.prompt(state).kind == "roll" and ENGINE.prompt(state).stack == []
    ENGINE.apply(state, active, StopRolling())
    prompt = ENGINE.prompt(state)
    assert (prompt.kind, prompt.stack, prompt.may) == ("help_window", ["assign"], others)
    pass_windows(state)
    assert ENGINE.prompt(state).kind == "assign" and ENGINE.prompt(state).must == [active]


def test_a_seat_stays_in_the_window_until_it_passes() -> None:
    """A seat that played its card is still asked: leaving by itself once it had nothing left would show its hand."""
    state = empty_hands(new_match(seed=9))
    helper, bystander = (state.active + 1) % 3, (state.active + 2) % 3
    capture, protect = card("die", "capture"), card("die", "protect")
    give(state, helper, capture, protect)
    ENGINE.apply(state, state.active, StopRolling())
    ENGINE.apply(state, bystander, Pass())
    ENGINE.apply(state, helper, Contribute(capture))
    assert kind(state) == "help_window" and may(state) == [helper]
    ENGINE.apply(state, helper, Contribute(protect))
    assert kind(state) == "help_window" and ENGINE.legal_actions(state, helper) == [Pass()]
    ENGINE.apply(state, helper, Pass())
    assert kind(state) == "assign"


def test_identical_cards_are_one_choice_and_any_of_them_may_be_named() -> None:
    """Identical cards are listed once, and playing (or discarding) any one of them is accepted.

    Rulebook: "they must discard one card of their choice" — naming either of two
    identical cards is a choice the rules allow, so neither may be refused.
    """
    state = empty_hands(new_match(seed=8))
    helper = (state.active + 1) % 3
    first, second = sorted(c.id for c in ENGINE.data.cards if c.kind == "reroll")[:2]
    give(state, helper, second, first)
    ENGINE.apply(state, state.active, Reroll((), keep_teal=False))
    assert ENGINE.legal_actions(state, helper) == [PlayReroll(first), Pass()]
    ENGINE.apply(state, helper, PlayReroll(second))
    assert len(state.players[helper].hand) == 1 and state.roll_limit == 4


# -------------------------------------------------------------------- ready, set


def test_ready_takes_the_full_pattern_at_once() -> None:
    state = empty_hands(new_match(seed=10))
    seat = state.active
    full = pattern(state, seat, "capture_3")
    filler = next(f for f in ("protect", "distract", "insight") if f not in full)
    assigning(state, full[:-1] + [filler] * (7 - len(full)))
    refused(state, seat, Ready("capture_3"), "Ready")
    assigning(state, full)
    ENGINE.apply(state, seat, Ready("capture_3"))
    assert "capture_3" in state.players[seat].ready and state.pool == []


def test_a_wild_die_counts_as_any_face_of_a_pattern() -> None:
    state = empty_hands(new_match(seed=10))
    seat = state.active
    full = pattern(state, seat, "capture_3")
    assigning(state, [*full[:-1], "wild"])
    ENGINE.apply(state, seat, Ready("capture_3"))
    assert "capture_3" in state.players[seat].ready


def test_set_takes_one_die_of_any_face_after_ready() -> None:
    state = empty_hands(new_match(seed=11))
    seat = state.active
    assigning(state, ["insight", "distract"])
    refused(state, seat, SetAction("protect", "insight"), "Set")
    state.players[seat].ready.append("protect")
    ENGINE.apply(state, seat, SetAction("protect", "insight"))
    assert state.players[seat].set == ["protect"]
    assert [d.face for d in state.pool] == ["distract"]
    refused(state, seat, SetAction("protect", "distract"), "Set")


def test_ready_and_set_stay_on_the_board_after_activation() -> None:
    engine = certain_beast(0)
    state = empty_hands(new_match(seed=12, engine=engine))
    seat = state.active
    ready_and_set(state, seat, "protect")
    assigning(state, ["protect"])
    engine.apply(state, seat, Activate(seat, "protect"))
    finish_assign(state, engine)
    assert state.active != seat
    assert state.players[seat].ready == ["protect"] and state.players[seat].set == ["protect"]
    assert state.players[seat].shields == 1


# ---------------------------------------------------------------------- activation


def test_each_action_space_activates_at_most_once_per_turn() -> None:
    state = empty_hands(new_match(seed=13))
    seat = state.active
    ready_and_set(state, seat, "capture_1")
    assigning(state, ["capture", "capture", "wild"])
    ENGINE.apply(state, seat, Activate(seat, "capture_1"))
    message = refused(state, seat, Activate(seat, "capture_1"), "Activate")
    assert "activated this turn already" in message
    assert Activate(seat, "capture_1") not in ENGINE.legal_actions(state, seat)


def test_activation_needs_ready_and_set_and_a_die_of_its_symbol() -> None:
    state = empty_hands(new_match(seed=13))
    seat = state.active
    assigning(state, ["capture"])
    assert "not Ready and Set" in refused(state, seat, Activate(seat, "capture_1"), "Activate")
    ready_and_set(state, seat, "capture_1", "insight")
    assert "no insight die" in refused(state, seat, Activate(seat, "insight"), "Activate")
    ENGINE.apply(state, seat, Activate(seat, "capture_1"))


def test_a_wild_die_activates_any_action() -> None:
    state = empty_hands(new_match(seed=14))
    seat = state.active
    ready_and_set(state, seat, "distract")
    assigning(state, ["wild"])
    ENGINE.apply(state, seat, Activate(seat, "distract"))
    assert state.activations == [Activation(seat, "distract", "black")]


def test_dice_go_on_another_board_only_where_your_own_action_is_set() -> None:
    state = empty_hands(new_match(seed=15))
    seat, other = state.active, (state.active + 1) % 3
    ready_and_set(state, other, "protect")
    assigning(state, ["protect", "protect"])
    assert "Set your own protect" in refused(state, seat, Activate(other, "protect"), "Activate")
    state.players[seat].ready.append("protect")
    ENGINE.apply(state, seat, SetAction("protect", "protect"))
    ENGINE.apply(state, seat, Activate(other, "protect"))
    assert state.activations == [Activation(other, "protect", "black")]


def test_activated_actions_take_effect_when_assigning_ends() -> None:
    engine = certain_beast(0)
    state = empty_hands(new_match(seed=16, engine=engine))
    seat, other = state.active, (state.active + 1) % 3
    ready_and_set(state, seat, "protect", "capture_1", "insight")
    ready_and_set(state, other, "protect")
    assigning(state, ["protect", "protect", "capture", "insight"])
    for target, action in [(seat, "protect"), (other, "protect"), (seat, "capture_1"), (seat, "insight")]:
        engine.apply(state, seat, Activate(target, action))  # type: ignore[arg-type]
    position, deck = state.position, len(state.deck)
    assert state.players[other].shields == 0, "nothing happens before the end of Assign"
    finish_assign(state, engine)
    assert state.players[seat].shields == 1 and state.players[other].shields == 1
    assert state.position == position + 1
    assert len(state.deck) == deck - 1 and len(state.players[seat].hand) == 1


def test_capture_three_moves_the_beast_three_spaces() -> None:
    engine = certain_beast(0)
    state = empty_hands(new_match(seed=17, engine=engine))
    seat = state.active
    ready_and_set(state, seat, "capture_3")
    assigning(state, ["capture"])
    position = state.position
    engine.apply(state, seat, Activate(seat, "capture_3"))
    finish_assign(state, engine)
    assert state.position == position + 3


def test_a_beast_reaching_the_suitcase_is_captured_and_the_next_comes_up() -> None:
    engine = certain_beast(0)
    state = empty_hands(new_match(seed=18, engine=engine))
    seat = state.active
    chased, following = state.beast, state.beasts[0]
    beast = engine.beasts[chased]
    state.position = beast.to_escape + beast.to_suitcase - 1
    ready_and_set(state, seat, "capture_1")
    assigning(state, ["capture"])
    engine.apply(state, seat, Activate(seat, "capture_1"))
    events = finish_assign(state, engine)
    assert "beast_captured" in events and "beast_appeared" in events
    assert state.captured == [chased] and state.beast == following
    assert state.position == engine.beasts[following].to_escape


def test_assigning_dice_is_not_forced() -> None:
    engine = certain_beast(0)
    state = empty_hands(new_match(seed=19, engine=engine))
    seat = state.active
    ready_and_set(state, seat, "capture_1")
    assigning(state, ["capture", "protect"])
    position = state.position
    assert EndAssign() in engine.legal_actions(state, seat)
    finish_assign(state, engine)
    assert state.active == (seat + 1) % 3 and kind(state, engine) == "roll"
    assert state.position == position


# ---------------------------------------------------------------------- dice cards


def test_a_double_dice_card_goes_on_one_board_only() -> None:
    state = empty_hands(new_match(seed=20))
    seat, other = state.active, (state.active + 1) % 3
    double = card("die", "capture", dice=2)
    give(state, seat, double)
    ready_and_set(state, seat, "capture_1", "capture_3")
    ready_and_set(state, other, "capture_1")
    assigning(state, [])
    ENGINE.apply(state, seat, PlayDieCard(double))
    assert [(d.face, d.card) for d in state.pool] == [("capture", double)] * 2
    ENGINE.apply(state, seat, Activate(seat, "capture_1"))
    assert state.card_boards == {double: seat}
    assert "no capture die" in refused(state, seat, Activate(other, "capture_1"), "Activate")
    ENGINE.apply(state, seat, Activate(seat, "capture_3"))
    assert state.pool == []


def test_a_single_dice_card_may_go_on_another_board() -> None:
    state = empty_hands(new_match(seed=20))
    seat, other = state.active, (state.active + 1) % 3
    single = card("die", "protect")
    give(state, seat, single)
    ready_and_set(state, seat, "protect")
    ready_and_set(state, other, "protect")
    assigning(state, [])
    ENGINE.apply(state, seat, PlayDieCard(single))
    ENGINE.apply(state, seat, Activate(other, "protect"))
    assert state.activations == [Activation(other, "protect", "black")]


# --------------------------------------------------------------------- hand limit


def test_a_fourth_card_must_be_discarded() -> None:
    engine = certain_beast(0)
    state = empty_hands(new_match(seed=21, engine=engine))
    seat = state.active
    held = [card("die", "capture"), card("die", "protect"), card("die", "insight")]
    give(state, seat, *held)
    fourth = card("die", "distract")
    state.deck.remove(fourth)
    state.deck.append(fourth)  # the top card: no reaction window opens after the discard
    ready_and_set(state, seat, "insight")
    assigning(state, ["insight"])
    engine.apply(state, seat, Activate(seat, "insight"))
    finish_assign(state, engine)
    assert kind(state, engine) == "discard" and len(state.players[seat].hand) == HAND_LIMIT + 1
    assert engine.to_act(state).must == (seat,)
    assert all(isinstance(a, Discard) for a in engine.legal_actions(state, seat))
    assert "discard one of your cards first" in refused(state, seat, EndAssign(), "Hand limit", engine)
    engine.apply(state, seat, Discard(held[0]))
    assert len(state.players[seat].hand) == HAND_LIMIT and held[0] in state.discard
    pass_windows(state, engine)
    assert state.active == (seat + 1) % 3, "the beast reacted and the turn moved on"


def test_any_of_two_identical_cards_may_be_discarded() -> None:
    """Rulebook, Insight: "they must discard one card of their choice" — either identical card is accepted."""
    engine = certain_beast(0)
    state = empty_hands(new_match(seed=21, engine=engine))
    seat = state.active
    first, second = sorted(c.id for c in engine.data.cards if c.kind == "reroll")[:2]
    give(state, seat, first, second, card("die", "capture"))
    ready_and_set(state, seat, "insight")
    assigning(state, ["insight"])
    engine.apply(state, seat, Activate(seat, "insight"))
    finish_assign(state, engine)
    assert kind(state, engine) == "discard"
    assert Discard(first) in engine.legal_actions(state, seat) and Discard(second) not in engine.legal_actions(
        state, seat
    )
    engine.apply(state, seat, Discard(second))
    assert len(state.players[seat].hand) == HAND_LIMIT


def test_an_empty_deck_is_reshuffled_from_the_discards() -> None:
    engine = certain_beast(0)
    state = empty_hands(new_match(seed=22, engine=engine))
    seat = state.active
    state.discard, state.deck = state.deck, []
    ready_and_set(state, seat, "insight")
    assigning(state, ["insight"])
    engine.apply(state, seat, Activate(seat, "insight"))
    discards = len(state.discard)
    assert "deck_reshuffled" in finish_assign(state, engine)
    assert len(state.players[seat].hand) == 1 and len(state.deck) == discards - 1 and state.discard == []


def test_with_no_cards_left_anywhere_insight_draws_nothing() -> None:
    engine = certain_beast(0)
    state = empty_hands(new_match(seed=22, engine=engine))
    seat = state.active
    state.players[(seat + 1) % 3].hand, state.deck, state.discard = state.deck, [], []
    ready_and_set(state, seat, "insight")
    assigning(state, ["insight"])
    engine.apply(state, seat, Activate(seat, "insight"))
    assert "deck_empty" in finish_assign(state, engine)
    assert state.players[seat].hand == []


# ---------------------------------------------------------------------- the beast


def test_the_beast_rolls_its_cards_dice() -> None:
    engine = certain_beast(3, teal=True, reaction=Reaction(escape=1))
    state = empty_hands(new_match(seed=23, engine=engine))
    assigning(state, [])
    far_from_escape(state, engine)  # nothing it rolls can end the match
    assert beast_roll(end_assign(state, engine)) == {"black": 3, "teal": 1}


def test_distract_dice_are_removed_from_the_beasts_roll() -> None:
    engine = certain_beast(3, teal=True, reaction=Reaction(escape=1))
    state = empty_hands(new_match(seed=24, engine=engine))
    seat, other = state.active, (state.active + 1) % 3
    ready_and_set(state, seat, "distract")
    ready_and_set(state, other, "distract")
    assigning(state, ["distract"], teal="distract")
    far_from_escape(state, engine)
    engine.apply(state, seat, Activate(seat, "distract"))
    engine.apply(state, seat, Activate(other, "distract"))
    assert {a.color for a in state.activations} == {"black", "teal"}
    rolled = beast_roll(end_assign(state, engine))
    assert rolled == {"black": 2}, "one black die and the teal die distracted"


def test_a_teal_distract_removes_the_teal_die_only() -> None:
    engine = certain_beast(2, teal=True, reaction=Reaction(escape=1))
    state = empty_hands(new_match(seed=25, engine=engine))
    seat = state.active
    ready_and_set(state, seat, "distract")
    assigning(state, [], teal="distract")
    far_from_escape(state, engine)
    engine.apply(state, seat, Activate(seat, "distract"))
    assert beast_roll(end_assign(state, engine)) == {"black": 2}


def test_the_player_names_the_die_placed_on_distract() -> None:
    """Rulebook, Distract: "Remove 1 die from the beast's dice pool ... The removed die must be the one in the
    Action Space."

    With a teal and a black die that could both go on Distract, the player chooses which,
    and the beast loses the die of that colour.
    """
    engine = certain_beast(3, teal=True, reaction=Reaction(escape=1))
    for color, rolled in (("black", {"black": 2, "teal": 1}), ("teal", {"black": 3})):
        state = empty_hands(new_match(seed=24, engine=engine))
        seat = state.active
        ready_and_set(state, seat, "distract")
        assigning(state, ["distract"], teal="distract")
        far_from_escape(state, engine)
        distracts = [a for a in engine.legal_actions(state, seat) if isinstance(a, Activate)]
        assert distracts == [Activate(seat, "distract", "teal"), Activate(seat, "distract", "black")]
        engine.apply(state, seat, Activate(seat, "distract", color))  # type: ignore[arg-type]
        assert [a.color for a in state.activations] == [color]
        assert beast_roll(end_assign(state, engine)) == rolled, color


def test_a_distract_without_a_named_die_takes_the_engines_choice_and_a_missing_colour_is_refused() -> None:
    engine = certain_beast(3, teal=True, reaction=Reaction(escape=1))
    state = empty_hands(new_match(seed=24, engine=engine))
    seat = state.active
    ready_and_set(state, seat, "distract")
    assigning(state, ["distract"])
    refused(state, seat, Activate(seat, "distract", "teal"), "Activate", engine)
    engine.apply(state, seat, Activate(seat, "distract"))
    assert [a.color for a in state.activations] == ["black"]


def test_muffliato_makes_the_beast_roll_two_fewer_black_dice() -> None:
    engine = certain_beast(3, escape=1)
    state = empty_hands(new_match(seed=26, engine=engine))
    helper = (state.active + 2) % 3
    muffliato = card("muffliato", engine=engine)
    give(state, helper, muffliato)
    assigning(state, [])
    far_from_escape(state, engine)
    engine.apply(state, state.active, EndAssign())
    assert kind(state, engine) == "muffliato_window" and may(state, engine) == [0, 1, 2], "everyone is asked"
    position = state.position
    engine.apply(state, helper, PlayMuffliato(muffliato))
    pass_windows(state, engine)
    assert state.position == position - 1, "one black die left, moving the beast one space away"


def test_protego_ignores_one_harmful_face_of_the_beasts_roll() -> None:
    engine = certain_beast(2, attack=1)
    state = empty_hands(new_match(seed=27, engine=engine))
    seat, helper = state.active, (state.active + 1) % 3
    protego = card("protego", engine=engine)
    give(state, helper, protego)
    assigning(state, [])
    engine.apply(state, seat, EndAssign())
    for other in may(state, engine):  # the Muffliato window: nobody plays one
        engine.apply(state, other, Pass())
    assert kind(state, engine) == "protego_window" and may(state, engine) == [0, 1, 2], "everyone is asked"
    faces = {a.face for a in engine.legal_actions(state, helper) if isinstance(a, PlayProtego)}
    assert faces == {d.face for d in state.beast_dice}
    engine.apply(state, helper, PlayProtego(protego, state.beast_dice[0].face))
    pass_windows(state, engine)
    assert state.players[seat].health == HEALTH - 1, "two attacks, one ignored"


def test_a_shield_absorbs_one_damage() -> None:
    engine = certain_beast(2, attack=1)
    state = empty_hands(new_match(seed=28, engine=engine))
    seat = state.active
    state.players[seat].shields = 1
    assigning(state, [])
    finish_assign(state, engine)
    assert state.players[seat].shields == 0 and state.players[seat].health == HEALTH - 1


def test_a_shield_stripping_reaction_takes_one_shield_from_every_player() -> None:
    engine = engine_with(
        teal_faces=("reaction",) * 6, black_dice=0, teal=True, reaction=Reaction(strip_shields=True), faces={}
    )
    state = empty_hands(new_match(seed=29, engine=engine))
    for player, shields in zip(state.players, [2, 1, 0], strict=True):
        player.shields = shields
    assigning(state, [])
    events = this_turn(end_assign(state, engine))
    assert [e.seat for e in events if isinstance(e, ShieldLost)] == [0, 1]


def test_a_stunned_player_loses_the_game_for_the_whole_team() -> None:
    engine = certain_beast(2, attack=1)
    state = empty_hands(new_match(seed=30, engine=engine))
    seat = state.active
    state.players[seat].health = 2
    assigning(state, [])
    events = finish_assign(state, engine)
    assert "match_finished" in events
    outcome = engine.outcome(state)
    assert outcome is not None and "stunned" in outcome.reason
    assert [s.result for s in outcome.seats] == ["loss"] * 3
    assert engine.to_act(state).seats() == ()


def test_an_escape_loses_the_game_on_normal() -> None:
    engine = certain_beast(1, escape=1)
    state = empty_hands(new_match(seed=31, engine=engine))
    state.position = 0
    chased = state.beast
    assigning(state, [])
    assert "beast_escaped" in finish_assign(state, engine)
    outcome = engine.outcome(state)
    assert state.escaped == [chased]
    assert outcome is not None and {s.result for s in outcome.seats} == {"loss"}


def test_on_hard_as_on_normal_one_escape_loses() -> None:
    """Rulebook: players lose "if they let too many beasts escape"; hard adds a beast to capture, not an escape."""
    engine = certain_beast(1, escape=1)
    state = empty_hands(new_match(difficulty="hard", seed=31, engine=engine))
    state.position = 0
    assigning(state, [])
    events = finish_assign(state, engine)
    assert "beast_escaped" in events
    outcome = engine.outcome(state)
    assert outcome is not None and {s.result for s in outcome.seats} == {"loss"}


def test_the_team_wins_with_five_beasts_in_the_suitcase() -> None:
    engine = certain_beast(0)
    state = empty_hands(new_match(seed=32, engine=engine))
    state.captured = list(state.beasts[:4])
    state.beasts = state.beasts[4:] or ["niffler"]
    beast = engine.beasts[state.beast]
    state.position = beast.to_escape + beast.to_suitcase - 1
    seat = state.active
    ready_and_set(state, seat, "capture_1")
    assigning(state, ["capture"])
    engine.apply(state, seat, Activate(seat, "capture_1"))
    finish_assign(state, engine)
    outcome = engine.outcome(state)
    assert outcome is not None and [s.result for s in outcome.seats] == ["win"] * 3
    assert [s.score for s in outcome.seats] == [5.0] * 3


def test_after_the_beast_the_next_player_rolls() -> None:
    engine = certain_beast(0)
    state = empty_hands(new_match(seed=33, engine=engine))
    seat, turn = state.active, state.turn
    assigning(state, [])
    finish_assign(state, engine)
    assert state.active == (seat + 1) % 3 and state.turn == turn + 1
    assert kind(state, engine) == "roll" and state.rolls == 1 and state.pool == []
