"""The gateway's part of a move's trace: a server span for each browser request (when traces are on).

Traces are turned on for the process by menagerie.shared.tracing (the standard OTEL_*
variables), which also carries the context into the gateway's gRPC calls to the backends, so
the browser's request is the root of the move's trace. Probes (/healthz, /readyz) make no
spans: a prober's every few seconds would bury the requests.
"""

from __future__ import annotations

from starlette.types import ASGIApp

from menagerie.shared import tracing

PROBES = "/healthz,/readyz"


def traced(app: ASGIApp) -> ASGIApp:
    """`app` behind OpenTelemetry's ASGI middleware when traces are on; `app` itself otherwise."""
    if not tracing.enabled():
        return app
    from opentelemetry.instrumentation.asgi import OpenTelemetryMiddleware

    # One span per request: not one more for each message received or sent on it.
    return OpenTelemetryMiddleware(app, excluded_urls=PROBES, exclude_spans=["receive", "send"])
