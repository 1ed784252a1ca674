"""GetRules: each game's how-to-play in sections, from the same howto.toml `menagerie rules` prints (issue 30, item 5).

Against the real game services: no token needed; every mode of every game has its page; the
sections' text is the terminal's text (one source); anchors are unique within a page; a
section about other modes only is left out; an unknown mode is refused naming the modes.
"""

from __future__ import annotations

import grpc
import pytest

from menagerie.cli.games import GAMES
from menagerie.common.v1 import matches_pb2
from menagerie.rules.registry import engine
from tests.support.fixtures import GameClients
from tests.support.game_client import status_of

pytestmark = pytest.mark.integration


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
