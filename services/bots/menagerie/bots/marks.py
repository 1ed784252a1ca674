"""What the bot pool keeps in Redis beside the broker: decisions in progress and unresponsive games.

A decision in progress: a worker marks it (`running_key`) when its task starts and
removes the mark when the task ends; the mark expires after the task's soft time limit,
when Celery interrupts a task anyway, so a worker killed mid-task leaves it for that long
at most. While it exists, the dispatcher's deadline scan pushes the decision's deadline
back instead of enqueueing it again: a slow decision is not played twice at once, and a
hung game's decisions do not pile up in the queue. A second task for a decision that is
already marked (a duplicate delivery) ends at once.

An unresponsive game: when a call to a game service gets no answer in its whole time,
the game is marked (`unresponsive_key`), and while the mark exists one task per
`probe_seconds` (across every worker) still calls the game; the others end at once,
leaving their decisions to the dispatcher's deadlines. So a hung game service holds one
slot of the pool now and then instead of every slot of every worker, and the bots of the
other games keep playing; the first call the game answers removes the mark.

A task's start is one round trip: its mark, its game's mark and what the game service
wrote for the decision (the seat's BotTurn: its legal actions and view, so that the task
makes one call, SubmitAction) in one pipeline (`start`), not a transaction, so the keys may
live in different slots of a Redis Cluster (every command is one key). A task whose move
landed or whose decision went stale leaves its mark to expire (menagerie.bots.worker): the
decision is over and its deadline went with the move that ended it, so clearing the mark
would be a round trip for nothing; a task that leaves its decision due clears it, so that
the dispatcher's deadline may send it again. Marks are a means to spare work, not a
guarantee: a Redis error while marking is logged and the turn is played (the idempotency
key still makes a decision count once).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

import redis
import structlog
from redis.commands.core import Script

from menagerie.shared.store.keys import PREFIX, match_keys

log = structlog.get_logger(__name__)

# How long an unresponsive game stays marked without a call to refresh or clear the mark:
# a bound on a mark nobody clears (no decisions of that game), not how long play waits,
# which the probes decide.
UNRESPONSIVE_MEMORY_SECONDS = 300

# Deletes a decision's mark only if it is still the caller's (a later task may own it).
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


def running_key(match_id: str, seat: int, view_version: int) -> str:
    """The key that says the decision (match, seat, version) is being played by a task."""
    return f"{PREFIX}:bots:running:{match_id}:{seat}:{view_version}"


def unresponsive_key(game: str) -> str:
    """The key that says calls to `game`'s service time out."""
    return f"{PREFIX}:bots:unresponsive:{game}"


def probe_key(game: str) -> str:
    """The key held by the one task that may call an unresponsive game now."""
    return f"{PREFIX}:bots:probe:{game}"


class Access(StrEnum):
    """Whether a task may call a game's service."""

    OPEN = "open"  # not marked unresponsive
    PROBE = "probe"  # marked, and this task is the one allowed to try
    CLOSED = "closed"  # marked, and another task tries


class Start(NamedTuple):
    """What a task learns as it starts (`Marks.start`)."""

    token: str | None  # its mark's token: "" if Redis failed, None if another task holds the decision
    access: Access  # whether it may call the game's service now
    turn: bytes | None  # the seat's BotTurn as the game service wrote it (None: absent, or Redis failed)


@dataclass
class Marks:
    """The marks of one worker process, on its own Redis client (made after the fork)."""

    client: redis.Redis
    running_seconds: int  # the task's soft time limit
    probe_seconds: float  # how often an unresponsive game is tried
    shards: int  # the match store's (BotSettings.shards): where a match's keys are
    _release: Script = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # EVALSHA from the second call on, instead of the script's text every time.
        self._release = self.client.register_script(_RELEASE)

    def start(self, game: str, match_id: str, seat: int, view_version: int) -> Start:
        """Marks the decision as in progress, reads the game's access and the seat's BotTurn, in one round trip.

        Access is OPEN, PROBE or CLOSED (OPEN when unsure); the BotTurn may be of another
        version than the task's (the match moved on): the task checks.
        """
        token = uuid.uuid4().hex
        try:
            with self.client.pipeline(transaction=False) as pipe:
                pipe.set(running_key(match_id, seat, view_version), token, nx=True, ex=self.running_seconds)
                pipe.exists(unresponsive_key(game))
                pipe.hget(match_keys(match_id, self.shards).bot_turns, str(seat))
                taken, marked, turn = pipe.execute()
        except redis.RedisError as exc:
            log.warning("could not mark a decision in progress", match=match_id, seat=seat, error=str(exc))
            return Start("", Access.OPEN, None)
        if not taken:
            return Start(None, Access.OPEN, None)
        return Start(token, self._probe(game) if marked else Access.OPEN, turn)

    def end(self, match_id: str, seat: int, view_version: int, token: str) -> None:
        """Removes the decision's mark if it is still this task's."""
        if not token:
            return
        try:
            self._release(keys=[running_key(match_id, seat, view_version)], args=[token])
        except redis.RedisError as exc:
            # It expires by itself; until then the dispatcher only waits longer.
            log.warning("could not clear a decision's mark", match=match_id, seat=seat, error=str(exc))

    def _probe(self, game: str) -> Access:
        """For a game marked unresponsive: PROBE if this task takes the probe, else CLOSED."""
        try:
            if self.client.set(probe_key(game), "1", nx=True, px=int(self.probe_seconds * 1000)):
                return Access.PROBE
        except redis.RedisError as exc:
            log.warning("could not read a game's mark", game=game, error=str(exc))
            return Access.OPEN
        return Access.CLOSED

    def unresponsive(self, game: str) -> None:
        """Marks `game` as unresponsive (a call got no answer in its whole time)."""
        try:
            self.client.set(unresponsive_key(game), "1", ex=UNRESPONSIVE_MEMORY_SECONDS)
        except redis.RedisError as exc:
            log.warning("could not mark a game unresponsive", game=game, error=str(exc))

    def responsive(self, game: str) -> None:
        """Clears `game`'s mark: its service answered."""
        try:
            self.client.delete(unresponsive_key(game))
        except redis.RedisError as exc:
            log.warning("could not clear a game's mark", game=game, error=str(exc))
