"""One HTTP port per process for Prometheus (`/metrics`) and an HTTP health probe (`/healthz`).

`/healthz` answers 200 `SERVING` or 503 `NOT_SERVING`, the same status the process's
gRPC health service reports (where it has one), so Docker's HEALTHCHECK, a Kubernetes
httpGet probe or a load balancer can ask any Menagerie process the same question on
the same kind of port, including the Celery worker, which cannot host a gRPC server
(it forks its pool, and a gRPC server must not be running across a fork: grpc#13464).

The server is the standard library's threaded WSGI server with prometheus_client's
WSGI app, in a daemon thread; `close()` stops it, so a process (or a test that runs
several services in one process) can let go of the port.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterable
from socketserver import ThreadingMixIn
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server
from wsgiref.types import StartResponse, WSGIEnvironment

from prometheus_client import REGISTRY, CollectorRegistry, Gauge, make_wsgi_app

# "max": in a process whose pool forks (multiprocess mode), only the main process sets it.
SERVING_GAUGE = Gauge(
    "menagerie_serving", "1 while the process reports SERVING, else 0", ["process"], multiprocess_mode="max"
)
HEALTH_PATHS = ("/healthz", "/readyz")


class Health:
    """SERVING or NOT_SERVING, set by one thread (or task) and read by any other."""

    def __init__(self, process: str) -> None:
        self.process = process
        self._serving = False
        self._lock = threading.Lock()
        SERVING_GAUGE.labels(process).set(0)

    @property
    def serving(self) -> bool:
        """True while the process can do its work."""
        with self._lock:
            return self._serving

    def set(self, serving: bool) -> bool:
        """Records the status; True when it changed."""
        with self._lock:
            changed, self._serving = serving != self._serving, serving
        SERVING_GAUGE.labels(self.process).set(1 if serving else 0)
        return changed


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """Probes every few seconds would drown the process's own log."""


class _ThreadingServer(ThreadingMixIn, WSGIServer):
    daemon_threads = True  # a slow scraper must not hold the process at exit


def _family(host: str, port: int) -> socket.AddressFamily:
    return socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0][0]


class HttpEndpoint:
    """`/metrics` and `/healthz` on host:port (port 0: a free port, see `.port`) in a daemon thread."""

    def __init__(self, host: str, port: int, health: Health, registry: CollectorRegistry = REGISTRY) -> None:
        metrics = make_wsgi_app(registry)

        def app(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
            if environ.get("PATH_INFO") in HEALTH_PATHS:
                serving = health.serving
                body = b"SERVING\n" if serving else b"NOT_SERVING\n"
                start_response(
                    "200 OK" if serving else "503 Service Unavailable",
                    [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body)))],
                )
                return [body]
            result: Iterable[bytes] = metrics(environ, start_response)
            return result

        server_class = type("Server", (_ThreadingServer,), {"address_family": _family(host, port)})
        self._server: WSGIServer = make_server(host, port, app, server_class, handler_class=_QuietHandler)
        self.port = int(self._server.server_port)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.2}, name="http-endpoint", daemon=True
        )
        self._thread.start()

    def close(self) -> None:
        """Stops serving and releases the port."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
