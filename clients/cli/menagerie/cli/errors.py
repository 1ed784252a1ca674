"""Server errors as sentences a player can read.

A refused move names its rule in the error's details (google.rpc.ErrorInfo metadata,
docs/clients.md): the sentence shows the rule beside what it says.
"""

from __future__ import annotations

import grpc

from menagerie.shared.rpc.details import read_details


def explain(error: grpc.RpcError, address: str = "") -> str:
    """One readable sentence for a failed call."""
    code = error.code()
    details = (error.details() or "").rstrip(".")
    where = f" at {address}" if address else ""
    if code == grpc.StatusCode.UNAVAILABLE:
        return f"The server{where} is not reachable. Is the platform running (make run)?"
    if code == grpc.StatusCode.FAILED_PRECONDITION:
        refusal = read_details(error).metadata
        if refusal.get("rule") and refusal.get("detail"):
            return f"That is not allowed now — {refusal['detail'].rstrip('.')} (rule: {refusal['rule']})."
        return f"That is not allowed now — {details}."
    if code == grpc.StatusCode.INVALID_ARGUMENT:
        return f"The request was not valid: {details}."
    if code == grpc.StatusCode.ABORTED:
        return "The game moved on before your move arrived; choose again from the new position."
    if code == grpc.StatusCode.UNAUTHENTICATED:
        return f"Your token was not accepted ({details}); start again."
    if code == grpc.StatusCode.PERMISSION_DENIED:
        return f"Not allowed: {details}."
    if code == grpc.StatusCode.NOT_FOUND:
        return f"Not found: {details}."
    if code == grpc.StatusCode.DEADLINE_EXCEEDED:
        return f"The server{where} took too long to answer."
    return f"The server said: {details or 'no details'} ({code.name})."
