"""Traces (OpenTelemetry): off unless the standard OTEL_* variables ask for them.

A move is one trace across the processes (docs/architecture.md "Traces"): gRPC calls carry
the context in their metadata (the grpc instrumentation, client and server), the store's
scripts get a span each and write the script span's `traceparent` beside the turn notice on
the shard's feed, the dispatcher continues it when it reads the notice and puts it in the
Celery task's headers, and the worker's task (the celery instrumentation) continues it into
the bot's gRPC calls.

On when OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set, or
OTEL_TRACES_EXPORTER names `otlp` or `console`; off when none is, when OTEL_SDK_DISABLED is
true or OTEL_TRACES_EXPORTER is `none`. Spans go to an OTLP collector over gRPC (the
exporter reads the other OTEL_EXPORTER_OTLP_* variables itself: headers, insecure, timeout),
batched (OTEL_BSP_*); OTEL_TRACES_SAMPLER picks which traces are kept, OTEL_SERVICE_NAME
and OTEL_RESOURCE_ATTRIBUTES name the process (the default name is the process's own).

Off costs nothing: no OpenTelemetry module is imported and nothing is instrumented; the
helpers below answer at once (an empty context, a span that is not one).
"""

from __future__ import annotations

import atexit
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from opentelemetry.context import Context
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.sampling import Sampler, SamplingResult
    from opentelemetry.trace import Link, SpanKind
    from opentelemetry.util.types import Attributes

TRACEPARENT = "traceparent"
TRACER_NAME = "menagerie"
ENDPOINT_VARIABLES = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
EXPORTERS = ("otlp", "console")

_providers: list[TracerProvider] = []  # this process's, once tracing is on
_NO_CONTEXT: AbstractContextManager[str] = nullcontext("")


def wanted(environ: Mapping[str, str]) -> bool:
    """True when the environment turns traces on (see the module's docstring)."""
    if environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    exporter = environ.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    if exporter == "none":
        return False
    return exporter in EXPORTERS or any(environ.get(name, "").strip() for name in ENDPOINT_VARIABLES)


def enabled() -> bool:
    """True once `setup_tracing` turned traces on in this process."""
    return bool(_providers)


def setup_tracing(service_name: str) -> bool:
    """Turns traces on for this process when the environment asks for it (once); True when on."""
    if _providers or not wanted(os.environ):
        return enabled()
    from opentelemetry import trace
    from opentelemetry.instrumentation.grpc import (
        GrpcAioInstrumentorClient,
        GrpcAioInstrumentorServer,
        GrpcInstrumentorClient,
    )
    from opentelemetry.instrumentation.redis import RedisInstrumentor
    from opentelemetry.sdk.resources import SERVICE_NAME, Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    # The provider the environment describes (OTEL_TRACES_SAMPLER) lends its sampler.
    configured = TracerProvider(shutdown_on_exit=False).sampler
    provider = TracerProvider(
        resource=Resource.create({SERVICE_NAME: service_name}), sampler=_requests_only(configured)
    )
    provider.add_span_processor(BatchSpanProcessor(_exporter()))
    trace.set_tracer_provider(provider)
    _providers.append(provider)
    # Patched before any server or channel is made: each one made afterwards carries the context.
    GrpcAioInstrumentorServer().instrument()  # type: ignore[no-untyped-call]
    GrpcAioInstrumentorClient().instrument()  # type: ignore[no-untyped-call]
    GrpcInstrumentorClient().instrument()  # type: ignore[no-untyped-call]
    RedisInstrumentor().instrument()
    atexit.register(flush)
    return True


def flush() -> None:
    """Sends the spans still waiting in the batch (a process about to exit, a pool process ending)."""
    for provider in _providers:
        provider.force_flush()


def _exporter() -> Any:
    """The OTLP exporter over gRPC, or the console's for OTEL_TRACES_EXPORTER=console."""
    if os.environ.get("OTEL_TRACES_EXPORTER", "").strip().lower() == "console":
        from opentelemetry.sdk.trace.export import ConsoleSpanExporter

        return ConsoleSpanExporter()
    from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter

    return OTLPSpanExporter()


def _requests_only(delegate: Sampler) -> Sampler:
    """`delegate`, except that a client call outside any span starts no trace.

    The processes' own polling (health PINGs, stream reads, deadline scans) would otherwise
    send a one-span trace every few milliseconds; a move's calls all have a parent.
    """
    from opentelemetry import trace
    from opentelemetry.sdk.trace.sampling import Decision, Sampler, SamplingResult

    class RequestsOnly(Sampler):
        def should_sample(
            self,
            parent_context: Context | None,
            trace_id: int,
            name: str,
            kind: SpanKind | None = None,
            attributes: Attributes = None,
            links: Sequence[Link] | None = None,
            trace_state: trace.TraceState | None = None,
        ) -> SamplingResult:
            parent = trace.get_current_span(parent_context).get_span_context()
            if not parent.is_valid and kind == trace.SpanKind.CLIENT:
                return SamplingResult(Decision.DROP)
            return delegate.should_sample(parent_context, trace_id, name, kind, attributes, links, trace_state)

        def get_description(self) -> str:
            return f"RequestsOnly{{{delegate.get_description()}}}"

    return RequestsOnly()


def carrier() -> dict[str, str]:
    """The current span's context as headers (`traceparent`, …) for a message; empty when off."""
    if not _providers:
        return {}
    from opentelemetry.propagate import inject

    headers: dict[str, str] = {}
    inject(headers)
    return headers


def script_span(script: str) -> AbstractContextManager[str]:
    """A span for one store script (e.g. "submit.lua"), giving its `traceparent` ("" when off)."""
    if not _providers:
        return _NO_CONTEXT
    return _client_span(script)


@contextmanager
def _client_span(script: str) -> Iterator[str]:
    from opentelemetry import trace

    tracer = trace.get_tracer(TRACER_NAME)
    attributes = {"db.system.name": "redis", "db.operation.name": "EVALSHA", "db.query.summary": script}
    with tracer.start_as_current_span(script, kind=trace.SpanKind.CLIENT, attributes=attributes):
        yield carrier().get(TRACEPARENT, "")


def consumer_span(name: str, traceparent: bytes | None, *, follows: bool = False) -> AbstractContextManager[None]:
    """A span for handling one message that carried `traceparent`: its child, or with `follows` a new
    trace linked to it; nothing when off."""
    if not _providers:
        return nullcontext()
    return _consumer_span(name, traceparent.decode() if traceparent else "", follows)


@contextmanager
def _consumer_span(name: str, traceparent: str, follows: bool) -> Iterator[None]:
    from opentelemetry import trace
    from opentelemetry.propagate import extract

    sent = extract({TRACEPARENT: traceparent}) if traceparent else None
    kind = trace.SpanKind.CONSUMER
    tracer = trace.get_tracer(TRACER_NAME)
    if follows and sent is not None:
        origin = trace.get_current_span(sent).get_span_context()
        links = [trace.Link(origin)] if origin.is_valid else []
        # An empty context: a root span, not a child of whatever is current.
        with tracer.start_as_current_span(
            name, context=trace.set_span_in_context(trace.INVALID_SPAN), kind=kind, links=links
        ):
            yield
        return
    with tracer.start_as_current_span(name, context=sent, kind=kind):
        yield
