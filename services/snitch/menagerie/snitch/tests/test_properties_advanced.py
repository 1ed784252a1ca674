"""Seeded random matches of mode "advanced" (Build Your Team), checking the engine contract throughout.

Each match starts with both Coaches building a random legal Team (random picks among the
listed ones, the last pick sometimes taken back) under a Funding of 0–15 Galleons, with
the Spectators rule on or off; then it plays to the end. The generic checks
(tests/support/rules_properties.py) hold at every step: listed actions are accepted and
others refused without a change, views, prompts and public events do not depend on
hidden cards (a rival's draft included), replays are identical, determinized states agree
with the seat's view (a rival's secret draft and deck drawn). Its own file, so the two
property runs go to different test workers.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from menagerie.rules.contract import MatchSetup
from menagerie.snitch.data import FERVENT_FAN, STAND_ZONES
from menagerie.snitch.engine import roster
from menagerie.snitch.engine.model import (
    ChooseFlag,
    ConfirmTeam,
    DropFromTeam,
    PickForTeam,
    PlaySpectator,
    SnitchState,
    TeamRevealed,
    UseTrait,
)
from menagerie.snitch.engine.rules import FUNDING_OPTIONS
from menagerie.snitch.tests.test_properties import ENGINE, PROPERTIES, candidates
from tests.support.rules_properties import EngineProperties, property_matches

CARDS = [*ENGINE.players_by_id, *ENGINE.spectator_cards, "gryffindor", "nobody", *map(str, range(0, 30))]


def advanced_candidates(state: SnitchState, seat: int, rng: random.Random) -> Iterator[object]:
    """The basic candidates, plus team-building, Flag, Trait and Spectator actions with random arguments."""
    yield from candidates(state, seat, rng)
    part = rng.choice([*roster.PARTS, "coach"])
    yield PickForTeam(part=part, card=rng.choice(CARDS))
    yield DropFromTeam(part=part, card=rng.choice(CARDS))
    yield ConfirmTeam()
    yield ChooseFlag(colour=rng.choice(["scarlet", "green", "blue", "yellow", "purple"]))
    yield UseTrait(dice=tuple(rng.sample(range(-1, 5), rng.randrange(0, 3))))
    yield PlaySpectator(card=rng.choice(CARDS), zone=rng.choice([*STAND_ZONES, "pitch"]))


ADVANCED = EngineProperties(
    engine=ENGINE,
    candidates=advanced_candidates,
    view_message=PROPERTIES.view_message,
)


# The 200 matches in shards, each a test of its own: the shards run on different workers.
SHARDS = 4


@pytest.mark.property
@pytest.mark.parametrize("shard", range(SHARDS))
def test_property_random_teams_under_any_funding_play_to_a_catch(shard: int) -> None:
    """Random legal Teams (Funding 0–15, Spectators on and off); every match ends with a catch."""
    spent: list[int] = []
    for n in range(shard, property_matches(), SHARDS):
        options = {"funding": FUNDING_OPTIONS[n % len(FUNDING_OPTIONS)], "spectators": ("off", "on")[n % 2]}
        log = ADVANCED.play(MatchSetup("advanced", 2, options), seed=19_000 + n)
        ADVANCED.check_replay(log)
        outcome = ENGINE.outcome(log.final)
        assert outcome is not None and len(outcome.winners()) == 1, outcome
        assert "caught the Golden Snitch" in outcome.reason
        teams = [e for e in log.events if isinstance(e, TeamRevealed)]
        assert len(teams) == 2
        for team in teams:
            coach = log.final.players[team.seat]
            assert coach.lineup == team.players
            pitch_card = [coach.pitch_card] if coach.pitch_card is not None else []
            draft = roster.Draft()
            roster.add(draft, "house", coach.house)
            for player in coach.lineup:
                roster.add(draft, "player", player)
            for tactic in sorted(coach.hand + coach.deck + coach.discard + coach.intrepids + pitch_card):
                roster.add(draft, "tactic", str(tactic))
            for spectator in coach.spectators:
                if spectator != FERVENT_FAN:
                    roster.add(draft, "spectator", spectator)
            limits = roster.Limits(funding=int(options["funding"]), spectators=options["spectators"] == "on")
            assert roster.complete_problem(ENGINE.catalogue, draft, limits) is None, "a legal Team played"
            spent.append(roster.cost(ENGINE.catalogue, draft))
    assert max(spent) > 0, "random Teams buy cards that cost Galleons"
