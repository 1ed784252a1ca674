"""The Spectators optional rule (l.711–721), each test naming the line it checks.

A match of mode "advanced" with Spectators on: both Coaches take their House's basic Team
(and a bought Spectator where a test needs one), then play reaches the Action Blocks,
where a Coach may place a Spectator (authored: RULES.md "Spectators in play").
"""

from __future__ import annotations

from typing import Any

from menagerie.rules.contract import MatchSetup
from menagerie.snitch.data import FERVENT_FAN
from menagerie.snitch.engine.model import (
    BlockAction,
    ChooseFlag,
    ConfirmTeam,
    FreeAction,
    NoSpectator,
    PickForTeam,
    PlaySpectator,
    SnitchState,
    SpectatorPlayed,
    SpectatorWindow,
    StandCleared,
    TempoGained,
)
from menagerie.snitch.engine.rules import SnitchEngine

ENGINE = SnitchEngine()


def match(spectators: str = "on", bought: tuple[str, str] = ("", ""), seed: int = 3) -> SnitchState:
    """Gryffindor (seat 0) against Slytherin (seat 1), basic Teams plus the given bought Spectators; at a block."""
    state, _ = ENGINE.setup(MatchSetup("advanced", 2, {"funding": "5", "spectators": spectators}), seed)
    for seat, house in enumerate(("gryffindor", "slytherin")):
        ENGINE.apply(state, seat, PickForTeam(part="house", card=house))
        for player in ENGINE.data.players.lineup(house):  # type: ignore[arg-type]
            ENGINE.apply(state, seat, PickForTeam(part="player", card=player.id))
        for card in ENGINE.decks.deck(house):  # type: ignore[arg-type]
            ENGINE.apply(state, seat, PickForTeam(part="tactic", card=str(card.id)))
        if bought[seat]:
            ENGINE.apply(state, seat, PickForTeam(part="spectator", card=bought[seat]))
        ENGINE.apply(state, seat, ConfirmTeam())
    ENGINE.apply(state, 0, ChooseFlag(colour="scarlet"))
    ENGINE.apply(state, 1, ChooseFlag(colour="green"))
    return to_block(state)


def legal(state: SnitchState, seat: int) -> list[Any]:
    """The seat's legal actions (typed loosely: tests read their fields)."""
    return list(ENGINE.legal_actions(state, seat))


def to_block(state: SnitchState, seat: int | None = None) -> SnitchState:
    """Plays the first legal non-Spectator action until a block asks `seat` (any seat when None) for an Action."""
    for _ in range(3000):
        top = ENGINE.top(state)
        if isinstance(top, BlockAction) and (seat is None or top.must == [seat]):
            return state
        actor = ENGINE.to_act(state).seats()[0]
        plain = [a for a in legal(state, actor) if not isinstance(a, PlaySpectator)]
        ENGINE.apply(state, actor, plain[0])
    raise AssertionError("no block was reached")


def block_seat(state: SnitchState) -> int:
    top: Any = ENGINE.top(state)
    return int(top.must[0])


def test_without_the_optional_rule_there_is_no_stand_and_no_spectator() -> None:
    """l.711: Spectators are an optional rule."""
    state = match(spectators="off")
    assert state.stand == [] and state.players[0].spectators == []
    assert not [a for a in legal(state, block_seat(state)) if isinstance(a, PlaySpectator)]


def test_each_coach_has_a_fervent_fan_and_may_place_it_at_their_block() -> None:
    """l.699, l.717: "Both Coaches receive a Fervent Fan card for free"; l.715 the Stand's two Zones."""
    state = match()
    assert [s.zone for s in state.stand] == ["magic", "encouragement"]
    assert all(coach.spectators == [FERVENT_FAN] for coach in state.players)
    seat = block_seat(state)
    offered = {(a.card, a.zone) for a in legal(state, seat) if isinstance(a, PlaySpectator)}
    assert offered == {(FERVENT_FAN, "magic"), (FERVENT_FAN, "encouragement")}


def test_an_empty_zone_applies_the_first_effect_and_the_block_goes_on() -> None:
    """l.719: "When the Spectator is placed in an empty Zone, apply the first effect listed on the card." """
    state = match()
    seat = block_seat(state)
    events = ENGINE.apply(state, seat, PlaySpectator(card=FERVENT_FAN, zone="magic"))
    assert SpectatorPlayed(seat=seat, card=FERVENT_FAN, zone="magic", displaced="") in events
    assert any(isinstance(e, TempoGained) and e.seat == seat for e in events), "the Fervent Fan's first: 1 Tempo Point"
    assert isinstance(ENGINE.top(state), BlockAction) and ENGINE.top(state).must == [seat]  # type: ignore[union-attr]
    assert not [a for a in legal(state, seat) if isinstance(a, PlaySpectator)], "played once"
    view = ENGINE.view(state, 1 - seat)
    assert next((s.zone, s.seat, s.card) for s in view.stand) == ("magic", seat, FERVENT_FAN)


def test_a_rival_spectator_is_removed_and_the_second_effect_applies_never_onto_a_friend() -> None:
    """l.719: placed on a rival Spectator, "first remove it ... and apply the second listed effect instead";
    "You cannot place a Spectator in a Zone that already contains other friendly Spectator." """
    state = match(bought=("lee_jordan", "pansy_parkinson"))
    first = block_seat(state)
    ENGINE.apply(state, first, PlaySpectator(card=FERVENT_FAN, zone="encouragement"))
    own = {(a.card, a.zone) for a in legal(state, first) if isinstance(a, PlaySpectator)}
    assert own == set(), "the only Zone Lee Jordan may use holds a friendly Spectator"
    second = 1 - first
    to_block(state, second)
    offered = {(a.card, a.zone) for a in legal(state, second) if isinstance(a, PlaySpectator)}
    rival_bought = state.players[second].spectators[1]
    assert (rival_bought, "encouragement") in offered and (FERVENT_FAN, "magic") in offered
    events = ENGINE.apply(state, second, PlaySpectator(card=FERVENT_FAN, zone="encouragement"))
    assert SpectatorPlayed(seat=second, card=FERVENT_FAN, zone="encouragement", displaced=FERVENT_FAN) in events
    window = ENGINE.top(state)
    assert isinstance(window, SpectatorWindow) and window.must == [first], "the rival may answer before the free Move"
    ENGINE.apply(state, first, NoSpectator())
    assert isinstance(ENGINE.top(state), FreeAction) and ENGINE.top(state).action == "move", "its second: a free Move"  # type: ignore[union-attr]
    spot = next(s for s in state.stand if s.zone == "encouragement")
    assert (spot.seat, spot.card) == (second, FERVENT_FAN)


def test_a_hand_swap_clears_the_stand_and_spectators_may_be_played_again() -> None:
    """l.721: "When a Hand Swap happens, all the Spectator tokens are removed from the Spectator Stand." """
    state = match()
    seat = block_seat(state)
    ENGINE.apply(state, seat, PlaySpectator(card=FERVENT_FAN, zone="magic"))
    events: list[Any] = []
    for _ in range(5000):
        actor = ENGINE.to_act(state).seats()[0]
        plain = [a for a in legal(state, actor) if not isinstance(a, PlaySpectator)]
        events += ENGINE.apply(state, actor, plain[0])
        if any(isinstance(e, StandCleared) for e in events) or ENGINE.outcome(state) is not None:
            break
    assert any(isinstance(e, StandCleared) for e in events), "a Hand Swap came and cleared the Stand"
    assert all(spot.seat is None for spot in state.stand)
    assert all(coach.spectators_played == [] for coach in state.players)
