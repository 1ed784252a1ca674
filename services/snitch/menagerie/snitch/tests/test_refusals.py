"""A refusal's reason comes from the rule that refuses, and it reveals nothing hidden.

Each rule with more to say than "not a choice" (a Pitch Actions card, an Intrepid or Swift
move, a Zone for a Bludger or the Quaffle, a Goal Hoop card, a Flag, a Locked Trait, a
Spectator, a Snitch Race token) decides legality itself in its engine part, beside the
options it lists, and says why it refuses; the text module no longer re-derives it. So:

- over seeded random matches of both modes, every candidate of those kinds is legal exactly
  when it is listed, each refusal names its rule with the rule's own reason (never the
  generic "not one of the legal choices"), and the refusal is the same whatever the seat
  cannot see (the hidden zones it cannot see shuffled: the rival's hand, the decks);
- an action refused for each reason reads the expected sentence, rulebook line included.

(The Pitch Actions' own reasons: tests/test_pitch_refusals.py.)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from itertools import permutations
from typing import Any

import msgspec
import pytest

from menagerie.rules.contract import MatchSetup
from menagerie.rules.decisions import Refusal
from menagerie.rules.hidden import permute_hidden
from menagerie.rules.rng import Rng
from menagerie.snitch.data import FERVENT_FAN, STAND_ZONES
from menagerie.snitch.engine import race, traits
from menagerie.snitch.engine.model import (
    FLAG_COLOURS,
    Aim,
    AimAtHoop,
    BlockAction,
    BludgerMove,
    ChooseFlag,
    ChoosePitchCard,
    Deployment,
    DeployPlayer,
    Exchange,
    ExchangeStep,
    FlagChoice,
    IntrepidOffer,
    KickOffBludger,
    LooseQuaffle,
    MoveBludger,
    NoReaction,
    PitchCards,
    PlaceBludger,
    PlaceQuaffle,
    PlaceRaceToken,
    PlayIntrepid,
    PlaySpectator,
    PlaySwift,
    RaceTokenPlacement,
    Reaction,
    RollWindow,
    SnitchState,
    UseTrait,
)
from menagerie.snitch.engine.pitch import PlayerRef
from menagerie.snitch.engine.rules import SnitchEngine
from menagerie.snitch.tests.test_spectators import block_seat, to_block
from menagerie.snitch.tests.test_spectators import match as spectators_match
from menagerie.snitch.tests.test_traits import UNIQUE, catch_if_asked, own_window, position, roll_exchange, run
from menagerie.snitch.tests.test_traits import with_player as with_trait_player

ENGINE = SnitchEngine()
ZONES = [z.id for z in ENGINE.pitch.zones]
ALL_ZONES = ", ".join(ZONES)
CARDS = range(-1, 31)
SPECTATORS = [*ENGINE.spectator_cards, "nobody"]
STATE = msgspec.msgpack.Decoder(SnitchState)
GENERIC = "is not one of the legal choices now"


def candidates(state: SnitchState, seat: int) -> dict[type, list[Any]]:
    """Every action of the kinds whose rule says why, that a seat might send: most of them illegal."""
    zones = [*ZONES, "nowhere"]
    return {
        ChoosePitchCard: [ChoosePitchCard(card=c) for c in CARDS],
        PlayIntrepid: [PlayIntrepid(card=c) for c in CARDS],
        PlaySwift: [PlaySwift(card=c) for c in CARDS],
        PlaceBludger: [PlaceBludger(zone=z) for z in zones],
        PlaceQuaffle: [PlaceQuaffle(zone=z) for z in zones],
        MoveBludger: [MoveBludger(bludger=b, zone=z) for b in (-1, 0, 1, 2) for z in zones],
        Aim: [Aim(number=n) for n in range(-1, 5)],
        ChooseFlag: [ChooseFlag(colour=c) for c in [*FLAG_COLOURS.values(), "mauve"]],
        UseTrait: [UseTrait(dice=d) for n in range(4) for d in permutations(range(6), n)],
        PlaySpectator: [PlaySpectator(card=c, zone=z) for c in SPECTATORS for z in (*STAND_ZONES, "pitch")],
        PlaceRaceToken: [PlaceRaceToken(space=s) for s in range(-1, 25)],
    }


def clone(state: SnitchState) -> SnitchState:
    return STATE.decode(msgspec.msgpack.encode(state))


SETUPS = [
    MatchSetup("basic", 2),
    MatchSetup("basic", 2, {"house_0": "ravenclaw", "house_1": "hufflepuff"}),
    MatchSetup("advanced", 2, {"funding": "10", "spectators": "on"}),
    MatchSetup("advanced", 2, {"funding": "15", "spectators": "on"}),
]


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{s.mode}-{'-'.join(sorted(s.options.values()))}")
def test_every_candidate_is_refused_by_its_rule_exactly_when_not_listed(setup: MatchSetup) -> None:
    """Listing and refusing agree; the refusal is the rule's own reason and the same whatever the seat cannot see."""
    rng = random.Random(5)
    asked: set[type] = set()
    for seed in range(8):
        state, _ = ENGINE.setup(setup, seed)
        while ENGINE.outcome(state) is None:
            seat = ENGINE.to_act(state).seats()[0]
            legal = ENGINE.legal_actions(state, seat)
            top = ENGINE.top(state)
            assert top is not None
            kinds = {kind: every for kind, every in candidates(state, seat).items() if kind in top.accepts}
            twin = permute_hidden(clone(state), seat, Rng(rng.getrandbits(64)), reseed=False)
            for kind, every in kinds.items():
                asked.add(kind)
                rule = ENGINE.rules[kind].name
                for action in every:
                    refusal = ENGINE.refusal(state, seat, action)
                    assert (refusal is None) == (action in legal), (action, refusal)
                    if refusal is not None:
                        assert refusal.rule == rule and refusal.detail and GENERIC not in refusal.detail, refusal
                    assert ENGINE.refusal(twin, seat, action) == refusal, f"{action}: depends on hidden things"
            ENGINE.perform(state, seat, rng.choice(legal))
    assert len(asked) >= 7, asked


# ------------------------------------------------------------------------- each reason's words


def positions(setup: MatchSetup, seeds: range = range(12)) -> Iterator[tuple[SnitchState, int]]:
    """Every position of seeded random matches, with the seat to act (each position is the live state: copy to keep)."""
    for seed in seeds:
        rng = random.Random(seed)
        state, _ = ENGINE.setup(setup, seed)
        while ENGINE.outcome(state) is None:
            seat = ENGINE.to_act(state).seats()[0]
            yield state, seat
            ENGINE.perform(state, seat, rng.choice(ENGINE.legal_actions(state, seat)))


def reach(
    when: Callable[[SnitchState, int], bool], setup: MatchSetup = SETUPS[0], seeds: range = range(12)
) -> tuple[SnitchState, int]:
    """The first position of seeded random matches where `when` holds (a copy)."""
    for state, seat in positions(setup, seeds):
        if when(state, seat):
            return clone(state), seat
    raise AssertionError("no such position in the seeded matches")


def at(kind: type) -> Callable[[SnitchState, int], bool]:
    return lambda state, seat: isinstance(ENGINE.top(state), kind)


def refused(state: SnitchState, seat: int, action: Any) -> Refusal:
    refusal = ENGINE.refusal(state, seat, action)
    assert refusal is not None, action
    return refusal


def test_a_pitch_actions_card_is_of_your_own_hand_once_a_sequence() -> None:
    """l.283: a card of the Coach's own hand; a rival's card reads as any card the Coach lacks."""
    state, seat = reach(at(PitchCards))
    hand = state.players[seat].hand
    assert refused(state, seat, ChoosePitchCard(card=99)) == Refusal(
        "Pitch Actions card", "card 99 is not in your hand"
    )
    theirs = next(c for c in state.players[1 - seat].hand if c not in hand)
    assert refused(state, seat, ChoosePitchCard(card=theirs)).detail == f"card {theirs} is not in your hand"
    state.players[seat].pitch_card = hand[0]
    assert refused(state, seat, ChoosePitchCard(card=hand[0])).detail == (
        "your Pitch Actions card is chosen for this Game Sequence"
    )


def test_an_intrepid_move_is_a_card_of_your_hand_that_has_one_and_is_not_swift() -> None:
    """l.285, l.440: Gryffindor's cards 9, 10, 13–15 have no Intrepid Move; card 6's is Swift."""
    state, seat = reach(lambda s, seat: at(IntrepidOffer)(s, seat) and bool({6, 9} & set(s.players[seat].hand)))
    assert refused(state, seat, PlayIntrepid(card=99)) == Refusal("Intrepid Moves", "card 99 is not in your hand")
    card = next(c for c in (6, 9) if c in state.players[seat].hand)
    assert refused(state, seat, PlayIntrepid(card=card)).detail == (
        f"card {card} has no Intrepid Move to play now (Swift ones wait for their moment, l.440)"
    )


def test_a_swift_move_waits_for_its_moment() -> None:
    """l.440–446: only a card whose Swift move is for this moment, while fewer than 2 Intrepid Moves are played."""

    def swift(state: SnitchState, seat: int) -> list[int]:
        return [a.card for a in ENGINE.legal_actions(state, seat) if isinstance(a, PlaySwift)]

    state, seat = reach(lambda s, seat: bool(swift(s, seat)), SETUPS[1], range(40))
    assert refused(state, seat, PlaySwift(card=99)) == Refusal("Swift Intrepid Moves", "card 99 is not in your hand")
    words = "has no Swift Intrepid Move for this moment, or you may not play one now (l.442–446)"
    card = next(c for c in state.players[seat].hand if c not in swift(state, seat))
    assert refused(state, seat, PlaySwift(card=card)).detail == f"card {card} {words}"
    card = swift(state, seat)[0]
    state.players[seat].intrepids = [card, card]  # the limit of 2 is reached (l.442)
    assert refused(state, seat, PlaySwift(card=card)).detail == f"card {card} {words}"


def test_a_bludger_goes_to_a_zone_its_rule_allows() -> None:
    """l.257: the Kick-Off Bludger goes in the rival half; a Zone that does not exist is named as such."""
    state, seat = reach(at(KickOffBludger))
    assert refused(state, seat, PlaceBludger(zone="nowhere")) == Refusal(
        "Bludgers", f"there is no Zone 'nowhere'; Zones: {ALL_ZONES}"
    )
    allowed = {a.zone for a in ENGINE.legal_actions(state, seat) if isinstance(a, PlaceBludger)}
    zone = next(z for z in ENGINE.pitch.zones if z.id not in allowed)
    assert refused(state, seat, PlaceBludger(zone=zone.id)).detail == f"{zone.name} is not one of the Zones allowed now"


def test_a_loose_quaffle_goes_to_one_of_its_zones() -> None:
    state, seat = reach(at(LooseQuaffle))
    top: Any = ENGINE.top(state)
    zone = next(z for z in ENGINE.pitch.zones if z.id not in top.zones)
    assert refused(state, seat, PlaceQuaffle(zone=zone.id)) == Refusal(
        "Loose Quaffle", f"{zone.name} is not one of the Zones allowed now"
    )
    assert refused(state, seat, PlaceQuaffle(zone="moon")).detail == f"there is no Zone 'moon'; Zones: {ALL_ZONES}"


def test_a_bludger_is_moved_by_its_coach_to_a_zone_its_rule_allows() -> None:
    """l.524–534: the Bludgers the decision names, each to the Zones it may reach; the wrong Bludger is named."""
    state, seat = reach(lambda s, seat: at(BludgerMove)(s, seat) and ENGINE.top(s).bludgers == [0, 1])  # type: ignore[union-attr]
    assert refused(state, seat, MoveBludger(bludger=0, zone="nowhere")) == Refusal(
        "Bludgers", f"there is no Zone 'nowhere'; Zones: {ALL_ZONES}"
    )
    assert refused(state, seat, MoveBludger(bludger=5, zone=ZONES[0])).detail == (
        "Bludger 6 is not one you may move now; you may move Bludger 1 or Bludger 2"
    )
    allowed = {a.zone for a in ENGINE.legal_actions(state, seat) if isinstance(a, MoveBludger) and a.bludger == 0}
    zone = next(z for z in ENGINE.pitch.zones if z.id not in allowed)
    assert refused(state, seat, MoveBludger(bludger=0, zone=zone.id)).detail == (
        f"{zone.name} is not one of the Zones allowed now"
    )


def test_a_goal_hoop_card_is_numbered_1_2_or_3() -> None:
    """l.486–492: both Coaches aim with a Goal Hoop card when a Chaser Shoots at a guarded Hoop."""
    state, _ = reach(at(BlockAction))
    seat = state.attacking
    # A Shoot at a guarded Hoop, as test_engine.py sets one up.
    keeper_area = ENGINE.pitch.half(state.layout.halves[1 - seat]).scoring_area
    shooter, keeper = PlayerRef(seat, 3), PlayerRef(1 - seat, 0)
    state.layout = state.layout.moved(keeper, keeper_area).moved(shooter, keeper_area).with_quaffle(shooter)
    state.exchange = Exchange(kind="shoot", seat=seat, actor=3)
    state.decisions.clear()
    state.flow.append(ExchangeStep())
    ENGINE.advance(state, [])
    if isinstance(ENGINE.top(state), Reaction):  # the Keeper's Catch is offered first (l.412)
        ENGINE.apply(state, 1 - seat, NoReaction())
    assert isinstance(ENGINE.top(state), AimAtHoop)
    assert refused(state, seat, Aim(number=4)) == Refusal(
        "Aim at the Hoop", "Goal Hoop cards are numbered 1, 2 and 3, not 4"
    )


def test_a_flag_is_a_colour_of_the_box_and_not_the_rivals() -> None:
    """l.460: each Coach's Flag tokens are of a colour; the second Coach cannot take the first one's."""
    setup = MatchSetup("advanced", 2, {"funding": "5"})
    state, _ = reach(lambda s, seat: at(FlagChoice)(s, seat) and seat == 1, setup)
    taken = state.players[0].flag
    assert refused(state, 1, ChooseFlag(colour=str(taken))) == Refusal(
        "Flag tokens", f"the {taken} Flag is the rival's; the two Coaches' colours differ"
    )
    assert refused(state, 1, ChooseFlag(colour="mauve")).detail == (
        "there is no 'mauve' Flag; colours: scarlet, green, blue and yellow"
    )


def test_a_locked_trait_is_the_rollers_and_names_the_dice_it_allows() -> None:
    """l.229: the Player whose roll this is uses its Locked Trait once: an addition names no dice, a re-roll 1 to N."""
    state, seat = reach(at(RollWindow))
    assert refused(state, seat, UseTrait()) == Refusal(
        "Traits", "the Player whose roll this is has no Locked Trait to use on it (or its Locked token is on, l.229)"
    )
    locked: dict[str, Any] = {traits.kind(p.trait): p for p in UNIQUE if traits.is_locked(p.trait)}
    for kind, card in sorted(locked.items()):
        state = position()
        index = with_trait_player(state, card.id)
        run(state, roll_exchange(state, card.trait.roll, index), catch_if_asked, own_window(state))
        assert own_window(state)()
        if kind == "roll_bonus":
            assert refused(state, 0, UseTrait(dice=(0,))).detail == (
                "this Locked Trait adds to the roll; it names no dice (l.229)"
            )
            continue
        offered = [a for a in ENGINE.legal_actions(state, 0) if isinstance(a, UseTrait)]
        dice = max(offered, key=lambda a: len(a.dice)).dice
        most, free = len(dice), sorted({d for a in offered for d in a.dice})
        words = (
            f"this Locked Trait re-rolls 1 to {most} of dice {', '.join(map(str, free))}, "
            "each named once, in increasing order (l.229)"
        )
        assert refused(state, 0, UseTrait(dice=())).detail == words
        assert refused(state, 0, UseTrait(dice=(free[0], free[0]))).detail == words
        assert refused(state, 0, UseTrait(dice=(free[1], free[0]))).detail == words
        assert refused(state, 0, UseTrait(dice=(99,))).detail == words
    assert set(locked) == {"roll_bonus", "reroll"}


def test_a_spectator_is_your_own_card_once_in_a_zone_of_the_stand_it_allows() -> None:
    """l.715–721: your Spectator cards, each once until a Hand Swap, in a Zone it allows, never onto a friend."""
    # Each Coach has bought a Spectator of the Encouragement Zone only, besides the Fervent Fan.
    bought = ("lee_jordan", "pansy_parkinson")
    state = spectators_match(bought=bought)
    seat = block_seat(state)
    mine = bought[seat]
    assert refused(state, seat, PlaySpectator(card="nobody", zone="magic")) == Refusal(
        "Spectators", "'nobody' is not one of your Spectator cards"
    )
    assert refused(state, seat, PlaySpectator(card=FERVENT_FAN, zone="pitch")).detail == (
        "the Stand's Zones are the Magic Zone and the Encouragement Zone, not 'pitch' (l.715)"
    )
    onto = (
        "a Spectator goes into a Zone its card allows, empty or held by a rival Spectator, never one "
        "holding a friendly Spectator (l.719)"
    )
    assert refused(state, seat, PlaySpectator(card=mine, zone="magic")).detail == onto  # Encouragement only
    ENGINE.apply(state, seat, PlaySpectator(card=FERVENT_FAN, zone="encouragement"))
    to_block(state, seat)
    assert refused(state, seat, PlaySpectator(card=FERVENT_FAN, zone="magic")).detail == (
        "that Spectator has been played; it comes back after a Hand Swap clears the Stand (l.721)"
    )
    assert next(spot for spot in state.stand if spot.zone == "encouragement").seat == seat
    assert refused(state, seat, PlaySpectator(card=mine, zone="encouragement")).detail == onto  # onto a friend


def test_a_race_token_goes_on_a_free_space_the_coach_may_use() -> None:
    """l.616: between the Seeker Ahead and the Snitch; a Lagged Coach also between the Seekers."""
    seen = set()
    for state, seat in positions(SETUPS[0], range(40)):
        if not isinstance(ENGINE.top(state), RaceTokenPlacement):
            continue
        lagged = race.lagged(ENGINE.race_of(state)) == seat
        if lagged in seen:
            continue
        words = f"space {state.snitch} is not a free space between the leading Seeker and the Snitch"
        if lagged:
            words += ", nor, your Seeker being Lagged, between the two Seekers"
        assert refused(state, seat, PlaceRaceToken(space=state.snitch)) == Refusal(
            "Snitch Race tokens", words + " (l.616)"
        )
        seen.add(lagged)
        if seen == {True, False}:
            break
    assert seen == {True, False}


def test_a_rule_whose_options_are_the_rule_says_the_action_is_not_a_choice() -> None:
    """Deploying, re-rolls, Shifts and the like: what is listed is legal, the rest is not one of the choices."""
    state, seat = reach(at(Deployment))
    assert refused(state, seat, DeployPlayer(player=0, zone="nowhere")) == Refusal(
        "Kick-Off", "DeployPlayer (player=0, zone='nowhere') is not one of the legal choices now"
    )
