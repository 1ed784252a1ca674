"""The generic protobuf ⇄ engine-data translation."""

from __future__ import annotations

import pytest

from menagerie.beasts.engine.model import Action, Expelliarmus, Move, Roll
from menagerie.beasts.v1 import beasts_pb2
from menagerie.common.v1 import common_pb2
from menagerie.rules.contract import Outcome, SeatResult
from menagerie.rules.errors import InvalidArgument
from menagerie.shared import codec


def test_tagged_actions_round_trip() -> None:
    for action in (Roll(), Move(0), Move(17), Expelliarmus(2, "wild")):
        message = codec.tagged_to_message(beasts_pb2.Action, action)
        assert codec.decode_tagged(message, Action, "action") == action
    assert codec.tagged_to_message(beasts_pb2.Action, Move(0)).WhichOneof("kind") == "move"


def test_decoding_names_what_is_wrong() -> None:
    with pytest.raises(InvalidArgument, match="action is empty: set one of roll, move"):
        codec.decode_tagged(beasts_pb2.Action(), Action, "action")
    unset_colour = beasts_pb2.Action(expelliarmus=beasts_pb2.Expelliarmus(target_seat=1))
    with pytest.raises(InvalidArgument, match=r"action.expelliarmus: Object missing required field `colour`"):
        codec.decode_tagged(unset_colour, Action, "action")


def test_structs_fill_nested_messages_enums_and_optionals() -> None:
    outcome = Outcome(seats=[SeatResult(0, "win", 2.0, 1), SeatResult(1, "draw", 0.0, 2)], reason="r")
    message = codec.to_message(common_pb2.Outcome, outcome)
    assert [s.result for s in message.seats] == [common_pb2.RESULT_WIN, common_pb2.RESULT_DRAW]
    card = codec.to_message(beasts_pb2.CreatureCard, {"id": "niffler", "name": "Niffler", "captured_by": 0})
    assert card.HasField("captured_by") and card.captured_by == 0
    assert not card.HasField("face_up_on")


def test_unknown_fields_and_enum_values_fail_loudly() -> None:
    with pytest.raises(ValueError, match="no field"):
        codec.to_message(beasts_pb2.Move, {"too": 1})
    with pytest.raises(ValueError, match="no enum value"):
        codec.to_message(beasts_pb2.SpaceToken, {"state": "sideways"})
