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
caller, answered RESOURCE_EXHAUSTED with a `grpc-retry-pushback-ms` hint past it, the
budgets of costly methods per address, and caps on open streams per caller and per
process. An anonymous call relayed by the gateway counts under the client the gateway
names (menagerie.shared.rpc.relay), any other under its peer's address.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, NoReturn, TypeAlias, cast

import grpc
import structlog
from google.rpc import status_pb2
from prometheus_client import Counter, Gauge, Histogram
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from menagerie.rules.errors import MenagerieError, Unauthenticated
from menagerie.shared.rpc import details as rich
from menagerie.shared.rpc.quotas import Quotas, QuotaSettings, RateLimited, address_of, caller_of
from menagerie.shared.rpc.relay import relayed_client
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


def _bearer(metadata: Iterable[tuple[str, str | bytes]] | None) -> str | None:
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
    """Decodes, authenticates, applies quotas and maps errors for every unary and server-streaming method.

    A method's wrapped handler is built once, on its first call, and kept: it reads each
    call's metadata from the call's context, so nothing is built per call.
    """

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
        self._handlers: dict[str, Handler | None] = {}
        # The metrics' children by label values: looked up once, not on every call.
        self._counters: dict[tuple[str, str], Any] = {}
        self._timers: dict[str, Any] = {}

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Handler | None]],
        details: grpc.HandlerCallDetails,
    ) -> Handler | None:
        method: str = details.method
        try:
            return self._handlers[method]
        except KeyError:
            pass
        handler = self._wrapped(method, await continuation(details))
        if handler is not None:  # an unknown method is answered UNIMPLEMENTED: nothing to keep
            self._handlers[method] = handler
        return handler

    def _wrapped(self, method: str, handler: Handler | None) -> Handler | None:
        """The handler that decodes, authenticates and maps errors around `handler` (open methods: as they are)."""
        if handler is None or handler.request_streaming or method.startswith(self._open_prefixes):
            return handler
        deserialize = handler.request_deserializer
        if deserialize is None:
            return handler
        if handler.unary_unary is not None:
            return grpc.unary_unary_rpc_method_handler(
                self._wrap_unary(method, cast("UnaryBehavior", handler.unary_unary), deserialize),
                request_deserializer=None,
                response_serializer=handler.response_serializer,
            )
        if handler.unary_stream is not None:
            return grpc.unary_stream_rpc_method_handler(
                self._wrap_stream(method, cast("StreamBehavior", handler.unary_stream), deserialize),
                request_deserializer=None,
                response_serializer=handler.response_serializer,
            )
        return handler

    def _prepare(
        self, method: str, raw: bytes, deserialize: Callable[[bytes], Any], context: Context, call: _Call
    ) -> tuple[Any, str | None]:
        """Decode, tokens, call rate, the method's budget (docs/architecture.md "Errors and the order of checks")."""
        try:
            request = deserialize(raw)
        except Exception:
            raise _Undecodable() from None
        call.request = request
        metadata = cast("Iterable[tuple[str, str | bytes]] | None", context.invocation_metadata())
        token = _bearer(metadata)
        principal = self._signer.verify(token) if token is not None else None
        _principal.set(principal)
        client = relayed_client(metadata, self._signer)
        # Only a call without a token is counted by its address (the relayed client's, else the peer's).
        caller = caller_of(principal, context.peer() if principal is None else "", client)
        self._quotas.take_call(caller)
        if caller is not None and self._quotas.budgeted(method):
            self._quotas.take_method(method, address_of(context.peer(), client))
        return request, caller

    def _count(self, method: str, code: str, started: float | None = None) -> None:
        """Counts a call under its status (and its time, for unary calls), before its status goes out.

        A client that reads the metrics right after its answer finds the call there.
        """
        counter = self._counters.get((method, code))
        if counter is None:
            counter = self._counters[(method, code)] = RPCS.labels(method, code)
        counter.inc()
        if started is not None:
            timer = self._timers.get(method)
            if timer is None:
                timer = self._timers[method] = RPC_SECONDS.labels(method)
            timer.observe(time.perf_counter() - started)

    async def _refuse(
        self, method: str, context: Context, call: _Call, error: Exception, started: float | None
    ) -> NoReturn:
        """Answers what the call raised with its status code and details (context.abort raises)."""

        async def abort(code: grpc.StatusCode, status: status_pb2.Status, extra: rich.Metadata = ()) -> NoReturn:
            self._count(method, code.name, started)
            await context.abort(code, status.message, rich.trailers(status, extra))
            raise AssertionError("context.abort returned")  # it always raises

        async def abort_plain(code: grpc.StatusCode, message: str, reason: str) -> NoReturn:
            await abort(code, rich.error_status(code, message, self._domain, reason))

        if isinstance(error, _Undecodable):
            message = f"the request is not a valid {method} message"
            await abort_plain(grpc.StatusCode.INVALID_ARGUMENT, message, rich.UNDECODABLE_REQUEST)
        if isinstance(error, MenagerieError):
            pushback: rich.Metadata = ()
            if isinstance(error, RateLimited):
                # Also said the way gRPC's own retry policy reads it.
                pushback = (("grpc-retry-pushback-ms", str(error.retry_after_ms)),)
            await abort(grpc.StatusCode[error.status], self._status_of(error, call), pushback)
        if isinstance(error, (RedisConnectionError, RedisTimeoutError)):
            log.warning("Redis does not answer", method=method, exc_info=error)
            await abort_plain(grpc.StatusCode.UNAVAILABLE, STORE_UNAVAILABLE, rich.STORE_UNAVAILABLE)
        if isinstance(error, grpc.aio.AbortError):
            self._count(method, "SERVICER_ABORT")
            raise error
        log.error("unexpected error", method=method, exc_info=error)
        await abort_plain(grpc.StatusCode.INTERNAL, "internal error", rich.INTERNAL)

    def _status_of(self, error: MenagerieError, call: _Call) -> status_pb2.Status:
        """The error's status with details; only its ErrorInfo if working out the rest failed (logged)."""
        try:
            return rich.status_of(error, self._domain, call.request)
        except Exception:
            log.exception("cannot work out the error's details", error=error.message)
            return rich.error_status(grpc.StatusCode[error.status], error.message, self._domain, error.status)

    def _wrap_unary(
        self, method: str, behavior: UnaryBehavior, deserialize: Callable[[bytes], Any]
    ) -> Callable[[bytes, Context], Awaitable[Any]]:
        async def unary(raw: bytes, context: Context) -> Any:
            started = time.perf_counter()
            call = _Call()
            try:
                request, _ = self._prepare(method, raw, deserialize, context, call)
                response = await behavior(request, context)
            except Exception as error:
                await self._refuse(method, context, call, error, started)
            except BaseException:
                self._count(method, "CANCELLED")  # the client went away or the server is stopping
                raise
            self._count(method, "OK", started)
            return response

        return unary

    def _wrap_stream(
        self, method: str, behavior: StreamBehavior, deserialize: Callable[[bytes], Any]
    ) -> Callable[[bytes, Context], AsyncIterator[Any]]:
        async def stream(raw: bytes, context: Context) -> AsyncIterator[Any]:
            call = _Call()
            try:
                request, caller = self._prepare(method, raw, deserialize, context, call)
                self._quotas.open_stream(caller)
                OPEN_STREAMS.inc()
                try:
                    async for response in behavior(request, context):
                        yield response
                finally:
                    self._quotas.close_stream(caller)
                    OPEN_STREAMS.dec()
            except Exception as error:
                await self._refuse(method, context, call, error, None)
            except BaseException:
                self._count(method, "CANCELLED")  # a stream closed early, or the server is stopping
                raise
            self._count(method, "OK")

        return stream


class _Undecodable(Exception):
    """The request bytes are not a message of the method's request type."""
