"""The `greedy` Beasts bot: sensible choices in hand-made positions, and better than random.

The measurement at the end plays seeded matches in process (see bench/arena.py) and
checks that greedy wins far more than its fair share of mode II; each test's docstring
gives the figures measured when the thresholds were chosen. In mode I no choice can
matter, so there it is only checked not to be worse (`test_mode_i_is_a_matter_of_luck`).
"""

from __future__ import annotations

import random

import msgspec
import pytest

from bench.arena import run, wilson
from menagerie.beasts.bots import BeastsGreedy
from menagerie.beasts.engine import BeastsState
from menagerie.beasts.engine.model import Action, Capture, EndTurn, Expelliarmus, Move
from menagerie.beasts.tests.scenarios import ENGINE, give, new_match, place, rolled, stopped
from menagerie.rules.bots import RandomPolicy, policy_for
from menagerie.rules.contract import MatchSetup

GREEDY = BeastsGreedy(ENGINE)
SEEDS = range(8)  # every hand-made position is tried with several rng seeds


def choose(state: BeastsState, seed: int, seat: int = 0, legal: list[Action] | None = None) -> Action:
    """Greedy's choice for `seat`, from the seat's view only."""
    legal = ENGINE.legal_actions(state, seat) if legal is None else legal
    action: Action = GREEDY.choose(ENGINE.view(state, seat), legal, seat, random.Random(seed))
    return action


def stopped_on(state: BeastsState, seat: int, space: int) -> None:
    """Seat `seat` has just moved onto `space` and must now capture or end its turn."""
    stopped(state, seat)
    state.players[seat].position = space
    state.roll = 3


def hand(state: BeastsState, seat: int, *spells: str) -> None:
    """Gives the seat exactly these spell cards, taken from the deck (its old hand goes back)."""
    state.spell_deck += state.players[seat].spells
    state.players[seat].spells = []
    for spell in spells:
        state.spell_deck.remove(spell)
        state.players[seat].spells.append(spell)


def clone(state: BeastsState) -> BeastsState:
    return msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=BeastsState)


# ---------------------------------------------------------------- hand-made positions


@pytest.mark.parametrize("seed", SEEDS)
def test_captures_a_creature_it_can_pay_for_rather_than_ending_the_turn(seed: int) -> None:
    state = new_match(seats=2)
    place(state, 5, "niffler", face_up=True)
    give(state, 0, red=1, yellow=2)
    stopped_on(state, 0, 5)
    assert ENGINE.legal_actions(state, 0) == [Capture(), EndTurn()]
    assert choose(state, seed) == Capture()


@pytest.mark.parametrize("seed", SEEDS)
def test_moves_onto_a_face_up_creature_it_can_pay_for(seed: int) -> None:
    state = new_match(seats=2)
    rolled(state, 0, position=6, roll=3)
    place(state, 9, "niffler", face_up=True)  # three steps from 6
    place(state, 7, "thunderbird", face_up=True)  # one step, but far too dear
    give(state, 0, red=1, yellow=2)
    assert choose(state, seed) == Move(9)


@pytest.mark.parametrize("seed", SEEDS)
def test_does_not_stop_on_a_creature_it_cannot_pay_for(seed: int) -> None:
    # The same position without the resources: the Niffler is worth nothing to stop on,
    # while a face-down token may be a useful resource.
    state = new_match(seats=2)
    rolled(state, 0, position=6, roll=3)
    place(state, 9, "niffler", face_up=True)
    place(state, 7, "thunderbird", face_up=True)
    assert choose(state, seed) not in (Move(9), Move(7))


def two_colours_in_reach(red: int, blue: int) -> BeastsState:
    """Seat 0 may stop on a face-up red (space 7) or a face-up blue (space 10), nothing else."""
    state = new_match(seats=2)
    rolled(state, 0, position=8, roll=2)
    for space in ENGINE.routes.destinations(8, 2):
        place(state, space, None)
    place(state, 7, "red", face_up=True)
    place(state, 10, "blue", face_up=True)
    give(state, 0, red=red, blue=blue, yellow=1)
    return state


@pytest.mark.parametrize("seed", SEEDS)
def test_prefers_the_colour_it_lacks_to_one_it_has_enough_of(seed: int) -> None:
    # The Swooping Evil (2 red, 2 blue, 1 yellow) is one token away either way; 3 is the
    # most red or blue any creature needs, so a fourth is of no use.
    assert choose(two_colours_in_reach(red=3, blue=1), seed) == Move(10)
    assert choose(two_colours_in_reach(red=1, blue=3), seed) == Move(7)


@pytest.mark.parametrize("seed", SEEDS)
def test_casts_expelliarmus_to_complete_a_cost_then_captures(seed: int) -> None:
    state = new_match(seats=2, spells=True)
    hand(state, 0, "expelliarmus", "revelio")
    place(state, 5, "murtlap", face_up=True)  # 2 blue, 1 green
    give(state, 0, blue=1, green=1)
    give(state, 1, blue=1, red=2)
    stopped_on(state, 0, 5)
    legal = ENGINE.legal_actions(state, 0)
    assert Capture() not in legal
    action = choose(state, seed)
    assert action == Expelliarmus(1, "blue")
    ENGINE.apply(state, 0, action)
    assert choose(state, seed) == Capture()


@pytest.mark.parametrize("seed", SEEDS)
def test_mode_i_stops_on_a_face_down_token_rather_than_an_empty_space(seed: int) -> None:
    state = new_match(mode="capture", seats=2)
    rolled(state, 0, position=8, roll=2)
    destinations = ENGINE.routes.destinations(8, 2)
    for space in destinations:
        place(state, space, None)
    place(state, 10, "red")  # face down: it may be a creature as far as seat 0 knows
    assert choose(state, seed) == Move(10)


def test_chooses_only_among_the_actions_it_is_offered() -> None:
    """In every position of a few seeded matches, with the full list or only part of it."""
    picker = random.Random(5)
    for seed, spells in [(1, False), (2, True)]:
        state, _ = ENGINE.setup(MatchSetup("training", 3, {"spell_cards": str(spells).lower()}), seed)
        while ENGINE.outcome(state) is None:
            seat = ENGINE.to_act(state).must[0]
            legal = ENGINE.legal_actions(state, seat)
            offered = picker.sample(legal, max(1, len(legal) // 2))
            assert choose(state, seed, seat, offered) in offered
            ENGINE.apply(state, seat, choose(state, seed, seat, legal))


def test_never_reads_hidden_state() -> None:
    """Two positions that differ only in what nobody can see get the same choice."""
    for seed in range(6):
        state = new_match(seats=2, seed=seed, spells=True)
        rolled(state, 0, position=6, roll=4)
        other = clone(state)
        hidden = [s for s, t in enumerate(other.tokens) if t is not None and not other.face_up[s]]
        pool = [other.tokens[s] for s in hidden] + other.supply
        random.Random(seed).shuffle(pool)
        for space in hidden:
            other.tokens[space] = pool.pop()
        other.supply = [t for t in pool if t is not None]
        count = len(other.players[1].spells)
        other.spell_deck, other.players[1].spells = (
            other.spell_deck[count:] + other.players[1].spells,
            other.spell_deck[:count],
        )
        assert other.tokens != state.tokens and other.players[1].spells != state.players[1].spells
        assert ENGINE.view(other, 0) == ENGINE.view(state, 0)
        assert choose(other, seed) == choose(state, seed)


def test_registry() -> None:
    assert isinstance(policy_for("beasts", "greedy"), BeastsGreedy)
    assert isinstance(policy_for("beasts", "random"), RandomPolicy)
    assert isinstance(policy_for("chess", "random"), RandomPolicy)
    with pytest.raises(KeyError, match="no bot level 'greedy' for game 'chess'"):
        policy_for("chess", "greedy")
    with pytest.raises(KeyError, match="known levels: greedy, random"):
        policy_for("beasts", "grandmaster")


# -------------------------------------------------------------------- measurement


def test_greedy_beats_random_in_mode_ii() -> None:
    """2 seats, greedy in each seat in turn. Measured: 56/60 here (93%, Wilson 84–97%);
    947/1000 with `python -m bench.arena --game beasts --mode training
    --option spell_cards=false --games 1000` (Wilson 93–96%). Random play would win about
    30 of these 60."""
    tally = run("beasts", games=60, seats=2, mode="training", options={"spell_cards": "false"}, base_seed=1000)
    low, _ = wilson(tally.greedy_wins, tally.games)
    assert tally.greedy_wins / tally.games >= 0.80
    assert low > 0.65
    assert tally.draws == 0


def test_greedy_beats_random_with_spell_cards() -> None:
    """Measured 14/16 here (88%, Wilson 64–97%)."""
    tally = run("beasts", games=16, seats=2, mode="training", options={"spell_cards": "true"}, base_seed=2000)
    assert tally.greedy_wins / tally.games >= 0.70
    assert wilson(tally.greedy_wins, tally.games)[0] > 0.5


def test_greedy_beats_random_with_four_seats() -> None:
    """Fair share 25%. Measured 16/16 here (Wilson 81–100%); 382/400 with bench.arena."""
    tally = run("beasts", games=16, seats=4, mode="training", options={"spell_cards": "false"}, base_seed=3000)
    assert wilson(tally.greedy_wins, tally.games)[0] > 0.25 + 0.2


def test_mode_i_is_a_matter_of_luck() -> None:
    """Mode I offers no real choice: every face-down token is alike to the mover, and a
    creature is captured as soon as it is seen (only empty spaces are worth avoiding).
    So greedy can only hope for its fair share; this checks it is not clearly worse.
    Measured 18/40 here (Wilson 31–60%)."""
    tally = run("beasts", games=40, seats=2, mode="capture", base_seed=4000)
    _, high = wilson(tally.greedy_wins, tally.games)
    assert high > 0.5
