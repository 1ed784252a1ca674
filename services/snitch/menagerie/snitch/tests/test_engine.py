"""The Snitch engine's sequencing, rule by rule, each test naming the rulebook line it checks.

The rule helpers (pitch, rolls, race, tactics) have their own tests; these check that the
engine asks the right Coach the right decision, in the rulebook's order, and applies it.
States are reached by playing the first legal action and then set by hand where a test
needs a position.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from menagerie.rules.contract import MatchSetup
from menagerie.rules.errors import IllegalAction
from menagerie.rules.events import project
from menagerie.rules.text import Narrator
from menagerie.snitch.data.cards import PitchAction
from menagerie.snitch.engine.model import (
    Aim,
    AimAtHoop,
    BeatenBludger,
    BlockAction,
    ChoosePitchCard,
    DeclineBlock,
    Deployment,
    Exchange,
    FreeAction,
    HoopsAimed,
    IntrepidOffer,
    KickOffBludger,
    LooseQuaffle,
    MatchFinished,
    PitchCardChosen,
    PitchCards,
    PlaceBludger,
    PlaceQuaffle,
    React,
    Reaction,
    Recover,
    ShiftPlayers,
    SnitchState,
    Steal,
    TempoChoice,
    UseTrait,
)
from menagerie.snitch.engine.pitch import PlayerRef
from menagerie.snitch.engine.rules import SnitchEngine

ENGINE = SnitchEngine()


def new_match(seed: int = 1) -> SnitchState:
    state, _ = ENGINE.setup(MatchSetup("basic", 2), seed)
    return state


def advance_until(state: SnitchState, done: Callable[[SnitchState], bool], limit: int = 2000) -> SnitchState:
    """Plays the first legal action of the first seat to act until `done` holds."""
    for _ in range(limit):
        if done(state):
            return state
        seat = ENGINE.to_act(state).seats()[0]
        ENGINE.apply(state, seat, legal(state, seat)[0])
    raise AssertionError("the position was not reached")


def top(state: SnitchState) -> Any:
    """The pending decision (typed loosely: tests read its fields)."""
    return ENGINE.top(state)


def legal(state: SnitchState, seat: int) -> list[Any]:
    """The seat's legal actions (typed loosely: tests read their fields)."""
    return list(ENGINE.legal_actions(state, seat))


def test_setup_follows_steps_1_to_6() -> None:
    """l.233–245: Snitch on the last space, Seekers on the first, the Quaffle with a Chaser of the attacking Coach."""
    state = new_match()
    track = ENGINE.data.track
    assert state.snitch == track.snitch_start and state.seekers == [track.seekers_start] * 2
    holder = state.layout.holder
    assert holder is not None and holder.team == state.attacking and holder.position == "chaser"
    assert all(len(c.hand) == 5 and len(c.deck) == 10 for c in state.players)
    assert len(state.snitch_row) == 3
    assert all(ENGINE.race_of(state).row) and 15 not in state.snitch_row and 16 not in state.snitch_row
    # The Kick-Off starts with the Attacking Coach's Bludger (l.257).
    assert isinstance(top(state), KickOffBludger) and top(state).must == [state.attacking]


def test_kick_off_bludgers_go_in_the_rival_half_outside_deployment_and_scoring_zones() -> None:
    """l.257: "in their rival's half ... not within a Deployment Zone, or the Scoring Area"."""
    state = new_match()
    seat = state.attacking
    zones = {a.zone for a in legal(state, seat)}
    rival_half = ENGINE.pitch.half(state.layout.halves[1 - seat])
    assert zones and zones <= set(rival_half.zones)
    assert not zones & (ENGINE.pitch.deployment_zones | ENGINE.pitch.scoring_areas)


def test_deployment_moves_two_one_one_two_and_no_player_twice() -> None:
    """l.259–269: 2 attacking, 1 defending, 1 attacking, 2 defending; no Player moved more than once."""
    state = new_match(3)
    state = advance_until(state, lambda s: isinstance(top(s), Deployment))
    order = []
    moved: list[tuple[int, int]] = []
    while isinstance(top(state), Deployment):
        decision = top(state)
        seat = decision.must[0]
        order.append((seat, decision.left))
        for _ in range(decision.left):
            action = legal(state, seat)[0]
            assert (seat, action.player) not in moved
            moved.append((seat, action.player))
            ENGINE.apply(state, seat, action)
    attacking = state.attacking
    assert order == [(attacking, 2), (1 - attacking, 1), (attacking, 1), (1 - attacking, 2)]
    assert isinstance(top(state), PitchCards)


def test_pitch_actions_cards_are_chosen_in_secret_then_revealed_together() -> None:
    """l.283: both choose face down; nobody sees the other's card until both have chosen."""
    state = advance_until(new_match(), lambda s: isinstance(top(s), PitchCards))
    assert ENGINE.to_act(state).must == (0, 1)
    card = state.players[0].hand[0]
    events = ENGINE.apply(state, 0, ChoosePitchCard(card))
    assert ENGINE.view(state, 1).coaches[0].pitch_card is None
    assert ENGINE.view(state, 1).coaches[0].pitch_card_chosen
    assert ENGINE.view(state, 0).my_pitch_card == card
    chosen = next(e for e in events if isinstance(e, PitchCardChosen))
    assert project(chosen, 1).card is None and project(chosen, 0).card == card
    ENGINE.apply(state, 1, ChoosePitchCard(state.players[1].hand[0]))
    assert ENGINE.view(state, 1).coaches[0].pitch_card == card


def test_intrepid_offers_start_with_the_attacking_coach() -> None:
    """l.285, l.434: "Starting with the Attacking Team and then alternating"."""
    state = advance_until(new_match(5), lambda s: isinstance(top(s), IntrepidOffer))
    assert top(state).must == [state.attacking]


def test_only_the_attacking_coachs_first_block_is_compulsory() -> None:
    """l.291–297: the Attacking Coach resolves their first block; the later ones "may" be played."""
    state = advance_until(new_match(2), lambda s: bool(s.block_turns))
    first_seat = state.attacking
    assert state.block_turns[0] == [first_seat, 0, 0], "the Attacking Coach's first block, compulsory"
    assert all(optional for _, _, optional in state.block_turns[1:])
    state = advance_until(state, lambda s: isinstance(top(s), BlockAction) and not top(s).may_decline)
    seat = top(state).must[0]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, seat, DeclineBlock())
    state = advance_until(state, lambda s: isinstance(top(s), BlockAction) and top(s).may_decline)
    assert DeclineBlock() in legal(state, top(state).must[0])


def _holder_position(state: SnitchState) -> PlayerRef:
    holder = state.layout.holder
    assert holder is not None
    return holder


def test_a_steal_is_answered_by_the_holders_steal_reaction() -> None:
    """l.374, l.404: only the Defending Team Steals; the targeted holder may react with its Steal value."""
    state = advance_until(new_match(2), lambda s: isinstance(top(s), BlockAction))
    holder = _holder_position(state)
    defender = 1 - holder.team
    # Put a defender next to the holder and let the defender act (a free Steal).
    state.layout = state.layout.moved(PlayerRef(defender, 3), state.layout.zone_of(holder))
    state.decisions[-1] = BlockAction(must=[defender])
    state.block_seat, state.block_remaining, state.attacking = defender, ["steal"], holder.team
    steal = next(a for a in legal(state, defender) if type(a).__name__ == "Steal")
    ENGINE.apply(state, defender, steal)
    assert isinstance(top(state), Reaction) and top(state).must == [holder.team]
    assert legal(state, holder.team)[0] == React(player=holder.index, reaction="steal_reaction")


def test_shooting_at_a_guarded_hoop_aims_first_and_different_numbers_add_a_success() -> None:
    """l.488–492: both Coaches choose a Goal Hoop card in secret; different numbers add one Success."""
    state = advance_until(new_match(2), lambda s: isinstance(top(s), BlockAction))
    seat = state.attacking
    keeper_area = ENGINE.pitch.half(state.layout.halves[1 - seat]).scoring_area
    shooter = PlayerRef(seat, 3)
    keeper = PlayerRef(1 - seat, 0)
    state.layout = state.layout.moved(keeper, keeper_area).moved(shooter, keeper_area).with_quaffle(shooter)
    state.exchange = Exchange(kind="shoot", seat=seat, actor=3)
    state.decisions.clear()
    state.flow.append(_exchange_step())
    ENGINE.advance(state, [])
    if isinstance(top(state), Reaction):  # the Keeper's Catch is offered first (l.412)
        ENGINE.apply(state, 1 - seat, legal(state, 1 - seat)[-1])
    assert isinstance(top(state), AimAtHoop) and ENGINE.to_act(state).must == (0, 1)
    ENGINE.apply(state, seat, Aim(1))
    assert ENGINE.view(state, 1 - seat).my_aim is None
    events = ENGINE.apply(state, 1 - seat, Aim(2))
    aimed = next(e for e in events if isinstance(e, HoopsAimed))
    assert (aimed.shooter, aimed.keeper, aimed.bonus) == (1, 2, 1)


def _exchange_step() -> Any:
    from menagerie.snitch.engine.model import ExchangeStep

    return ExchangeStep()


def test_a_failed_pass_goes_loose_where_the_rival_says_and_ends_the_block() -> None:
    """l.356, l.476: the rival places the Loose Quaffle (not in a Scoring Area); the block ends; they attack."""
    for seed in range(40):
        state = advance_until(new_match(seed), lambda s: isinstance(top(s), LooseQuaffle), limit=5000)
        decision = top(state)
        chooser = decision.must[0]
        zones = decision.zones
        assert not set(zones) & ENGINE.pitch.scoring_areas
        lost_by = 1 - chooser if state.layout.holder is None else None
        ENGINE.apply(state, chooser, PlaceQuaffle(zones[-1]))
        assert state.layout.quaffle == zones[-1] or state.layout.holder is not None
        if lost_by is not None:
            assert state.block_seat is None
        return
    raise AssertionError("no Loose Quaffle in 40 seeds")


def test_a_successful_pass_offers_the_tempo_point_or_a_break() -> None:
    """l.556–574: a successful rolled Pass earns a Tempo Point, or the Coach Breaks the Tempo."""
    for seed in range(60):
        state = new_match(seed)
        try:
            state = advance_until(state, lambda s: isinstance(top(s), TempoChoice), limit=3000)
        except AssertionError:
            continue
        seat = top(state).must[0]
        labels = {type(a).__name__ for a in legal(state, seat)}
        assert "TakeTempo" in labels
        before = state.players[seat].tempo
        ENGINE.apply(state, seat, legal(state, seat)[0])
        assert state.players[seat].tempo in (before + 1, 0) or isinstance(top(state), (FreeAction, ShiftPlayers))
        return
    raise AssertionError("no Tempo choice reached")


def test_more_than_three_tempo_points_take_a_snitch_card() -> None:
    """l.565: "Any time you accumulate more than 3 Tempo Points ... Discard all ... choose a card from the row"."""
    from menagerie.snitch.engine.model import GainTempo, SnitchCardChoice

    state = advance_until(new_match(4), lambda s: isinstance(top(s), PitchCards))
    state.players[0].tempo = 3
    state.decisions.clear()
    state.flow.append(GainTempo(seat=0))
    ENGINE.advance(state, [])
    assert state.players[0].tempo == 0
    assert isinstance(top(state), SnitchCardChoice) and top(state).must == [0]


def test_a_seeker_on_the_snitch_space_wins_at_once() -> None:
    """l.685: the Seeker who reaches the Golden Snitch's space catches it; the match ends immediately."""
    state = advance_until(new_match(6), lambda s: isinstance(top(s), PitchCards))
    state.snitch = 5
    state.seekers = [4, 1]
    events: list[Any] = []
    ENGINE._apply_race(state, 0, "accelerate", 1, events)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners() == [0]
    assert isinstance(events[-1], MatchFinished)
    assert ENGINE.to_act(state).seats() == ()


def test_both_seekers_on_the_snitch_space_give_it_to_the_attacking_team() -> None:
    """l.685: "If the Snitch coincides in a space where both Seekers are, ... the Seeker of the Attacking Team"."""
    state = advance_until(new_match(6), lambda s: isinstance(top(s), PitchCards))
    state.snitch, state.seekers = 9, [7, 7]
    state.attacking = 1
    ENGINE._apply_race(state, 0, "glimpse", 3, [])
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners() == [1]


def test_a_lone_hand_swap_gives_the_rival_a_free_action_and_a_tempo_point() -> None:
    """l.464–468: the Coach with no cards draws 5; the rival performs a free Action, then gains 1 Tempo Point."""
    from menagerie.snitch.engine.model import SequenceStep

    state = advance_until(new_match(8), lambda s: isinstance(top(s), PitchCards))
    state.decisions.clear()
    coach = state.players[0]
    coach.discard, coach.hand = coach.discard + coach.hand, []
    state.flow = [SequenceStep(stage="hand_swap")]
    ENGINE.advance(state, [])
    assert len(state.players[0].hand) == 5
    assert isinstance(top(state), FreeAction) and top(state).must == [1]
    tempo = state.players[1].tempo
    ENGINE.apply(state, 1, legal(state, 1)[0])
    state = advance_until(state, lambda s: isinstance(top(s), PitchCards))
    assert state.players[1].tempo in (tempo + 1, 0)


def test_refusals_name_the_rule_and_change_nothing() -> None:
    """A wrong move is refused with the rule's name and leaves the state as it was."""
    state = new_match()
    before = ENGINE.view(state, 0)
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, 1 - state.attacking, ChoosePitchCard(1))
    assert refused.value.rule
    with pytest.raises(IllegalAction) as wrong_zone:
        ENGINE.apply(state, state.attacking, PlaceBludger("nowhere"))
    assert wrong_zone.value.rule == "Bludgers" and "nowhere" in wrong_zone.value.detail
    assert ENGINE.view(state, 0) == before


# --------------------------------------------------------------- exchanges set by hand


def exchange_position(seed: int = 2) -> SnitchState:
    """A match in its Action Blocks, with nothing pending: a test sets an exchange and runs it."""
    state = advance_until(new_match(seed), lambda s: isinstance(top(s), BlockAction))
    state.decisions.clear()
    state.flow.clear()
    return state


def run_exchange(state: SnitchState, exchange: Exchange) -> list[Any]:
    """Starts `exchange` and runs the flow until a decision is needed."""
    from menagerie.snitch.engine.model import ExchangeStep

    events: list[Any] = []
    state.exchange = exchange
    state.flow.append(ExchangeStep())
    ENGINE.advance(state, events)
    return events


def answer(state: SnitchState, choose: Callable[[list[Any]], Any]) -> list[Any]:
    """The seat asked decides with `choose` over its legal actions."""
    seat = ENGINE.to_act(state).seats()[0]
    return ENGINE.apply(state, seat, choose(legal(state, seat)))


def test_a_beat_is_answered_by_defense_from_a_beater_in_the_targets_zone() -> None:
    """l.406–410: the target may Manoeuvre, or a friendly Beater in its Zone Defend it (one Reaction, l.400)."""
    state = exchange_position()
    beater, target = PlayerRef(0, 1), PlayerRef(1, 3)
    guard = PlayerRef(1, 1)
    zone = "west_centre"
    state.layout = state.layout.moved(beater, zone).moved(target, zone).moved(guard, zone).with_bludger(0, zone)
    run_exchange(state, Exchange(kind="beat", seat=0, actor=1, target_team=1, target=3, bludger=0))
    assert isinstance(top(state), Reaction) and top(state).must == [1]
    options = set(legal(state, 1))
    assert React(player=3, reaction="manoeuvre") in options
    assert React(player=1, reaction="defense") in options
    assert React(player=2, reaction="defense") not in options, "Beater 2 is not in the target's Zone"


def test_after_a_beat_the_targets_coach_places_the_bludger_in_its_zone_or_next_to_it() -> None:
    """l.382: "Whether or not this Action is successful, your rival places the beaten Bludger"."""
    from menagerie.snitch.engine.model import NoReaction

    state = exchange_position()
    zone = "west_centre"
    state.layout = state.layout.moved(PlayerRef(0, 1), zone).moved(PlayerRef(1, 3), zone).with_bludger(0, zone)
    run_exchange(state, Exchange(kind="beat", seat=0, actor=1, target_team=1, target=3, bludger=0))
    ENGINE.apply(state, 1, NoReaction())
    while not isinstance(top(state), BeatenBludger):
        answer(state, lambda actions: actions[0])
    assert top(state).must == [1]
    allowed = {a.zone for a in legal(state, 1)}
    assert allowed == {zone, *ENGINE.pitch.zone(zone).adjacent}


def test_a_goal_gives_a_goal_token_a_snitch_card_and_the_quaffle_to_the_conceding_keeper() -> None:
    """l.494–496 (and RULES.md "Engine": the conceding Keeper's Kick-Off follows)."""
    from menagerie.snitch.engine.model import GoalScored, KeeperKickOff, SnitchCardChoice

    state = exchange_position()
    area = ENGINE.pitch.half(state.layout.halves[1]).scoring_area
    shooter = PlayerRef(0, 3)
    state.layout = state.layout.moved(PlayerRef(1, 0), "east_centre").moved(shooter, area).with_quaffle(shooter)
    state.attacking = 0
    # A sure goal: the Shoot's Successes are fixed (no Keeper inside, so no Catch and no Aim).
    events = run_exchange(state, Exchange(kind="shoot", seat=0, actor=3, fixed=5))
    while state.exchange is not None:
        events += answer(state, lambda actions: actions[0])
    assert any(isinstance(e, GoalScored) for e in events)
    assert state.players[0].goals == 1
    assert state.layout.holder == PlayerRef(1, 0) and state.attacking == 1
    assert isinstance(top(state), SnitchCardChoice) or any(isinstance(s, KeeperKickOff) for s in state.flow)


def test_the_bludger_movement_starts_with_the_defending_coach() -> None:
    """l.526: "The Defending Coach picks a Bludger first, and the Attacking Coach must move the other"."""
    from menagerie.snitch.engine.model import BludgerMove

    def movement(s: SnitchState) -> bool:  # the end-of-sequence movement, not an Intrepid Move's
        return isinstance(top(s), BludgerMove) and top(s).reach == 0

    state = advance_until(new_match(12), movement)
    first = top(state)
    assert first.must == [1 - state.attacking] and sorted(first.bludgers) == [0, 1]
    picked = legal(state, first.must[0])[0]
    ENGINE.apply(state, first.must[0], picked)
    state = advance_until(state, movement)
    second = top(state)
    assert second.must == [state.attacking] and second.bludgers == [1 - picked.bludger]


def test_a_goal_token_rerolls_one_die_of_your_own_roll_once() -> None:
    """l.504: "Once per Action or Reaction ... re-roll a dice by flipping over one of your Uncelebrated Goal tokens"."""
    from menagerie.snitch.engine.model import GoalReroll, KeepRoll, RollWindow

    state = exchange_position()
    state.players[0].goals = 2
    zone = "west_centre"
    state.layout = state.layout.moved(PlayerRef(0, 3), zone).moved(PlayerRef(0, 4), zone).with_quaffle(PlayerRef(0, 3))
    run_exchange(state, Exchange(kind="pass", seat=0, actor=3, target_team=0, target=4))
    while not (isinstance(top(state), RollWindow) and top(state).must == [0]):
        answer(state, lambda actions: actions[0])
    assert GoalReroll(die=0) in legal(state, 0)
    ENGINE.apply(state, 0, GoalReroll(die=0))
    assert state.players[0].goals == 1 and state.players[0].celebrated == 1
    assert not any(isinstance(a, GoalReroll) for a in legal(state, 0)), "once per roll"
    assert KeepRoll() in legal(state, 0)


def test_a_player_at_a_disadvantage_cannot_move_out_of_its_zone() -> None:
    """l.418: "Players at a Disadvantage or Severe Disadvantage cannot Move out of their Zone"."""
    from menagerie.snitch.engine.model import Move

    state = exchange_position()
    zone = "north_midfield"
    lone = PlayerRef(0, 3)
    state.layout = state.layout.moved(lone, zone).moved(PlayerRef(1, 3), zone).moved(PlayerRef(1, 4), zone)
    state.decisions = [BlockAction(must=[0])]
    state.block_seat, state.block_remaining = 0, ["move"]
    assert not any(isinstance(a, Move) and a.player == 3 for a in legal(state, 0))
    assert any(isinstance(a, Move) and a.player == 4 for a in legal(state, 0))


def test_dice_tokens_are_offered_before_the_roll_to_their_spender() -> None:
    """l.454–456: Bonus tokens by the roller's Coach, Penalty tokens by the rival, before the dice are rolled."""
    from menagerie.snitch.engine.model import DiceTokens, SpendTokens

    state = exchange_position()
    zone = "west_centre"
    state.layout = state.layout.moved(PlayerRef(0, 3), zone).moved(PlayerRef(0, 4), zone).with_quaffle(PlayerRef(0, 3))
    state.players[0].team[3].bonus = ["orange"]
    state.players[0].team[3].penalty = ["purple"]
    run_exchange(state, Exchange(kind="pass", seat=0, actor=3, target_team=0, target=4))
    assert isinstance(top(state), DiceTokens) and top(state).must == [0]
    assert set(legal(state, 0)) == {SpendTokens(), SpendTokens(bonus=("orange",))}
    ENGINE.apply(state, 0, SpendTokens(bonus=("orange",)))
    assert isinstance(top(state), DiceTokens) and top(state).must == [1]
    assert SpendTokens(penalty=("purple",)) in legal(state, 1)
    events = ENGINE.apply(state, 1, SpendTokens(penalty=("purple",)))
    rolled: Any = next(e for e in events if type(e).__name__ == "DiceRolled")
    # The Chaser's Pass dice with one orange die more and one purple die fewer.
    pool = ENGINE.pool(state, 0, 3, "pass")
    assert [d.colour for d in rolled.action.dice].count("orange") == pool.orange + 1
    assert [d.colour for d in rolled.action.dice].count("purple") == pool.purple - 1
    assert state.players[0].team[3].bonus == [] and state.players[0].team[3].penalty == []


def test_swift_moments_are_offered_on_public_facts_only() -> None:
    """Being asked after a rival's Steal must not tell whether the Coach holds a Swift card (hand size only)."""
    from menagerie.snitch.engine.model import DiceTokens, NoReaction, RollWindow

    asked = []
    for holds_swift in (False, True):
        state = exchange_position()
        zone = "west_centre"
        holder = PlayerRef(1, 3)
        state.layout = state.layout.moved(PlayerRef(0, 4), zone).moved(holder, zone).with_quaffle(holder)
        state.attacking = 1
        swift = [c.id for c in ENGINE.decks.deck(state.players[1].house) if c.intrepid and c.intrepid.swift]
        plain = [c.id for c in ENGINE.decks.deck(state.players[1].house) if not (c.intrepid and c.intrepid.swift)]
        state.players[1].hand = (swift[:1] if holds_swift else plain[:1]) + plain[1:4]
        run_exchange(state, Exchange(kind="steal", seat=0, actor=4, target_team=1, target=3))
        ENGINE.apply(state, 1, NoReaction())
        while isinstance(top(state), DiceTokens):
            answer(state, lambda actions: actions[0])
        windows = []
        while state.exchange is not None and isinstance(top(state), RollWindow):
            windows.append(top(state).must[0])
            answer(state, lambda actions: next(a for a in actions if type(a).__name__ == "KeepRoll"))
        asked.append(windows)
    assert asked[0] == asked[1], "the windows asked depend on the hand's hidden cards"
    assert 1 in asked[0]


def test_a_save_starts_the_keepers_kick_off_shifts_then_a_sure_pass_without_tempo() -> None:
    """l.512–520: shooter Shifted out, one Shift each from the Attacking Team, the Keeper's Pass succeeds, no Tempo."""
    from menagerie.snitch.engine.model import (
        AfterAction,
        KickOffPass,
        KickOffStarted,
        NoReaction,
        PassQuaffle,
        ShiftPlayer,
        SkipShift,
    )

    state = exchange_position()
    defender_area = ENGINE.pitch.half(state.layout.halves[1]).scoring_area
    shooter, keeper = PlayerRef(0, 3), PlayerRef(1, 0)
    state.layout = state.layout.moved(keeper, defender_area).moved(shooter, defender_area).with_quaffle(shooter)
    state.attacking = 0
    state.flow.append(AfterAction(holder_before=[0, 3]))
    events = run_exchange(state, Exchange(kind="shoot", seat=0, actor=3, fixed=0))  # a sure miss
    events += ENGINE.apply(state, 1, NoReaction())
    while not isinstance(top(state), ShiftPlayers):
        events += answer(state, lambda actions: actions[0])
    assert state.layout.holder == keeper and state.attacking == 1
    # Step 1: the shooter must leave the Scoring Area (its own Coach picks where).
    assert top(state).must == [0] and top(state).reason == "shift_out"
    shift_out = legal(state, 0)
    assert shift_out and all(isinstance(a, ShiftPlayer) and a.player == 3 for a in shift_out)
    events += ENGINE.apply(state, 0, shift_out[0])
    assert any(isinstance(e, KickOffStarted) for e in events)
    # Step 2: the Attacking Coach (the Keeper's) may Shift first, then the other.
    assert top(state).must == [1] and top(state).reason == "kick_off" and SkipShift() in legal(state, 1)
    ENGINE.apply(state, 1, SkipShift())
    assert top(state).must == [0] and SkipShift() in legal(state, 0)
    ENGINE.apply(state, 0, SkipShift())
    # Step 3: the Keeper's free Pass, which succeeds without a roll and earns no Tempo.
    assert isinstance(top(state), KickOffPass)
    kick = next(a for a in legal(state, 1) if isinstance(a, PassQuaffle))
    tempo = state.players[1].tempo
    events = ENGINE.apply(state, 1, kick)
    assert state.layout.holder == PlayerRef(1, kick.target)
    assert not any(type(e).__name__ == "DiceRolled" for e in events)
    assert state.players[1].tempo == tempo


def test_breaking_the_tempo_gives_a_free_pass_that_earns_no_point() -> None:
    """l.571–578: a free Pass instead of the point, which itself earns none (l.578)."""
    from menagerie.snitch.engine.model import BreakTempo, FreeAction, PassQuaffle

    state = exchange_position()
    zone = "west_centre"
    for index in (3, 4, 5):
        state.layout = state.layout.moved(PlayerRef(0, index), zone)
    state.layout = state.layout.with_quaffle(PlayerRef(0, 3))
    state.attacking = 0
    run_exchange(state, Exchange(kind="pass", seat=0, actor=3, target_team=0, target=4, fixed=3))
    while not isinstance(top(state), TempoChoice):
        answer(state, lambda actions: next((a for a in actions if type(a).__name__ == "KeepRoll"), actions[0]))
    tempo = state.players[0].tempo
    ENGINE.apply(state, 0, BreakTempo(option="free_pass"))
    assert isinstance(top(state), FreeAction) and top(state).reason == "break_tempo"
    free_pass = next(a for a in legal(state, 0) if isinstance(a, PassQuaffle))
    ENGINE.apply(state, 0, free_pass)
    # Its roll may succeed or fail; either way no Tempo choice or point follows from it.
    while state.exchange is not None:
        answer(
            state,
            lambda actions: next((a for a in actions if type(a).__name__ in ("KeepRoll", "SpendTokens")), actions[0]),
        )
    assert not isinstance(top(state), TempoChoice)
    assert state.players[0].tempo == tempo


def test_a_move_into_the_loose_quaffles_zone_picks_it_up_and_attacks() -> None:
    """l.478: "a Player may perform a Move Action to the Zone containing the Quaffle, picking it up"."""
    from menagerie.snitch.engine.model import Move, QuaffleCaught

    state = exchange_position()
    runner = PlayerRef(1, 3)
    state.layout = state.layout.moved(runner, "north_midfield").with_quaffle("east_north")
    state.attacking = 0
    state.decisions = [BlockAction(must=[1])]
    state.block_seat, state.block_remaining = 1, ["move"]
    events = ENGINE.apply(state, 1, Move(player=3, zone="east_north"))
    assert state.layout.holder == runner and state.attacking == 1
    assert any(isinstance(e, QuaffleCaught) and e.how == "pick_up" for e in events)


def test_a_refused_pitch_action_says_which_rule_forbids_it() -> None:
    """Bad input is refused with the rule's reason, and changes nothing."""
    from menagerie.snitch.engine.model import Move

    state = exchange_position()
    zone = "north_midfield"
    state.layout = state.layout.moved(PlayerRef(0, 3), zone).moved(PlayerRef(1, 3), zone).moved(PlayerRef(1, 4), zone)
    state.decisions = [BlockAction(must=[0])]
    state.block_seat, state.block_remaining = 0, ["move", "steal"]
    state.attacking = 0
    before = ENGINE.view(state, 0)
    cases: dict[Any, str] = {
        Move(player=3, zone="west_north"): "Disadvantage",
        Move(player=4, zone="nowhere"): "no Zone 'nowhere'",
        Move(player=9, zone="west_north"): "no Player 9",
        Steal(player=3): "Defending Team",
        Recover(player=3): "no Recover left",
    }
    for action, reason in cases.items():
        with pytest.raises(IllegalAction) as refused:
            ENGINE.apply(state, 0, action)
        assert refused.value.rule == "Actions" and reason in refused.value.detail, (action, refused.value.detail)
    assert ENGINE.view(state, 0) == before


def test_each_coach_takes_a_snitch_card_at_the_end_starting_with_the_last_to_play_a_block() -> None:
    """l.730–732 (the Game Sequence summary): a Snitch card each, from the Coach who finished Action Blocks last."""
    from menagerie.snitch.engine.model import SequenceStep, SnitchCardChoice

    for last in (0, 1):
        state = advance_until(new_match(14), lambda s: isinstance(top(s), PitchCards))
        state.decisions.clear()
        state.last_block_seat = last
        state.flow = [SequenceStep(stage="snitch")]
        ENGINE.advance(state, [])
        assert isinstance(top(state), SnitchCardChoice) and top(state).must == [last]
        ENGINE.apply(state, last, next(a for a in legal(state, last) if a.option == "keep"))
        while top(state).must == [last]:  # the rest of this Coach's card (none when kept)
            answer(state, lambda actions: actions[0])
        assert isinstance(top(state), SnitchCardChoice) and top(state).must == [1 - last]


# ------------------------------------------------------------------ Tactical play in the engine


def intrepid_offers(plays: list[bool]) -> tuple[SnitchState, list[int]]:
    """From step 3 with four plain Intrepid Moves in each hand: each asked Coach plays one (True) or declines."""
    from menagerie.snitch.engine.model import DeclineIntrepid, PlayIntrepid

    state = advance_until(new_match(5), lambda s: isinstance(top(s), IntrepidOffer))
    for coach in state.players:
        coach.hand = [c.id for c in ENGINE.decks.deck(coach.house) if c.intrepid and c.intrepid.swift is None][:4]
    asked = []
    for play in plays:
        assert isinstance(top(state), IntrepidOffer)
        seat = top(state).must[0]
        asked.append(seat)
        choice = next(a for a in legal(state, seat) if isinstance(a, PlayIntrepid)) if play else DeclineIntrepid()
        ENGINE.apply(state, seat, choice)
    return state, asked


def test_intrepid_offers_alternate_from_the_attacker_up_to_two_each() -> None:
    """l.285: "Starting with the Attacking Team and then alternating ... Each Coach may play up to two"."""
    state, asked = intrepid_offers([True, True, True, True])
    a, d = state.attacking, 1 - state.attacking
    assert asked == [a, d, a, d] and [seat for seat, _ in state.intrepid_plays] == [a, d, a, d]
    assert not isinstance(top(state), IntrepidOffer), "both at the limit of two (l.434)"


def test_a_coach_who_declines_intrepid_moves_is_done_and_the_other_goes_on_alone() -> None:
    """l.434: both Coaches "must declare whether they want to play Intrepid Moves during that Game Sequence"."""
    state, asked = intrepid_offers([False, True, True])
    a, d = state.attacking, 1 - state.attacking
    assert asked == [a, d, d] and [seat for seat, _ in state.intrepid_plays] == [d, d]
    assert not isinstance(top(state), IntrepidOffer)
    state, asked = intrepid_offers([True, False, True])
    assert asked == [a, d, a] and [seat for seat, _ in state.intrepid_plays] == [a, a]
    assert not isinstance(top(state), IntrepidOffer)


def test_a_block_starts_with_the_actions_printed_on_its_card() -> None:
    """l.315: "Action Blocks must be resolved in the order in which they appear on the Tactical card"."""
    state = advance_until(new_match(2), lambda s: isinstance(top(s), BlockAction))
    seat = state.block_seat
    assert seat is not None and state.block_index == 0 and state.block_performed == 0
    card = ENGINE.card(state, seat, state.players[seat].pitch_card or 1)
    assert state.block_remaining == list(card.blocks[0])


def block_position(remaining: list[PitchAction], stunned: dict[PlayerRef, int] | None = None) -> SnitchState:
    """Seat 0 attacks, its Chaser 3 holds the Quaffle beside Chaser 4, and its block has `remaining` left."""
    from menagerie.snitch.engine.model import ContinueBlock

    state = exchange_position()
    zone = "west_centre"
    holder = PlayerRef(0, 3)
    state.layout = state.layout.moved(holder, zone).moved(PlayerRef(0, 4), zone).with_quaffle(holder)
    state.attacking = 0
    state.block_seat, state.block_index, state.block_optional = 0, 0, False
    state.block_remaining, state.block_performed = list(remaining), 0
    for player, tokens in (stunned or {}).items():
        state.players[player.team].team[player.index].stunned = tokens
    state.flow.append(ContinueBlock())
    ENGINE.advance(state, [])
    return state


def test_every_performable_action_of_a_block_must_be_performed_in_any_order() -> None:
    """l.315: "You must perform all the Actions listed in an Action Block" — in any order within it."""
    from menagerie.snitch.engine.model import Move

    state = block_position(["shoot", "move", "pass"])
    assert ENGINE.block_choices(state) == ["move", "pass"], "no Shoot outside the Scoring Area; the Coach picks"
    assert DeclineBlock() not in legal(state, 0)
    ENGINE.apply(state, 0, next(a for a in legal(state, 0) if isinstance(a, Move) and a.player == 5))
    assert isinstance(top(state), BlockAction) and state.block_remaining == ["shoot", "pass"]
    assert ENGINE.block_choices(state) == ["pass"]


def test_an_action_no_player_can_perform_is_skipped_and_ends_the_block() -> None:
    """RULES.md "Actions of a block": an Action no Player can perform (a Steal while Attacking, l.374) is skipped."""
    from menagerie.snitch.engine.model import BlockEnded, Move

    state = block_position(["steal", "move"])
    assert ENGINE.block_choices(state) == ["move"]
    events = ENGINE.apply(state, 0, next(a for a in legal(state, 0) if isinstance(a, Move) and a.player == 5))
    ended = next(e for e in events if isinstance(e, BlockEnded))
    assert (ended.seat, ended.skipped, ended.declined) == (0, ["steal"], False)
    assert state.block_seat is None and state.last_block_seat == 0


def test_played_cards_go_to_the_discard_pile_at_the_end_of_the_game_sequence() -> None:
    """l.552: "each Coach discards all their used Tactical cards in a separate face-up pile"."""
    from menagerie.snitch.engine.model import SequenceStep

    state = advance_until(new_match(4), lambda s: isinstance(top(s), PitchCards))
    state.decisions.clear()
    before = state.players[0]
    hand, discard = list(before.hand), list(before.discard)
    before.pitch_card, before.intrepids, before.hand = hand[0], hand[1:3], hand[3:]
    state.flow = [SequenceStep(stage="end")]
    ENGINE.advance(state, [])
    coach = state.players[0]
    assert coach.discard == [*discard, *hand[:3]], "the Pitch Actions card, then the Intrepid Moves"
    assert coach.pitch_card is None and coach.intrepids == [] and coach.hand == hand[3:]


def test_a_race_action_applies_fixed_successes_unrolled_and_a_roll_with_its_modifier() -> None:
    """l.590: Success symbols alone are applied without a roll; l.588: a (+)/(-) modifier adds to or takes from the
    roll (never below no Success)."""
    from menagerie.snitch.data.cards import Accelerate
    from menagerie.snitch.engine.model import ImpulseStep, RaceMoved

    for seed in range(6):
        state = advance_until(new_match(seed), lambda s: isinstance(top(s), PitchCards))
        state.decisions.clear()
        state.flow = [ImpulseStep(seat=0, steps=[Accelerate(successes=2)])]
        events: list[Any] = []
        ENGINE.advance(state, events)
        moved = [e for e in events if isinstance(e, RaceMoved)]
        assert [(m.step, m.successes) for m in moved] == [("accelerate", 2)]
        assert not any(type(e).__name__ == "DiceRolled" for e in events)

        state.decisions.clear()
        state.flow = [ImpulseStep(seat=0, steps=[Accelerate(modifier=-1)])]
        events = []
        ENGINE.advance(state, events)
        while state.exchange is not None:
            events += answer(
                state, lambda actions: next((a for a in actions if type(a).__name__ == "KeepRoll"), actions[0])
            )
        rolled = next(e for e in events if type(e).__name__ == "DiceRolled")
        moved = [e for e in events if isinstance(e, RaceMoved)]
        assert [(m.step, m.successes) for m in moved] == [("accelerate", max(0, rolled.successes - 1))]


def test_which_reactions_answer_which_roll() -> None:
    """l.400–412: Shoot — the Keeper's Catch; Steal — the Steal Reaction; Beat and a moving Bludger (l.532) —
    Manoeuvre or a Beater's Defense; Pass — none (l.356 names no Reaction). One Reaction at most (l.400)."""
    state = exchange_position()
    zone = "west_centre"
    area = ENGINE.pitch.half(state.layout.halves[1]).scoring_area
    state.layout = (
        state.layout.moved(PlayerRef(0, 3), zone)
        .moved(PlayerRef(0, 4), zone)
        .moved(PlayerRef(1, 3), zone)
        .moved(PlayerRef(1, 1), zone)
        .moved(PlayerRef(1, 0), area)
    )

    def answers(exchange: Exchange) -> set[tuple[int, str]]:
        return {(r.player, r.reaction) for r in ENGINE.reaction_options(state, exchange)}

    assert answers(Exchange(kind="pass", seat=0, actor=3, target_team=0, target=4)) == set()
    assert answers(Exchange(kind="steal", seat=0, actor=4, target_team=1, target=3)) == {(3, "steal_reaction")}
    hit = {(3, "manoeuvre"), (1, "defense")}
    assert answers(Exchange(kind="beat", seat=0, actor=1, target_team=1, target=3, bludger=0)) == hit
    assert answers(Exchange(kind="bludger", seat=0, target_team=1, target=3, bludger=0)) == hit
    assert answers(Exchange(kind="shoot", seat=0, actor=3)) == {(0, "catch")}
    state.layout = state.layout.moved(PlayerRef(1, 0), "east_centre")
    assert answers(Exchange(kind="shoot", seat=0, actor=3)) == set(), "no Keeper inside, no Catch (l.412)"


def test_recover_removes_a_stunned_token_from_one_of_ones_own_players() -> None:
    """l.388 "Remove a Stunned token from the Player card of one of your Players"; l.546 the Player Recovers."""
    state = block_position(["recover"], stunned={PlayerRef(0, 1): 1, PlayerRef(1, 3): 2})
    assert [a for a in legal(state, 0) if isinstance(a, Recover)] == [Recover(player=1)]
    ENGINE.apply(state, 0, Recover(player=1))
    assert state.players[0].team[1].stunned == 0 and state.players[1].team[3].stunned == 2


def test_a_locked_trait_re_roll_numbers_its_dice_from_one_as_every_other_re_roll() -> None:
    view = ENGINE.view(new_match(), 0)
    label = ENGINE.describe_action(view, UseTrait(dice=(0, 2)), Narrator(0, ["Ann", "Bob"]))
    assert label.text == "Use the roller's Locked Trait: re-roll dice 1, 3"
    assert label.code == "trait 1,3"
