"""The one place where requests are decoded, tokens verified and errors mapped.

grpcio answers bytes it cannot decode with INTERNAL before any servicer runs; this
interceptor replaces each method handler with one that receives the raw bytes and
decodes them itself, so a client that sends garbage gets INVALID_ARGUMENT. It then
verifies the bearer token (UNAUTHENTICATED when forged or expired), runs the
servicer, and maps domain errors (menagerie.rules.errors) to status codes. A Redis
that does not answer (down, restarting, a connection that died) is UNAVAILABLE, which
clients retry. Anything unexpected becomes a generic INTERNAL, logged with its
traceback, never shown. Every error it answers carries a google.rpc.Status with
details (an ErrorInfo naming the rule or kind of error, a BadRequest naming the
fields...) in the `grpc-status-details-bin` trailer: menagerie.shared.rpc.details.

It also applies the caller's quotas (menagerie.shared.rpc.quotas): a call rate per
caller, answered RESOURCE_EXHAUSTED with a `grpc-retry-pushback-ms` hint past it, and
caps on open streams per caller and per process.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeAlias, cast

import grpc
import structlog
from google.rpc import status_pb2
from prometheus_client import Counter, Gauge, Histogram
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from menagerie.rules.errors import MenagerieError, Unauthenticated
from menagerie.shared.rpc import details as rich
from menagerie.shared.rpc.quotas import Quotas, QuotaSettings, RateLimited, caller_of
from menagerie.shared.tokens import Principal, TokenSigner

log = structlog.get_logger(__name__)

# grpc's classes are generic only in their type stubs, so these aliases stay strings.
Context: TypeAlias = "grpc.aio.ServicerContext[Any, Any]"
Handler: TypeAlias = "grpc.RpcMethodHandler[Any, Any]"
UnaryBehavior: TypeAlias = "Callable[[Any, Context], Awaitable[Any]]"
StreamBehavior: TypeAlias = "Callable[[Any, Context], AsyncIterator[Any]]"

_principal: ContextVar[Principal | None] = ContextVar("menagerie_principal", default=None)

RPCS = Counter("menagerie_rpc_total", "RPCs handled, by method and status code", ["method", "code"])
RPC_SECONDS = Histogram(
    "menagerie_rpc_seconds",
    "RPC handling time (unary calls; first message for streams)",
    ["method"],
    buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
)
OPEN_STREAMS = Gauge("menagerie_open_streams", "Server streams (Watch, WatchTicket) open now")
STORE_UNAVAILABLE = "the match store does not answer right now; retry shortly"
# Reasons of the interceptor's own refusals (details.py has the others).
TOKEN_MISSING = "TOKEN_MISSING"
AUTHORIZATION_MALFORMED = "AUTHORIZATION_MALFORMED"


def current_principal() -> Principal | None:
    """The verified caller of the current RPC, or None when it sent no token."""
    return _principal.get()


def require_principal() -> Principal:
    """The verified caller, or Unauthenticated when the call carried no token."""
    principal = _principal.get()
    if principal is None:
        raise Unauthenticated(
            "this call needs a token: send 'authorization: Bearer <token>' metadata", reason=TOKEN_MISSING
        )
    return principal


def _bearer(metadata: Sequence[tuple[str, str | bytes]] | None) -> str | None:
    for key, value in metadata or ():
        if key == "authorization":
            text = value.decode() if isinstance(value, bytes) else value
            scheme, _, token = text.partition(" ")
            if scheme.lower() != "bearer" or not token.strip():
                raise Unauthenticated(
                    "the authorization metadata must read 'Bearer <token>'", reason=AUTHORIZATION_MALFORMED
                )
            return token.strip()
    return None


@dataclass
class _Call:
    """What the error mapping knows of a call: the decoded request, once there is one."""

    request: Any = None


class ServiceInterceptor(grpc.aio.ServerInterceptor):
    """Decodes, authenticates, applies quotas and maps errors for every unary and server-streaming method."""

    def __init__(
        self,
        signer: TokenSigner,
        quotas: Quotas | None = None,
        open_prefixes: Sequence[str] = ("/grpc.",),
        domain: str = "menagerie",
    ) -> None:
        self._signer = signer
        self._quotas = quotas or Quotas(QuotaSettings())
        self._open_prefixes = tuple(open_prefixes)
        self._domain = domain  # ErrorInfo's domain: "menagerie.<service>"

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Handler | None]],
        details: grpc.HandlerCallDetails,
    ) -> Handler | None:
        handler = await continuation(details)
        method: str = details.method
        if handler is None or handler.request_streaming or method.startswith(self._open_prefixes):
            return handler
        deserialize = handler.request_deserializer
        if deserialize is None:
            return handler
        metadata = details.invocation_metadata
        if handler.unary_unary is not None:
            return grpc.unary_unary_rpc_method_handler(
                self._wrap_unary(method, metadata, cast("UnaryBehavior", handler.unary_unary), deserialize),
                request_deserializer=None,
                response_serializer=handler.response_serializer,
            )
        if handler.unary_stream is not None:
            return grpc.unary_stream_rpc_method_handler(
                self._wrap_stream(method, metadata, cast("StreamBehavior", handler.unary_stream), deserialize),
                request_deserializer=None,
                response_serializer=handler.response_serializer,
            )
        return handler

    def _prepare(
        self, raw: bytes, deserialize: Callable[[bytes], Any], metadata: Any, context: Context, call: _Call
    ) -> tuple[Any, str | None]:
        """Decode first, then the token (DESIGN.md's order of checks), then the call rate: (request, caller)."""
        try:
            request = deserialize(raw)
        except Exception:
            raise _Undecodable() from None
        call.request = request
        token = _bearer(metadata)
        principal = self._signer.verify(token) if token is not None else None
        _principal.set(principal)
        caller = caller_of(principal, context.peer())
        self._quotas.take_call(caller)
        return request, caller

    @contextlib.asynccontextmanager
    async def _answering(self, method: str, context: Context, timed: bool) -> AsyncIterator[_Call]:
        """Turns whatever the call raised into its status code and details, and counts the call.

        A call is counted before its status goes out: a client that reads the metrics right
        after its answer finds the call there.
        """
        started = time.perf_counter()
        call = _Call()

        def count(code: str) -> None:
            RPCS.labels(method, code).inc()
            if timed:
                RPC_SECONDS.labels(method).observe(time.perf_counter() - started)

        async def abort(code: grpc.StatusCode, status: status_pb2.Status, extra: rich.Metadata = ()) -> None:
            count(code.name)
            await context.abort(code, status.message, rich.trailers(status, extra))

        async def abort_plain(code: grpc.StatusCode, message: str, reason: str) -> None:
            await abort(code, rich.error_status(code, message, self._domain, reason))

        try:
            yield call
        except _Undecodable:
            message = f"the request is not a valid {method} message"
            await abort_plain(grpc.StatusCode.INVALID_ARGUMENT, message, rich.UNDECODABLE_REQUEST)
        except MenagerieError as error:
            pushback: rich.Metadata = ()
            if isinstance(error, RateLimited):
                # Also said the way gRPC's own retry policy reads it.
                pushback = (("grpc-retry-pushback-ms", str(error.retry_after_ms)),)
            await abort(grpc.StatusCode[error.status], self._status_of(error, call), pushback)
        except (RedisConnectionError, RedisTimeoutError):
            log.warning("Redis does not answer", method=method, exc_info=True)
            await abort_plain(grpc.StatusCode.UNAVAILABLE, STORE_UNAVAILABLE, rich.STORE_UNAVAILABLE)
        except grpc.aio.AbortError:
            count("SERVICER_ABORT")
            raise
        except Exception:
            log.exception("unexpected error", method=method)
            await abort_plain(grpc.StatusCode.INTERNAL, "internal error", rich.INTERNAL)
        except BaseException:
            count("CANCELLED")  # the client went away (a stream closed early) or the server is stopping
            raise
        else:
            count("OK")

    def _status_of(self, error: MenagerieError, call: _Call) -> status_pb2.Status:
        """The error's status with details; only its ErrorInfo if working out the rest failed (logged)."""
        try:
            return rich.status_of(error, self._domain, call.request)
        except Exception:
            log.exception("cannot work out the error's details", error=error.message)
            return rich.error_status(grpc.StatusCode[error.status], error.message, self._domain, error.status)

    def _wrap_unary(
        self,
        method: str,
        metadata: Any,
        behavior: UnaryBehavior,
        deserialize: Callable[[bytes], Any],
    ) -> Callable[[bytes, Context], Awaitable[Any]]:
        async def unary(raw: bytes, context: Context) -> Any:
            async with self._answering(method, context, timed=True) as call:
                request, _ = self._prepare(raw, deserialize, metadata, context, call)
                return await behavior(request, context)

        return unary

    def _wrap_stream(
        self,
        method: str,
        metadata: Any,
        behavior: StreamBehavior,
        deserialize: Callable[[bytes], Any],
    ) -> Callable[[bytes, Context], AsyncIterator[Any]]:
        async def stream(raw: bytes, context: Context) -> AsyncIterator[Any]:
            async with self._answering(method, context, timed=False) as call:
                request, caller = self._prepare(raw, deserialize, metadata, context, call)
                self._quotas.open_stream(caller)
                OPEN_STREAMS.inc()
                try:
                    async for response in behavior(request, context):
                        yield response
                finally:
                    self._quotas.close_stream(caller)
                    OPEN_STREAMS.dec()

        return stream


class _Undecodable(Exception):
    """The request bytes are not a message of the method's request type."""
