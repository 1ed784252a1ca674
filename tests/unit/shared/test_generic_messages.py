"""The generic envelope (menagerie.generic.v1): any engine's values as JSON, and back, exactly."""

from __future__ import annotations

import pytest

from menagerie.generic.v1 import generic_pb2
from menagerie.rules.contract import MatchSetup, Outcome, Prompt, SeatResult
from menagerie.rules.errors import InvalidArgument
from menagerie.shared.games.binding import GameBinding, binding
from menagerie.shared.games.messages import JsonMessages
from tests.unit.rules.toy import Add, Added, Finished, Shout, Toy, View


def test_a_game_without_a_proto_is_bound_to_the_generic_service() -> None:
    bound = GameBinding.for_engine(Toy())
    assert not bound.typed
    assert bound.service_name == "menagerie.generic.v1.Game"
    assert isinstance(bound.messages, JsonMessages)


def test_actions_and_views_go_through_json_and_come_back_equal() -> None:
    messages = GameBinding.for_engine(Toy()).messages
    for action in (Add(2), Shout()):
        message = messages.action(action)
        assert message.json.startswith("{")
        assert messages.action_value(message) == action
    view = View(count=7, my_token=42)
    message = messages.view(view)
    assert message.fields_json == '{"count":7,"my_token":42}'
    assert messages.view_value(message) == view


def test_the_typed_fields_of_a_view_are_the_common_messages() -> None:
    zoo = binding("zoo")
    generic = GameBinding.generic(zoo.engine)
    state, _ = zoo.engine.setup(MatchSetup("beginner", 2), 7)
    view = zoo.engine.view(state, 0)
    message = generic.messages.view(view)
    assert isinstance(view.prompt, Prompt)
    assert list(message.prompt.must) == view.prompt.must
    assert message.viewer == 0
    assert '"prompt"' not in message.fields_json
    assert generic.messages.view_value(message) == view


def test_events_carry_their_tag_and_their_fields() -> None:
    messages = GameBinding.for_engine(Toy()).messages
    event = messages.event(Added(seat=1, count=3))
    assert (event.kind, event.fields_json) == ("added", '{"seat":1,"count":3}')
    outcome = Outcome([SeatResult(0, "win"), SeatResult(1, "loss")], "reached the target")
    assert messages.event(Finished(outcome=outcome)).kind == "finished"


@pytest.mark.parametrize("text", ["", "{", '{"kind": "fly"}', '{"kind": "add", "amount": "two"}'])
def test_a_malformed_action_is_an_invalid_argument(text: str) -> None:
    messages = GameBinding.for_engine(Toy()).messages
    with pytest.raises(InvalidArgument):
        messages.action_value(generic_pb2.Action(json=text))
