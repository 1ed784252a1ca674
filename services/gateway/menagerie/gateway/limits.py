"""Bounded request bodies, read before the Connect application sees them (issue 29, item 1).

connect-python (0.9) joins the whole body, then decompresses it, then compares the result
with `read_max_bytes`: a 52 MB body is read whole before it is refused, and 100 KB of gzip
inflates to 100 MB on the event loop. So this middleware, in front of it:

* refuses a Content-Length over the limit with 413 before reading a byte (and closes the
  connection, so the server does not drain the rest);
* reads any other body itself, counting as it arrives, and stops at the limit (413);
* gives the body `body_timeout` seconds to arrive in full (408), so a trickle cannot hold a task;
* inflates a gzip-encoded unary body here, incrementally (`max_length` per step, yielding to
  the loop between steps), refusing past the limit, and hands connect-python the inflated
  body as identity; a body that is not gzip is 400, an unknown encoding 415;
* answers gRPC content types (which need HTTP trailers, not served here) with 415.

A compressed message inside a stream's envelope (`connect-content-encoding`) or a GET's
`compression` parameter is inflated by `BoundedGzip`, connect-python's compression with the
same bound (in one go: at most the limit, a few milliseconds).
"""

from __future__ import annotations

import asyncio
import json
import zlib
from collections.abc import Iterable

from connectrpc.code import Code
from connectrpc.compression import Compression
from connectrpc.errors import ConnectError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from menagerie.gateway import metrics

# Each inflating step produces at most this much before the loop gets a turn.
INFLATE_STEP_BYTES = 64 * 1024
GZIP_WBITS = 16 + zlib.MAX_WBITS
# Content types whose body is one Connect unary message (the body itself may be compressed).
UNARY_TYPES = ("application/json", "application/proto")
# Content types connect-python would route to its gRPC protocol, which needs HTTP trailers.
GRPC_TYPE = "application/grpc"
GRPC_WEB_TYPE = "application/grpc-web"
ENCODINGS = ("identity", "gzip")


class Refused(Exception):
    """A request refused before the application sees it: its HTTP status, Connect code and reason."""

    def __init__(self, status: int, code: Code, message: str, reason: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.reason = reason


def too_large(limit: int) -> Refused:
    """The refusal of a body (or its inflated form) over `limit` bytes."""
    return Refused(413, Code.RESOURCE_EXHAUSTED, f"the request body is larger than {limit} bytes", "too_large")


def header(scope: Scope, name: bytes) -> bytes | None:
    """The first value of request header `name` (lower case), or None."""
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value)
    return None


async def refuse(send: Send, refused: Refused, extra: Iterable[tuple[bytes, bytes]] = ()) -> None:
    """Answers `refused` as a Connect error (JSON) and asks the server to close the connection."""
    metrics.REFUSALS.labels(refused.reason).inc()
    body = json.dumps({"code": refused.code.value, "message": refused.message}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        # The rest of the body is not read: the connection cannot carry another request.
        (b"connection", b"close"),
        *extra,
    ]
    await send({"type": "http.response.start", "status": refused.status, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


async def inflate(data: bytes, limit: int) -> bytes:
    """`data` (gzip, one member or several) inflated, step by step; Refused past `limit` or when not gzip."""
    out = bytearray()
    pending = data
    try:
        while pending:
            inflater = zlib.decompressobj(GZIP_WBITS)
            chunk = inflater.decompress(pending, INFLATE_STEP_BYTES)
            while True:
                out += chunk
                if len(out) > limit:
                    raise too_large(limit)
                await asyncio.sleep(0)  # one request's inflating never holds the loop
                if inflater.eof or not inflater.unconsumed_tail:
                    break
                chunk = inflater.decompress(inflater.unconsumed_tail, INFLATE_STEP_BYTES)
            if not inflater.eof:
                raise zlib.error("truncated")
            pending = inflater.unused_data
    except zlib.error:
        raise Refused(400, Code.INVALID_ARGUMENT, "the request body is not valid gzip", "bad_gzip") from None
    return bytes(out)


class BoundedGzip(Compression):
    """connect-python's gzip, inflating at most `limit` bytes (streams' envelopes, GET parameters)."""

    def __init__(self, limit: int) -> None:
        self._limit = limit

    def name(self) -> str:
        """The encoding's name in headers."""
        return "gzip"

    def compress(self, data: bytes | bytearray | memoryview) -> bytes:
        """gzip at the default level (responses)."""
        compressor = zlib.compressobj(wbits=GZIP_WBITS)
        return compressor.compress(data) + compressor.flush()

    def decompress(self, data: bytes | bytearray | memoryview) -> bytes:
        """Inflates `data`: RESOURCE_EXHAUSTED past the limit, INVALID_ARGUMENT when it is not gzip."""
        inflater = zlib.decompressobj(GZIP_WBITS)
        try:
            out = inflater.decompress(data, self._limit + 1)
        except zlib.error:
            raise ConnectError(Code.INVALID_ARGUMENT, "the message is not valid gzip") from None
        if len(out) > self._limit:
            raise ConnectError(Code.RESOURCE_EXHAUSTED, f"the message is larger than {self._limit} bytes")
        if not inflater.eof:
            raise ConnectError(Code.INVALID_ARGUMENT, "the message is not valid gzip")
        return out


class BodyLimit:
    """The ASGI middleware described above, in front of the gateway's router."""

    def __init__(self, app: ASGIApp, limit: int, body_timeout: float) -> None:
        self.app = app
        self.limit = limit
        self.body_timeout = body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Reads and checks the body, then runs the application with it."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            self._check_head(scope)
            if not has_body(scope):
                await self.app(scope, receive, send)
                return
            body = await self._read(receive)
            if body is None:  # the client left while sending: nobody to answer
                return
            scope, body = await self._decoded(scope, body)
        except Refused as refused:
            await refuse(send, refused)
            return
        await self.app(scope, replay(body, receive), send)

    def _check_head(self, scope: Scope) -> None:
        content_type = (header(scope, b"content-type") or b"").decode("latin-1").lower()
        if content_type.startswith(GRPC_TYPE) and not content_type.startswith(GRPC_WEB_TYPE):
            raise Refused(
                415, Code.INVALID_ARGUMENT, "gRPC is not served here: use Connect or gRPC-Web", "unsupported_media"
            )
        length = header(scope, b"content-length")
        if length is not None:
            if not length.strip().isdigit():
                raise Refused(400, Code.INVALID_ARGUMENT, "Content-Length is not a number", "bad_framing")
            if int(length) > self.limit:
                raise too_large(self.limit)

    async def _read(self, receive: Receive) -> bytes | None:
        """The whole body, counted as it arrives (None if the client left): Refused past the limit or timeout."""
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.body_timeout):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return None
                    chunk: bytes = message.get("body", b"")
                    size += len(chunk)
                    metrics.BYTES_IN.inc(len(chunk))
                    if size > self.limit:
                        raise too_large(self.limit)
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        return b"".join(chunks)
        except TimeoutError:
            raise Refused(
                408, Code.DEADLINE_EXCEEDED, "the request body did not arrive in time", "body_timeout"
            ) from None

    async def _decoded(self, scope: Scope, body: bytes) -> tuple[Scope, bytes]:
        """The scope and body the application sees: a gzip unary body inflated here (its header dropped)."""
        encoding = (header(scope, b"content-encoding") or b"identity").decode("latin-1").strip().lower()
        if encoding not in ENCODINGS:
            raise Refused(415, Code.INVALID_ARGUMENT, f"unsupported Content-Encoding {encoding!r}", "unsupported_media")
        content_type = (header(scope, b"content-type") or b"").decode("latin-1").lower()
        if encoding != "gzip" or not content_type.startswith(UNARY_TYPES) or not body:
            return scope, body
        inflated = await inflate(body, self.limit)
        headers = [(key, value) for key, value in scope["headers"] if key != b"content-encoding"]
        return {**scope, "headers": headers}, inflated


def has_body(scope: Scope) -> bool:
    """True when the request announces a body (a non-zero Content-Length, or chunked)."""
    length = header(scope, b"content-length")
    if length is not None:
        return int(length) > 0
    return header(scope, b"transfer-encoding") is not None


def replay(body: bytes, receive: Receive) -> Receive:
    """A receive that gives `body` once, then what the server sends (its disconnect)."""
    given = False

    async def replayed() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed
