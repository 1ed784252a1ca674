"""docs/clients.md's Python example runs against a real Beasts service and prints what the page says it prints."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from tests.support.game_client import GameClient
from tests.support.services import ServiceProcess

pytestmark = pytest.mark.integration

PAGE = Path(__file__).resolve().parents[2] / "docs" / "clients.md"


def blocks_after(heading: str) -> list[str]:
    """The fenced code blocks of the section that starts at `heading`, in order."""
    text = PAGE.read_text(encoding="utf-8")
    section = text.split(heading, 1)[1].split("\n#", 1)[0]
    return re.findall(r"```[a-z]*\n(.*?)```", section, flags=re.DOTALL)


def test_the_python_example_decodes_a_refused_move(
    beasts: GameClient, game_services: Mapping[str, ServiceProcess], service_token: str
) -> None:
    example, printed = blocks_after("### Reading the details in Python")[:2]
    match = beasts.create(service_token, mode="training", seats=3, seed=5)
    seat = beasts.summary(match.match_id, match.tokens[0]).to_act[0]
    names = {"endpoint": game_services["beasts"].address, "match_id": match.match_id, "seat_token": match.tokens[seat]}
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(compile(example, str(PAGE), "exec"), dict(names))  # the page's own example, as a reader runs it
    assert output.getvalue() == printed
