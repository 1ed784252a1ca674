"""What the game host writes for a bot seat that must act (BotTurn): never more than the seat may see.

Every game's matches are played through a GameHost on a Redis of this module's own, all
seats bots, and after every move each bot turn the host wrote is compared with what the
seat's bot would be told by asking: GetView's view and ListLegalActions' actions (the host's
one view path, `sees`), at the same view version. Then the state is given a twin with
everything the seat cannot see shuffled among its hidden places (menagerie.rules.hidden,
as tests/unit/search/test_no_cheating.py does): the turn written from the twin is the same
bytes, so the turn tells nothing the seat's view does not (the state itself, the control,
differs between the twins).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from typing import Any, cast

import msgspec
import pytest
from redis.asyncio import Redis

from menagerie.rules import registry
from menagerie.rules.bots import policy_for
from menagerie.rules.hidden import permute_hidden
from menagerie.rules.rng import Rng
from menagerie.shared.bots import BotTurn, bot_turn_decoder
from menagerie.shared.games.host import GameHost
from menagerie.shared.games.terms import MatchRequest, Move, NoticeKind, SeatKind, SeatRequest
from menagerie.shared.store import MatchRecord, MatchStore, StoredEntry
from menagerie.shared.tokens import Principal, TokenSigner
from menagerie.shared.wakeups import StreamWakeups
from tests.support.keys import KEYS
from tests.support.redis_server import throwaway_redis

MOVES = 40  # per match: enough to reach each game's second phase of play
TWINS = 3  # hidden-place shuffles per written turn
encode = msgspec.msgpack.encode


@dataclass(frozen=True)
class Settings:
    """The settings the host reads (HostSettings), at GameServiceSettings' defaults."""

    default_turn_timer_seconds: int = 60
    seat_token_ttl_seconds: int = 3600
    bot_turn_deadline_seconds: int = 10
    match_retention_seconds: int = 3600


class Messages:
    """StoredMessages in msgpack: nothing here reads them."""

    def answer(self, version: int, view_version: int, entry: StoredEntry, shown: list[Any]) -> bytes:
        return encode([version, view_version])

    def notice(
        self, record: MatchRecord, kind: NoticeKind, seat: int | None = None, timeout_decision: bool = False
    ) -> bytes:
        return encode([record.match_id, record.version, str(kind)])


@pytest.fixture(scope="module")
def own_redis_url() -> Iterator[str]:
    with throwaway_redis() as (url, _kind):
        yield url


@dataclass
class Rig:
    store: MatchStore
    signer: TokenSigner
    redis: Redis

    def host(self, game: str) -> GameHost:
        wakeups = StreamWakeups(self.redis, self.redis)
        return GameHost(registry.engine(game), self.store, self.signer, Settings(), wakeups, Messages())

    def bot(self, match_id: str, seat: int, level: str) -> Principal:
        return self.signer.verify(self.signer.issue_seat(match_id, seat, f"bot:{level}", "Bot", 60, bot=True)[0])


@pytest.fixture
async def rig(own_redis_url: str) -> AsyncIterator[Rig]:
    redis = Redis.from_url(own_redis_url)
    store = MatchStore(redis, shards=2)
    yield Rig(store, KEYS.signer(), redis)
    store.close()
    with contextlib.suppress(asyncio.CancelledError):
        await redis.aclose()


async def written(rig: Rig, match_id: str) -> dict[int, bytes]:
    raw = cast("dict[bytes, bytes]", await rig.redis.hgetall(rig.store.keys(match_id).bot_turns))
    return {int(seat): turn for seat, turn in raw.items()}


def all_bots(game: str, mode: Any, level: str, match_id: str) -> MatchRequest:
    seats = [SeatRequest(s, SeatKind.BOT, bot_level=level) for s in range(max(2, mode.min_seats))]
    return MatchRequest(game, mode.mode, seats, match_id=match_id, seed=11)


def move_of(match_id: str, key: str, expected_version: int, action: Any) -> Move:
    return Move(match_id, key, expected_version, encode(action), lambda: action)


MODES = [
    pytest.param(game, mode, id=f"{game}-{mode.mode}")
    for game in registry.game_ids()
    for mode in registry.engine(game).info.modes
]


@pytest.mark.parametrize(("game", "mode"), MODES)
async def test_a_written_bot_turn_is_what_its_seat_is_told_and_nothing_hidden(rig: Rig, game: str, mode: Any) -> None:
    host = rig.host(game)
    engine = host.engine
    state_decoder = msgspec.msgpack.Decoder(engine.state_type)
    turn_decoder = bot_turn_decoder(engine.view_type, engine.action_type)
    match_id = f"turns-{game}-{mode.mode}"
    await host.create_match(
        rig.signer.verify(rig.signer.issue_service("tests", 60)[0]), all_bots(game, mode, "greedy", match_id)
    )
    rng = Rng(5, 0)
    hidden_seen = 0
    for _ in range(MOVES):
        record = (await host.get_match(match_id)).record
        turns = await written(rig, match_id)
        assert sorted(turns) == sorted(record.to_act), "one turn per bot seat to act, none for any other"
        if record.finished:
            break
        for seat, raw in turns.items():
            turn = turn_decoder.decode(raw)
            bot = rig.bot(match_id, seat, "greedy")
            told, legal = await host.get_view(bot, match_id), await host.list_legal_actions(bot, match_id)
            assert turn.view_version == told.view_version == legal.view_version == record.seat_versions[seat]
            assert turn.view == told.view and turn.actions == legal.actions
            for _ in range(TWINS):
                twin = state_decoder.decode(record.state)
                permute_hidden(twin, seat, rng)
                again = BotTurn(turn.view_version, engine.legal_actions(twin, seat), engine.view(twin, seat))
                assert encode(again) == raw, "the written turn depends on something the seat cannot see"
                hidden_seen += encode(twin) != record.state
        seat = record.to_act[0]
        turn = turn_decoder.decode(turns[seat])
        move = move_of(match_id, f"k{record.version}", turn.view_version, turn.actions[0])
        await host.submit_action(rig.bot(match_id, seat, "greedy"), move)
    assert hidden_seen, "no twin differed from its state: the check could not have failed"


@pytest.mark.parametrize("game", registry.game_ids())
async def test_a_level_that_reads_no_view_is_written_none(rig: Rig, game: str) -> None:
    """A level that decides from the legal actions alone is written no view (the game service spares itself one)."""
    host = rig.host(game)
    mode = host.engine.info.modes[0]
    service = rig.signer.verify(rig.signer.issue_service("tests", 60)[0])
    await host.create_match(service, all_bots(game, mode, "random", f"turns-random-{game}"))
    turns = await written(rig, f"turns-random-{game}")
    decoder = bot_turn_decoder(host.engine.view_type, host.engine.action_type)
    reads_view = policy_for(game, "random").needs_view
    assert turns
    for raw in turns.values():
        turn = decoder.decode(raw)
        assert turn.actions and (turn.view is not None) == reads_view
