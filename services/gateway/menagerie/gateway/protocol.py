"""uvicorn's HTTP/1.1 protocol (h11) with what it lacks for the open internet (issue 29, items 2 and 5).

* A header read timeout: a connection must send a whole request head within
  `header_timeout` seconds of opening, or of the first byte of its next request; otherwise
  it is closed (uvicorn waits for ever: 1,500 half-sent connections stayed open). The idle
  time between requests is uvicorn's keep-alive timeout; the body's time is the body
  timeout of menagerie.gateway.limits.
* A request with both Content-Length and Transfer-Encoding is answered 400 and the
  connection closed (RFC 9112 §6.1: a request smuggling vector; h11 would take the chunked
  framing and go on).
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from h11._connection import DEFAULT_MAX_INCOMPLETE_EVENT_SIZE
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from menagerie.gateway import metrics


class StrictConnection(h11.Connection):
    """h11's server side, refusing a request that carries both framings."""

    def next_event(self) -> Any:
        """h11's next event; RemoteProtocolError (uvicorn: 400, close) for Content-Length with Transfer-Encoding."""
        event = super().next_event()
        if isinstance(event, h11.Request):
            names = {name for name, _ in event.headers}
            if b"transfer-encoding" in names and b"content-length" in names:
                metrics.REFUSALS.labels("bad_framing").inc()
                raise h11.RemoteProtocolError("both Content-Length and Transfer-Encoding", 400)
        return event


class GatewayProtocol(H11Protocol):
    """H11Protocol with a header read timeout and strict framing (see the module)."""

    header_timeout = 10.0

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        size = config.h11_max_incomplete_event_size or DEFAULT_MAX_INCOMPLETE_EVENT_SIZE
        self.conn = StrictConnection(h11.SERVER, size)
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """uvicorn's, and the first request's head must arrive within header_timeout."""
        super().connection_made(transport)
        self._arm_head_timer()

    def data_received(self, data: bytes) -> None:
        """uvicorn's; the first byte of a request starts its head's clock, a whole head stops it."""
        if self._head_timer is None and self.conn.their_state is h11.IDLE:
            self._arm_head_timer()
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._cancel_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        """uvicorn's, and no timer left behind."""
        self._cancel_head_timer()
        super().connection_lost(exc)

    def _arm_head_timer(self) -> None:
        self._cancel_head_timer()
        self._head_timer = self.loop.call_later(self.header_timeout, self._head_timed_out)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            metrics.REFUSALS.labels("header_timeout").inc()
            self.transport.close()


def protocol_class(header_timeout: float) -> type[GatewayProtocol]:
    """GatewayProtocol with `header_timeout` (uvicorn builds each connection's protocol from a class)."""
    return type("GatewayProtocol", (GatewayProtocol,), {"header_timeout": header_timeout})
