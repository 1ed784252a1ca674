"""Traces in the bot worker (menagerie.shared.tracing): each task continues the trace its headers carry.

The dispatcher puts the turn notice's trace context in the task's headers
(menagerie.bots.publish); Celery hands them to the task as attributes of its request, where
the celery instrumentation reads them and makes the task's span, parent of the bot's gRPC
calls (GetView, ListLegalActions, SubmitAction), which carry it on in their metadata.

With the prefork pool, tracing starts in each pool process after the fork, never in the
main one: the OTLP exporter's gRPC channel and the batch's thread must not cross a fork
(grpc#13464). The other pools run their tasks in the main process, where it starts as the
worker does. The signals fire only in a worker: the dispatcher, which imports the app too,
is not touched (menagerie.bots.celery_app imports this module for them).
"""

from __future__ import annotations

from typing import Any

from celery.signals import worker_init, worker_process_init, worker_process_shutdown

from menagerie.shared.tracing import flush, setup_tracing

SERVICE_NAME = "bot-worker"


def trace_tasks() -> None:
    """Turns traces on in this process when the environment asks for it, tasks' spans included."""
    if setup_tracing(SERVICE_NAME):
        from opentelemetry.instrumentation.celery import CeleryInstrumentor

        CeleryInstrumentor().instrument()  # type: ignore[no-untyped-call]


@worker_process_init.connect(weak=False)
def _start_in_pool_process(**_: Any) -> None:
    trace_tasks()


@worker_process_shutdown.connect(weak=False)
def _flush_pool_process(**_: Any) -> None:
    # A pool process leaves through os._exit, which runs no atexit hook.
    flush()


@worker_init.connect(weak=False)
def _start_in_worker(sender: Any = None, **_: Any) -> None:
    # The threads and solo pools run tasks in the worker's own process (no fork to wait for).
    if "prefork" not in str(getattr(sender, "pool_cls", "prefork")):
        trace_tasks()
