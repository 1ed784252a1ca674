"""A tiny OTLP trace collector over gRPC: the spans that processes export, kept for a test to read.

The processes under test export with the SDK's own OTLP exporter (menagerie.shared.tracing),
as they would to a real collector; this one answers every export and keeps its spans.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from concurrent import futures
from contextlib import contextmanager
from dataclasses import dataclass

import grpc
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc


@dataclass(frozen=True)
class ExportedSpan:
    """One exported span, as the trace's reader needs it."""

    service: str
    name: str
    trace_id: str
    span_id: str
    parent_id: str  # "" for a trace's root
    links: tuple[str, ...]  # the span ids it links to


class Collector(trace_service_pb2_grpc.TraceServiceServicer):
    """Keeps every span exported to it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._spans: list[ExportedSpan] = []
        self.address = ""

    def Export(  # noqa: N802 (the gRPC method's name)
        self, request: trace_service_pb2.ExportTraceServiceRequest, context: grpc.ServicerContext
    ) -> trace_service_pb2.ExportTraceServiceResponse:
        """Keeps the request's spans."""
        received = []
        for resource_spans in request.resource_spans:
            names = [a.value.string_value for a in resource_spans.resource.attributes if a.key == "service.name"]
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    received.append(
                        ExportedSpan(
                            service=names[0] if names else "",
                            name=span.name,
                            trace_id=span.trace_id.hex(),
                            span_id=span.span_id.hex(),
                            parent_id=span.parent_span_id.hex(),
                            links=tuple(link.span_id.hex() for link in span.links),
                        )
                    )
        with self._lock:
            self._spans.extend(received)
        return trace_service_pb2.ExportTraceServiceResponse()

    def spans(self) -> list[ExportedSpan]:
        """Every span received so far."""
        with self._lock:
            return list(self._spans)


@contextmanager
def otlp_collector() -> Iterator[Collector]:
    """A collector listening on a free loopback port (`.address`, host:port) until the block ends."""
    collector = Collector()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(collector, server)  # type: ignore[no-untyped-call]
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    collector.address = f"127.0.0.1:{port}"
    try:
        yield collector
    finally:
        server.stop(grace=None)
