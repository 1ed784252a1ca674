"""The bootstrap every Menagerie process starts through (gRPC services, the dispatcher, the bot worker)."""

from menagerie.shared.rpc.bootstrap import BlockingRuntime, Runtime, run_blocking, run_service, serve
from menagerie.shared.rpc.interceptor import current_principal, require_principal

__all__ = [
    "BlockingRuntime",
    "Runtime",
    "current_principal",
    "require_principal",
    "run_blocking",
    "run_service",
    "serve",
]
