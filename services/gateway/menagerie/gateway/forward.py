"""Forwarding one Connect call to the backend's gRPC service: deadline, caller's token, errors, streams.

One `Forwarder` serves any gRPC service from its descriptor: the generated Connect
application (`<Service>ASGIApplication`, from protoc-gen-connect-python) looks up each
method by its snake_case name, and the forwarder answers with a function that calls the
same method on the backend over grpc.aio. So a new RPC in a .proto reaches browsers as
soon as the code is regenerated, without a line here.
"""

from __future__ import annotations

import asyncio
import contextvars
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import grpc
import structlog
from connectrpc.errors import ConnectError
from connectrpc.request import RequestContext
from google.protobuf import message_factory
from google.protobuf.descriptor import MethodDescriptor, ServiceDescriptor
from google.protobuf.message import DecodeError, Message
from google.rpc import status_pb2

from menagerie.gateway import metrics
from menagerie.gateway.clients import CLIENT
from menagerie.gateway.errors import internal_error, public_error, strip_endpoints
from menagerie.gateway.relay import RelayCredential
from menagerie.shared.rpc.channels import match_metadata

log: structlog.stdlib.BoundLogger = structlog.get_logger(service="gateway")

# Set by the ASGI layer (menagerie.gateway.app) for each request: set once the browser has gone.
DISCONNECTED: contextvars.ContextVar[asyncio.Event | None] = contextvars.ContextVar("disconnected", default=None)

# Request headers passed through to the backend as gRPC metadata.
PASSED_HEADERS = ("authorization",)
# The field that names a request's match, in every game's and the Matches service's requests.
MATCH_FIELD = "match_id"
DETAILS_KEY = "grpc-status-details-bin"

UnaryHandler = Callable[[Message, RequestContext[Any, Any]], Awaitable[Message]]
StreamHandler = Callable[[Message, RequestContext[Any, Any]], AsyncIterator[Message]]


def snake_case(name: str) -> str:
    """'ListLegalActions' -> 'list_legal_actions' (how the generated Connect code names methods)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def metadata(
    ctx: RequestContext[Any, Any], relay: RelayCredential | None = None, match_id: str = ""
) -> tuple[tuple[str, str], ...]:
    """The caller's headers the backend needs (its token), the gateway's credential naming the client, the match.

    The match routes the call to its replica on a per-match channel (menagerie.shared.rpc.channels);
    a round-robin channel ignores it.
    """
    headers = ctx.request_headers()
    passed = tuple((name, value) for name in PASSED_HEADERS if (value := headers.get(name)))
    if match_id:
        passed = (*passed, match_metadata(match_id))
    return passed if relay is None else (*passed, *relay.metadata(CLIENT.get()))


def match_of(method: MethodDescriptor) -> Callable[[Message], str]:
    """How to read the match a request of `method` is about: its `match_id` field, or '' where it has none."""
    if MATCH_FIELD not in method.input_type.fields_by_name:
        return lambda _request: ""
    return lambda request: str(getattr(request, MATCH_FIELD))


def connect_error(error: grpc.aio.AioRpcError, method: str) -> ConnectError:
    """The backend's status as a Connect error: same code, message and google.rpc.Status details (scrubbed)."""
    metrics.CALLS.labels(method, error.code().name).inc()
    details: list[Any] = []
    for key, value in error.trailing_metadata() or ():
        if key == DETAILS_KEY and isinstance(value, bytes):
            status = status_pb2.Status()
            try:
                status.ParseFromString(value)
            except DecodeError:
                continue
            details.extend(status.details)
    return public_error(error.code(), error.details() or "", details, method)


def _message_class(descriptor: Any) -> type[Message]:
    return message_factory.GetMessageClass(descriptor)


class Forwarder:
    """Every method of one gRPC service, forwarded to the backend `channel()` returns."""

    def __init__(
        self,
        service: ServiceDescriptor,
        channel: Callable[[], grpc.aio.Channel],
        call_timeout: float,
        stream_timeout: float,
        draining: asyncio.Event | None = None,
        relay: RelayCredential | None = None,
    ) -> None:
        self.service = service
        self._relay = relay
        # Set when the gateway is asked to stop: open streams end cleanly at once (the page reopens them
        # elsewhere) instead of holding the drain for its whole grace period.
        self._draining = draining or asyncio.Event()
        self._channel = channel
        self._call_timeout = call_timeout
        self._stream_timeout = stream_timeout
        self._methods: dict[str, MethodDescriptor] = {snake_case(m.name): m for m in service.methods}

    def __getattr__(self, name: str) -> UnaryHandler | StreamHandler:
        method = self.__dict__.get("_methods", {}).get(name)
        if method is None:
            raise AttributeError(name)
        if method.client_streaming:
            raise AttributeError(f"{name}: client streams are not forwarded")
        return self._stream(method) if method.server_streaming else self._unary(method)

    def _path(self, method: MethodDescriptor) -> str:
        return f"/{self.service.full_name}/{method.name}"

    def _unary(self, method: MethodDescriptor) -> UnaryHandler:
        path, output, match = self._path(method), _message_class(method.output_type), match_of(method)

        async def forward(request: Message, ctx: RequestContext[Any, Any]) -> Message:
            call: grpc.aio.UnaryUnaryMultiCallable[Message, Message] = self._channel().unary_unary(
                path, request_serializer=lambda m: m.SerializeToString(), response_deserializer=output.FromString
            )
            timeout = self._call_timeout
            if (asked := ctx.timeout_ms()) is not None:
                timeout = min(timeout, asked / 1000)
            try:
                response: Message = await call(
                    request, timeout=timeout, metadata=metadata(ctx, self._relay, match(request))
                )
            except grpc.aio.AioRpcError as exc:
                raise connect_error(exc, path) from None
            except Exception as exc:
                raise internal_error(exc, path) from None
            metrics.CALLS.labels(path, "OK").inc()
            return strip_endpoints(response)

        return forward

    def _stream(self, method: MethodDescriptor) -> StreamHandler:
        path, output, match = self._path(method), _message_class(method.output_type), match_of(method)

        async def forward(request: Message, ctx: RequestContext[Any, Any]) -> AsyncIterator[Message]:
            method_call: grpc.aio.UnaryStreamMultiCallable[Message, Message] = self._channel().unary_stream(
                path, request_serializer=lambda m: m.SerializeToString(), response_deserializer=output.FromString
            )
            call = method_call(
                request, timeout=self._stream_timeout, metadata=metadata(ctx, self._relay, match(request))
            )
            gone = DISCONNECTED.get() or asyncio.Event()
            left = asyncio.ensure_future(gone.wait())
            stopping = asyncio.ensure_future(self._draining.wait())
            metrics.OPEN_STREAMS.inc()
            try:
                while True:
                    read = asyncio.ensure_future(call.read())
                    await asyncio.wait({read, left, stopping}, return_when=asyncio.FIRST_COMPLETED)
                    if not read.done():
                        # The browser left, or the gateway stops: stop reading, cancel the backend stream (finally).
                        read.cancel()
                        log.debug("stream closed", method=path, by="gateway" if stopping.done() else "browser")
                        return
                    message = read.result()
                    if not isinstance(message, Message):  # grpc.aio.EOF: the backend ended the stream
                        metrics.CALLS.labels(path, "OK").inc()
                        return
                    yield strip_endpoints(message)
            except grpc.aio.AioRpcError as exc:
                raise connect_error(exc, path) from None
            except Exception as exc:
                raise internal_error(exc, path) from None
            finally:
                metrics.OPEN_STREAMS.dec()
                left.cancel()
                stopping.cancel()
                call.cancel()

        return forward
