"""Client-side health checks: waiting for a service to report SERVING."""

from __future__ import annotations

import subprocess
import time

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from menagerie.shared.rpc.channels import QUICK_RECONNECT, open_channel


def wait_until_serving(
    address: str, process: subprocess.Popen[bytes] | None = None, timeout: float = 30.0, ca_file: str = ""
) -> None:
    """Blocks until the gRPC health check at `address` says SERVING (or the process exits); TLS with `ca_file`."""
    deadline = time.monotonic() + timeout
    with open_channel(address, ca_file, QUICK_RECONNECT) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while True:
            if process is not None and process.poll() is not None:
                raise RuntimeError(f"service at {address} exited with {process.returncode}")
            try:
                # typeshed's HealthStub declares no methods; Check exists at run time.
                reply = stub.Check(health_pb2.HealthCheckRequest(), timeout=1)  # type: ignore[attr-defined]
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            except grpc.RpcError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"service at {address} did not become SERVING within {timeout:.0f} s")
            time.sleep(0.1)
