"""The gateway's Prometheus metrics (issue 29, item 6), served on MENAGERIE_METRICS_PORT like every process's.

Labels stay bounded: `method` is one of the services' own methods (the forwarder knows
them), `status` an HTTP status, `reason` one of the refusals below.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from menagerie.gateway.paths import route

CALLS = Counter(
    "menagerie_gateway_calls_total", "Calls forwarded to a backend, by method and gRPC status code", ["method", "code"]
)
HTTP_RESPONSES = Counter(
    "menagerie_gateway_http_responses_total", "HTTP responses, by kind of path and status", ["route", "status"]
)
OPEN_STREAMS = Gauge("menagerie_gateway_open_streams", "Server streams (Watch, WatchTicket) forwarded now")
BYTES_IN = Counter("menagerie_gateway_received_bytes_total", "Request body bytes read from browsers")
BYTES_OUT = Counter("menagerie_gateway_sent_bytes_total", "Response body bytes sent to browsers")
REFUSALS = Counter(
    "menagerie_gateway_refusals_total",
    "Requests or connections refused before the backends: too_large, body_timeout, header_timeout, concurrency,"
    " bad_request, bad_framing, bad_gzip, unsupported_media",
    ["reason"],
)


class Measured:
    """Counts each response's status and body bytes (ASGI middleware, outermost)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Runs the application, counting what it sends."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        kind = route(scope["path"])

        async def counted(message: Message) -> None:
            if message["type"] == "http.response.start":
                HTTP_RESPONSES.labels(kind, str(message["status"])).inc()
            elif message["type"] == "http.response.body":
                BYTES_OUT.inc(len(message.get("body", b"")))
            await send(message)

        await self.app(scope, receive, counted)
