"""Build Your Team (mode "advanced"), rule by rule, each test naming the rulebook line it checks.

The team-building rules live in engine/roster.py; these tests drive them through the
engine as a client would: picks, refusals, the undo, confirming, the secret drafts, the
Flag colours and the Teams going on the table.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from menagerie.rules.contract import MatchSetup
from menagerie.rules.errors import IllegalAction
from menagerie.rules.events import project
from menagerie.snitch.data import FERVENT_FAN
from menagerie.snitch.engine import roster
from menagerie.snitch.engine.model import (
    ChooseFlag,
    ConfirmTeam,
    DropFromTeam,
    FlagChoice,
    KickOffBludger,
    PickForTeam,
    SnitchState,
    TeamBuilding,
    TeamChanged,
    TeamRevealed,
)
from menagerie.snitch.engine.rules import SnitchEngine

ENGINE = SnitchEngine()
CATALOGUE = ENGINE.catalogue


def legal(state: SnitchState, seat: int) -> list[Any]:
    """The seat's legal actions (typed loosely: tests read their fields)."""
    return list(ENGINE.legal_actions(state, seat))


def new_match(funding: str = "5", spectators: str = "off", seed: int = 1) -> SnitchState:
    state, events = ENGINE.setup(MatchSetup("advanced", 2, {"funding": funding, "spectators": spectators}), seed)
    assert events == []
    return state


def pick(state: SnitchState, seat: int, part: str, card: str) -> list[Any]:
    return ENGINE.apply(state, seat, PickForTeam(part=part, card=card))


def basic_team(state: SnitchState, seat: int, house: str) -> None:
    """Picks the House's first-game Team (l.207): its cost-0 Players and basic Tactical cards."""
    pick(state, seat, "house", house)
    for player in ENGINE.data.players.lineup(house):  # type: ignore[arg-type]
        pick(state, seat, "player", player.id)
    for card in ENGINE.decks.deck(house):  # type: ignore[arg-type]
        pick(state, seat, "tactic", str(card.id))


def refusal(state: SnitchState, seat: int, action: Any) -> IllegalAction:
    before = ENGINE.view(state, seat)
    with pytest.raises(IllegalAction) as error:
        ENGINE.apply(state, seat, action)
    assert ENGINE.view(state, seat) == before, "a refused action changes nothing"
    return error.value


def test_both_coaches_build_at_once_and_the_house_comes_first() -> None:
    """l.695: "Coaches then select their Team components"; a House's library and affiliations follow its choice."""
    state = new_match()
    assert isinstance(ENGINE.top(state), TeamBuilding) and ENGINE.to_act(state).must == (0, 1)
    assert {a.card for a in legal(state, 0)} == {"gryffindor", "slytherin", "ravenclaw", "hufflepuff"}
    error = refusal(state, 0, PickForTeam(part="player", card="oliver_wood"))
    assert error.rule == "Build Your Team" and "House first" in error.detail


def test_only_the_teams_listed_may_purchase_an_element() -> None:
    """l.701: "Some elements are restricted to certain Teams. Only the Teams listed may purchase these elements." """
    state = new_match()
    pick(state, 0, "house", "slytherin")
    error = refusal(state, 0, PickForTeam(part="player", card="oliver_wood"))
    assert "l.701" in error.detail
    offered = {a.card for a in legal(state, 0) if isinstance(a, PickForTeam) and a.part == "player"}
    assert "viktor_krum" in offered, "a Player affiliated to two Houses joins either"
    assert all("slytherin" in ENGINE.players_by_id[p].affiliation for p in offered)


def test_a_team_has_one_keeper_two_beaters_three_chasers_one_seeker() -> None:
    """l.698: "Teams must always have: 1 Keeper, 1 Seeker, 2 Beaters and 3 Chasers." """
    state = new_match(funding="15")
    pick(state, 0, "house", "gryffindor")
    pick(state, 0, "player", "oliver_wood")
    error = refusal(state, 0, PickForTeam(part="player", card="gryffindor_keeper"))
    assert "l.698" in error.detail
    assert ConfirmTeam() not in legal(state, 0)
    error = refusal(state, 0, ConfirmTeam())
    assert "beater" in error.detail


def test_no_two_of_the_same_model_and_unique_names_once_as_player_or_spectator() -> None:
    """l.221 (not more than one of the same model) and l.707 (a ✷ name once, as a Player or as a Spectator)."""
    state = new_match(funding="15", spectators="on")
    pick(state, 0, "house", "gryffindor")
    pick(state, 0, "player", "gryffindor_beater")
    pick(state, 0, "player", "gryffindor_beater")  # the box holds two Gryffindor Beater miniatures
    assert PickForTeam(part="player", card="ludo_bagman") not in legal(state, 0)
    pick(state, 0, "player", "harry_potter_seeker")
    error = refusal(state, 0, PickForTeam(part="player", card="harry_potter_veteran"))
    assert "l.698" in error.detail  # the Seeker slot is taken first; drop it to try the other Harry
    ENGINE.apply(state, 0, DropFromTeam(part="player", card="harry_potter_seeker"))
    state2 = new_match(funding="15", spectators="on")
    pick(state2, 1, "house", "hufflepuff")
    pick(state2, 1, "spectator", "cedric_diggory")
    error = refusal(state2, 1, PickForTeam(part="player", card="cedric_diggory"))
    assert "l.707" in error.detail and "Cedric Diggory" in error.detail


def test_the_funding_is_never_exceeded() -> None:
    """l.693: "You don't have to spend every Galleon, but you may never exceed the Funding value." """
    state = new_match(funding="3")
    pick(state, 0, "house", "slytherin")
    pick(state, 0, "player", "marcus_flint")  # 3 Galleons
    error = refusal(state, 0, PickForTeam(part="player", card="lucian_bole"))
    assert "Funding of 3" in error.detail and "l.693" in error.detail
    listed = legal(state, 0)
    assert all(CATALOGUE.library["slytherin"][int(a.card)].cost == 0 for a in listed if a.part == "tactic")
    assert ENGINE.view(state, 0).draft is not None and ENGINE.view(state, 0).draft.cost == 3  # type: ignore[union-attr]


def test_listed_picks_are_exactly_the_accepted_ones() -> None:
    """One home per rule: every listed pick is accepted, every card not listed is refused."""
    state = new_match(funding="5", spectators="on")
    pick(state, 0, "house", "ravenclaw")
    listed = {(a.part, a.card) for a in legal(state, 0) if isinstance(a, PickForTeam)}
    everything = [("player", p) for p in ENGINE.players_by_id] + [("spectator", s) for s in ENGINE.spectator_cards]
    everything += [("tactic", str(c.id)) for c in ENGINE.decks.library("ravenclaw")]
    for part, card in everything:
        problem = ENGINE.refusal(state, 0, PickForTeam(part=part, card=card))
        assert (problem is None) == ((part, card) in listed), (part, card, problem)


def test_the_fervent_fan_is_free_and_at_most_two_spectators_are_bought() -> None:
    """l.699: "each Coach receives a Fervent Fan card at no cost, and may purchase up to 2 additional Spectators"."""
    state = new_match(funding="15", spectators="on")
    pick(state, 0, "house", "ravenclaw")
    assert "l.699" in refusal(state, 0, PickForTeam(part="spectator", card=FERVENT_FAN)).detail
    pick(state, 0, "spectator", "luna_lovegood")
    pick(state, 0, "spectator", "filius_flitwick")
    assert "up to 2" in refusal(state, 0, PickForTeam(part="spectator", card="lee_jordan")).detail.replace(
        "at most 2", "up to 2"
    )
    off = new_match(funding="15", spectators="off")
    pick(off, 0, "house", "ravenclaw")
    assert "without the Spectators" in refusal(off, 0, PickForTeam(part="spectator", card="luna_lovegood")).detail


def test_only_the_last_pick_is_taken_back() -> None:
    """Authored (RULES.md "Build Your Team"): picks are undone last first, so the list of choices stays short."""
    state = new_match()
    pick(state, 0, "house", "gryffindor")
    pick(state, 0, "player", "gryffindor_keeper")
    pick(state, 0, "tactic", "3")
    assert [a for a in legal(state, 0) if isinstance(a, DropFromTeam)] == [DropFromTeam(part="tactic", card="3")]
    assert "last one is tactic 3" in refusal(state, 0, DropFromTeam(part="player", card="gryffindor_keeper")).detail
    ENGINE.apply(state, 0, DropFromTeam(part="tactic", card="3"))
    ENGINE.apply(state, 0, DropFromTeam(part="player", card="gryffindor_keeper"))
    ENGINE.apply(state, 0, DropFromTeam(part="house", card="gryffindor"))
    assert ENGINE.view(state, 0).draft == ENGINE.view(new_match(), 0).draft


def test_the_rival_never_sees_a_draft_nor_which_card_was_picked() -> None:
    """l.703 and the issue: the Teams are hidden from the rival until the match starts."""
    state = new_match(spectators="on")
    events = pick(state, 0, "house", "hufflepuff")
    events += pick(state, 0, "player", "tamsin_applebee")
    rival_before = ENGINE.view(new_match(spectators="on"), 1)
    assert ENGINE.view(state, 1) == rival_before, "seat 1's view is the same as if seat 0 had picked nothing"
    assert ENGINE.view(state, None).draft is None
    for event in events:
        assert isinstance(event, TeamChanged)
        assert project(event, 1).card is None and project(event, 1).part is None
        assert ENGINE.describe_event(project(event, 1), _narrator(1)) is None
        assert project(event, 0).card is not None


def _narrator(seat: int) -> Any:
    from menagerie.rules.text import Narrator

    return Narrator(seat, ["Ann", "Bob"])


def test_confirmed_teams_choose_flags_then_go_on_the_table_and_the_kick_off_begins() -> None:
    """l.703 "Once both Coaches have formed their Team, the game will start!"; l.460 Flag colours."""
    state = new_match(spectators="on")
    basic_team(state, 0, "gryffindor")
    basic_team(state, 1, "slytherin")
    ENGINE.apply(state, 1, ConfirmTeam())
    assert ENGINE.to_act(state).must == (0,), "seat 1 has formed its Team; seat 0 still builds"
    assert refusal(state, 1, DropFromTeam(part="tactic", card="15")).rule == "Turn order", "a formed Team is final"
    ENGINE.apply(state, 0, ConfirmTeam())
    assert isinstance(ENGINE.top(state), FlagChoice) and ENGINE.to_act(state).must == (0,)
    ENGINE.apply(state, 0, ChooseFlag(colour="green"))
    assert ChooseFlag(colour="green") not in legal(state, 1)
    assert "rival" in refusal(state, 1, ChooseFlag(colour="green")).detail
    events = ENGINE.apply(state, 1, ChooseFlag(colour="scarlet"))
    revealed = [e for e in events if isinstance(e, TeamRevealed)]
    assert [e.house for e in revealed] == ["gryffindor", "slytherin"]
    assert revealed[0].spectators == [FERVENT_FAN]
    assert isinstance(ENGINE.top(state), KickOffBludger)
    view = ENGINE.view(state, 1)
    assert next(c.name for c in view.coaches[0].cards) == "Gryffindor Keeper"
    assert view.coaches[0].flag == "green" and view.coaches[1].flag == "scarlet"
    assert view.coaches[0].deck_size == 10 and view.hand and all(c.seat == 1 for c in view.hand)


def test_a_bought_team_plays_its_own_players_and_library_cards() -> None:
    """l.693–699: the Team formed is the one that plays — its unique Players, its chosen 15 Tactical cards."""
    state = new_match(funding="15")
    pick(state, 0, "house", "gryffindor")
    for player in ["oliver_wood", "fred_weasley", "gryffindor_beater"]:
        pick(state, 0, "player", player)
    for player in ["angelina_johnson", "gryffindor_chaser", "gryffindor_chaser", "harry_potter_seeker"]:
        pick(state, 0, "player", player)
    expensive = [c.id for c in ENGINE.decks.library("gryffindor") if c.cost > 0][:3]
    for card in [*expensive, *range(1, 13)]:
        pick(state, 0, "tactic", str(card))
    cost = roster.cost(CATALOGUE, state.players[0].draft)  # type: ignore[arg-type]
    assert cost <= 15 and ENGINE.view(state, 0).draft.missing == ""  # type: ignore[union-attr]
    basic_team(state, 1, "slytherin")
    for seat in (0, 1):
        ENGINE.apply(state, seat, ConfirmTeam())
    ENGINE.apply(state, 0, ChooseFlag(colour="scarlet"))
    ENGINE.apply(state, 1, ChooseFlag(colour="green"))
    coach = state.players[0]
    assert coach.lineup == [
        "oliver_wood",
        "fred_weasley",
        "gryffindor_beater",
        "angelina_johnson",
        "gryffindor_chaser",
        "gryffindor_chaser",
        "harry_potter_seeker",
    ]
    assert sorted(coach.hand + coach.deck) == sorted([*expensive, *range(1, 13)])
    assert ENGINE.view(state, 1).coaches[0].cards[0].trait.startswith("Locked")


def _open(state: SnitchState, seat: int) -> list[str]:
    """The requirements the seat's draft does not meet yet, in the view's words."""
    draft = ENGINE.view(state, seat).draft
    assert draft is not None
    return [r.text for r in draft.requirements if not r.met]


def test_the_board_view_offers_exactly_the_legal_picks_with_galleons_left_and_open_requirements() -> None:
    """The team-building board reads the view: Galleons left (l.693), the checklist (l.697–707), the cards on offer."""
    state = new_match(funding="5", spectators="on")
    rng = random.Random(7)
    open_counts = [len(_open(state, 0))]
    while not state.players[0].draft.ready:  # type: ignore[union-attr]
        draft = ENGINE.view(state, 0).draft
        assert draft is not None
        picks = [a for a in legal(state, 0) if isinstance(a, PickForTeam)]
        assert [(o.part, o.card) for o in draft.offers] == [(a.part, a.card) for a in picks]
        assert draft.galleons_left == 5 - draft.cost
        assert all(o.cost <= draft.galleons_left and o.name and o.kind for o in draft.offers)
        assert (not _open(state, 0)) == (draft.missing == "")
        if ConfirmTeam() in legal(state, 0):
            ENGINE.apply(state, 0, ConfirmTeam())
            break
        choice = rng.choice([a for a in picks if a.part != "spectator"] or picks)
        ENGINE.apply(state, 0, choice)
        open_counts.append(len(_open(state, 0)))
    assert open_counts[0] == 6 and open_counts[-1] == 0 and open_counts == sorted(open_counts, reverse=True)
    assert ENGINE.view(state, 0).draft.offers == []  # type: ignore[union-attr]


def test_the_checklist_names_the_unique_players_taken() -> None:
    """l.707: the ✷ names in the Team are listed; l.698 the Position slots count up as Players join."""
    state = new_match(funding="15")
    pick(state, 0, "house", "gryffindor")
    pick(state, 0, "player", "harry_potter_seeker")
    draft = ENGINE.view(state, 0).draft
    assert draft is not None
    by_text = {r.text.split(" (")[0]: r for r in draft.requirements}
    assert by_text["1 Seeker"].met and by_text["1 Seeker"].have == 1
    assert any("Harry Potter ✷ in the Team" in r.text for r in draft.requirements)
    assert all(o.name != "Harry Potter ✷" for o in draft.offers), "l.707: the other Harry is not offered"


def test_the_rival_sees_none_of_the_draft_checklist_offers_nor_galleons() -> None:
    """The secrecy of Build Your Team: a Coach's Galleons, checklist and offers are theirs alone."""
    state = new_match(funding="15", spectators="on")
    pick(state, 0, "house", "hufflepuff")
    pick(state, 0, "player", "cedric_diggory")
    fresh = new_match(funding="15", spectators="on")
    for match in (state, fresh):  # the rival's own offers are Slytherin's, so Hufflepuff's words are seat 0's
        pick(match, 1, "house", "slytherin")
    assert ENGINE.view(state, 1) == ENGINE.view(fresh, 1)
    assert ENGINE.view(state, None).draft is None
    rival_words = msgspec.json.encode(ENGINE.view(state, 1)).decode()
    for secret in ("Hufflepuff", "hufflepuff", "Cedric Diggory", "cedric_diggory"):
        assert secret not in rival_words, f"{secret} leaks into the rival's view"
    mine = ENGINE.view(state, 0).draft
    assert mine is not None and mine.galleons_left == 15 - mine.cost and mine.cost > 0
