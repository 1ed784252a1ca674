"""The turn timer and the timeout bot's move as the terminal reads them from Watch responses.

The countdown is the deadline minus the server's time when the message was written,
counted down from the moment it arrived (a skewed client clock does not matter); only
the seat's own deadline counts. A move the timeout bot made is announced with the
server's sentence, or, from an event's header alone, with the seat's name.
"""

from __future__ import annotations

from menagerie.cli.play import clock_of, timeout_note
from menagerie.zoo.v1 import zoo_pb2

NAMES = {0: "Ann", 1: "Bob"}


def response_with_clock(seat: int, left_ms: int) -> zoo_pb2.WatchResponse:
    response = zoo_pb2.WatchResponse(version=4)
    response.clock.server_time.FromMilliseconds(1_000_000_000)  # far from this machine's clock
    deadline = response.clock.deadlines.add(seat=seat, seconds=60)
    deadline.deadline.FromMilliseconds(1_000_000_000 + left_ms)
    return response


def test_the_countdown_is_the_deadline_minus_the_servers_time() -> None:
    clock = clock_of(response_with_clock(1, 42_500), seat=1)
    assert clock is not None and clock.left == 42.5
    assert 0 < clock.remaining() <= 42.5


def test_only_the_seats_own_deadline_counts() -> None:
    assert clock_of(response_with_clock(0, 30_000), seat=1) is None
    assert clock_of(response_with_clock(0, 30_000), seat=None) is None
    assert clock_of(zoo_pb2.WatchResponse(version=4), seat=0) is None


def test_a_timeout_move_is_announced_with_the_servers_sentence() -> None:
    response = zoo_pb2.WatchResponse(version=5)
    response.timeout.seat = 0
    response.timeout.text = "Your turn timer ran out; a bot chose: Pick #7 Unicorn."
    assert timeout_note(response, NAMES) == "Your turn timer ran out; a bot chose: Pick #7 Unicorn."


def test_or_from_the_events_header_when_the_response_has_no_sentence() -> None:
    response = zoo_pb2.WatchResponse(version=5)
    event = response.events.add()
    event.header.seat = 1
    event.header.timeout_decision = True
    assert timeout_note(response, NAMES) == "Bob's turn timer ran out; a bot decided for them."
    assert timeout_note(zoo_pb2.WatchResponse(version=6), NAMES) == ""
