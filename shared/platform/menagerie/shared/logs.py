"""Structured logging for every process (structlog, console or JSON lines)."""

from __future__ import annotations

import logging
import sys

import structlog


def configure_logging(service: str, fmt: str = "console", level: str = "info") -> structlog.stdlib.BoundLogger:
    """Sets up structlog once per process and returns the service's logger."""
    logging.basicConfig(format="%(message)s", stream=sys.stderr, level=level.upper())
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer() if fmt == "json" else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            structlog.processors.StackInfoRenderer(),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level.upper())),
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
        cache_logger_on_first_use=True,
    )
    return structlog.get_logger(service=service)  # type: ignore[no-any-return]
