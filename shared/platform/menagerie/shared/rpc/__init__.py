"""The gRPC bootstrap every Menagerie service starts through."""

from menagerie.shared.rpc.bootstrap import Runtime, run_service, serve
from menagerie.shared.rpc.interceptor import current_principal, require_principal

__all__ = ["Runtime", "current_principal", "require_principal", "run_service", "serve"]
