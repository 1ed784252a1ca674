"""GetRules: each game's how-to-play in sections, from the same howto.toml `menagerie rules` prints (issue 30, item 5),
and its RULES.md's readings under their stable anchors (item 12).

Against the real game services: no token needed; every mode of every game has its page; the
sections' text is the terminal's text (one source); anchors are unique within a page; a
section about other modes only is left out; an unknown mode is refused naming the modes; the
readings are the RULES.md's sections; a refused move's error names its rule and the anchor of
a reading the page has, which reads that rule.
"""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from menagerie.beasts.v1 import beasts_pb2
from menagerie.cli.games import GAMES
from menagerie.common.v1 import matches_pb2
from menagerie.rules.registry import engine
from menagerie.shared.rpc.details import read_details
from tests.support.fixtures import GameClients
from tests.support.game_client import status_of

pytestmark = pytest.mark.integration
ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_mode_has_a_rules_page_from_the_terminals_text(game: str, game_client: GameClients) -> None:
    matches = game_client(game).matches
    text = GAMES[game].how_to_play()
    for mode in engine(game).info.modes:
        page = matches.GetRules(matches_pb2.GetRulesRequest(mode=mode.mode))
        assert (page.game, page.mode) == (game, mode.mode)
        assert page.title and page.title in text
        anchors = [s.anchor for s in page.sections]
        assert len(anchors) == len(set(anchors)) and "setup" in anchors and "how-to-win" in anchors
        for section in page.sections:
            assert section.heading in text
            for line in section.text.splitlines():
                assert line.strip() in text, (section.anchor, line)
    every = matches.GetRules(matches_pb2.GetRulesRequest())
    assert {s.anchor for s in every.sections} >= {s.anchor for s in page.sections}


def test_a_section_about_other_modes_is_left_out(game_client: GameClients) -> None:
    matches = game_client("beasts").matches
    capture = [s.heading for s in matches.GetRules(matches_pb2.GetRulesRequest(mode="capture")).sections]
    advanced = [s.heading for s in matches.GetRules(matches_pb2.GetRulesRequest(mode="advanced")).sections]
    assert "A turn (modes capture and training)" in capture and "A turn (mode advanced)" not in capture
    assert "A turn (mode advanced)" in advanced and "A turn (modes capture and training)" not in advanced


def test_an_unknown_mode_is_refused(game_client: GameClients) -> None:
    matches = game_client("zoo").matches
    code, message = status_of(lambda: matches.GetRules(matches_pb2.GetRulesRequest(mode="nope")))
    assert code == grpc.StatusCode.INVALID_ARGUMENT and "beginner" in message


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_page_carries_the_readings_of_rules_md(game: str, game_client: GameClients) -> None:
    matches = game_client(game).matches
    rules_md = (ROOT / "services" / game / "RULES.md").read_text(encoding="utf-8")
    for mode in engine(game).info.modes:
        readings = matches.GetRules(matches_pb2.GetRulesRequest(mode=mode.mode)).readings
        assert len(readings) > 3
        for reading in readings:
            assert reading.anchors[0] == reading.anchor and reading.heading and reading.text
            assert f'<a id="{reading.anchor}"></a>' in rules_md and reading.text.splitlines()[0] in rules_md
        anchors = [a for r in readings for a in r.anchors]
        assert len(anchors) == len(set(anchors))
        read = {rule for r in readings for rule in r.rules}
        assert "Turn order" in read and "End of the game" in read


def test_a_refused_move_names_a_rule_whose_reading_the_page_has(game_client: GameClients, service_token: str) -> None:
    client = game_client("beasts")
    match = client.create(service_token, mode="training", seats=2, seed=5)
    seat = client.summary(match.match_id, match.tokens[0]).to_act[0]
    version = client.legal(match.match_id, match.tokens[seat]).view_version
    move = beasts_pb2.Action(move=beasts_pb2.Move(to=1))  # before rolling: the rules refuse it
    with pytest.raises(grpc.RpcError) as refused:
        client.submit(match.match_id, match.tokens[seat], move, version)
    details = read_details(refused.value)
    assert (details.reason, details.rule, details.metadata["anchor"]) == ("MOVEMENT", "Movement", "rule-movement")
    page = client.matches.GetRules(matches_pb2.GetRulesRequest(mode="training"))
    [reading] = [r for r in page.readings if "rule-movement" in r.anchors]
    assert "Movement" in reading.rules and reading.heading.startswith("The board")
