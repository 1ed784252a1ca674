"""The `greedy` Beasts bot: sensible choices in hand-made positions, and better than random.

The measurement at the end plays seeded matches in process (see menagerie.arena.sweep) and
checks that greedy wins far more than its fair share of mode II; each test's docstring
gives the figures measured when the thresholds were chosen. In mode I no choice can
matter, so there it is only checked not to be worse (`test_mode_i_is_a_matter_of_luck`).
"""

from __future__ import annotations

import random
import time

import msgspec
import pytest

from menagerie.arena.main import main as arena_main
from menagerie.arena.stats import wilson
from menagerie.arena.sweep import run, run_teams
from menagerie.beasts.bots import BeastsGreedy, CoopPlanner
from menagerie.beasts.engine import BeastsState
from menagerie.beasts.engine.data import COLOURS
from menagerie.beasts.engine.model import (
    Action,
    Capture,
    CharacterChoice,
    ChooseCharacter,
    Collect,
    EndTurn,
    Expelliarmus,
    Fight,
    Move,
    Step,
    TurnActions,
)
from menagerie.beasts.tests.scenarios import ENGINE, give, new_match, place, rolled, stopped
from menagerie.rules.bots import RandomPolicy, policy_for
from menagerie.rules.contract import MatchSetup
from menagerie.rules.rng import Rng

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
    with pytest.raises(KeyError, match="known levels: greedy, mcts, random"):
        policy_for("beasts", "grandmaster")


# -------------------------------------------------------------------- measurement


def test_greedy_beats_random_in_mode_ii() -> None:
    """2 seats, greedy in each seat in turn. Measured: 56/60 here (93%, Wilson 84–97%);
    947/1000 with `menagerie arena sweep --game beasts --mode training
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
    """Fair share 25%. Measured 16/16 here (Wilson 81–100%); 382/400 with `menagerie arena sweep`."""
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


# ------------------------------------------------------------ mode III (co-op)


def advanced_match(seats: int = 2, seed: int = 7) -> BeastsState:
    """A mode III match once every seat has a character (the first still free); seat 0 to act
    with its full actions, no Salemer on the board, the location bar empty."""
    state, _ = ENGINE.setup(MatchSetup("advanced", seats, {}), seed)
    while ENGINE.outcome(state) is None and isinstance(ENGINE.top(state), CharacterChoice):
        seat = ENGINE.to_act(state).must[0]
        ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
    state.current = 0
    state.actions_left = ENGINE.character(state, 0).actions
    state.decisions = [TurnActions(must=[0])]
    state.salemers = [False] * len(state.salemers)
    state.location_deck += [card for card in state.bar if card]
    state.bar = [0] * len(state.bar)
    return state


def creatures_on(state: BeastsState, **where: int) -> None:
    """Exactly these creatures on the board (creature id = space)."""
    state.tokens = [None] * len(state.tokens)
    state.face_up = [False] * len(state.face_up)
    for creature, space in where.items():
        state.tokens[space] = creature
        state.face_up[space] = True


def on_bar(state: BeastsState, **slots: int) -> None:
    """Location cards on the bar by its colours (`yellow=5`: card 5 on the yellow space)."""
    for colour, card in slots.items():
        slot = ENGINE.advanced_view(state)["bar_colours"].index(colour)
        state.location_deck.remove(card)
        state.bar[slot] = card


def at(state: BeastsState, seat: int, space: int, **resources: int) -> None:
    state.players[seat].position = space
    state.players[seat].resources = {c: resources.get(c, 0) for c in COLOURS}


def salemers_on(state: BeastsState, *spaces: int) -> None:
    for space in spaces:
        state.salemers[space] = True


@pytest.mark.parametrize("seed", SEEDS)
def test_coop_chooses_a_character_with_the_most_actions_or_an_ability_worth_one(seed: int) -> None:
    state, _ = ENGINE.setup(MatchSetup("advanced", 2, {}), seed)
    seat = ENGINE.to_act(state).must[0]
    action = choose(state, seed, seat)
    assert isinstance(action, ChooseCharacter) and action.character in ("jacob", "newt")


@pytest.mark.parametrize("seed", SEEDS)
def test_coop_walks_to_a_location_whose_colour_the_team_needs(seed: int) -> None:
    state = advanced_match()
    creatures_on(state, niffler=21, graphorn=25)  # neither needs blue; both yellow
    at(state, 0, 3)
    on_bar(state, blue=3, yellow=5)
    legal = ENGINE.legal_actions(state, 0)
    assert Collect() in legal  # blue here: of no use to anyone
    assert choose(state, seed) == Step(4)  # towards 5, the yellow location
    at(state, 0, 5)
    assert choose(state, seed) == Collect()


@pytest.mark.parametrize("seed", SEEDS)
def test_coop_goes_round_a_salemer_when_that_is_no_longer(seed: int) -> None:
    state = advanced_match()
    creatures_on(state, niffler=21, graphorn=25)
    on_bar(state, yellow=3)
    at(state, 0, 1)
    state.actions_left = 4  # enough to reach 3 either way and collect there
    salemers_on(state, 2)  # 1-2-3 means a fight on 2; 1-29-4-3 (Apparate) is one step longer
    assert choose(state, seed) == Step(29)


@pytest.mark.parametrize("seed", SEEDS)
def test_coop_fights_through_a_salemer_when_the_way_round_is_far_longer(seed: int) -> None:
    state = advanced_match()
    creatures_on(state, niffler=21, graphorn=25)
    on_bar(state, yellow=32)
    at(state, 0, 30)
    salemers_on(state, 31)  # 30-31-32, or seven steps round by the zoo and the loop
    assert choose(state, seed) == Step(31)
    at(state, 0, 31)
    assert ENGINE.legal_actions(state, 0) == [Fight()]
    assert choose(state, seed) == Fight()


@pytest.mark.parametrize("seed", SEEDS)
def test_coop_holders_converge_on_a_creature_they_can_pay_for_together(seed: int) -> None:
    state = advanced_match()
    creatures_on(state, niffler=5, thunderbird=25)  # the Niffler: 1 red, 2 yellow
    at(state, 0, 10, red=1, yellow=1)
    at(state, 1, 21, yellow=1)
    assert choose(state, seed) == Step(11)  # 10-11-12-5
    at(state, 0, 5, red=1, yellow=1)
    assert choose(state, seed) == EndTurn()  # waits there for seat 1
    at(state, 1, 5, yellow=1)
    assert Capture() in ENGINE.legal_actions(state, 0)
    assert choose(state, seed) == Capture()


@pytest.mark.parametrize("seed", SEEDS)
def test_coop_clears_salemers_when_nothing_else_is_worth_doing(seed: int) -> None:
    state = advanced_match()
    creatures_on(state, niffler=5, graphorn=25)
    at(state, 0, 0)
    at(state, 1, 22)
    on_bar(state, blue=1)  # neither creature needs blue
    salemers_on(state, 30, 20)
    legal = ENGINE.legal_actions(state, 0)
    assert choose(state, seed) == Step(30)  # the nearest Salemer
    cautious = CoopPlanner(ENGINE, clear_salemers=False)
    assert cautious.choose(ENGINE.view(state, 0), legal, 0, random.Random(seed)) == EndTurn()
    at(state, 0, 0, red=1, yellow=2)  # now seat 0 alone can pay for the Niffler
    assert choose(state, seed) == Step(29)  # 0-29-4-5, Apparating from 29 to 4


@pytest.mark.parametrize("seats", [2, 4, 6])
@pytest.mark.parametrize("level", ["random", "greedy"])
def test_both_levels_play_mode_iii_to_the_end(seats: int, level: str) -> None:
    """Every choice legal (also when offered only half the list), every match to its end."""
    policy = policy_for("beasts", level)
    picker = random.Random(seats)
    for seed in range(3):
        state, _ = ENGINE.setup(MatchSetup("advanced", seats, {}), seed)
        rngs = [random.Random(seed * 100 + seat) for seat in range(seats)]
        while ENGINE.outcome(state) is None:
            seat = ENGINE.to_act(state).must[0]
            legal = ENGINE.legal_actions(state, seat)
            view = ENGINE.view(state, seat) if policy.needs_view else None
            offered = picker.sample(legal, max(1, len(legal) // 2))
            assert policy.choose(view, offered, seat, random.Random(seed)) in offered
            action = policy.choose(view, legal, seat, rngs[seat])
            assert action in legal
            ENGINE.apply(state, seat, action)
        assert ENGINE.outcome(state) is not None


def test_coop_never_reads_hidden_state() -> None:
    """The decks' order and the random generator are hidden: changing them changes no choice."""
    for seed in range(6):
        state = advanced_match(seats=3, seed=seed)
        state.salemers = [space % 4 == 1 for space in range(len(state.salemers))]
        on_bar(state, wild=state.location_deck[-1], red=state.location_deck[-2])
        other = clone(state)
        for deck in (other.location_deck, other.event_deck, other.second_deck):
            random.Random(seed).shuffle(deck)
        other.rng = Rng(seed + 99)
        assert other.location_deck != state.location_deck
        assert ENGINE.view(other, 0) == ENGINE.view(state, 0)
        assert choose(other, seed) == choose(state, seed)


def test_coop_is_fast() -> None:
    """A 6-seat greedy match takes a small part of a second (measured about 0.1 s)."""
    started = time.perf_counter()
    tallies = run_teams("beasts", games=3, seats=6, mode="advanced")
    assert time.perf_counter() - started < 6 * 1.0
    assert all(t.games == 3 for t in tallies.values())


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_greedy_team_beats_random_team_in_mode_iii(seats: int) -> None:
    """The same 30 seeds for a random and a greedy team, at the standard difficulty, where a greedy
    team wins about half and a random one almost never (RULES.md, `make arena`; before the
    difficulty option greedy won 26, 27 and 30 of these 30). The margin asked is well below
    that, so that tuning the authored data keeps this a check of the bot."""
    tallies = run_teams("beasts", games=30, seats=seats, mode="advanced", base_seed=5000)
    greedy, rand = tallies["greedy"], tallies["random"]
    assert wilson(greedy.wins, greedy.games)[0] > wilson(rand.wins, rand.games)[1]
    assert greedy.wins >= rand.wins + 10


def test_the_arena_plays_mode_iii_teams_at_several_seat_counts(capsys: pytest.CaptureFixture[str]) -> None:
    """`menagerie arena sweep --game beasts --mode advanced --seats 2,4,6 --option difficulty=all` (as
    `make arena` runs it): each difficulty at each seat count."""
    argv = ["--game", "beasts", "--mode", "advanced", "--seats", "2,4,6", "--option", "difficulty=all", "--games", "2"]
    assert arena_main(["sweep", *argv]) == 0
    out = capsys.readouterr().out
    for seats in (2, 4, 6):
        for difficulty in ("gentle", "standard", "hard"):
            label = f"beasts advanced difficulty={difficulty}, {seats} seats, random team vs greedy team"
            assert f"{label}: 2 games per team" in out
    assert out.count("random team  wins") == 9 and out.count("greedy team  wins") == 9
    assert out.count("    ended by: ") == 18, "how each team's matches ended (item 5: the round cap shows there)"


def test_the_random_level_in_mode_iii_captures_when_it_can_and_never_wastes_a_turn() -> None:
    """BeastsRandom: a free capture is taken; "end the turn" only when nothing else is left; else uniform."""
    from menagerie.beasts.bots import BeastsRandom
    from menagerie.beasts.engine.model import Capture, EndTurn

    level = BeastsRandom()
    state, _ = ENGINE.setup(MatchSetup("advanced", 2), 3)
    for offset in range(2):
        seat = (state.first + offset) % 2
        ENGINE.apply(state, seat, ENGINE.legal_actions(state, seat)[0])
    seat = state.current
    chosen = {
        type(level.choose(ENGINE.view(state, seat), ENGINE.legal_actions(state, seat), seat, random.Random(s)))
        for s in range(30)
    }
    assert EndTurn not in chosen, "never ends a turn with actions left"
    here = state.players[seat].position
    state.salemers[here] = False
    state.tokens[here], state.face_up[here] = "niffler", True
    state.players[seat].resources.update(red=1, yellow=2)
    legal = ENGINE.legal_actions(state, seat)
    assert Capture() in legal
    assert level.choose(ENGINE.view(state, seat), legal, seat, random.Random(1)) == Capture()
    training, _ = ENGINE.setup(MatchSetup("training", 2), 3)
    actions = ENGINE.legal_actions(training, training.current)
    for s in range(10):  # modes I and II: exactly the plain random level
        plain = RandomPolicy().choose(None, actions, training.current, random.Random(s))
        assert (
            level.choose(ENGINE.view(training, training.current), actions, training.current, random.Random(s)) == plain
        )
