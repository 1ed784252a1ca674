"""Load on one game service process: SubmitAction beside the health-check baseline."""

from __future__ import annotations

import asyncio
import itertools
import random
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import Any

import grpc
import msgspec
from grpc_health.v1 import health_pb2, health_pb2_grpc
from redis.asyncio import Redis

from bench.stats import Latencies
from menagerie.common.v1 import common_pb2, matches_pb2, matches_pb2_grpc
from menagerie.rules.contract import MatchSetup
from menagerie.rules.events import next_view_versions
from menagerie.shared import codec
from menagerie.shared.games.binding import GameBinding, binding
from menagerie.shared.store import MatchStore
from tests.support.keys import KEYS
from tests.support.services import ServiceProcess, game_process, service_process

Auth = tuple[tuple[str, str], ...]

# A bench client plays one seat far faster than a person and registers thousands of players
# from one host: the per-caller quotas (menagerie.shared.rpc.quotas) stay in the path, set out of reach.
UNLIMITED = {
    "MENAGERIE_RATE_LIMIT_PER_SECOND": "1000000",
    "MENAGERIE_RATE_LIMIT_BURST": "1000000",
    "MENAGERIE_GUESTS_PER_MINUTE": "0",  # the lobby's load registers thousands of players from one address
}


def start_games(stack: ExitStack, redis_url: str, games: Iterable[str]) -> tuple[dict[str, ServiceProcess], str]:
    """Each game's service in its own process (quotas out of reach) until `stack` closes; and their endpoints."""
    services = {game: stack.enter_context(game_process(game, redis_url, KEYS, **UNLIMITED)) for game in games}
    return services, ",".join(f"{game}={service.address}" for game, service in services.items())


@dataclass(frozen=True)
class GameLoad:
    """Which matches the load plays."""

    binding: GameBinding
    mode: str
    seats: int
    options: dict[str, str] = field(default_factory=dict)
    engine_games: int = 100  # full games the in-process engine figure plays

    @property
    def setup(self) -> MatchSetup:
        return MatchSetup(self.mode, self.seats, self.options)

    @property
    def game(self) -> str:
        return self.binding.info.game


@dataclass(frozen=True)
class LoadChoice:
    """The bench's choice for one game: a representative mode and table."""

    mode: str
    seats: int
    options: dict[str, str] = field(default_factory=dict)
    engine_games: int = 100  # about as many seconds of engine play as the other games get


# The one per-game table of the bench, by game id. A game without a row is benched too,
# in its first mode at its smallest table of two or more.
LOADS: dict[str, LoadChoice] = {
    "beasts": LoadChoice("training", 3, {"spell_cards": "false"}, engine_games=300),
    "zoo": LoadChoice("advanced", 4),
    "pursuit": LoadChoice("coop", 3, {"difficulty": "normal"}, engine_games=300),
}


def game_load(game: str) -> GameLoad:
    """What the bench plays of the installed game `game` (LOADS, else a default from the game's modes)."""
    bound = binding(game)
    choice = LOADS.get(game)
    if choice is None:
        mode = bound.info.modes[0]
        choice = LoadChoice(mode.mode, min(max(2, mode.min_seats), mode.max_seats))
    return GameLoad(bound, choice.mode, choice.seats, choice.options, choice.engine_games)


@dataclass(frozen=True)
class PlannedMove:
    """One move of a planned match: who plays it, at which view version, and the action."""

    seat: int
    expected_version: int
    action: Any  # the game's Action message


@dataclass(frozen=True)
class Plan:
    """A match played out in process before the clock starts, from the seed the bench gives it.

    The bench creates its matches as an operator and chooses their seeds, so the service's
    match follows the same moves. Planning ahead keeps the client's own engine work out of
    the timed phase: on a 2-core machine the client shares the CPU with the service.
    """

    seed: int
    moves: tuple[PlannedMove, ...]


def plan_match(load: GameLoad, seed: int) -> Plan:
    """Random legal moves from `seed` to the end, with each seat's view version at its move."""
    engine, pb = load.binding.engine, load.binding.pb2
    rng = random.Random(seed)
    state, _ = engine.setup(load.setup, seed)
    version, versions, moves = 1, [1] * load.seats, []
    while engine.outcome(state) is None:
        before = engine.to_act(state).seats()
        seat = rng.choice(before)
        action = rng.choice(engine.legal_actions(state, seat))
        moves.append(PlannedMove(seat, versions[seat], codec.tagged_to_message(pb.Action, action)))
        events = engine.apply(state, seat, action)
        version += 1
        versions = next_view_versions(versions, version, seat, events, before, engine.to_act(state).seats())
    return Plan(seed, tuple(moves))


def plan_matches(load: GameLoad, clients: int, per_client: int) -> list[list[Plan]]:
    """`per_client` planned matches for each client (a client cycles through its own)."""
    return [[plan_match(load, 1_000 * client + n) for n in range(per_client)] for client in range(clients)]


@dataclass
class RunningMatch:
    """A planned match created on the service, and how far it has been played."""

    match_id: str
    auth: dict[int, Auth]
    plan: Plan
    played: int = 0


def engine_games_per_second(load: GameLoad, games: int) -> tuple[float, float]:
    """Full games of random legal moves in process: (games/s, actions/s)."""
    engine = load.binding.engine
    rng = random.Random(1)
    actions = 0
    started = time.perf_counter()
    for seed in range(games):
        state, _ = engine.setup(load.setup, seed)
        while engine.outcome(state) is None:
            seat = rng.choice(engine.to_act(state).seats())
            engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
            actions += 1
    elapsed = time.perf_counter() - started
    return games / elapsed, actions / elapsed


async def run_clients(
    clients: int, seconds: float, make_client: Callable[[int], Awaitable[Callable[[], Awaitable[float | None]]]]
) -> Latencies:
    """Runs `clients` concurrent loops of timed calls for `seconds`."""
    samples: list[float] = []
    stop_at = time.perf_counter() + seconds

    async def loop(index: int) -> None:
        call = await make_client(index)
        while time.perf_counter() < stop_at:
            elapsed = await call()
            if elapsed is not None:
                samples.append(elapsed)

    started = time.perf_counter()
    await asyncio.gather(*(loop(i) for i in range(clients)))
    return Latencies(samples, time.perf_counter() - started)


async def health_baseline(address: str, clients: int, seconds: float) -> Latencies:
    """gRPC health Check of the service process with the same number of clients."""

    async def make(_: int) -> Callable[[], Awaitable[float | None]]:
        stub = health_pb2_grpc.HealthStub(grpc.aio.insecure_channel(address))
        request = health_pb2.HealthCheckRequest()

        async def call() -> float:
            started = time.perf_counter()
            await stub.Check(request)  # type: ignore[attr-defined]
            return time.perf_counter() - started

        return call

    return await run_clients(clients, seconds, make)


async def new_match(
    matches: matches_pb2_grpc.MatchesAsyncStub, load: GameLoad, plan: Plan, service_auth: Auth
) -> RunningMatch:
    """Creates the service's match of `plan` (same seed, same seats)."""
    reply = await matches.CreateMatch(
        matches_pb2.CreateMatchRequest(
            config=common_pb2.MatchConfig(game=load.binding.info.game, mode=load.mode, options=load.options),
            seats=[
                common_pb2.SeatInfo(seat=i, player_id=f"bench-{i}", kind=common_pb2.SEAT_KIND_HUMAN)
                for i in range(load.seats)
            ],
            seed=plan.seed,
        ),
        metadata=service_auth,
    )
    auth: dict[int, Auth] = {t.seat: (("authorization", f"Bearer {t.token}"),) for t in reply.seat_tokens}
    return RunningMatch(reply.match.match_id, auth, plan)


def next_request(load: GameLoad, match: RunningMatch) -> tuple[Any, Auth]:
    """The SubmitActionRequest of the match's next planned move, and its seat's credentials."""
    move = match.plan.moves[match.played]
    request = load.binding.pb2.SubmitActionRequest(
        match_id=match.match_id,
        expected_version=move.expected_version,
        idempotency_key=uuid.uuid4().hex,
        action=move.action,
    )
    return request, match.auth[move.seat]


async def play_move(stub: Any, load: GameLoad, match: RunningMatch) -> float:
    """The match's next planned move; returns the SubmitAction latency."""
    request, auth = next_request(load, match)
    started = time.perf_counter()
    await stub.SubmitAction(request, metadata=auth)
    elapsed = time.perf_counter() - started
    match.played += 1
    return elapsed


def _stubs(address: str, load: GameLoad) -> tuple[matches_pb2_grpc.MatchesAsyncStub, Any]:
    channel = grpc.aio.insecure_channel(address)
    game_stub = load.binding.stub(channel)
    return matches_pb2_grpc.MatchesStub(channel), game_stub


async def submit_load(
    address: str, service_token: str, clients: int, seconds: float, load: GameLoad, plans: list[list[Plan]]
) -> Latencies:
    """SubmitAction through the service: each client plays its own planned matches, over and over."""
    service_auth: Auth = (("authorization", f"Bearer {service_token}"),)

    async def make(index: int) -> Callable[[], Awaitable[float | None]]:
        matches, stub = _stubs(address, load)
        mine = itertools.cycle(plans[index])
        match = await new_match(matches, load, next(mine), service_auth)

        async def call() -> float | None:
            nonlocal match
            if match.played == len(match.plan.moves):
                match = await new_match(matches, load, next(mine), service_auth)
                return None
            return await play_move(stub, load, match)

        return call

    return await run_clients(clients, seconds, make)


async def recorded_answers(address: str, service_token: str, load: GameLoad) -> list[bytes]:
    """The service's SubmitAction answers along one planned match, serialized: what the floor answers."""
    matches, stub = _stubs(address, load)
    match = await new_match(matches, load, plan_match(load, 98), (("authorization", f"Bearer {service_token}"),))
    answers = []
    while match.played < len(match.plan.moves):
        request, auth = next_request(load, match)
        answers.append((await stub.SubmitAction(request, metadata=auth)).SerializeToString())
        match.played += 1
    return answers


@contextmanager
def floor_processes(
    address: str, service_token: str, redis_url: str, load: GameLoad
) -> Iterator[tuple[ServiceProcess, ServiceProcess]]:
    """bench.floor for `load`'s game (the same bootstrap and settings as its service), answering as the service does.

    Two processes: the floor, and the floor that also writes each answer to Redis (--write).
    """
    answers = asyncio.run(recorded_answers(address, service_token, load))
    with tempfile.NamedTemporaryFile(prefix="menagerie-floor-", suffix=".msgpack") as file:
        file.write(msgspec.msgpack.encode(answers))
        file.flush()
        argv = (load.game, file.name)
        with (
            service_process("bench.floor", redis_url, KEYS, argv, **UNLIMITED) as floor,
            service_process("bench.floor", redis_url, KEYS, (*argv, "--write"), **UNLIMITED) as writing,
        ):
            yield floor, writing


async def open_matches(
    address: str, service_token: str, load: GameLoad, plans: list[list[Plan]]
) -> list[list[RunningMatch]]:
    """A match of the service for each client's plans: the floor load's match ids and seat tokens."""
    matches, _ = _stubs(address, load)
    service_auth: Auth = (("authorization", f"Bearer {service_token}"),)
    return [[await new_match(matches, load, plan, service_auth) for plan in mine] for mine in plans]


async def floor_load(
    address: str, clients: int, seconds: float, load: GameLoad, running: list[list[RunningMatch]]
) -> Latencies:
    """SubmitAction to the floor: each client sends its planned matches' moves, over and over, as submit_load does."""

    async def make(index: int) -> Callable[[], Awaitable[float | None]]:
        _, stub = _stubs(address, load)
        turn = itertools.cycle(running[index])
        match = next(turn)

        async def call() -> float | None:
            nonlocal match
            if match.played == len(match.plan.moves):
                match.played = 0  # the floor keeps no match: its moves may be sent again
                match = next(turn)
                return None
            return await play_move(stub, load, match)

        return call

    return await run_clients(clients, seconds, make)


@dataclass(frozen=True)
class MatchMemory:
    """Bytes Redis keeps for one match of a load: half-way through, and once finished."""

    active: int
    finished: int
    actions: int


async def finished_match_memory(address: str, service_token: str, redis_url: str, load: GameLoad) -> MatchMemory:
    """Bytes Redis keeps for one match of `load` half-way (active) and once finished, and its actions."""
    matches, stub = _stubs(address, load)
    match = await new_match(matches, load, plan_match(load, 99), (("authorization", f"Bearer {service_token}"),))
    redis = Redis.from_url(redis_url)
    store = MatchStore(redis, 16)
    active = 0
    while match.played < len(match.plan.moves):
        await play_move(stub, load, match)
        if match.played == len(match.plan.moves) // 2:
            active = await store.memory_usage(match.match_id)
    size = await store.memory_usage(match.match_id)
    await redis.aclose()
    return MatchMemory(active, size, match.played)


async def many_matches_load(
    address: str, service_token: str, clients: int, seconds: float, load: GameLoad, plans: list[Plan], matches: int
) -> Latencies:
    """SubmitAction while `matches` matches are active at once: each client moves its share in turn.

    Matches of one plan share its seed, so a few planned matches serve a thousand; a match
    that ends is replaced by a new one (not timed), so `matches` stay active throughout.
    """
    service_auth: Auth = (("authorization", f"Bearer {service_token}"),)
    cycle = itertools.cycle(plans)

    async def start(index: int) -> tuple[Any, Any, list[RunningMatch]]:
        creator, stub = _stubs(address, load)
        share = matches // clients + (1 if index < matches % clients else 0)
        return creator, stub, [await new_match(creator, load, next(cycle), service_auth) for _ in range(share)]

    started = await asyncio.gather(*(start(i) for i in range(clients)))  # before the clock starts

    async def make(index: int) -> Callable[[], Awaitable[float | None]]:
        creator, stub, running = started[index]
        turn = itertools.cycle(range(len(running)))

        async def call() -> float | None:
            slot = next(turn)
            match = running[slot]
            if match.played == len(match.plan.moves):
                running[slot] = await new_match(creator, load, next(cycle), service_auth)
                return None
            return await play_move(stub, load, match)

        return call

    return await run_clients(clients, seconds, make)
