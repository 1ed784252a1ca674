"""The Snitch race rules (engine/race.py), each test quoting the rulebook line it holds the code to.

Line numbers (l.) are of the rulebook, catch-the-golden-snitch.txt; the readings are in
RULES.md, "Race rules". Races are built by hand on the authored 20-space track, seat 0 and
seat 1 being the two Coaches.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import msgspec
import pytest

from menagerie.rules.rng import Rng
from menagerie.snitch.data import DicePool, load_data
from menagerie.snitch.data.cards import (
    SNITCH_TYPES,
    Accelerate,
    Dodge,
    Glimpse,
    Obstruct,
    RaceDiceToken,
    SnitchCard,
    UpwindToken,
    load_snitch_deck,
)
from menagerie.snitch.engine.race import (
    SLIPSTREAM_OBSTRUCT,
    HeldDice,
    Play,
    Race,
    RaceError,
    SnitchChoice,
    Token,
    accelerate,
    ahead,
    can_obstruct,
    card,
    catcher,
    combined_level,
    dodge,
    glimpse,
    golden_glimpse,
    lagged,
    may_ignore,
    new_race,
    new_turn,
    obstruct,
    place_token,
    race_roll_chances,
    refill_row,
    resolve_step,
    snitch_choices,
    spend_held,
    take_snitch_card,
    token_at,
    token_spaces,
)

STEEP_DIVE, SKYWARD_CLIMB, SLOTH_GRIP_ROLL, FULL_THROTTLE = 1, 4, 7, 10  # dive, climb, loop, sprint
SLIPSTREAMING, GOLDEN = 13, 15


def race(a: int = 1, b: int = 1, snitch: int = 20, *tokens: Token, turn: int = 1, **rest: Any) -> Race:
    """A race with Seekers on a and b, its tokens placed in an earlier turn unless said otherwise."""
    return Race(seekers=(a, b), snitch=snitch, tokens=tuple(sorted(tokens, key=lambda t: t.space)), turn=turn, **rest)


def flag(space: int, owner: int, turn: int = 0) -> Token:
    return Token(space=space, kind="upwind", owner=owner, turn=turn)


def dice_token(space: int, kind: str = "bonus", colour: str = "orange", turn: int = 0) -> Token:
    return Token(space=space, kind=kind, colour=colour, turn=turn)  # type: ignore[arg-type]


# ----------------------------------------------------------------------- setup


def test_setup_places_the_pieces_and_shuffles_the_sixteen_cards() -> None:
    """l.235 "the Golden Snitch miniature in the last space"; l.237 "their Seeker in the first space"; l.243 16
    cards."""
    start = new_race(load_data().track, Rng(1))
    assert start.snitch == 20 and start.seekers == (1, 1)
    assert sorted(start.deck) == list(range(1, 17)) and start.deck != tuple(range(1, 17))
    assert start.row == () and start.discard == () and start.in_play == (None, None)


def test_setup_turns_over_three_cards_resolving_golden_snitch_cards_and_replacing_them() -> None:
    """l.243 "Turn over the top 3 cards ... If one or more Golden Snitch cards appear, resolve them ... and draw
    a new"."""
    start = race(deck=(2, GOLDEN, 3, 16, 4, 5))
    first = refill_row(start, Rng(0))
    assert first.golden == GOLDEN and first.race.row == (2,) and first.race.discard == (GOLDEN,)
    assert golden_glimpse(GOLDEN) == Glimpse()  # l.648: a Glimpse roll, no modifier
    second = refill_row(glimpse(first.race, 2), Rng(0))
    assert second.golden == 16 and second.race.row == (2, 3)
    third = refill_row(second.race, Rng(0))
    assert third.golden is None and third.race.row == (2, 3, 4) and third.race.deck == (5,)
    assert third.race.snitch == 18


# ------------------------------------------------------------ Ahead and Lagged


def test_ahead_is_nearest_the_snitch_and_lagged_is_behind() -> None:
    """l.604 "the least number of spaces away from the Golden Snitch is ... Ahead"; l.606 Lagged; l.608 same
    space: neither."""
    assert ahead(race(5, 3)) == 0 and lagged(race(5, 3)) == 1
    assert ahead(race(3, 9)) == 1 and lagged(race(3, 9)) == 0
    assert ahead(race(4, 4)) is None and lagged(race(4, 4)) is None


def test_obstruct_cannot_be_performed_on_a_lagged_rival() -> None:
    """l.600 Obstruct: "This Action cannot be performed if the rival Seeker is Lagged"."""
    behind = race(8, 3)
    assert not can_obstruct(behind, 0) and can_obstruct(behind, 1) and can_obstruct(race(4, 4), 0)
    with pytest.raises(RaceError):
        obstruct(behind, 0, 2)
    # Within an Impulse the step is simply not performed.
    assert resolve_step(behind, 0, Obstruct(successes=1), 1) == behind


# ------------------------------------------------------------------ race Actions


def test_accelerate_advances_one_space_per_success() -> None:
    """l.594 "advance the Seeker to the Golden Snitch as many spaces as the number of Success rolled"."""
    assert accelerate(race(3, 1), 0, 2).seekers == (5, 1)
    assert accelerate(race(3, 1), 1, 4).seekers == (3, 5)
    assert accelerate(race(3, 1), 0, 0) == race(3, 1)  # no Success: the Action fails (l.171)


def test_accelerate_reaching_the_snitch_catches_it() -> None:
    """l.685 "If at any time the miniature of the Golden Snitch and a Seeker coincide in the same space ... caught"."""
    after = accelerate(race(17, 1, 19), 0, 4)
    assert after.seekers == (19, 1) and catcher(after, attacking=1) == 0


def test_accelerate_spends_a_dice_token_where_it_ends() -> None:
    """l.594 "If there is a token in the space where the Seeker ends, you must spend and discard it"; l.624 Dice
    tokens."""
    after = accelerate(race(3, 1, 20, dice_token(5, "penalty", "purple")), 0, 2)
    assert after.tokens == () and after.held == ((HeldDice("penalty", "purple"),), ())
    passed = accelerate(race(3, 1, 20, dice_token(4)), 0, 2)  # passing over a token does not spend it
    assert token_at(passed, 4) is not None and passed.held == ((), ())


def test_a_token_is_not_spent_in_the_turn_it_was_placed() -> None:
    """l.594 "you must spend and discard it (except in the same turn that you have placed it)"."""
    start = race(3, 1, 20, dice_token(5, turn=1), turn=1)
    assert accelerate(start, 0, 2).tokens == start.tokens
    assert accelerate(new_turn(start), 0, 2).tokens == ()


def test_own_upwind_advances_and_a_rival_upwind_sends_back() -> None:
    """l.622 "ends their advance in a space with a Flag token of their colour, they discard it and advance to
    the next space. If the token is not of their colour, they move back to the previous space"."""
    own = accelerate(race(3, 1, 20, flag(5, 0)), 0, 2)
    assert own.seekers == (6, 1) and own.tokens == ()
    other = accelerate(race(3, 1, 20, flag(5, 1)), 0, 2)
    assert other.seekers == (4, 1) and other.tokens == ()


def test_upwinds_chain_once_per_colour_in_an_advance() -> None:
    """l.622 "you could only use one Flag of your own and another colour in the same advance, but not more than
    one of the same colour"."""
    # Own Flag on 5 → 6, another own Flag on 6 is not used and stays.
    twice = accelerate(race(3, 1, 20, flag(5, 0), flag(6, 0)), 0, 2)
    assert twice.seekers == (6, 1) and twice.tokens == (flag(6, 0),)
    # Own Flag on 5 → 6, the rival's on 6 → back to 5 (now empty): one of each colour.
    both = accelerate(race(3, 1, 20, flag(5, 0), flag(6, 1)), 0, 2)
    assert both.seekers == (5, 1) and both.tokens == ()
    # The Upwind may carry the Seeker onto the Snitch.
    onto = accelerate(race(3, 1, 6, flag(5, 0)), 0, 2)
    assert onto.seekers == (6, 1) and catcher(onto, attacking=1) == 0


def test_dodge_may_ignore_the_token_where_it_ends() -> None:
    """l.596 "Dodge works the same as an Accelerate Action, but you can choose to ignore the token in the space
    where the Seeker ends"."""
    start = race(3, 1, 20, flag(5, 1))
    assert may_ignore(start, 0, 2) and not may_ignore(start, 0, 1) and not may_ignore(start, 0, 0)
    ignored = dodge(start, 0, 2, ignore_token=True)
    assert ignored.seekers == (5, 1) and ignored.tokens == (flag(5, 1),)
    assert dodge(start, 0, 2, ignore_token=False).seekers == (4, 1)
    assert resolve_step(start, 0, Dodge(successes=2), 2, ignore_token=True) == ignored


def test_glimpse_brings_the_snitch_towards_the_seekers_and_discards_tokens_behind_it() -> None:
    """l.598 Glimpse: "advance the Snitch towards the Seekers ... All tokens behind and in the same space as the
    Golden Snitch are discarded"."""
    after = glimpse(race(5, 3, 20, flag(12, 0), dice_token(16), flag(18, 1)), 4)
    assert after.snitch == 16 and after.tokens == (flag(12, 0),)
    assert glimpse(race(5, 3), 0) == race(5, 3)


def test_glimpse_stops_on_the_leading_seeker_who_catches_even_if_not_active() -> None:
    """l.685 "coincide in the same space (even if it wasn't the active Seeker), that Seeker has caught the Snitch"."""
    after = glimpse(race(5, 9, 12), 4)  # seat 0 Glimpses; the Snitch reaches seat 1's Seeker first
    assert after.snitch == 9 and catcher(after, attacking=0) == 1


def test_both_seekers_on_the_snitch_the_attacking_team_catches_it() -> None:
    """l.685 "If the Snitch coincides in a space where both Seekers are, the one who has caught the Snitch is
    the Seeker of the Attacking Team"."""
    after = glimpse(race(7, 7, 10), 3)
    assert after.snitch == 7
    assert catcher(after, attacking=0) == 0 and catcher(after, attacking=1) == 1
    assert catcher(race(7, 6, 10), attacking=0) is None


def test_obstruct_moves_the_rival_back_and_spends_its_token() -> None:
    """l.600 Obstruct: "move the rival Seeker back ... If there is a token in the space where the Seeker ends,
    they must spend and discard it"."""
    after = obstruct(race(6, 9, 20, dice_token(7, "bonus", "black")), 0, 2)
    assert after.seekers == (6, 7) and after.held == ((), (HeldDice("bonus", "black"),))
    assert obstruct(race(6, 3), 1, 5).seekers == (1, 3)  # never behind the first space
    # A Flag counts as the Obstructed Seeker's: the rival's Flag sends them one more back.
    assert obstruct(race(6, 9, 20, flag(7, 0)), 0, 2).seekers == (6, 6)


# ------------------------------------------------------------------------ tokens


def test_tokens_go_between_the_seeker_ahead_and_the_snitch() -> None:
    """l.616 "place it in a space between the Seeker that is Ahead and the Golden Snitch (never in the same
    space as the Golden Snitch)"."""
    assert token_spaces(race(5, 3, 9), 0) == (6, 7, 8)
    assert token_spaces(race(4, 4, 7), 1) == (5, 6)
    assert token_spaces(race(5, 3, 9, flag(7, 1)), 0) == (6, 8)  # l.616 "only one token in each space"


def test_a_lagged_coach_may_also_place_between_the_seekers() -> None:
    """l.616 "However, if their Seeker is Lagged, they may place the token in a space between the two Seekers"."""
    assert token_spaces(race(8, 3, 11), 1) == (4, 5, 6, 7, 9, 10)
    assert token_spaces(race(8, 3, 11), 0) == (9, 10)


def test_placing_tokens_and_discarding_them_without_a_free_space() -> None:
    """l.618 "If, at any time, there is no free space to place tokens, they cannot be placed and will be
    discarded directly"."""
    start = race(5, 3, 7, turn=4)
    placed = place_token(start, 0, UpwindToken(), 6)
    assert placed.tokens == (flag(6, 0, turn=4),)
    placed = place_token(placed, 1, RaceDiceToken(token="penalty", colour="orange"), 4)
    assert token_at(placed, 4) == dice_token(4, "penalty", "orange", turn=4)
    with pytest.raises(RaceError):
        place_token(start, 0, UpwindToken(), 4)  # seat 0 is Ahead: not between the Seekers
    with pytest.raises(RaceError):
        place_token(start, 0, UpwindToken(), None)  # a free space exists: it must be used
    full = race(5, 3, 6)
    assert token_spaces(full, 0) == () and place_token(full, 0, UpwindToken(), None) == full


def test_tokens_are_discarded_once_both_seekers_have_passed() -> None:
    """l.618 "Tokens are always discarded when both Seekers have passed through"."""
    start = race(8, 3, 20, dice_token(5, turn=1), turn=1)  # placed this turn: not spent on landing
    assert accelerate(start, 1, 2).tokens == start.tokens  # seat 1 ends on it: not passed through
    assert accelerate(start, 1, 3).tokens == ()  # now both Seekers are past space 5


# ------------------------------------------------------------------ race rolls


def test_dice_tokens_spent_on_a_race_roll_leave_the_seekers_card() -> None:
    """l.454–456: a Bonus or Penalty Dice token is discarded once used (what it does to the dice: test_rolls)."""
    held = race(held=((HeldDice("bonus", "orange"), HeldDice("penalty", "purple")), ()))
    assert spend_held(held, 0, bonus=["orange"]).held == ((HeldDice("penalty", "purple"),), ())
    assert spend_held(held, 0, bonus=["orange"], penalty=["purple"]).held == ((), ())
    with pytest.raises(RaceError):
        spend_held(held, 1, bonus=["orange"])  # seat 1 holds no token


def test_race_roll_chances_are_exact() -> None:
    """l.163 a Success is 1 Success, a double Success 2; l.588 the modifier is added to the roll."""
    dice = load_data().dice
    pool = DicePool(orange=1, purple=1)
    chances = dict(race_roll_chances(dice, pool))
    assert sum(chances.values()) == 1
    # Orange: 2,1,1,1,0,0 Successes; purple: 2,1,0,0,0,0.
    assert chances[4] == Fraction(1, 36) and chances[0] == Fraction(2, 6) * Fraction(4, 6)
    minus = dict(race_roll_chances(dice, pool, -1))
    assert minus[0] == chances[0] + chances[1] and sum(minus.values()) == 1


# ------------------------------------------------------------------ Snitch cards


def test_the_rulebooks_example_card() -> None:
    """l.638–642 the example card: Rushed "Accelerate 2", Fast "Accelerate 3 and Upwind", Perfect "Dodge 3 and
    Upwind"."""
    held = race(in_play=(STEEP_DIVE, None), row=(SKYWARD_CLIMB, SLOTH_GRIP_ROLL, FULL_THROTTLE))
    _, fast = take_snitch_card(held, 0, SnitchChoice(SKYWARD_CLIMB, "combine"))  # climb: a Fast Type
    assert fast.level == "fast" and fast.steps == (Accelerate(successes=3), UpwindToken())
    other = msgspec.structs.replace(held, row=(2, SLOTH_GRIP_ROLL, FULL_THROTTLE))  # card 2 is a dive
    _, perfect = take_snitch_card(other, 0, SnitchChoice(2, "combine"))
    assert perfect.level == "perfect" and perfect.steps == (Dodge(successes=3), UpwindToken())
    _, rushed = take_snitch_card(held, 0, SnitchChoice(FULL_THROTTLE, "combine"))  # sprint: neither
    assert rushed.level == "rushed" and rushed.steps == (Accelerate(successes=2),)


def test_combined_level_for_every_pair_of_snitch_cards() -> None:
    """l.668 Fast "if it matches one of the 2 Types printed"; l.669 Perfect "the same Type"; l.670 otherwise Rushed."""
    cards = load_snitch_deck().snitch_cards
    seen = set()
    for in_play in cards:
        assert len({in_play.type, *in_play.fast_types}) == len(SNITCH_TYPES) - 1, "one Type left for Rushed"
        for drawn in cards:
            level = combined_level(in_play, drawn)
            expected = (
                "perfect" if drawn.type == in_play.type else "fast" if drawn.type in in_play.fast_types else "rushed"
            )
            assert level == expected
            seen.add(level)
    assert seen == {"rushed", "fast", "perfect"}


def test_slipstreaming_in_play_gives_the_drawn_cards_fast_impulse_whatever_its_type() -> None:
    """l.671 "If the Snitch card in play is a Slipstreaming card, you apply the Fast Impulse of the recently
    drawn Snitch card, regardless"."""
    slip = card(SLIPSTREAMING)
    for drawn in load_snitch_deck().snitch_cards:
        assert combined_level(slip, drawn) == "fast"
    level = race(5, 5, in_play=(SLIPSTREAMING, None), row=(FULL_THROTTLE, 2, 3))
    after, play = take_snitch_card(level, 0, SnitchChoice(FULL_THROTTLE, "combine"))
    full_throttle = card(FULL_THROTTLE)
    assert isinstance(full_throttle, SnitchCard)
    assert play == Play(FULL_THROTTLE, "combine", "fast", full_throttle.fast)
    assert after.in_play == (None, None) and after.discard == (SLIPSTREAMING, FULL_THROTTLE)


def test_slipstreaming_when_lagged_obstructs_first() -> None:
    """l.654 "If your Seeker is Lagged, before resolving the effects of the Fast Impulse, perform Obstruct 1"."""
    behind = race(3, 6, in_play=(SLIPSTREAMING, None), row=(FULL_THROTTLE, 2, 3))
    _, play = take_snitch_card(behind, 0, SnitchChoice(FULL_THROTTLE, "combine"))
    assert play.steps[0] == SLIPSTREAM_OBSTRUCT == Obstruct(successes=1)
    assert resolve_step(behind, 0, play.steps[0], 1).seekers == (3, 5)


def test_choices_without_a_card_in_play() -> None:
    """l.662 option a, "You can't choose this option if the card drawn is a Slipstreaming card"; l.664 option b,
    keep it."""
    start = race(row=(STEEP_DIVE, SLIPSTREAMING, FULL_THROTTLE))
    assert snitch_choices(start, 0) == [
        SnitchChoice(STEEP_DIVE, "rushed"),
        SnitchChoice(STEEP_DIVE, "keep"),
        SnitchChoice(SLIPSTREAMING, "keep"),
        SnitchChoice(FULL_THROTTLE, "rushed"),
        SnitchChoice(FULL_THROTTLE, "keep"),
    ]


def test_choices_with_a_card_in_play() -> None:
    """l.666 option c with a card in play; l.652 "you cannot choose this Snitch card if you have another Snitch
    card in play"."""
    start = race(row=(STEEP_DIVE, SLIPSTREAMING, FULL_THROTTLE), in_play=(SKYWARD_CLIMB, None))
    assert snitch_choices(start, 0) == [
        SnitchChoice(STEEP_DIVE, "rushed"),
        SnitchChoice(STEEP_DIVE, "combine"),
        SnitchChoice(FULL_THROTTLE, "rushed"),
        SnitchChoice(FULL_THROTTLE, "combine"),
    ]
    assert SnitchChoice(SLIPSTREAMING, "keep") in snitch_choices(start, 1)  # seat 1 has none in play
    with pytest.raises(RaceError):
        take_snitch_card(start, 0, SnitchChoice(SLIPSTREAMING, "keep"))


def test_taking_for_the_rushed_impulse_discards_the_card() -> None:
    """l.662 "Immediately resolve the Rushed Impulse of the Snitch card. Then, discard the card"."""
    start = race(row=(STEEP_DIVE, SLIPSTREAMING, FULL_THROTTLE), in_play=(SKYWARD_CLIMB, None), turn=3)
    after, play = take_snitch_card(start, 0, SnitchChoice(STEEP_DIVE, "rushed"))
    assert play == Play(STEEP_DIVE, "rushed", "rushed", (Accelerate(successes=2),))
    assert after.row == (SLIPSTREAMING, FULL_THROTTLE) and after.discard == (STEEP_DIVE,)
    assert after.in_play == (SKYWARD_CLIMB, None) and after.turn == 4


def test_keeping_a_card_puts_it_in_play() -> None:
    """l.664 "keep the Snitch card a secret from the rival Coach ... From now on it will be the Snitch card in play"."""
    start = race(row=(STEEP_DIVE, SLIPSTREAMING, FULL_THROTTLE))
    after, play = take_snitch_card(start, 1, SnitchChoice(SLIPSTREAMING, "keep"))
    assert play == Play(SLIPSTREAMING, "keep", None, ())
    assert after.in_play == (None, SLIPSTREAMING) and after.row == (STEEP_DIVE, FULL_THROTTLE)


def test_combining_discards_both_cards() -> None:
    """l.673 "Then discard both Snitch card in play and the drawn one"."""
    start = race(row=(STEEP_DIVE, SLIPSTREAMING, FULL_THROTTLE), in_play=(None, SKYWARD_CLIMB))
    after, play = take_snitch_card(start, 1, SnitchChoice(STEEP_DIVE, "combine"))  # dive: Skyward Climb's Fast Type
    assert play.level == "fast" and play.steps == (Glimpse(successes=2), Accelerate(successes=1))
    assert after.in_play == (None, None) and after.discard == (SKYWARD_CLIMB, STEEP_DIVE)


# ------------------------------------------------------------------ row and deck


def test_refill_draws_a_card_to_make_three_again() -> None:
    """l.567 "draw a card from the Snitch deck and place it face-up in the row so that there are three cards again"."""
    after = refill_row(race(row=(2, 3), deck=(4, 5)), Rng(0))
    assert after.golden is None and after.race.row == (2, 3, 4) and after.race.deck == (5,)


def test_an_empty_deck_is_rebuilt_from_the_shuffled_discard_pile() -> None:
    """l.681 "draw a card ... and there are none, take all the Snitch cards of the discard pile and shuffle them
    to create a new deck"."""
    after = refill_row(race(row=(2, 3), deck=(), discard=(4, 5, 6, 7)), Rng(5)).race
    assert after.discard == () and len(after.row) == 3 and after.row[:2] == (2, 3)
    assert sorted((after.row[2], *after.deck)) == [4, 5, 6, 7]
    # Nothing left anywhere: the row stays short.
    assert refill_row(race(row=(2,)), Rng(0)).race.row == (2,)


def test_a_golden_snitch_card_revealed_is_discarded_and_replaced() -> None:
    """l.677 "perform a Glimpse Action with the Seeker of the Coach that has drawn this card. Then, discard this card";
    l.679 "Draw a new Snitch card, and repeat this Action if the card drawn is another Golden Snitch card"."""
    start = race(row=(2, 3), deck=(GOLDEN, 16, 4), turn=2)
    first = refill_row(start, Rng(0))
    assert first.golden == GOLDEN and first.race.discard == (GOLDEN,) and first.race.turn == 3
    second = refill_row(first.race, Rng(0))
    assert second.golden == 16 and second.race.discard == (GOLDEN, 16)
    third = refill_row(second.race, Rng(0))
    assert third.golden is None and third.race.row == (2, 3, 4)
    # A Golden Snitch card in the reshuffled discard pile comes back and is resolved again.
    again = refill_row(race(row=(2, 3), discard=(GOLDEN,)), Rng(0))
    assert again.golden == GOLDEN and again.race.deck == () and again.race.discard == (GOLDEN,)
