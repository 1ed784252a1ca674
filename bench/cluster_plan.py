"""What a cluster needs for many concurrent matches, extrapolated from the per-move costs bench.scale_out measured.

Pure arithmetic: every figure it does not measure is a named field of Assumptions, printed
beside the plan, so that a reader can see what the plan stands on and change it.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

GIB = 2**30


@dataclass(frozen=True)
class MoveCosts:
    """What one bot move cost each part of the platform, as measured on one machine."""

    cpu_ms: dict[str, float]  # by kind: games, worker, dispatcher, lobby (idle), redis, broker
    redis_commands: float  # commands the turns' Redis ran per move
    broker_commands: float  # commands Celery's broker ran per move
    match_bytes: float  # Redis memory of one match in play (MEMORY USAGE of a sample)


@dataclass(frozen=True)
class Assumptions:
    """What the plan takes as given; docs/scaling.md states why each is so."""

    matches: int = 100_000  # concurrent matches in play
    think_seconds: float = 10.0  # between two moves of one match: a person's turn, or a bot's paced one
    seats: int = 3  # at a table
    people: int = 1  # of the seats, the people's; the rest are bots
    moves_per_match: int = 60  # a match's length: 10 minutes at 10 s a move
    pod_busy: float = 0.6  # of its one core a pod is planned to use: headroom for bursts, a lost pod, the p99
    min_pods: int = 2  # of every component: one lost pod is no outage
    redis_busy: float = 0.5  # of its one core a Redis master is planned to use (one command loop)
    redis_memory_gib: float = 8.0  # data planned per Redis master (it forks to snapshot and to sync a replica)
    lobby_ms_per_seated: float = 0.28  # make bench: the lobby's CPU per player seated (249–277 ms per 1,000)
    gateway_ms_per_call: float = 0.5  # not measured: a browser's call or pushed update, about a SubmitAction's CPU
    finished_match_bytes: float = 40 * 1024  # make bench's memory of one finished match
    retention_days: float = 7.0  # how long a finished match is kept (MENAGERIE_MATCH_RETENTION_SECONDS)

    @property
    def moves_per_second(self) -> float:
        """Every match's moves, all tables together."""
        return self.matches / self.think_seconds

    @property
    def bot_share(self) -> float:
        """Of the moves, the bots' (every seat takes its turns alike)."""
        return (self.seats - self.people) / self.seats

    @property
    def matches_ending_per_second(self) -> float:
        """Matches that end (and are replaced by new ones) each second, the concurrent count steady."""
        return self.matches / (self.moves_per_match * self.think_seconds)


@dataclass(frozen=True)
class Need:
    """One component's share of the plan."""

    component: str
    load: str  # what drives it, in words with its rate
    cores: float
    pods: int


@dataclass(frozen=True)
class Plan:
    """Pods per component, Redis Cluster masters and the broker's load."""

    needs: list[Need]
    redis_ops: float  # commands/s on the turns' Redis, all masters together
    redis_cores: float
    playing_bytes: float  # the matches in play
    finished_bytes: float  # the finished matches kept
    masters_for_cpu: int
    masters_for_memory: int
    broker_ops: float  # commands/s on Celery's broker
    broker_cores: float

    @property
    def masters(self) -> int:
        """Redis Cluster masters: enough for both the CPU and the memory."""
        return max(self.masters_for_cpu, self.masters_for_memory)


def pods(cores: float, busy: float, least: int) -> int:
    """Pods of one core each, used to `busy` of it, and never fewer than `least`."""
    return max(least, math.ceil(cores / busy - 1e-9))


def need(component: str, load: str, rate: float, ms_each: float, given: Assumptions) -> Need:
    """The cores and pods for `rate` units a second of `ms_each` ms of CPU each."""
    cores = rate * ms_each / 1000
    return Need(component, load, cores, pods(cores, given.pod_busy, given.min_pods))


def plan(costs: MoveCosts, given: Assumptions) -> Plan:
    """What the cluster needs for `given`'s matches at `costs` per move."""
    moves = given.moves_per_second
    bot_moves = moves * given.bot_share
    seated = given.matches_ending_per_second * given.people
    # A person's browser sends their moves and is pushed every move of their match.
    gateway_calls = moves * given.people / given.seats + moves * given.people
    needs = [
        # A person's move costs the game service a SubmitAction like a bot's, and the dispatcher reads its notice.
        need("game services", f"{moves:,.0f} moves/s", moves, costs.cpu_ms["games"], given),
        need("bot workers", f"{bot_moves:,.0f} bot moves/s", bot_moves, costs.cpu_ms["worker"], given),
        need("dispatchers", f"{moves:,.0f} notices/s", moves, costs.cpu_ms["dispatcher"], given),
        need("lobby", f"{seated:,.0f} players seated/s", seated, given.lobby_ms_per_seated, given),
        need("gateway", f"{gateway_calls:,.0f} calls and updates/s", gateway_calls, given.gateway_ms_per_call, given),
    ]
    redis_cores = moves * costs.cpu_ms["redis"] / 1000
    finished_kept = given.matches_ending_per_second * given.retention_days * 86_400
    playing_bytes, finished_bytes = given.matches * costs.match_bytes, finished_kept * given.finished_match_bytes
    return Plan(
        needs=needs,
        redis_ops=moves * costs.redis_commands,
        redis_cores=redis_cores,
        playing_bytes=playing_bytes,
        finished_bytes=finished_bytes,
        masters_for_cpu=pods(redis_cores, given.redis_busy, 1),
        masters_for_memory=max(1, math.ceil((playing_bytes + finished_bytes) / (given.redis_memory_gib * GIB) - 1e-9)),
        broker_ops=bot_moves * costs.broker_commands,
        broker_cores=bot_moves * costs.cpu_ms["broker"] / 1000,
    )


def report_lines(costs: MoveCosts, given: Assumptions) -> list[str]:
    """The plan as printed: the assumptions, then each component's cores and pods, then Redis and the broker."""
    result = plan(costs, given)
    lines = [
        f"  assumed: {given.matches:,} matches in play, a move every {given.think_seconds:g} s each"
        f" ({given.moves_per_second:,.0f} moves/s), {given.seats} seats of which {given.people} a person's"
        f" (bots' share {given.bot_share:.0%}), {given.moves_per_match} moves a match,"
        f" one core a pod used to {given.pod_busy:.0%}, at least {given.min_pods} pods each;",
        f"  Redis masters used to {given.redis_busy:.0%} of a core and {given.redis_memory_gib:g} GiB each,"
        f" finished matches kept {given.retention_days:g} days at {given.finished_match_bytes / 1024:.0f} KB;"
        f" gateway {given.gateway_ms_per_call:g} ms a call (not measured), lobby"
        f" {given.lobby_ms_per_seated:g} ms a player seated",
        f"  {'component':<15}{'driven by':<34}{'cores':>8}{'pods':>7}",
    ]
    lines += [f"  {n.component:<15}{n.load:<34}{n.cores:8.1f}{n.pods:7}" for n in result.needs]
    shorter = [plan(costs, dataclasses.replace(given, retention_days=days)) for days in (1.0, 0.0)]
    broker = "fits one server" if result.broker_cores <= given.redis_busy else "more than one server: split the queues"
    lines += [
        f"  Redis Cluster: {result.redis_ops:,.0f} commands/s, {result.redis_cores:.1f} cores"
        f" → {result.masters_for_cpu} masters for the CPU; {result.playing_bytes / GIB:,.1f} GiB of matches in play"
        f" and {result.finished_bytes / GIB:,.1f} GiB of finished ones kept → {result.masters_for_memory} for the"
        f" memory: {result.masters} masters (each with a replica)",
        f"  (finished matches kept 1 day: {shorter[0].masters} masters; none kept in Redis: {shorter[1].masters})",
        f"  Celery's broker: {result.broker_ops:,.0f} commands/s, {result.broker_cores:.2f} cores of one Redis"
        f" ({broker})",
    ]
    return lines
