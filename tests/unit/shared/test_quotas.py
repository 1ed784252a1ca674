"""Quotas: token buckets per caller and caps on open streams."""

from __future__ import annotations

import pytest

from menagerie.rules.errors import ResourceExhausted
from menagerie.shared.rpc.quotas import MethodBudget, Quotas, QuotaSettings, RateLimited, caller_of
from menagerie.shared.tokens import Principal, TokenKind


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_caller_gets_its_burst_then_its_rate() -> None:
    clock = Clock()
    quotas = Quotas(QuotaSettings(calls_per_second=10, burst=5), clock)
    for _ in range(5):
        quotas.take_call("seat:m:0")
    with pytest.raises(RateLimited) as refused:
        quotas.take_call("seat:m:0")
    assert refused.value.retry_after_ms == 100  # one token at 10 per second
    quotas.take_call("seat:m:1")  # another caller has its own bucket
    clock.now += 0.15
    quotas.take_call("seat:m:0")
    with pytest.raises(RateLimited):
        quotas.take_call("seat:m:0")
    clock.now += 60  # a bucket refills up to its burst, not beyond
    for _ in range(5):
        quotas.take_call("seat:m:0")
    with pytest.raises(RateLimited):
        quotas.take_call("seat:m:0")


def test_services_and_a_zero_rate_are_not_limited() -> None:
    quotas = Quotas(QuotaSettings(calls_per_second=1, burst=1))
    for _ in range(100):
        quotas.take_call(None)
    unlimited = Quotas(QuotaSettings(calls_per_second=0, burst=1))
    for _ in range(100):
        unlimited.take_call("player:p")


def test_streams_are_capped_per_caller_and_per_process() -> None:
    quotas = Quotas(QuotaSettings(streams_per_caller=2, streams_per_process=3))
    quotas.open_stream("player:a")
    quotas.open_stream("player:a")
    with pytest.raises(ResourceExhausted, match="at most 2 open streams per caller"):
        quotas.open_stream("player:a")
    quotas.open_stream("player:b")
    with pytest.raises(ResourceExhausted, match="maximum of 3 streams"):
        quotas.open_stream("player:c")
    quotas.close_stream("player:a")
    quotas.open_stream("player:a")  # the place given back is taken again
    assert quotas.open_streams == 3


def principal(kind: TokenKind, **fields: object) -> Principal:
    return Principal(kind=kind, subject=str(fields.pop("subject", "p1")), name="", expires_at=0, **fields)  # type: ignore[arg-type]


def test_who_a_call_is_counted_under() -> None:
    assert caller_of(principal(TokenKind.SEAT, match_id="m1", seat=2), "ipv4:1.2.3.4:5") == "seat:m1:2"
    assert caller_of(principal(TokenKind.PLAYER, subject="ann"), "ipv4:1.2.3.4:5") == "player:ann"
    assert caller_of(principal(TokenKind.SERVICE, subject="lobby"), "ipv4:1.2.3.4:5") is None
    assert caller_of(None, "ipv4:127.0.0.1:51234") == caller_of(None, "ipv4:127.0.0.1:40000") == "peer:ipv4:127.0.0.1"
    assert caller_of(None, "ipv6:[::1]:51234") == "peer:ipv6:[::1]"


def test_a_relayed_client_is_counted_under_its_own_address() -> None:
    assert caller_of(None, "ipv4:10.0.0.5:40000") == "peer:ipv4:10.0.0.5"
    assert caller_of(None, "ipv4:10.0.0.5:40000", "198.51.100.7") == "client:198.51.100.7"
    player = Principal(TokenKind.PLAYER, "p1", "Ann", 0)
    assert caller_of(player, "", "198.51.100.7") == "player:p1"  # a token names its caller


def test_a_method_budget_is_per_address_and_per_minute_and_says_when_to_retry() -> None:
    clock = Clock()
    quotas = Quotas(QuotaSettings(), clock)
    method = "/menagerie.lobby.v1.Lobby/RegisterPlayer"
    assert not quotas.budgeted(method)
    quotas.limit_method(method, MethodBudget(per_minute=6, burst=2, what="new guests"))
    assert quotas.budgeted(method)
    quotas.take_method(method, "client:198.51.100.7")
    quotas.take_method(method, "client:198.51.100.7")
    with pytest.raises(RateLimited) as refused:
        quotas.take_method(method, "client:198.51.100.7")
    assert str(refused.value) == "too many new guests: at most 6 per minute (bursts of 2) per address; retry in 10 s"
    assert refused.value.retry_after_ms == 10_000
    quotas.take_method(method, "client:198.51.100.8")  # another address has its own budget
    quotas.take_method("/menagerie.lobby.v1.Lobby/ListGames", "client:198.51.100.7")  # no budget: free
    clock.now += 10
    quotas.take_method(method, "client:198.51.100.7")
    quotas.limit_method(method, MethodBudget(per_minute=0, burst=2))  # 0 takes the budget away
    assert not quotas.budgeted(method)
