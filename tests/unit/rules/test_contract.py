"""The contract's match configuration: modes, seat counts and options are validated."""

from __future__ import annotations

import pytest

from menagerie.rules.contract import GameInfo, MatchSetup, ModeInfo, OptionInfo
from menagerie.rules.errors import InvalidArgument


def test_game_info_validates_setups_and_fills_defaults() -> None:
    info = GameInfo("g", "G", (ModeInfo("m", "M", 2, 4, (OptionInfo("o", "O", ("a", "b"), "a"),)),))
    assert info.validate(MatchSetup("m", 3)) == {"o": "a"}
    assert info.validate(MatchSetup("m", 2, {"o": "b"})) == {"o": "b"}
    with pytest.raises(InvalidArgument, match="modes: m"):
        info.validate(MatchSetup("x", 3))
    with pytest.raises(InvalidArgument, match="2–4 seats, not 5"):
        info.validate(MatchSetup("m", 5))
    with pytest.raises(InvalidArgument, match="no option 'p'"):
        info.validate(MatchSetup("m", 3, {"p": "a"}))
    with pytest.raises(InvalidArgument, match="must be one of a, b"):
        info.validate(MatchSetup("m", 3, {"o": "c"}))
