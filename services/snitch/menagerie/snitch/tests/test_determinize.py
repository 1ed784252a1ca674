"""Determinization: a state rebuilt from one seat's view, the rival's secrets drawn anew each time.

The property runs (test_properties*.py) check at sampled positions of 400 random matches
that a determinized state shows the seat its own view and offers it the same actions.
These tests check what they cannot: that the view's `procedure` is the same for every
reader (nothing in it is a seat's own), and that what the seat cannot see is drawn —
different with different seeds, always within the rules — while what it can see never
changes.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import msgspec

from menagerie.rules.contract import MatchSetup
from menagerie.snitch.data import FERVENT_FAN
from menagerie.snitch.data.cards import DECK_SIZE, GoldenSnitchCard
from menagerie.snitch.engine import race, roster
from menagerie.snitch.engine.model import (
    Aim,
    AimAtHoop,
    BlockAction,
    Exchange,
    ExchangeStep,
    NoReaction,
    PitchCards,
    Reaction,
    SnitchState,
)
from menagerie.snitch.engine.pitch import PlayerRef
from menagerie.snitch.engine.rules import SnitchEngine

ENGINE = SnitchEngine()
SEEDS = range(40)


def play_until(setup: MatchSetup, seed: int, wanted: Callable[[SnitchState], bool]) -> SnitchState:
    """The first position of a seeded random match where `wanted` holds."""
    rng = random.Random(seed)
    state, _ = ENGINE.setup(setup, seed)
    while not wanted(state):
        assert ENGINE.outcome(state) is None, "the match ended before the position wanted"
        seat = rng.choice(ENGINE.to_act(state).seats())
        ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
    return state


def test_the_procedure_reads_the_same_for_every_reader() -> None:
    """The view's procedure is public: both seats and a spectator get the same, at every position."""
    for setup in (MatchSetup("basic", 2), MatchSetup("advanced", 2, {"funding": "10", "spectators": "on"})):
        rng = random.Random(3)
        state, _ = ENGINE.setup(setup, 3)
        while ENGINE.outcome(state) is None:
            procedures = {msgspec.msgpack.encode(ENGINE.view(state, viewer).procedure) for viewer in (None, 0, 1)}
            assert len(procedures) == 1, procedures
            seat = rng.choice(ENGINE.to_act(state).seats())
            ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))


def test_state_from_view_is_the_same_state_every_time() -> None:
    """Without a seed the unseen cards are dealt one way (a search may start from it and shuffle itself)."""
    state = play_until(MatchSetup("basic", 2), 5, lambda s: s.sequence >= 2)
    view = ENGINE.view(state, 0)
    assert msgspec.msgpack.encode(ENGINE.state_from_view(view, 0)) == msgspec.msgpack.encode(
        ENGINE.state_from_view(view, 0)
    )


def rival_has_chosen(seat: int) -> Callable[[SnitchState], bool]:
    """The rival chose its Pitch Actions card face down; `seat` has not yet."""

    def wanted(state: SnitchState) -> bool:
        top = ENGINE.top(state)
        return isinstance(top, PitchCards) and top.must == [seat]

    return wanted


def test_the_rivals_hand_and_pitch_card_are_drawn_the_seats_own_are_kept() -> None:
    """The rival's chosen card and hand vary with the seed, from the cards the seat has not seen; the seat's don't."""
    state = play_until(MatchSetup("basic", 2), 1, rival_has_chosen(0))
    view = ENGINE.view(state, 0)
    rival = state.players[1]
    unseen = sorted([*rival.hand, *rival.deck, rival.pitch_card or 0])
    chosen, hands = set(), set()
    for seed in SEEDS:
        sampled = ENGINE.determinize(view, 0, seed)
        mine, theirs = sampled.players[0], sampled.players[1]
        assert (mine.hand, mine.pitch_card) == (state.players[0].hand, state.players[0].pitch_card)
        assert sorted(mine.deck) == sorted(state.players[0].deck)
        assert theirs.pitch_card is not None and len(theirs.hand) == len(rival.hand)
        assert sorted([*theirs.hand, *theirs.deck, theirs.pitch_card]) == unseen
        chosen.add(theirs.pitch_card)
        hands.add(tuple(sorted(theirs.hand)))
    assert len(chosen) > 3 and len(hands) > 10, (chosen, len(hands))


def test_the_rivals_goal_hoop_card_is_drawn() -> None:
    """Aim at the Hoop (l.490): the Shooter's Coach aimed in secret; each determinization draws one of the numbers."""
    state = play_until(MatchSetup("basic", 2), 2, lambda s: isinstance(ENGINE.top(s), BlockAction))
    seat = state.attacking
    # A Shoot at a guarded Hoop, as test_engine.py sets one up.
    keeper_area = ENGINE.pitch.half(state.layout.halves[1 - seat]).scoring_area
    shooter, keeper = PlayerRef(seat, 3), PlayerRef(1 - seat, 0)
    state.layout = state.layout.moved(keeper, keeper_area).moved(shooter, keeper_area).with_quaffle(shooter)
    state.exchange = Exchange(kind="shoot", seat=seat, actor=3)
    state.decisions.clear()
    state.flow.append(ExchangeStep())
    ENGINE.advance(state, [])
    if isinstance(ENGINE.top(state), Reaction):
        ENGINE.apply(state, 1 - seat, NoReaction())
    assert isinstance(ENGINE.top(state), AimAtHoop)
    ENGINE.apply(state, seat, Aim(number=2))
    view = ENGINE.view(state, 1 - seat)
    aims = {ENGINE.determinize(view, 1 - seat, s).players[seat].aim for s in SEEDS}
    assert aims == set(ENGINE.data.hoops.numbers)
    assert {ENGINE.determinize(view, 1 - seat, s).players[1 - seat].aim for s in SEEDS} == {None}
    assert ENGINE.determinize(ENGINE.view(state, seat), seat, 1).players[seat].aim == 2


def test_the_rivals_snitch_card_in_play_is_drawn_from_the_cards_out_of_sight() -> None:
    """A Snitch card kept in play is secret (l.664): drawn among the unseen cards that are not Golden Snitch cards."""
    for seed in range(60):
        try:
            state = play_until(MatchSetup("basic", 2), seed, lambda s: s.players[1].snitch_in_play is not None)
        except AssertionError:
            continue
        view = ENGINE.view(state, 0)
        seen = {*state.snitch_row, *state.snitch_discard, state.players[0].snitch_in_play}
        drawn = set()
        for s in SEEDS:
            sampled = ENGINE.determinize(view, 0, s)
            card = sampled.players[1].snitch_in_play
            assert card is not None and card not in seen
            assert not isinstance(race.card(card), GoldenSnitchCard)
            assert len(sampled.snitch_deck) == len(state.snitch_deck)
            assert sampled.players[0].snitch_in_play == state.players[0].snitch_in_play
            drawn.add(card)
        assert len(drawn) > 2, drawn
        return
    raise AssertionError("no seeded match had seat 1 keep a Snitch card in play")


def test_an_advanced_rivals_deck_is_drawn_within_the_funding() -> None:
    """A deck built in secret: each determinization gives the rival a legal Team of 15 cards the Funding allows."""
    setup = MatchSetup("advanced", 2, {"funding": "15", "spectators": "on"})
    state = play_until(setup, 2, rival_has_chosen(0))
    view = ENGINE.view(state, 0)
    rival = state.players[1]
    decks = set()
    for seed in SEEDS:
        sampled = ENGINE.determinize(view, 0, seed)
        theirs = sampled.players[1]
        assert theirs.pitch_card is not None
        tactics = [*theirs.hand, *theirs.deck, theirs.pitch_card, *theirs.discard, *theirs.intrepids]
        assert (len(theirs.hand), len(theirs.deck)) == (len(rival.hand), len(rival.deck))
        draft = roster.Draft()
        roster.add(draft, "house", theirs.house)
        for player in theirs.lineup:
            roster.add(draft, "player", player)
        for spectator in theirs.spectators:
            if spectator != FERVENT_FAN:
                roster.add(draft, "spectator", spectator)
        for tactic in tactics:
            roster.add(draft, "tactic", str(tactic))
        limits = roster.Limits(funding=15, spectators=True)
        assert roster.complete_problem(ENGINE.catalogue, draft, limits) is None
        assert len(set(tactics)) == DECK_SIZE
        assert sorted(sampled.players[0].deck) == sorted(state.players[0].deck)
        decks.add(tuple(sorted(tactics)))
    assert len(decks) > 10, len(decks)


def test_a_rivals_draft_is_drawn_and_the_seats_own_kept() -> None:
    """Build Your Team: the rival's secret draft is some House's Team, confirmed exactly when the view says so."""
    setup = MatchSetup("advanced", 2, {"funding": "5"})

    def rival_confirmed(state: SnitchState) -> bool:
        draft = state.players[1].draft
        return draft is not None and draft.ready and bool(state.players[0].draft and state.players[0].draft.picks)

    state = play_until(setup, 4, rival_confirmed)
    view = ENGINE.view(state, 0)
    houses = set()
    for seed in SEEDS:
        sampled = ENGINE.determinize(view, 0, seed)
        theirs, mine = sampled.players[1].draft, sampled.players[0].draft
        assert theirs is not None and theirs.ready and theirs.house is not None
        assert roster.complete_problem(ENGINE.catalogue, theirs, roster.Limits(funding=5, spectators=False)) is None
        assert mine == state.players[0].draft
        houses.add(theirs.house)
    assert len(houses) == 4, houses


def test_a_views_sampler_draws_the_states_the_generic_path_draws() -> None:
    """Search's determinizations (one rebuild per view, then only the draws) equal the generic path's, seed by seed:
    the same rebuild, the same draws in the same order from the same Rng, then every hidden pool shuffled."""
    setups = (MatchSetup("basic", 2), MatchSetup("advanced", 2, {"funding": "15", "spectators": "on"}))
    compared = 0
    for setup in setups:
        for match in range(3):
            rng = random.Random(match)
            state, _ = ENGINE.setup(setup, match)
            step = 0
            while ENGINE.outcome(state) is None:
                if step % 7 == 3:
                    for seat in (0, 1):
                        view = ENGINE.view(state, seat)
                        for seed in (seat, 11 + step):
                            fast = ENGINE.determinize(view, seat, seed)
                            assert fast == ENGINE._determinize_generic(view, seat, seed), (setup.mode, match, step)
                            compared += 1
                seat = rng.choice(ENGINE.to_act(state).seats())
                ENGINE.apply(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))
                step += 1
    assert compared > 200, compared
