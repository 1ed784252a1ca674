"""GameHost without protobuf: a Zoo match played through the host on a real Redis.

The host speaks engine and store types (menagerie.shared.games.terms); the only wire
format it needs, for what the store keeps for other readers, is handed to it
(StoredMessages). Here that is msgpack, written in this file, so nothing protobuf is
involved; a child process shows that importing the host loads no protobuf module.
The match runs on a Redis server of this module's own: its turn notices are not
protobuf, and the session's server has readers that parse every notice.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any

import msgspec
import pytest
from redis.asyncio import Redis

from menagerie.rules import registry
from menagerie.rules.contract import MatchSetup
from menagerie.rules.errors import Aborted, IllegalAction, InvalidArgument, NotFound, PermissionDenied
from menagerie.rules.events import project
from menagerie.shared.games.host import GameHost
from menagerie.shared.games.terms import MatchRequest, Move, NoticeKind, PageRequest, SeatKind, SeatRequest, WatchUpdate
from menagerie.shared.store import DecisionCount, MatchRecord, MatchStore, StoredEntry
from menagerie.shared.tokens import Principal, TokenSigner
from menagerie.shared.wakeups import StreamWakeups
from tests.support.keys import KEYS
from tests.support.redis_server import throwaway_redis

SEED = 7
ENGINE = registry.engine("zoo")
encode = msgspec.msgpack.encode


@dataclass(frozen=True)
class Settings:
    """The four settings the host reads (HostSettings), at GameServiceSettings' defaults."""

    default_turn_timer_seconds: int = 60
    seat_token_ttl_seconds: int = 3600
    bot_turn_deadline_seconds: int = 10
    match_retention_seconds: int = 3600


class Answer(msgspec.Struct):
    """A submit's answer as this test records it."""

    version: int
    view_version: int
    entry_version: int
    events: list[ENGINE.event_type]  # type: ignore[name-defined]


class MsgpackMessages:
    """StoredMessages in msgpack: what this test's store keeps, with no protobuf anywhere."""

    def __init__(self) -> None:
        self.notices: list[tuple[str, int, NoticeKind]] = []

    def answer(self, version: int, view_version: int, entry: StoredEntry, shown: list[Any]) -> bytes:
        return encode(Answer(version, view_version, entry.version, shown))

    def notice(
        self, record: MatchRecord, kind: NoticeKind, seat: int | None = None, timeout_decision: bool = False
    ) -> bytes:
        self.notices.append((record.match_id, record.version, kind))
        return encode([record.match_id, record.version, str(kind), record.to_act])


def read_answer(raw: bytes) -> Answer:
    return msgspec.msgpack.decode(raw, type=Answer)


@pytest.fixture(scope="module")
def own_redis_url() -> Iterator[str]:
    with throwaway_redis() as (url, _kind):
        yield url


@dataclass
class Rig:
    host: GameHost
    signer: TokenSigner
    messages: MsgpackMessages

    def service(self) -> Principal:
        return self.signer.verify(self.signer.issue_service("tests", 60)[0])


@pytest.fixture
async def rig(own_redis_url: str) -> AsyncIterator[Rig]:
    redis = Redis.from_url(own_redis_url)
    reader = Redis.from_url(own_redis_url)
    store = MatchStore(redis, shards=2)
    wakeups = StreamWakeups(reader, redis)
    follow = asyncio.create_task(wakeups.run(asyncio.Event()))
    signer = KEYS.signer()  # the tests' issuer: seats, players and service credentials
    messages = MsgpackMessages()
    yield Rig(GameHost(ENGINE, store, signer, Settings(), wakeups, messages), signer, messages)
    follow.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await follow
    await wakeups.close()  # and its reader's connection
    store.close()
    await redis.aclose()


def two_humans(match_id: str) -> MatchRequest:
    seats = [SeatRequest(0, SeatKind.HUMAN, "p0", "Ada"), SeatRequest(1, SeatKind.HUMAN, "p1", "Bo")]
    return MatchRequest("zoo", "beginner", seats, match_id=match_id, seed=SEED)


def move(match_id: str, key: str, expected_version: int, action: Any) -> Move:
    return Move(match_id, key, expected_version, encode(action), lambda: action)


def test_importing_the_host_loads_no_protobuf() -> None:
    """In a fresh interpreter (this one has the test plugins' gRPC stubs loaded)."""
    probe = (
        "import sys, menagerie.shared.games.host\n"
        "print(sorted(m for m in sys.modules if m.startswith(('google', 'grpc')) or m.endswith('_pb2')))"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


async def test_views_actions_and_a_move_in_engine_types(rig: Rig) -> None:
    created = await rig.host.create_match(rig.service(), two_humans("host-plain"))
    seat0, seat1 = (rig.signer.verify(t.token) for t in created.seat_tokens)
    assert [t.seat for t in created.seat_tokens] == [0, 1]
    assert created.match.record.version == 1 and created.match.record.to_act == [0, 1]
    assert rig.messages.notices == [("host-plain", 1, NoticeKind.CREATED)]

    # The same state the host set up, to compare with: the engine's own answers are the host's.
    state, _ = ENGINE.setup(MatchSetup("beginner", 2, {}), SEED)
    mine = await rig.host.get_view(seat0, "host-plain")
    assert mine.view == ENGINE.view(state, 0) and mine.view_version == 1
    assert mine.prompt and {d.seat for d in mine.clock.deadlines} == {0, 1}
    theirs = await rig.host.get_view(seat1, "host-plain")
    assert theirs.view == ENGINE.view(state, 1) and theirs.view != mine.view

    legal = await rig.host.list_legal_actions(seat0, "host-plain")
    assert legal.actions == ENGINE.legal_actions(state, 0)
    assert len(legal.labels) == len(legal.actions) and all(label.text for label in legal.labels)

    chosen = legal.actions[0]
    answer = await rig.host.submit_action(seat0, move("host-plain", "k1", 1, chosen))
    events = ENGINE.apply(state, 0, chosen)
    recorded = read_answer(answer)
    assert (recorded.version, recorded.entry_version) == (2, 2)
    assert recorded.events == [project(event, 0) for event in events]
    assert rig.messages.notices[-1] == ("host-plain", 2, NoticeKind.TURN)
    # A retry gets the recorded answer, byte for byte; the key with another action is refused.
    assert await rig.host.submit_action(seat0, move("host-plain", "k1", 1, chosen)) == answer
    with pytest.raises(InvalidArgument, match="already used for a different move"):
        await rig.host.submit_action(seat0, move("host-plain", "k1", 1, legal.actions[1]))
    match = await rig.host.get_match("host-plain")
    assert match.record.version == 2 and match.record.decision_counts()[0] == DecisionCount(by_player=1)


async def test_refusals_are_the_platforms_errors(rig: Rig) -> None:
    created = await rig.host.create_match(rig.service(), two_humans("host-refusals"))
    seat0 = rig.signer.verify(created.seat_tokens[0].token)
    with pytest.raises(NotFound):
        await rig.host.get_match("host-refusals-not-there")
    with pytest.raises(PermissionDenied):
        await rig.host.create_match(seat0, two_humans("host-refusals-2"))
    unspecified = [SeatRequest(0, SeatKind.UNSPECIFIED, "p0"), SeatRequest(1, SeatKind.BOT)]
    with pytest.raises(InvalidArgument, match="kind must be HUMAN or BOT"):
        await rig.host.create_match(rig.service(), MatchRequest("zoo", "beginner", unspecified))
    legal = await rig.host.list_legal_actions(seat0, "host-refusals")
    with pytest.raises(Aborted):
        await rig.host.submit_action(seat0, move("host-refusals", "k1", 5, legal.actions[0]))
    state, _ = ENGINE.setup(MatchSetup("beginner", 2, {}), SEED)
    illegal = next(a for a in ENGINE.legal_actions(state, 1) if a not in legal.actions)
    with pytest.raises(IllegalAction):
        await rig.host.submit_action(seat0, move("host-refusals", "k2", 1, illegal))


async def test_a_spectator_watches_projected_events(rig: Rig) -> None:
    created = await rig.host.create_match(rig.service(), two_humans("host-watch"))
    seat0 = rig.signer.verify(created.seat_tokens[0].token)
    spectator = rig.signer.verify(rig.signer.issue_player("p9", "Cy", 60)[0])
    updates = rig.host.watch(spectator, "host-watch", 0)
    try:
        first: WatchUpdate = await anext(updates)
        state, setup_events = ENGINE.setup(MatchSetup("beginner", 2, {}), SEED)
        assert first.version == 1 and first.view is not None and first.view.view == ENGINE.view(state, None)
        assert [shown.event for shown in first.events] == [project(event, None) for event in setup_events]
        assert all(shown.entry.version == 1 for shown in first.events)
        # The spectator sees that cards were dealt, never which.
        assert [shown.event for shown in first.events] != setup_events

        legal = await rig.host.list_legal_actions(seat0, "host-watch")
        await rig.host.submit_action(seat0, move("host-watch", "k1", 1, legal.actions[0]))
        moved = await anext(updates)
        played = ENGINE.apply(state, 0, legal.actions[0])
        assert moved.version == 2 and moved.view is not None and moved.view.view == ENGINE.view(state, None)
        assert [shown.event for shown in moved.events] == [project(event, None) for event in played]
        assert all(shown.text for shown in moved.events)
    finally:
        await updates.aclose()


def bot_of(rig: Rig, match_id: str, seat: int) -> Principal:
    """A bot's token for `seat`, as the bot pool signs it."""
    return rig.signer.verify(rig.signer.issue_seat(match_id, seat, "bot:greedy", "Bot", 60, bot=True)[0])


async def test_a_left_seat_is_played_by_a_bot_at_once_until_its_player_returns(rig: Rig) -> None:
    created = await rig.host.create_match(rig.service(), two_humans("host-leave"))
    seat0, seat1 = (rig.signer.verify(t.token) for t in created.seat_tokens)
    bot0 = bot_of(rig, "host-leave", 0)
    before = (await rig.host.get_match("host-leave")).record
    assert before.to_act == [0, 1] and before.deadline_of(0) is not None
    legal = await rig.host.list_legal_actions(seat0, "host-leave")
    # The seat's person has not left: a bot may not decide for it before its timer runs out.
    with pytest.raises(PermissionDenied):
        await rig.host.submit_action(bot0, move("host-leave", "bot-early", 1, legal.actions[0]))
    with pytest.raises(PermissionDenied):
        await rig.host.change_seat(bot0, "host-leave", away=True)

    left = (await rig.host.change_seat(seat0, "host-leave", away=True)).record
    assert left.away == [0] and left.version == before.version and left.live
    # The seat's deadline is now the bot's recovery timer (10 s), not the person's turn timer (60 s).
    deadline = left.deadline_of(0)
    assert deadline is not None and deadline.deadline_ms < before.deadline_of(0).deadline_ms - 40_000  # type: ignore[union-attr]
    assert rig.messages.notices[-1] == ("host-leave", 1, NoticeKind.TURN)  # the dispatcher hears of it at once
    assert (await rig.host.change_seat(seat0, "host-leave", away=True)).record.seating == left.seating  # no change

    await rig.host.submit_action(bot0, move("host-leave", "bot-1", 1, legal.actions[0]))
    played = (await rig.host.get_match("host-leave")).record
    assert played.version == 2 and played.decision_counts()[0] == DecisionCount(by_player=1)  # the seat's own
    updates = rig.host.watch(seat0, "host-leave", 1)
    try:
        note = (await anext(updates)).timeout
    finally:
        await updates.aclose()
    assert note is not None and note.text.startswith("A bot plays your seat while you are away; it chose: ")

    # Another replica of the game service still has the record from before the return cached:
    # the bot's move it tries on it meets the seating check, and then the person's timer.
    other = GameHost(ENGINE, rig.host.store, rig.signer, Settings(), rig.host.wakeups, rig.messages)
    theirs = await rig.host.list_legal_actions(seat1, "host-leave")
    await rig.host.submit_action(seat1, move("host-leave", "p1-1", theirs.view_version, theirs.actions[0]))
    again = await rig.host.get_match("host-leave")
    assert 0 in again.record.to_act, again.record.to_act
    version = again.record.seat_versions[0]
    bot_choice = (await rig.host.list_legal_actions(seat0, "host-leave")).actions[0]
    back = (await other.change_seat(seat0, "host-leave", away=False)).record
    assert back.away == [] and back.seating == left.seating + 1
    with pytest.raises(PermissionDenied):
        await rig.host.submit_action(bot0, move("host-leave", "bot-2", version, bot_choice))
    await rig.host.submit_action(seat0, move("host-leave", "p0-2", version, bot_choice))
    assert (await rig.host.get_match("host-leave")).record.decision_counts()[0] == DecisionCount(by_player=2)


async def test_a_match_every_person_left_is_not_listed_as_live(rig: Rig) -> None:
    created = await rig.host.create_match(rig.service(), two_humans("host-abandoned"))
    seat0, seat1 = (rig.signer.verify(t.token) for t in created.seat_tokens)
    listed = {m.record.match_id for m in (await rig.host.list_matches(PageRequest(100, live_only=True))).matches}
    assert "host-abandoned" in listed
    await rig.host.change_seat(seat0, "host-abandoned", away=True)
    assert (await rig.host.get_match("host-abandoned")).record.live  # one person still plays
    await rig.host.change_seat(seat1, "host-abandoned", away=True)
    assert (await rig.host.get_match("host-abandoned")).record.abandoned
    live = {m.record.match_id for m in (await rig.host.list_matches(PageRequest(100, live_only=True))).matches}
    everything = {m.record.match_id for m in (await rig.host.list_matches(PageRequest(100))).matches}
    assert "host-abandoned" not in live and "host-abandoned" in everything
