"""Every authored Trait against its own text, and the Locked token (l.225–231, l.468).

Each unique Player of players.toml is put in a Team in place of the basic card of its
Position; the test then sets up a roll of the kind its Trait names and checks what the
Trait's text (`describe_trait`) says happens — against the same position with the basic
card, so only the Trait differs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from menagerie.rules.contract import MatchSetup
from menagerie.snitch.data import describe_trait
from menagerie.snitch.engine import traits
from menagerie.snitch.engine.model import (
    BlockAction,
    Exchange,
    ExchangeStep,
    HandSwapBonus,
    KeepRoll,
    LockedRemoved,
    NoReaction,
    React,
    RollWindow,
    SnitchState,
    TakeTempo,
    TempoGained,
    TraitUsed,
    UseTrait,
)
from menagerie.snitch.engine.pitch import PlayerRef
from menagerie.snitch.engine.rules import SnitchEngine

ENGINE = SnitchEngine()
UNIQUE = [p for p in ENGINE.data.players.players if p.cost > 0]
INDEX = {"keeper": 0, "beater": 1, "chaser": 3, "seeker": 6}
RACE = ("accelerate", "dodge", "glimpse", "obstruct")
ZONE = "west_centre"


def legal(state: SnitchState, seat: int) -> list[Any]:
    """The seat's legal actions (typed loosely: tests read their fields)."""
    return list(ENGINE.legal_actions(state, seat))


def position(seed: int = 2) -> SnitchState:
    """A basic match in its Action Blocks with nothing pending: a test sets a roll and runs it."""
    state, _ = ENGINE.setup(MatchSetup("basic", 2), seed)
    for _ in range(2000):
        if isinstance(ENGINE.top(state), BlockAction):
            break
        seat = ENGINE.to_act(state).seats()[0]
        ENGINE.apply(state, seat, legal(state, seat)[0])
    state.decisions.clear()
    state.flow.clear()
    state.attacking = 0
    return state


def with_player(state: SnitchState, card_id: str) -> int:
    """Puts the card in seat 0's lineup in place of the basic card of its Position; returns its index."""
    index = INDEX[ENGINE.players_by_id[card_id].position]
    state.players[0].lineup[index] = card_id
    return index


def roll_exchange(state: SnitchState, roll: str, index: int, fixed: int | None = None) -> Exchange:
    """Seat 0's Player `index` makes a roll of this kind (a Reaction: to a rival Action); the layout is set for it."""
    me, layout = PlayerRef(0, index), state.layout
    rival_area = ENGINE.pitch.half(layout.halves[1]).scoring_area
    if roll in RACE:
        return Exchange(kind="race", seat=0, race_step=roll, stage="aim", fixed=fixed)  # type: ignore[arg-type]
    if roll == "pass":
        state.layout = layout.moved(me, ZONE).moved(PlayerRef(0, 4 if index != 4 else 3), ZONE).with_quaffle(me)
        return Exchange(kind="pass", seat=0, actor=index, target_team=0, target=4 if index != 4 else 3, fixed=fixed)
    if roll == "shoot":
        away = PlayerRef(1, 0)
        state.layout = layout.moved(away, "east_centre").moved(me, rival_area).with_quaffle(me)
        return Exchange(kind="shoot", seat=0, actor=index, fixed=fixed)
    if roll == "steal":
        state.attacking = 1
        holder = PlayerRef(1, 3)
        state.layout = layout.moved(me, ZONE).moved(holder, ZONE).with_quaffle(holder)
        return Exchange(kind="steal", seat=0, actor=index, target_team=1, target=3, fixed=fixed)
    if roll == "beat":
        state.layout = layout.moved(me, ZONE).moved(PlayerRef(1, 3), ZONE).with_bludger(0, ZONE)
        return Exchange(kind="beat", seat=0, actor=index, target_team=1, target=3, bludger=0, fixed=fixed)
    assert roll == "catch", roll
    shooter = PlayerRef(1, 3)
    own_area = ENGINE.pitch.half(layout.halves[0]).scoring_area
    state.layout = layout.moved(me, own_area).moved(shooter, own_area).with_quaffle(shooter)
    return Exchange(kind="shoot", seat=1, actor=3)


def run(
    state: SnitchState, exchange: Exchange, choose: Callable[[int, list[Any]], Any], until: Callable[[], bool]
) -> list[Any]:
    """Runs the exchange and what follows, answering with `choose(seat, legal)`, until `until()` or nothing is asked."""
    events: list[Any] = []
    state.exchange = exchange
    state.flow.append(ExchangeStep())
    ENGINE.advance(state, events)
    for _ in range(200):
        if until() or ENGINE.top(state) is None:
            break
        seat = ENGINE.to_act(state).seats()[0]
        events += ENGINE.apply(state, seat, choose(seat, legal(state, seat)))
    return events


def catch_if_asked(seat: int, legal: list[Any]) -> Any:
    """Seat 0's Keeper Catches when asked; otherwise the first legal action that is not a Locked Trait."""
    catch = [a for a in legal if isinstance(a, React) and a.reaction == "catch"]
    plain = [a for a in legal if not isinstance(a, UseTrait)]
    return catch[0] if seat == 0 and catch else plain[0]


def own_window(state: SnitchState) -> Callable[[], bool]:
    return lambda: isinstance(ENGINE.top(state), RollWindow) and ENGINE.top(state).must == [0]  # type: ignore[union-attr]


def side_modifier(state: SnitchState, exchange: Exchange, roll: str) -> int:
    action, reaction = ENGINE.modifiers(state, exchange)
    return reaction if roll == "catch" else action


def test_every_unique_player_has_a_trait_of_a_known_kind() -> None:
    """l.225: "Traits are what make Players unique"; RULES.md lists the five kinds the engine implements."""
    assert UNIQUE and all(p.trait is not None for p in UNIQUE)
    assert {traits.kind(p.trait) for p in UNIQUE} == {"roll_bonus", "reroll", "tempo", "steady", "tough"}


LASTING = [p for p in UNIQUE if traits.kind(p.trait) == "roll_bonus" and not traits.is_locked(p.trait)]


@pytest.mark.parametrize("card", LASTING, ids=lambda p: p.id)
def test_a_lasting_roll_bonus_adds_to_every_such_roll(card: Any) -> None:
    """ "This Player adds 1 Success to every <roll> it makes" — against the basic card of its Position."""
    roll = card.trait.roll
    assert "adds 1" in describe_trait(card.trait)
    basic = position()
    plain = side_modifier(basic, roll_exchange(basic, roll, INDEX[card.position]), roll)
    state = position()
    index = with_player(state, card.id)
    assert side_modifier(state, roll_exchange(state, roll, index), roll) == plain + card.trait.amount


@pytest.mark.parametrize("card", [p for p in UNIQUE if traits.is_locked(p.trait)], ids=lambda p: p.id)
def test_a_locked_trait_is_used_once_after_its_roll_and_then_locked(card: Any) -> None:
    """l.229: "when the rule is used, you must place the Locked token on the card – the rule cannot be used again"."""
    roll, text = card.trait.roll, describe_trait(card.trait)
    assert text.startswith("Locked")
    state = position()
    index = with_player(state, card.id)
    exchange = roll_exchange(state, roll, index)
    run(state, exchange, catch_if_asked, own_window(state))
    assert own_window(state)(), f"seat 0 is asked after its {roll} roll"
    offered = [a for a in legal(state, 0) if isinstance(a, UseTrait)]
    before = side_modifier(state, exchange, roll)
    if traits.kind(card.trait) == "reroll":
        assert offered and max(len(a.dice) for a in offered) <= card.trait.dice, "up to N of its dice"
        events = ENGINE.apply(state, 0, max(offered, key=lambda a: len(a.dice)))
        assert any(e.kind == "dice_rerolled" for e in events)
    else:
        assert offered == [UseTrait()]
        events = ENGINE.apply(state, 0, UseTrait())
        assert side_modifier(state, exchange, roll) == before + card.trait.amount, text
    used = INDEX[card.position]
    assert any(isinstance(e, TraitUsed) and e.player == used for e in events)
    assert state.players[0].locked == [used]
    assert not [a for a in legal(state, 0) if isinstance(a, UseTrait)], "not again"
    assert ENGINE.view(state, 1).coaches[0].locked == [used], "the Locked token is on the table for all to see"
    ENGINE.apply(state, 0, KeepRoll())


@pytest.mark.parametrize("card", [p for p in UNIQUE if traits.kind(p.trait) == "tempo"], ids=lambda p: p.id)
def test_a_tempo_trait_gains_one_extra_point_on_its_success(card: Any) -> None:
    """ "Each time this Player successfully performs a <X> Action, gain 1 extra Tempo Point." """
    action = card.trait.on

    def tempo_points(card_id: str | None) -> int:
        state = position()
        index = with_player(state, card_id) if card_id else INDEX[card.position]
        events = run(state, roll_exchange(state, action, index, fixed=5), _take_tempo, lambda: False)
        return sum(1 for e in events if isinstance(e, TempoGained) and e.seat == 0)

    assert tempo_points(card.id) == tempo_points(None) + 1


def _take_tempo(seat: int, legal: list[Any]) -> Any:
    """The rival does not react; seat 0 takes its Tempo Point; otherwise the first plain choice."""
    plain = [a for a in legal if not isinstance(a, UseTrait)]
    for wanted in (TakeTempo(), NoReaction()):
        if wanted in plain:
            return wanted
    return plain[0]


@pytest.mark.parametrize("card", [p for p in UNIQUE if traits.kind(p.trait) == "steady"], ids=lambda p: p.id)
def test_a_steady_player_ignores_disadvantage_on_its_rolls(card: Any) -> None:
    """ "This Player ignores Disadvantage and Severe Disadvantage on its rolls" (over l.419–420, as l.225 allows)."""

    def crowded(card_id: str | None) -> int:
        state = position()
        index = with_player(state, card_id) if card_id else INDEX[card.position]
        exchange = roll_exchange(state, "pass", index)
        target = exchange.target
        for team, player in [(0, p) for p in range(6) if p not in (index, target)] + [(1, 0), (1, 3)]:
            state.layout = state.layout.moved(PlayerRef(team, player), "west_north" if team == 0 else "east_north")
        for rival in (1, 2, 4, 5):  # four rivals against the passer and its target: a Severe Disadvantage
            state.layout = state.layout.moved(PlayerRef(1, rival), ZONE)
        return side_modifier(state, exchange, "pass")

    assert crowded(None) == -2 and crowded(card.id) == 0


@pytest.mark.parametrize("card", [p for p in UNIQUE if traits.kind(p.trait) == "tough"], ids=lambda p: p.id)
def test_a_tough_player_loses_at_most_one_to_stunned_tokens(card: Any) -> None:
    """ "Stunned tokens deduct at most 1 Success or Opportunity from this Player's rolls" (overriding l.544's 3)."""

    def stunned(card_id: str | None) -> int:
        state = position()
        index = with_player(state, card_id) if card_id else INDEX[card.position]
        exchange = roll_exchange(state, "pass", index)
        state.players[0].team[index].stunned = 3
        return side_modifier(state, exchange, "pass")

    assert stunned(None) == -3 and stunned(card.id) == -1


def test_the_rivals_hand_swap_removes_all_locked_tokens() -> None:
    """l.468: "When your rival makes a Hand Swap, you may immediately remove ... all Locked tokens"."""
    state = position()
    state.players[0].locked = [0, 6]
    events: list[Any] = []
    state.flow.append(HandSwapBonus(seat=0))
    ENGINE.advance(state, events)
    assert state.players[0].locked == []
    assert any(isinstance(e, LockedRemoved) and e.players == [0, 6] for e in events)
