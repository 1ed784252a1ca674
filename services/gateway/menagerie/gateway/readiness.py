"""Readiness (issue 29, item 6): the gateway is ready only while the lobby answers its health check.

`/healthz` says whether the process serves (liveness: it stops on SIGTERM); `/readyz` says
whether a browser sent here now would get anywhere: serving, and the lobby answering the
standard gRPC health check (SERVING) within a second, asked every `interval` seconds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import grpc
import structlog
from grpc_health.v1 import health_pb2, health_pb2_grpc

CHECK_TIMEOUT_SECONDS = 1.0


async def lobby_serving(channel: grpc.aio.Channel) -> bool:
    """True when the lobby's gRPC health check answers SERVING in time."""
    stub = health_pb2_grpc.HealthStub(channel)
    try:
        # typeshed's HealthStub declares no methods; Check exists at run time.
        reply = await stub.Check(  # type: ignore[attr-defined]
            health_pb2.HealthCheckRequest(service=""), timeout=CHECK_TIMEOUT_SECONDS
        )
    except grpc.aio.AioRpcError:
        return False
    return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)


async def watch_lobby(
    channel: Callable[[], grpc.aio.Channel],
    report: Callable[[bool], None],
    interval: float,
    log: structlog.stdlib.BoundLogger,
) -> None:
    """Reports the lobby's health every `interval` seconds (logging each change) until cancelled."""
    last: bool | None = None
    while True:
        reachable = await lobby_serving(channel())
        report(reachable)
        if reachable != last:
            if reachable:
                log.info("lobby reachable", ready=True)
            else:
                log.warning("lobby unreachable", ready=False)
            last = reachable
        await asyncio.sleep(interval)
