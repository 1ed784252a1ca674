"""The interceptor sends each kind of failure with its code, its message and its details (a real server on loopback).

A toy service behind the bootstrap's own ServiceInterceptor raises what the test asks
for — a domain error, a Redis outage, a bug — and a real client reads the trailer.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from menagerie.beasts.v1 import beasts_pb2
from menagerie.rules.errors import IllegalAction, InvalidArgument
from menagerie.shared.rpc.details import ErrorDetails, read_details
from menagerie.shared.rpc.interceptor import STORE_UNAVAILABLE, ServiceInterceptor
from menagerie.shared.rpc.quotas import Quotas, QuotaSettings
from tests.support.keys import KEYS

pytestmark = pytest.mark.integration

SERVICE = "menagerie.test.Toy"
Request = beasts_pb2.SubmitActionRequest  # any request with fields to name
FAILURES: dict[str, BaseException] = {
    "rule": IllegalAction("Turn order", "it is seat 1's turn, not seat 0's"),
    "field": InvalidArgument("idempotency_key is required: 1–128 characters"),
    "redis": RedisConnectionError("Connection refused"),
    "bug": ZeroDivisionError("a bug"),
}


async def toy(request: Any, context: Any) -> Any:
    """Fails as the request's match_id says."""
    raise FAILURES[request.match_id]


@pytest.fixture
async def channel() -> AsyncIterator[grpc.aio.Channel]:
    interceptor = ServiceInterceptor(
        KEYS.signer(), Quotas(QuotaSettings(calls_per_second=1, burst=10)), domain="menagerie.toy"
    )
    server = grpc.aio.server(interceptors=[interceptor])
    handler = grpc.unary_unary_rpc_method_handler(
        toy, request_deserializer=Request.FromString, response_serializer=Request.SerializeToString
    )
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE, {"Call": handler}),))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as opened:
        yield opened
    await server.stop(None)


async def failure(channel: grpc.aio.Channel, match_id: str) -> tuple[grpc.StatusCode, str, ErrorDetails, Any]:
    call = channel.unary_unary(
        f"/{SERVICE}/Call", request_serializer=Request.SerializeToString, response_deserializer=Request.FromString
    )
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await call(Request(match_id=match_id), timeout=10)
    error = info.value
    return error.code(), error.details() or "", read_details(error), error.trailing_metadata()


async def test_each_failure_keeps_its_code_and_message_and_carries_details(channel: grpc.aio.Channel) -> None:
    code, message, details, _ = await failure(channel, "rule")
    assert (code, message) == (grpc.StatusCode.FAILED_PRECONDITION, "Turn order: it is seat 1's turn, not seat 0's")
    assert (details.reason, details.domain, details.rule) == ("TURN_ORDER", "menagerie.toy", "Turn order")
    assert details.metadata["match_id"] == "rule"

    code, message, details, _ = await failure(channel, "field")
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert details.field_violations == [("idempotency_key", message)]

    code, message, details, _ = await failure(channel, "redis")
    assert (code, message, details.reason) == (grpc.StatusCode.UNAVAILABLE, STORE_UNAVAILABLE, "STORE_UNAVAILABLE")

    code, message, details, _ = await failure(channel, "bug")
    assert (code, message, details.reason) == (grpc.StatusCode.INTERNAL, "internal error", "INTERNAL")
    assert details.metadata == {}  # nothing of the bug is shown


async def test_a_rate_limited_call_says_when_to_retry_both_ways(channel: grpc.aio.Channel) -> None:
    for _ in range(20):  # past the burst of 10 (one call a second comes back)
        code, _, details, trailers = await failure(channel, "rule")
        if code != grpc.StatusCode.FAILED_PRECONDITION:
            break
    assert code == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert details.reason == "RATE_LIMITED"
    assert details.retry_after_ms is not None and details.retry_after_ms > 0
    assert dict(trailers)["grpc-retry-pushback-ms"] == str(details.retry_after_ms)
