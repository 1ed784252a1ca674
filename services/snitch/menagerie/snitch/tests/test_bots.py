"""The bots of Catch the Golden Snitch: legal, deterministic, sensible, and `greedy` far better than `random`.

Matches are played in process the way the arena plays them (menagerie.arena.local): each seat's policy
decides from its own view (`engine.view(state, seat)`) and the legal actions only, with
an RNG of its own. The figures in docstrings were measured when the thresholds were
chosen; the 1,000-match figure is `menagerie arena sweep --game snitch --games 1000`.

Mode "advanced" (Build Your Team): both levels build legal Teams under every Funding,
with and without Spectators, and play the match out; greedy spends its Funding, flies its
House's Flag, places Spectators (displacing a rival's first) and uses a Locked Trait to
save a failing roll. The arena's balance report sums the Teams it sees built.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import msgspec
import pytest

from menagerie.arena.sweep import greedy_match, run
from menagerie.arena.teams import Balance, TeamRecord, TeamWatcher, balance_report
from menagerie.rules.bots import Policy, RandomPolicy, levels, policy_for
from menagerie.rules.contract import MatchSetup
from menagerie.shared import codec
from menagerie.snitch.bots import POLICIES, SnitchGreedy, SnitchRandom, planned_team
from menagerie.snitch.engine import rolls, roster
from menagerie.snitch.engine.model import (
    FLAG_COLOURS,
    Action,
    BlockAction,
    ChooseFlag,
    ConfirmTeam,
    DropFromTeam,
    GoalReroll,
    KeepRoll,
    NoReaction,
    PickForTeam,
    PlaySpectator,
    React,
    RollWindow,
    SnitchState,
    SnitchView,
    StandSpot,
    TakeSnitchCard,
    TeamBuilding,
    UseTrait,
)
from menagerie.snitch.engine.rules import SnitchEngine
from menagerie.snitch.v1 import snitch_pb2

ENGINE = SnitchEngine()
SETUP = MatchSetup("basic", 2, {})
GREEDY = SnitchGreedy()
RANDOM = SnitchRandom()


def advanced(funding: int = 5, spectators: bool = True) -> MatchSetup:
    return MatchSetup("advanced", 2, {"funding": str(funding), "spectators": "on" if spectators else "off"})


def play(
    seed: int, policies: Sequence[Policy], setup: MatchSetup = SETUP
) -> tuple[SnitchState, list[tuple[int, Action, list[Action]]]]:
    """A whole seeded match, seat s played by policies[s]; every choice is checked against the legal list."""
    state, _ = ENGINE.setup(setup, seed)
    rngs = [random.Random(seed * 100 + seat) for seat in range(2)]
    moves: list[tuple[int, Action, list[Action]]] = []
    while ENGINE.outcome(state) is None:
        seat = ENGINE.to_act(state).must[0]
        legal = ENGINE.legal_actions(state, seat)
        policy = policies[seat]
        view = ENGINE.view(state, seat) if policy.needs_view else None
        action = policy.choose(view, legal, seat, rngs[seat])
        assert action in legal, f"seat {seat} chose {action!r}, not one of its {len(legal)} legal actions"
        moves.append((seat, action, legal))
        ENGINE.apply(state, seat, action)
    return state, moves


def advance_to(seed: int, kind: str, seat: int | None = None) -> SnitchState:
    """A seeded random match played until a decision of `kind` (for `seat`, if given) is pending."""
    state, _ = ENGINE.setup(SETUP, seed)
    rng = random.Random(seed)
    while ENGINE.outcome(state) is None:
        prompt = ENGINE.prompt(state)
        if prompt.kind == kind and (seat is None or seat in prompt.must):
            return state
        acting = ENGINE.to_act(state).must[0]
        ENGINE.apply(state, acting, rng.choice(ENGINE.legal_actions(state, acting)))
    raise AssertionError(f"seed {seed}: no {kind} decision")


def greedy_choice(state: SnitchState, seat: int, seed: int = 0) -> Any:
    return GREEDY.choose(ENGINE.view(state, seat), ENGINE.legal_actions(state, seat), seat, random.Random(seed))


# ------------------------------------------------------------------------ the levels


def test_the_levels_are_random_and_greedy() -> None:
    assert set(POLICIES) == {"random", "greedy"}
    assert POLICIES["random"] is SnitchRandom and issubclass(SnitchRandom, RandomPolicy)
    assert not SnitchRandom.needs_view
    greedy = POLICIES["greedy"]()
    assert isinstance(greedy, SnitchGreedy) and greedy.needs_view


def test_the_levels_are_found_through_the_entry_point() -> None:
    assert set(levels("snitch")) == {"random", "greedy", "mcts"}
    assert isinstance(policy_for("snitch", "greedy"), SnitchGreedy)
    assert isinstance(policy_for("snitch", "random"), SnitchRandom)


def test_random_plays_the_basic_mode_exactly_as_the_generic_random_level() -> None:
    """Outside Build Your Team the random level is uniform, drawing from its rng as RandomPolicy does."""
    ours = [action for _, action, _ in play(4, (SnitchRandom(), SnitchRandom()))[1]]
    generic = [action for _, action, _ in play(4, (RandomPolicy(), RandomPolicy()))[1]]
    assert ours == generic


# --------------------------------------------------------------------- legal, repeatable


@pytest.mark.parametrize("seed", [0, 1])
def test_both_levels_only_pick_legal_actions(seed: int) -> None:
    for policies in ((GREEDY, RANDOM), (RANDOM, GREEDY), (GREEDY, SnitchGreedy())):
        state, moves = play(seed, policies)
        assert ENGINE.outcome(state) is not None and len(moves) > 50


def test_greedy_is_deterministic_for_a_seed() -> None:
    first = [action for _, action, _ in play(3, (GREEDY, RANDOM))[1]]
    again = [action for _, action, _ in play(3, (SnitchGreedy(), RandomPolicy()))[1]]
    assert first == again


@pytest.mark.parametrize("setup", [SETUP, advanced(15)], ids=["basic", "advanced"])
def test_greedy_decides_the_same_from_the_view_as_the_wire_brings_it(setup: MatchSetup) -> None:
    """The bot worker decodes the view from GetView's message (menagerie.shared.codec): the same choices follow."""
    state, _ = ENGINE.setup(setup, 5)
    rng = random.Random(5)
    for _ in range(120):
        seat = ENGINE.to_act(state).must[0]
        view = ENGINE.view(state, seat)
        legal = ENGINE.legal_actions(state, seat)
        wired = codec.from_message(codec.to_message(snitch_pb2.View, view), SnitchView)
        assert GREEDY.choose(view, legal, seat, random.Random(1)) == GREEDY.choose(wired, legal, seat, random.Random(1))
        ENGINE.apply(state, seat, rng.choice(legal))


def test_a_decision_takes_well_under_five_milliseconds() -> None:
    """Measured: 0.2 ms on average, under 1 ms at the 99th percentile (CPU time of the deciding thread)."""
    state, _ = ENGINE.setup(SETUP, 8)
    rngs = [random.Random(8), random.Random(9)]
    spent: list[float] = []
    while ENGINE.outcome(state) is None:
        seat = ENGINE.to_act(state).must[0]
        view, legal = ENGINE.view(state, seat), ENGINE.legal_actions(state, seat)
        started = time.thread_time()
        action = GREEDY.choose(view, legal, seat, rngs[seat])
        spent.append(time.thread_time() - started)
        ENGINE.apply(state, seat, action)
    assert sum(spent) / len(spent) < 0.005


# --------------------------------------------------------------------------- sensible


def test_greedy_always_reacts() -> None:
    reactions = 0
    for seed in range(4):
        for seat, action, legal in play(seed, (GREEDY, RANDOM) if seed % 2 else (RANDOM, GREEDY))[1]:
            greedy_seat = 0 if seed % 2 else 1
            if seat == greedy_seat and NoReaction() in legal:
                reactions += 1
                assert isinstance(action, React)
    assert reactions > 10


def test_greedy_catches_the_snitch_when_a_card_lets_it() -> None:
    """Two spaces from the Snitch, Steep Dive's Rushed Impulse (Accelerate 2, no roll) catches it."""
    state = advance_to(2, "snitch_card_choice")
    seat = ENGINE.to_act(state).must[0]
    state.seekers = [18, 6] if seat == 0 else [6, 18]
    state.snitch = 20
    state.race_tokens = []
    state.snitch_row = [8, 1, 4]  # Barrel Roll, Steep Dive, Skyward Climb
    state.players[seat].snitch_in_play = None
    assert greedy_choice(state, seat) == TakeSnitchCard(card=1, option="rushed")


def test_greedy_obstructs_a_rival_about_to_catch_the_snitch() -> None:
    """The rival one space from the Snitch, ours far behind: Barrel Roll's Obstruct is the best card."""
    state = advance_to(2, "snitch_card_choice")
    seat = ENGINE.to_act(state).must[0]
    state.seekers = [3, 19] if seat == 0 else [19, 3]
    state.snitch = 20
    state.race_tokens = []
    state.snitch_row = [4, 8, 10]  # Skyward Climb (Glimpse), Barrel Roll (Obstruct), Full Throttle (Accelerate)
    state.players[seat].snitch_in_play = None
    choice = greedy_choice(state, seat)
    assert isinstance(choice, TakeSnitchCard) and choice.card == 8 and choice.option == "rushed"


def test_greedy_flips_a_goal_token_to_save_a_failing_roll() -> None:
    """Its own Player's roll all blanks, nothing against it: a Goal token re-roll may save it, and is used."""
    for seed in range(60):
        state, _ = ENGINE.setup(SETUP, seed)
        rng = random.Random(seed)
        while ENGINE.outcome(state) is None:
            top = ENGINE.top(state)
            ex = state.exchange
            if (
                isinstance(top, RollWindow)
                and ex is not None
                and ex.action_roll is not None
                and ex.reaction_roll is None
                and ex.kind in ("pass", "shoot", "steal", "beat")
                and top.must[0] == ex.seat
                and ENGINE.modifiers(state, ex)[0] >= 0
            ):
                seat = ex.seat
                state.players[seat].goals = 1
                state.players[seat].hand = []  # no Swift Intrepid Move to weigh instead
                blanks = tuple(msgspec.structs.replace(d, face="blank") for d in ex.action_roll.dice)
                ex.action_roll = msgspec.structs.replace(ex.action_roll, dice=blanks)
                assert rolls.can_use_goal_token(ex.action_roll, seat)
                assert isinstance(greedy_choice(state, seat), GoalReroll)
                return
            acting = ENGINE.to_act(state).must[0]
            ENGINE.apply(state, acting, rng.choice(ENGINE.legal_actions(state, acting)))
    pytest.fail("no roll window on a Coach's own unanswered roll in 60 seeded matches")


# --------------------------------------------------------------------------- strength


def test_greedy_beats_random_in_seeded_matches() -> None:
    """60 seeded 2-seat matches, greedy's seat alternating (menagerie.arena.sweep's greedy_match).

    Measured: greedy won all 60; over 1,000 arena matches of the default Houses 97.6%
    (Wilson 95% 96.5–98.4%), and 97.5–98.4% in each other line-up of Houses. The bar, 45 of
    60, is far below, and the matches are seeded: it cannot flake.
    """
    wins = 0
    for seed in range(60):
        result = greedy_match(ENGINE, SETUP, seed, seed % 2, GREEDY, RANDOM)
        wins += result.greedy_won
    assert wins >= 45


# ------------------------------------------------------------------ Build Your Team


def build_teams(setup: MatchSetup, seed: int, policies: Sequence[Policy]) -> tuple[SnitchState, list[list[Action]]]:
    """Both seats build their Team (every choice legal) up to the Flag choice; returns each seat's choices."""
    state, _ = ENGINE.setup(setup, seed)
    rngs = [random.Random(seed * 100 + seat) for seat in range(2)]
    chosen: list[list[Action]] = [[], []]
    while isinstance(ENGINE.top(state), TeamBuilding):
        seat = ENGINE.to_act(state).must[0]
        legal = ENGINE.legal_actions(state, seat)
        policy = policies[seat]
        view = ENGINE.view(state, seat) if policy.needs_view else None
        action = policy.choose(view, legal, seat, rngs[seat])
        assert action in legal
        chosen[seat].append(action)
        ENGINE.apply(state, seat, action)
    return state, chosen


def assert_formed(state: SnitchState, setup: MatchSetup) -> None:
    """Both drafts are confirmed, complete and within the Funding (the engine's roster rules)."""
    funding = int(setup.options["funding"])
    limits = roster.Limits(funding=funding, spectators=setup.options["spectators"] == "on")
    for coach in state.players:
        draft = coach.draft
        assert draft is not None and draft.ready
        assert roster.complete_problem(ENGINE.catalogue, draft, limits) is None
        assert roster.cost(ENGINE.catalogue, draft) <= funding


@pytest.mark.parametrize("spectators", [False, True], ids=["no-spectators", "spectators"])
@pytest.mark.parametrize("funding", [0, 5, 15])
def test_both_levels_build_legal_teams(funding: int, spectators: bool) -> None:
    setup = advanced(funding, spectators)
    for seed in range(3):
        for policies in ((GREEDY, RANDOM), (RANDOM, GREEDY), (RANDOM, SnitchRandom())):
            state, chosen = build_teams(setup, seed, policies)
            assert_formed(state, setup)
            for seat, actions in enumerate(chosen):
                assert not any(isinstance(a, DropFromTeam) for a in actions), "no pick is ever taken back"
                assert isinstance(actions[-1], ConfirmTeam) and actions.count(ConfirmTeam()) == 1
                if policies[seat] is GREEDY:
                    # The House, 7 Players, 15 Tactical cards, the bought Spectators, then confirm: no wasted move.
                    assert len(actions) == 1 + 7 + 15 + len(state.players[seat].draft.spectators) + 1  # type: ignore[union-attr]


def test_random_confirms_as_soon_as_its_team_is_complete() -> None:
    setup = advanced(15, True)
    state, _ = ENGINE.setup(setup, 2)
    rng = random.Random(2)
    while isinstance(ENGINE.top(state), TeamBuilding):
        seat = ENGINE.to_act(state).must[0]
        legal = ENGINE.legal_actions(state, seat)
        action = RANDOM.choose(None, legal, seat, rng)
        assert (action == ConfirmTeam()) == (ConfirmTeam() in legal)
        assert isinstance(action, PickForTeam | ConfirmTeam)
        ENGINE.apply(state, seat, action)


@pytest.mark.parametrize("funding", [5, 10, 15])
def test_greedy_spends_its_funding(funding: int) -> None:
    """Measured: greedy spends all of 5 and 10 Galleons, and 14 or 15 of 15, in every House."""
    for spectators in (False, True):
        setup = advanced(funding, spectators)
        for seed in range(4):
            state, _ = build_teams(setup, seed, (GREEDY, SnitchGreedy()))
            assert_formed(state, setup)
            for coach in state.players:
                assert coach.draft is not None
                assert roster.cost(ENGINE.catalogue, coach.draft) >= funding - 1 > 0


def test_greedy_builds_in_a_preferred_house_and_the_houses_plan_is_what_it_buys() -> None:
    setup = advanced(10, True)
    state, chosen = build_teams(setup, 0, (SnitchGreedy(houses=("ravenclaw", "slytherin")), RANDOM))
    draft = state.players[0].draft
    assert draft is not None and draft.house == "ravenclaw"
    _, planned = planned_team("ravenclaw", 10, True)
    bought = [(a.part, a.card) for a in chosen[0] if isinstance(a, PickForTeam) and a.part != "house"][: len(planned)]
    assert sorted(bought) == sorted(planned)


def test_greedy_flies_its_house_flag_when_it_is_free() -> None:
    for seed in range(6):
        state, _ = build_teams(advanced(5, False), seed, (GREEDY, SnitchGreedy(houses=("slytherin",))))
        for seat in (0, 1):
            action = greedy_choice(state, seat)
            assert isinstance(action, ChooseFlag)
            draft = state.players[seat].draft
            assert draft is not None and draft.house is not None
            own = FLAG_COLOURS[draft.house]
            assert action.colour == own or state.players[1 - seat].flag == own
            ENGINE.apply(state, seat, action)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(
    "setup", [advanced(5, True), advanced(15, False), advanced(0, True)], ids=["5-spectators", "15", "0-spectators"]
)
def test_advanced_matches_finish_greedy_against_random(seed: int, setup: MatchSetup) -> None:
    for policies in ((GREEDY, RANDOM), (RANDOM, GREEDY)):
        state, moves = play(seed, policies, setup)
        assert ENGINE.outcome(state) is not None and len(moves) > 50


def test_greedy_beats_random_in_advanced_matches() -> None:
    """Measured with the arena: greedy wins over 99% at Funding 5 with Spectators (see the report's figures)."""
    wins = sum(greedy_match(ENGINE, advanced(5, True), seed, seed % 2, GREEDY, RANDOM).greedy_won for seed in range(20))
    assert wins >= 15


def advance_advanced(
    setup: MatchSetup, seed: int, found: Callable[[SnitchState], bool], picks: Sequence[tuple[str, str]] = ()
) -> SnitchState:
    """A seeded match of two greedy bots played until `found(state)` holds (seat 0 first picks `picks`)."""
    state, _ = ENGINE.setup(setup, seed)
    for part, card in picks:
        ENGINE.apply(state, 0, PickForTeam(part=part, card=card))
    rngs = [random.Random(seed), random.Random(seed + 1)]
    while ENGINE.outcome(state) is None:
        if found(state):
            return state
        seat = ENGINE.to_act(state).must[0]
        view, legal = ENGINE.view(state, seat), ENGINE.legal_actions(state, seat)
        ENGINE.apply(state, seat, GREEDY.choose(view, legal, seat, rngs[seat]))
    raise AssertionError(f"seed {seed}: never found")


def spectator_offered(state: SnitchState) -> bool:
    """A block where its Coach may place a Spectator and has placed none yet (every Zone still open to it)."""
    top = ENGINE.top(state)
    return (
        isinstance(top, BlockAction)
        and not state.players[top.must[0]].spectators_played
        and any(isinstance(a, PlaySpectator) for a in ENGINE.legal_actions(state, top.must[0]))
    )


def test_greedy_places_a_spectator_when_offered_displacing_a_rivals_first() -> None:
    state = advance_advanced(advanced(5, True), 3, spectator_offered)
    top = ENGINE.top(state)
    assert top is not None
    seat = top.must[0]
    assert isinstance(greedy_choice(state, seat), PlaySpectator)
    # A rival Spectator on the Stand: the Spectator goes onto it (its second effect).
    zones = {a.zone for a in ENGINE.legal_actions(state, seat) if isinstance(a, PlaySpectator)}
    zone = sorted(zones)[0]
    state.stand = [
        StandSpot(zone=s.zone, seat=1 - seat, card="fervent_fan") if s.zone == zone else StandSpot(zone=s.zone)
        for s in state.stand
    ]
    choice = greedy_choice(state, seat)
    assert isinstance(choice, PlaySpectator) and choice.zone == zone


def trait_offered(state: SnitchState) -> bool:
    """A roll window where the Seeker's Coach may use its Locked Trait on an Accelerate roll."""
    top, ex = ENGINE.top(state), state.exchange
    return (
        isinstance(top, RollWindow)
        and ex is not None
        and ex.race_step == "accelerate"
        and ex.action_roll is not None
        and top.must[0] == ex.seat
        and any(isinstance(a, UseTrait) for a in ENGINE.legal_actions(state, ex.seat))
    )


def test_greedy_uses_a_locked_trait_on_a_failing_roll_and_keeps_it_on_a_good_one() -> None:
    """Cedric Diggory ✷ may re-roll up to 3 dice of an Accelerate roll once (Locked): not on a good roll."""
    picks = [("house", "hufflepuff"), ("player", "cedric_diggory")]
    state = advance_advanced(advanced(3, False), 0, trait_offered, picks)
    ex = state.exchange
    assert ex is not None and ex.action_roll is not None
    seat = ex.seat
    assert seat == 0 and state.players[seat].lineup[6] == "cedric_diggory"
    state.players[seat].hand, state.players[seat].goals = [], 0  # nothing else to weigh
    good = tuple(msgspec.structs.replace(d, face="double_success") for d in ex.action_roll.dice)
    ex.action_roll = msgspec.structs.replace(ex.action_roll, dice=good)
    assert isinstance(greedy_choice(state, seat), KeepRoll)
    blanks = tuple(msgspec.structs.replace(d, face="blank") for d in ex.action_roll.dice)
    ex.action_roll = msgspec.structs.replace(ex.action_roll, dice=blanks)
    choice = greedy_choice(state, seat)
    assert isinstance(choice, UseTrait) and len(choice.dice) == min(3, len(blanks))


# ------------------------------------------------------------------ the arena's balance report


def test_the_arena_counts_the_teams_built_and_their_results() -> None:
    tally = run("snitch", 6, 2, "advanced", {"funding": "5", "spectators": "on"})
    teams = [team for result in tally.results for team in result.teams]
    assert len(teams) == 12 and sorted({t.level for t in teams}) == ["greedy", "random"]
    balance = Balance(ENGINE.catalogue, teams)
    by_funding = balance.by_funding()
    assert by_funding["greedy", "5"].teams == 6 and by_funding["greedy", "5"].wins == tally.greedy_wins
    assert sum(rate.teams for rate in balance.by_house().values()) == 12
    assert all(len(t.players) == 7 and len(t.tactics) == 15 for t in teams)
    assert 4 <= balance.spent()["greedy", "5"] <= 5


def test_the_balance_report_sums_houses_fundings_and_picks() -> None:
    """Hand-made Teams: rates by House and Funding, Galleons spent, and picks out of the Teams that could buy each."""
    catalogue = ENGINE.catalogue
    basic = ["gryffindor_keeper", "gryffindor_beater", "gryffindor_beater", *["gryffindor_chaser"] * 3]
    free = tuple(str(n) for n in range(1, 16))

    def team(funding: str, won: bool, seeker: str = "gryffindor_seeker", tactics: tuple[str, ...] = free) -> TeamRecord:
        return TeamRecord("greedy", "gryffindor", (*basic, seeker), tactics, (), won, funding)

    paid = ("16", *free[1:])  # card 16 (1 Galleon) instead of card 1
    records = [
        team("0", False),
        team("5", True, "harry_potter_seeker"),  # 2 Galleons
        team("5", True, tactics=paid),
        TeamRecord("random", "slytherin", (), (), (), False, "5"),
    ]
    balance = Balance(catalogue, records)
    assert balance.by_house()["greedy", "gryffindor"].wins == 2 and balance.by_house()["random", "slytherin"].teams == 1
    assert balance.by_funding()["greedy", "0"].rate == 0 and balance.by_funding()["greedy", "5"].rate == 1
    assert balance.spent()["greedy", "5"] == 1.5 and balance.spent()["greedy", "0"] == 0
    harry = next(p for p in balance.picks("player", "greedy") if p.card == "harry_potter_seeker")
    assert (harry.picked, harry.eligible) == (1, 2)  # the Funding-0 Team could not buy it
    card16 = next(p for p in balance.picks("tactic", "greedy") if p.card == "16" and p.house == "gryffindor")
    assert (card16.picked, card16.eligible, card16.rate) == (1, 2, 0.5)
    assert not any(p.house == "slytherin" for p in balance.picks("tactic", "greedy"))
    text = balance_report(balance)
    assert "Build Your Team: 4 Teams built (greedy, random)" in text
    assert "Harry Potter" in text and "Gryffindor" in text


def test_the_team_watcher_replays_picks_and_drops() -> None:
    state, _ = ENGINE.setup(advanced(5, False), 0)
    watcher = TeamWatcher()
    for action in (
        PickForTeam(part="house", card="hufflepuff"),
        PickForTeam(part="tactic", card="16"),
        DropFromTeam(part="tactic", card="16"),
        PickForTeam(part="tactic", card="17"),
    ):
        watcher.see(ENGINE.apply(state, 0, action))
    [record] = watcher.records({0: "greedy"}, [0], "5")
    assert (record.house, record.tactics, record.won, record.funding) == ("hufflepuff", ("17",), True, "5")
