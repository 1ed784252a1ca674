"""Rulebook fidelity: situations random play rarely reaches, each test quoting the line it follows.

Each test sets a seeded match's table by hand (the pieces where the situation needs them)
and then plays it through the engine's public surface (`apply`, `legal_actions`,
`view`), asserting the rulebook's outcome. Line numbers (l.) are of the rulebook,
catch-the-golden-snitch.txt.
"""

from __future__ import annotations

from typing import Any

from menagerie.rules.contract import MatchSetup
from menagerie.snitch.data import FERVENT_FAN
from menagerie.snitch.engine import pitch
from menagerie.snitch.engine.model import (
    Aim,
    AimAtHoop,
    BludgerMove,
    BludgerTarget,
    DeclineIntrepid,
    DiceTokens,
    ExchangeResolved,
    FreeAction,
    HandSwapBonus,
    IntrepidOffer,
    KeepRoll,
    NoReaction,
    NoSpectator,
    PitchCards,
    PlayIntrepid,
    PlaySpectator,
    PlaySwift,
    React,
    Reaction,
    RollWindow,
    SequenceStep,
    Shoot,
    SnitchCardChoice,
    SnitchState,
    SpectatorPlayed,
    SpectatorWindow,
    SpendTokens,
    Steal,
    TakeSnitchCard,
    TargetPlayer,
    TempoGained,
)
from menagerie.snitch.engine.pitch import PlayerRef
from menagerie.snitch.engine.rules import SnitchEngine
from menagerie.snitch.tests.test_spectators import match as spectators_match

ENGINE = SnitchEngine()
# Gryffindor's basic card 11: a Swift Intrepid Move played when a rival Steals (its Steal Reaction +1).
RIVAL_STEAL_SWIFT = 11


def top(state: SnitchState) -> Any:
    """The pending decision (typed loosely: tests read its fields)."""
    return ENGINE.top(state)


def legal(state: SnitchState, seat: int) -> list[Any]:
    """The seat's legal actions (typed loosely: tests read their fields)."""
    return list(ENGINE.legal_actions(state, seat))


def basic_match(seed: int = 8) -> SnitchState:
    """Gryffindor (seat 0) against Slytherin (seat 1), played by first choices to step 2 of a Game Sequence."""
    state, _ = ENGINE.setup(MatchSetup("basic", 2), seed)
    return play_until(state, lambda s: isinstance(top(s), PitchCards))


def play_until(state: SnitchState, done: Any, choose: Any = None, limit: int = 3000) -> SnitchState:
    """Plays `choose(actions)` (default: the first legal action) for the seat asked until `done(state)`."""
    for _ in range(limit):
        if done(state):
            return state
        seat = ENGINE.to_act(state).seats()[0]
        actions = legal(state, seat)
        ENGINE.apply(state, seat, choose(actions) if choose else actions[0])
    raise AssertionError("the position was not reached")


def pending(state: SnitchState, decision: Any, *flow: Any) -> None:
    """Makes `decision` the one the match waits for, with `flow` (first listed first) to run after it."""
    state.decisions = [decision]
    state.flow = list(reversed(flow))


# ---------------------------------------------------------------- Intrepid Moves: the limit of 2


def test_a_swift_card_played_at_the_rivals_hand_swap_free_action_counts_towards_the_limit_of_2() -> None:
    """l.434: "a single Coach may not play more than two in a Game Sequence"; l.444: a Swift card is "placed on
    top of the last Intrepid Move played (if any), just as you would when playing regular Intrepid Moves, counting
    towards the limit of 2." """
    state = basic_match()
    # Seat 0 has just made a lone Hand Swap (five fresh cards, the Swift one among them): seat 1's free Action.
    plain = [c.id for c in ENGINE.decks.deck("gryffindor") if c.intrepid and c.intrepid.swift is None]
    state.players[0].hand = [RIVAL_STEAL_SWIFT, *plain[:4]]
    holder, stealer = PlayerRef(0, 3), PlayerRef(1, 4)
    zone = "west_centre"
    state.layout = state.layout.moved(holder, zone).moved(stealer, zone).with_quaffle(holder)
    state.attacking = 0
    pending(
        state,
        FreeAction(must=[1], reason="hand_swap"),
        HandSwapBonus(seat=1, stage=2),
        SequenceStep(stage="pitch_cards"),
    )
    ENGINE.apply(state, 1, Steal(player=4))
    play_until(state, lambda s: isinstance(top(s), RollWindow) and top(s).must == [0], lambda a: a[0])
    ENGINE.apply(state, 0, PlaySwift(card=RIVAL_STEAL_SWIFT))
    assert state.players[0].intrepids == [RIVAL_STEAL_SWIFT]
    # Play on to step 3; seat 0 plays every Intrepid Move it is offered.
    play_until(state, lambda s: isinstance(top(s), IntrepidOffer) and top(s).must == [0])
    played = 0
    while isinstance(top(state), IntrepidOffer):
        seat = top(state).must[0]
        plays = [a for a in legal(state, seat) if isinstance(a, PlayIntrepid)]
        if seat == 0 and plays:
            ENGINE.apply(state, 0, plays[0])
            played += 1
        else:
            ENGINE.apply(state, seat, DeclineIntrepid())
    assert played == 1, "one more after the Swift card, not two"
    assert len(state.players[0].intrepids) == 2


# ---------------------------------------------------------------- Dice tokens go by the Player's owner


def bludger_on_own_player() -> SnitchState:
    """Seat 0's Bludger Movement: its Bludger is in a Zone with its own Chaser, who holds a Bonus and a Penalty."""
    state = basic_match()
    zone = "west_centre"
    chaser = PlayerRef(0, 3)
    state.layout = state.layout.moved(chaser, zone).with_bludger(0, zone)
    state.players[0].team[3].bonus = ["orange"]
    state.players[0].team[3].penalty = ["purple"]
    pending(state, BludgerTarget(must=[0], bludger=0), SequenceStep(stage="snitch"))
    return state


def test_a_bludger_may_hit_its_own_coachs_player_who_may_manoeuvre() -> None:
    """l.530: "the Coach controlling the Bludger chooses one Player in the Bludger's Zone. The chosen Player may
    attempt to avoid this hit with a Manoeuvre Reaction" — the Player's own Coach decides it."""
    state = bludger_on_own_player()
    assert TargetPlayer(team=0, player=3) in legal(state, 0)
    ENGINE.apply(state, 0, TargetPlayer(team=0, player=3))
    assert isinstance(top(state), Reaction) and top(state).must == [0]
    assert React(player=3, reaction="manoeuvre") in legal(state, 0)


def test_dice_tokens_on_a_player_hit_by_its_own_coachs_bludger_are_spent_by_owner_and_rival() -> None:
    """l.454: "Any time the Player makes a dice roll, they may spend accumulated Bonus Dice tokens"; l.456: "if a
    Player has any Penalty Dice tokens on their card, the rival may spend them on the roll of their choice"."""
    state = bludger_on_own_player()
    ENGINE.apply(state, 0, TargetPlayer(team=0, player=3))
    ENGINE.apply(state, 0, React(player=3, reaction="manoeuvre"))
    asked: dict[int, set[Any]] = {}
    while isinstance(top(state), DiceTokens):
        seat = top(state).must[0]
        asked[seat] = set(legal(state, seat))
        ENGINE.apply(state, seat, SpendTokens())
    assert asked[0] == {SpendTokens(), SpendTokens(bonus=("orange",))}, "the owner spends its Player's Bonus"
    assert asked[1] == {SpendTokens(), SpendTokens(penalty=("purple",))}, "the rival spends its Penalty"


def test_spent_tokens_change_the_manoeuvre_of_a_player_hit_by_its_own_coachs_bludger() -> None:
    """l.454–456: a Bonus token "adds one die to the roll"; a Penalty token means the Player "must discard one
    die before rolling" — both on the reacting Player's Manoeuvre roll."""
    state = bludger_on_own_player()
    ENGINE.apply(state, 0, TargetPlayer(team=0, player=3))
    ENGINE.apply(state, 0, React(player=3, reaction="manoeuvre"))
    events: list[Any] = []
    while isinstance(top(state), DiceTokens):
        seat = top(state).must[0]
        spend = SpendTokens(bonus=("orange",)) if seat == 0 else SpendTokens(penalty=("purple",))
        events += ENGINE.apply(state, seat, spend)
    rolled = next(e for e in events if type(e).__name__ == "DiceRolled")
    pool = ENGINE.pool(state, 0, 3, "manoeuvre", reaction=True)
    colours = [d.colour for d in rolled.reaction.dice]
    assert colours.count("orange") == pool.orange + 1 and colours.count("purple") == pool.purple - 1
    assert state.players[0].team[3].bonus == [] and state.players[0].team[3].penalty == []


# ---------------------------------------------------------------- Spectators at any time


def not_placing(actions: list[Any]) -> Any:
    """The first legal action that places no Spectator."""
    return next(a for a in actions if not isinstance(a, PlaySpectator))


def test_the_coach_not_playing_a_block_is_offered_a_spectator_before_each_of_the_rivals_actions() -> None:
    """l.719: "A Coach can play a Spectator card at any time by placing the token in one of the empty Zones"."""
    state = spectators_match()
    asked: list[tuple[str, list[int]]] = []
    for _ in range(400):
        decision = top(state)
        if decision is None:
            break
        asked.append((decision.kind(), list(decision.must)))
        seat = ENGINE.to_act(state).seats()[0]
        ENGINE.apply(state, seat, not_placing(legal(state, seat)))
    blocks = [i for i, (kind, _) in enumerate(asked) if kind == "block_action"]
    assert blocks, "the match reached Action Blocks"
    for i in blocks[1:]:  # the first was asked before the record began
        rival = 1 - asked[i][1][0]
        assert asked[i - 1] == ("spectator_window", [rival]), f"no window before the Action asked at {i}"


def steal_against(state: SnitchState) -> tuple[int, int]:
    """A free Steal of one Coach against the other's Chaser with the Quaffle: (stealing seat, reacting seat)."""
    thief = state.attacking
    victim = 1 - thief
    zone = "west_centre"
    holder, stealer = PlayerRef(victim, 3), PlayerRef(thief, 4)
    state.layout = state.layout.moved(holder, zone).moved(stealer, zone).with_quaffle(holder)
    state.attacking = victim
    pending(state, FreeAction(must=[thief], action="steal"))
    return thief, victim


def test_a_spectator_placed_during_a_reaction_takes_effect_once_the_action_is_resolved() -> None:
    """l.719: "A Coach can play a Spectator card at any time": while the rival's Steal is being answered too."""
    state = spectators_match()
    thief, victim = steal_against(state)
    ENGINE.apply(state, thief, Steal(player=4))
    assert isinstance(top(state), Reaction) and top(state).must == [victim]
    assert PlaySpectator(card=FERVENT_FAN, zone="magic") in legal(state, victim)
    events = ENGINE.apply(state, victim, PlaySpectator(card=FERVENT_FAN, zone="magic"))
    assert SpectatorPlayed(seat=victim, card=FERVENT_FAN, zone="magic", displaced="", later=True) in events
    assert not any(isinstance(e, TempoGained) for e in events), "the effect waits for the Steal"
    assert isinstance(top(state), Reaction) and top(state).must == [victim], "the Reaction is asked again"
    events = ENGINE.apply(state, victim, NoReaction())
    while state.exchange is not None:
        seat = ENGINE.to_act(state).seats()[0]
        events += ENGINE.apply(state, seat, not_placing(legal(state, seat)))
    resolved = next(i for i, e in enumerate(events) if isinstance(e, ExchangeResolved))
    tempo = [i for i, e in enumerate(events) if isinstance(e, TempoGained) and e.seat == victim]
    assert tempo and tempo[0] > resolved, "the Fervent Fan's Tempo Point once the Steal is resolved"


def test_a_coach_without_dice_tokens_is_asked_before_a_roll_while_it_can_place_a_spectator() -> None:
    """l.719 "at any time": before the dice of an Action, each Coach who may still place a Spectator is asked
    (with the Dice tokens, l.454–456); once neither can, nobody is asked without tokens to spend."""
    for played in (False, True):
        state = spectators_match()
        if played:
            for coach in state.players:
                coach.spectators_played = list(coach.spectators)
        thief, victim = steal_against(state)
        ENGINE.apply(state, thief, Steal(player=4))
        ENGINE.apply(state, victim, NoReaction())
        asked = []
        while isinstance(top(state), DiceTokens):
            seat = top(state).must[0]
            asked.append(seat)
            assert any(isinstance(a, PlaySpectator) for a in legal(state, seat))
            ENGINE.apply(state, seat, SpendTokens())
        assert sorted(asked) == ([] if played else [0, 1])


def test_the_bludger_movement_offers_a_spectator_to_each_coach_before_and_during_a_move() -> None:
    """l.719 "at any time", during l.526's Bludger Movement: the other Coach before the move; the moving Coach
    as it moves (the effect at once, then the move is asked again)."""
    state = spectators_match()
    play_until(state, lambda s: isinstance(top(s), SpectatorWindow) and top(s).moment == "bludger", not_placing)
    window = top(state)
    mover = 1 - window.must[0]
    assert mover == 1 - state.attacking, "the Defending Coach moves first (l.526); the window is the other's"
    ENGINE.apply(state, window.must[0], NoSpectator())
    assert isinstance(top(state), BludgerMove) and top(state).must == [mover]
    events = ENGINE.apply(state, mover, PlaySpectator(card=FERVENT_FAN, zone="encouragement"))
    assert any(isinstance(e, TempoGained) and e.seat == mover for e in events), "the first effect at once"
    assert isinstance(top(state), BludgerMove) and top(state).must == [mover] and top(state).reach == 0


def test_a_spectator_window_does_not_depend_on_a_coachs_hidden_hand() -> None:
    """The Spectator cards and the Stand are on the table (l.719): whether a window opens must not say what a
    Coach holds in hand."""
    asked = []
    for hand in (slice(0, 5), slice(5, 10)):
        state = spectators_match()
        for coach in state.players:
            coach.hand = [c.id for c in ENGINE.decks.deck(coach.house)][hand]
        thief, victim = steal_against(state)
        ENGINE.apply(state, thief, Steal(player=4))
        ENGINE.apply(state, victim, NoReaction())
        decisions = []
        while state.exchange is not None:
            decision = top(state)
            decisions.append((decision.kind(), list(decision.must)))
            ENGINE.apply(state, decision.must[0], not_placing(legal(state, decision.must[0])))
        asked.append([d for d in decisions if d[0] != "roll_window"])
    assert asked[0] == asked[1]


# ---------------------------------------------------------------- seeded scenarios


def test_both_seekers_on_the_snitch_the_attacking_teams_seeker_catches_it() -> None:
    """l.685: "If the Snitch coincides in a space where both Seekers are, the one who has caught the Snitch is the
    Seeker of the Attacking Team." — even when the other Coach's Glimpse brought it there."""
    state = basic_match()
    glimpser = 1 - state.attacking
    spiral_chase = 9  # Rushed Impulse: Glimpse 1, no roll
    state.snitch_deck = [c for c in state.snitch_deck if c != spiral_chase]
    state.snitch_discard = [c for c in state.snitch_discard if c != spiral_chase]
    state.snitch_row = [spiral_chase, *[c for c in state.snitch_row if c != spiral_chase][:2]]
    state.seekers, state.snitch, state.race_tokens = [7, 7], 8, []
    pending(state, SnitchCardChoice(must=[glimpser]))
    ENGINE.apply(state, glimpser, TakeSnitchCard(card=spiral_chase, option="rushed"))
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners() == [state.attacking]


def shoot_position() -> tuple[SnitchState, int]:
    """Seat 0's Chaser holds the Quaffle in seat 1's Scoring Area with seat 1's Keeper; a Beater of seat 1 is next
    to it. Seat 0 is to Shoot as a free Action."""
    state = basic_match()
    shooter, keeper = PlayerRef(0, 3), PlayerRef(1, 0)
    area = pitch.own_half(ENGINE.pitch, state.layout, 1).scoring_area
    beside = pitch.adjacent(ENGINE.pitch, area)[0]
    state.layout = state.layout.moved(shooter, area).moved(keeper, area).moved(PlayerRef(1, 1), beside)
    state.layout = state.layout.with_quaffle(shooter)
    state.attacking = 0
    pending(state, FreeAction(must=[0], action="shoot"))
    return state, 1


def test_a_shoot_is_answered_by_the_keepers_catch_and_by_no_defense_reaction() -> None:
    """l.412: "Catch. When a rival Chaser in your Scoring Area attempts a Shoot Action, your Keeper may use their
    Catch value"; l.408: Defense answers a Bludger ("When a Beater is targeted by a Bludger"), never a Shoot."""
    state, defender = shoot_position()
    ENGINE.apply(state, 0, Shoot(player=3))
    assert isinstance(top(state), Reaction) and top(state).must == [defender]
    reactions = [a for a in legal(state, defender) if isinstance(a, React)]
    assert reactions == [React(player=0, reaction="catch")]
    ENGINE.apply(state, defender, reactions[0])
    assert isinstance(top(state), AimAtHoop), "the Keeper is in the Scoring Area: both Aim at the Hoop (l.488)"
    ENGINE.apply(state, 0, Aim(number=1))
    ENGINE.apply(state, 1, Aim(number=2))
    assert state.exchange is not None and state.exchange.aim_bonus == 1, "different numbers: one more Success (l.492)"


def test_a_swift_card_held_unplayed_waits_for_its_own_moment_while_the_rival_is_offered_a_window() -> None:
    """l.440: a Swift card "can be played from the hand as an Intrepid Move at the time specified in the text";
    the rival's window after their own roll is theirs alone, and the held card stays secret and in hand."""
    state = basic_match()
    own_shoot_swift = 6  # Gryffindor: re-roll 2 of your Shoot dice, when your Chaser Shoots
    plain = [c.id for c in ENGINE.decks.deck("gryffindor") if c.intrepid is None or c.intrepid.swift is None]
    state.players[0].hand = [own_shoot_swift, *plain[:3]]
    thief, victim = 1, 0
    zone = "west_centre"
    holder, stealer = PlayerRef(victim, 3), PlayerRef(thief, 4)
    state.layout = state.layout.moved(holder, zone).moved(stealer, zone).with_quaffle(holder)
    state.attacking = victim
    pending(state, FreeAction(must=[thief], action="steal"))
    ENGINE.apply(state, thief, Steal(player=4))
    ENGINE.apply(state, victim, NoReaction())
    play_until(state, lambda s: isinstance(top(s), RollWindow), not_placing)
    while isinstance(top(state), RollWindow):
        seat = top(state).must[0]
        assert PlaySwift(card=own_shoot_swift) not in legal(state, seat), "not its moment"
        ENGINE.apply(state, seat, KeepRoll())
    assert own_shoot_swift in state.players[0].hand and state.players[0].intrepids == []
    rival_view = ENGINE.view(state, 1)
    assert rival_view.coaches[0].hand_size == 4 and all(c.seat == 1 for c in rival_view.hand)
    shown = [(c.seat, c.id) for c in rival_view.cards]
    assert (0, own_shoot_swift) not in shown, "the held card is not shown to the rival"
