"""The shared engine contract: event redaction, seat effects, mode validation."""

from __future__ import annotations

import pytest

from menagerie.rules.contract import GameInfo, MatchSetup, ModeInfo, OptionInfo
from menagerie.rules.errors import InvalidArgument
from menagerie.shared.engine import Event, project_event, seats_affected


def test_project_event_adds_private_fields_only_for_their_seat() -> None:
    event = Event("drew", {"seat": 1}, private={1: {"card": "x"}})
    assert project_event(event, 1) == {"seat": 1, "card": "x"}
    assert project_event(event, 0) == {"seat": 1}
    assert project_event(event, None) == {"seat": 1}


def test_seats_affected_defaults_to_everyone() -> None:
    assert seats_affected([Event("a", affects=(2,)), Event("b", affects=(0,))], 4) == {0, 2}
    assert seats_affected([Event("a", affects=(2,)), Event("b")], 3) == {0, 1, 2}
    assert seats_affected([], 3) == set()


def test_game_info_validates_setups_and_fills_defaults() -> None:
    info = GameInfo("g", "G", (ModeInfo("m", "M", 2, 4, (OptionInfo("o", "O", ("a", "b"), "a"),)),))
    assert info.validate(MatchSetup("m", 3)) == {"o": "a"}
    assert info.validate(MatchSetup("m", 2, {"o": "b"})) == {"o": "b"}
    with pytest.raises(InvalidArgument, match="modes: m"):
        info.validate(MatchSetup("x", 3))
    with pytest.raises(InvalidArgument, match="2–4 seats, not 5"):
        info.validate(MatchSetup("m", 5))
