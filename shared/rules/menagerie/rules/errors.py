"""Domain errors. Each names the status a client receives; the gRPC bootstrap maps them.

Engines raise these too (they are plain exceptions, no I/O), so a refusal reads the
same whether it comes from the rules, the store or the API layer.
"""

from __future__ import annotations


class MenagerieError(Exception):
    """Base of every error a client may cause; `status` is a grpc.StatusCode name."""

    status = "UNKNOWN"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidArgument(MenagerieError):
    """The request is malformed: undecodable, missing a field, out of range."""

    status = "INVALID_ARGUMENT"


class Unauthenticated(MenagerieError):
    """No token, or one that is expired, forged or malformed."""

    status = "UNAUTHENTICATED"


class PermissionDenied(MenagerieError):
    """A valid token that does not allow this call (another match, another seat)."""

    status = "PERMISSION_DENIED"


class NotFound(MenagerieError):
    """The match (or ticket, table, player) does not exist."""

    status = "NOT_FOUND"


class AlreadyExists(MenagerieError):
    """Something with that id exists already and differs from the request."""

    status = "ALREADY_EXISTS"


class FailedPrecondition(MenagerieError):
    """The request is well formed but the current state forbids it."""

    status = "FAILED_PRECONDITION"


class IllegalAction(FailedPrecondition):
    """A move the rules forbid; the message names the rule."""

    def __init__(self, rule: str, detail: str) -> None:
        super().__init__(f"{rule}: {detail}")
        self.rule = rule
        self.detail = detail


class ResourceExhausted(MenagerieError):
    """A quota or cap is used up; the message names it and how to free some."""

    status = "RESOURCE_EXHAUSTED"


class Aborted(MenagerieError):
    """The caller's view is stale: the match moved on in a way that concerns it."""

    status = "ABORTED"


class Unavailable(MenagerieError):
    """A dependency (Redis, another service) does not answer; retrying may help."""

    status = "UNAVAILABLE"
