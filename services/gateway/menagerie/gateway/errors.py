"""What a browser may learn from an error (issue 29, item 4): no internal address, no Python text.

* Each request gets an id (`x-request-id` on every answer). A backend's UNAVAILABLE,
  UNKNOWN or INTERNAL reaches the browser as one fixed sentence with that id; the
  backend's own words (which name addresses: "ipv4:127.0.0.1:51353: Failed to connect")
  go to the log with the same id.
* Other codes keep their message and details, with anything that looks like an address
  (`ipv4:…`, `peer:…`, `host:port`) replaced.
* Replies lose the fields that carry the games' internal endpoints (`GameListing.endpoint`,
  `Seating.game_endpoint`, `MyMatch.game_endpoint`): the web app reaches a game by its name
  under /games/<game>/, never by address.
* A request body connect-python cannot decode (bad JSON, bad protobuf, nesting too deep) is
  INVALID_ARGUMENT (400) with a fixed sentence, not UNKNOWN (500) with the exception's text:
  its codecs are wrapped (`strict_codecs`).
* Anything else that escapes the application is a 500 INTERNAL with the fixed sentence.
"""

from __future__ import annotations

import contextvars
import json
import re
import secrets
from functools import cache
from typing import Any, TypeVar

import grpc
import structlog
from connectrpc import _codec
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from google.protobuf import any_pb2, descriptor_pool, message_factory
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from starlette.types import ASGIApp, Receive, Scope, Send

log: structlog.stdlib.BoundLogger = structlog.get_logger(service="gateway")

REQUEST_ID: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
HIDDEN_CODES = frozenset({grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.UNKNOWN, grpc.StatusCode.INTERNAL})
HIDDEN_FIELDS = frozenset({"endpoint", "game_endpoint"})
ADDRESS = re.compile(
    r"(?:\b(?:ipv4|ipv6|unix|unix-abstract|dns|peer):\S+)"  # gRPC's peer and target strings
    r"|(?:\[[0-9A-Fa-f:.]+\](?::\d+)?)"  # [v6]:port
    r"|(?:\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b)"  # v4[:port]
    r"|(?:\b[A-Za-z][\w.-]*:\d{2,5}\b)"  # host:port
)
HIDDEN_ADDRESS = "<internal>"
M = TypeVar("M", bound=Message)


def unavailable_sentence(request_id: str) -> str:
    """The one sentence a browser gets for a backend it cannot be told about."""
    return f"the service is unavailable at the moment; try again later (request {request_id})"


def scrub(text: str) -> str:
    """`text` with every address-like part replaced by HIDDEN_ADDRESS."""
    return ADDRESS.sub(HIDDEN_ADDRESS, text)


def scrub_message(message: Message) -> None:
    """Scrubs every string of `message` in place (maps, repeated fields, nested and Any messages)."""
    for field, value in message.ListFields():
        if field.type == FieldDescriptor.TYPE_STRING:
            if field.is_repeated:
                value[:] = [scrub(item) for item in value]
            else:
                setattr(message, field.name, scrub(value))
        elif field.message_type is not None:
            if field.message_type.GetOptions().map_entry:
                _scrub_map(value)
            elif field.is_repeated:
                for item in value:
                    scrub_message(item)
            else:
                scrub_message(value)


def _scrub_map(value: Any) -> None:
    for key in list(value):
        item = value[key]
        if isinstance(item, str):
            value[key] = scrub(item)
        elif isinstance(item, Message):
            scrub_message(item)


def scrub_detail(detail: any_pb2.Any) -> any_pb2.Any:
    """A google.rpc detail with its strings scrubbed (unknown types are dropped: they cannot be read)."""
    try:
        descriptor = descriptor_pool.Default().FindMessageTypeByName(detail.TypeName())
    except KeyError:
        return any_pb2.Any()
    message_class = message_factory.GetMessageClass(descriptor)
    unpacked, original = message_class(), message_class()
    if not detail.Unpack(unpacked) or not detail.Unpack(original):
        return any_pb2.Any()
    scrub_message(unpacked)
    if unpacked == original:  # as sent, byte for byte (a map re-serialized may change its order)
        return detail
    packed = any_pb2.Any()
    packed.Pack(unpacked)
    return packed


def public_error(code: grpc.StatusCode, message: str, details: list[Any], method: str) -> ConnectError:
    """The Connect error a browser gets for a backend's status: hidden codes logged and replaced."""
    connect_code = Code.CANCELED if code is grpc.StatusCode.CANCELLED else Code[code.name]
    request_id = REQUEST_ID.get()
    if code in HIDDEN_CODES:
        log.warning("backend error", request_id=request_id, method=method, code=code.name, detail=message)
        return ConnectError(connect_code, unavailable_sentence(request_id))
    kept = [scrubbed for detail in details if (scrubbed := scrub_detail(detail)).type_url]
    return ConnectError(connect_code, scrub(message) or connect_code.value, details=kept)


def internal_error(exc: BaseException, method: str) -> ConnectError:
    """The Connect error for the gateway's own failure: logged with its traceback, answered with the id."""
    request_id = REQUEST_ID.get()
    log.error("gateway error", request_id=request_id, method=method, exc_info=exc)
    return ConnectError(Code.INTERNAL, unavailable_sentence(request_id))


@cache
def _hides(descriptor: Descriptor) -> bool:
    """True when a message of this type can hold a HIDDEN_FIELDS field (itself or in a nested message)."""
    seen: set[str] = set()
    pending = [descriptor]
    while pending:
        current = pending.pop()
        if current.full_name in seen:
            continue
        seen.add(current.full_name)
        for field in current.fields:
            if field.name in HIDDEN_FIELDS and field.type == FieldDescriptor.TYPE_STRING:
                return True
            if field.message_type is not None:
                pending.append(field.message_type)
    return False


def strip_endpoints(message: M) -> M:
    """`message` without the internal endpoints it holds (in place; cheap for types that hold none)."""
    if not _hides(message.DESCRIPTOR):
        return message
    for field, value in message.ListFields():
        if field.name in HIDDEN_FIELDS and field.type == FieldDescriptor.TYPE_STRING:
            message.ClearField(field.name)
        elif field.message_type is not None and _hides(field.message_type):
            if field.message_type.GetOptions().map_entry:
                values = [value[key] for key in value]
            else:
                values = list(value) if field.is_repeated else [value]
            for item in values:
                if isinstance(item, Message):
                    strip_endpoints(item)
    return message


class StrictCodec:
    """A connect-python codec whose decoding failures are INVALID_ARGUMENT with a fixed sentence."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def name(self) -> str:
        """The wrapped codec's name."""
        return str(self._inner.name())

    def encode(self, message: Any) -> bytes:
        """The wrapped codec's encoding."""
        return bytes(self._inner.encode(message))

    def decode(self, data: bytes | bytearray, message: Any) -> Any:
        """The wrapped codec's decoding; any failure (RecursionError included) is the request's fault."""
        try:
            return self._inner.decode(data, message)
        except Exception as exc:  # DecodeError, ParseError, RecursionError, UnicodeDecodeError…
            log.info("undecodable request", request_id=REQUEST_ID.get(), codec=self.name(), detail=str(exc)[:200])
            raise ConnectError(
                Code.INVALID_ARGUMENT, f"the request is not a valid {self.name()} message of its type"
            ) from None


def strict_codecs() -> None:
    """Wraps connect-python's codecs (its registry, `connectrpc._codec._codecs`) in StrictCodec, once.

    connect-python has no per-application codec setting in 0.9; tests/e2e/web/test_gateway_probe.py
    fails if an upgrade moves the registry (malformed bodies would be 500 again).
    """
    registry: dict[str, Any] = _codec._codecs
    for name, codec in list(registry.items()):
        if not isinstance(codec, StrictCodec):
            registry[name] = StrictCodec(codec)


def new_request_id() -> str:
    """A short random id, to find an answer's log lines."""
    return secrets.token_hex(8)


class RequestIds:
    """Gives each request an id (`x-request-id`), and answers what escapes the application with it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Runs the application with REQUEST_ID set; an escaped exception becomes a fixed 500."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = new_request_id()
        token = REQUEST_ID.set(request_id)
        started = False

        async def with_id(message: Any) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": [*message.get("headers", ()), (b"x-request-id", request_id.encode())]}
            await send(message)

        try:
            await self.app(scope, receive, with_id)
        except Exception as exc:
            log.error("gateway error", request_id=request_id, path=scope.get("path"), exc_info=exc)
            if not started:
                body = json.dumps({"code": "internal", "message": unavailable_sentence(request_id)}).encode()
                headers = [(b"content-type", b"application/json"), (b"connection", b"close")]
                await with_id({"type": "http.response.start", "status": 500, "headers": headers})
                await with_id({"type": "http.response.body", "body": body, "more_body": False})
        finally:
            REQUEST_ID.reset(token)
