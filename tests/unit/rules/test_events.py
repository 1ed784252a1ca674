"""Typed events: private fields declared in the type reach only their owners; view versions."""

from __future__ import annotations

from typing import Annotated

import pytest

from menagerie.rules.events import GameEvent, SeenBy, next_view_versions, private_fields, project, seats_affected
from tests.unit.rules.toy import Added, Dealt


class Shown(GameEvent, frozen=True, tag="shown"):
    seats: list[int]
    card: Annotated[int | None, SeenBy("seats")] = None


def test_a_private_field_reaches_only_its_owner() -> None:
    event = Dealt(seat=1, token=42)
    assert project(event, 1) == event
    assert project(event, 0) == Dealt(seat=1)
    assert project(event, None) == Dealt(seat=1)
    assert event.kind == "dealt"


def test_an_owner_field_may_name_several_seats() -> None:
    event = Shown(seats=[0, 2], card=7)
    assert project(event, 2).card == 7
    assert project(event, 1).card is None


def test_a_private_field_needs_a_blank_default() -> None:
    class Broken(GameEvent, frozen=True, tag="broken"):
        seat: int
        card: Annotated[int, SeenBy("seat")]

    with pytest.raises(TypeError, match="needs a default"):
        private_fields(Broken)


def test_events_concerning_one_seat_move_only_that_seats_view_version() -> None:
    assert seats_affected([Dealt(seat=2), Dealt(seat=0)], 4) == {0, 2}
    assert seats_affected([Dealt(seat=2), Added(seat=0, count=1)], 3) == {0, 1, 2}
    assert seats_affected([], 3) == set()
    versions = next_view_versions([3, 3, 3], 4, actor=0, events=[Dealt(seat=0)], to_act_before=[0], to_act_after=[0])
    assert versions == [4, 3, 3]
