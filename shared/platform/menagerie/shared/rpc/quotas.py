"""What one caller may ask of a process: a call rate (token bucket) and a number of open streams.

A caller is who the token names — a seat of a match, a player — or, without a token,
its address: the client's, when a trusted gateway relays the call and names it
(menagerie.shared.rpc.relay), else the peer's. Service credentials (the lobby,
operators) are not limited. Some methods cost more than a call: a budget per address
and per minute of its own (the lobby's RegisterPlayer: new guests). The limits are per
process: a flood is stopped where it lands, before it costs a Redis round trip, and
each replica protects itself.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from menagerie.rules.errors import ResourceExhausted
from menagerie.shared.tokens import Principal, TokenKind

# Callers remembered at once; the least recently seen is forgotten first (a full bucket again).
_REMEMBERED_CALLERS = 100_000


@dataclass(frozen=True)
class QuotaSettings:
    """The limits, from the process's settings (0 turns a limit off)."""

    calls_per_second: float = 200.0
    burst: int = 400
    streams_per_caller: int = 16
    streams_per_process: int = 5_000


# The reasons a client reads in the error's details (menagerie.shared.rpc.details).
RATE_LIMITED = "RATE_LIMITED"
TOO_MANY_STREAMS = "TOO_MANY_STREAMS"
SERVER_STREAMS_FULL = "SERVER_STREAMS_FULL"


class RateLimited(ResourceExhausted):
    """A caller past its call rate; `retry_after_ms` says when a call would be accepted."""

    def __init__(self, message: str, retry_after_ms: int, caller: str = "") -> None:
        super().__init__(
            message,
            reason=RATE_LIMITED,
            metadata={"caller": caller, "retry_after_ms": str(retry_after_ms)} if caller else None,
        )
        self.retry_after_ms = retry_after_ms


@dataclass(frozen=True)
class MethodBudget:
    """What one address may spend on one method, beyond the call rate: `per_minute`, in bursts of `burst`."""

    per_minute: float
    burst: int
    # What the refusal calls the calls counted ("new guests").
    what: str = "calls of this method"


def address_of(peer: str, client: str | None = None) -> str:
    """Where a call comes from: the client a trusted gateway named, else the peer's host."""
    if client:
        return f"client:{client}"
    # "ipv4:127.0.0.1:51234" -> "ipv4:127.0.0.1": a client's ports change, its host does not.
    host = peer.rsplit(":", 1)[0] if peer.count(":") >= 2 else peer
    return f"peer:{host}"


def caller_of(principal: Principal | None, peer: str, client: str | None = None) -> str | None:
    """The key a call is counted under, or None for a service credential (not limited)."""
    if principal is None:
        return address_of(peer, client)
    if principal.kind is TokenKind.SERVICE:
        return None
    if principal.kind is TokenKind.SEAT:
        return f"seat:{principal.match_id}:{principal.seat}"
    return f"player:{principal.subject}"


@dataclass
class _Bucket:
    tokens: float
    updated: float


class Quotas:
    """Token buckets for call rates and counters of open streams, by caller."""

    def __init__(self, settings: QuotaSettings, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self._clock = clock
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()
        self._streams: dict[str, int] = {}
        self._budgets: dict[str, MethodBudget] = {}
        self.open_streams = 0

    def _take(self, key: str, rate: float, burst: int) -> int:
        """Takes a token from `key`'s bucket: 0, or the milliseconds until one is there (nothing taken)."""
        now = self._clock()
        bucket = self._buckets.pop(key, None) or _Bucket(float(burst), now)
        bucket.tokens = min(float(burst), bucket.tokens + (now - bucket.updated) * rate)
        bucket.updated = now
        self._buckets[key] = bucket
        if len(self._buckets) > _REMEMBERED_CALLERS:
            self._buckets.popitem(last=False)
        if bucket.tokens < 1:
            return max(1, int((1 - bucket.tokens) / rate * 1000))
        bucket.tokens -= 1
        return 0

    def take_call(self, caller: str | None) -> None:
        """Counts one call; RateLimited when the caller's bucket is empty."""
        rate, burst = self.settings.calls_per_second, self.settings.burst
        if caller is None or rate <= 0:
            return
        if wait_ms := self._take(caller, rate, burst):
            raise RateLimited(
                f"too many calls: at most {rate:g} per second (bursts of {burst}) per caller; retry in {wait_ms} ms",
                wait_ms,
                caller,
            )

    def limit_method(self, method: str, budget: MethodBudget) -> None:
        """Gives `method` (its full path, /package.Service/Method) a budget per address (per_minute 0: none)."""
        if budget.per_minute > 0:
            self._budgets[method] = budget
        else:
            self._budgets.pop(method, None)

    def budgeted(self, method: str) -> bool:
        """True when `method` has a budget of its own."""
        return method in self._budgets

    def take_method(self, method: str, address: str) -> None:
        """Counts one call of `method` from `address` against the method's budget, if it has one; else RateLimited."""
        budget = self._budgets.get(method)
        if budget is None:
            return
        if wait_ms := self._take(f"{method} {address}", budget.per_minute / 60, budget.burst):
            seconds = -(-wait_ms // 1000)  # whole seconds, rounded up: a minute's budget is not counted in ms
            raise RateLimited(
                f"too many {budget.what}: at most {budget.per_minute:g} per minute (bursts of {budget.burst})"
                f" per address; retry in {seconds} s",
                wait_ms,
                address,
            )

    def open_stream(self, caller: str | None) -> None:
        """Counts a stream as open; ResourceExhausted past either cap (then nothing is counted)."""
        per_process = self.settings.streams_per_process
        if per_process and self.open_streams >= per_process:
            raise ResourceExhausted(
                f"this server holds its maximum of {per_process} streams; retry later", reason=SERVER_STREAMS_FULL
            )
        if caller is not None:
            per_caller = self.settings.streams_per_caller
            held = self._streams.get(caller, 0)
            if per_caller and held >= per_caller:
                raise ResourceExhausted(
                    f"at most {per_caller} open streams per caller; close one (you hold {held}) before opening another",
                    reason=TOO_MANY_STREAMS,
                    metadata={"caller": caller},
                )
            self._streams[caller] = held + 1
        self.open_streams += 1

    def close_stream(self, caller: str | None) -> None:
        """Gives back a stream counted by open_stream."""
        self.open_streams -= 1
        if caller is not None:
            held = self._streams.get(caller, 0) - 1
            if held > 0:
                self._streams[caller] = held
            else:
                self._streams.pop(caller, None)
