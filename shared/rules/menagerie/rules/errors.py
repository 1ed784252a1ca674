"""Domain errors. Each names the status a client receives; the gRPC bootstrap maps them.

Engines raise these too (they are plain exceptions, no I/O), so a refusal reads the
same whether it comes from the rules, the store or the API layer.

Besides its message, an error may say more for programs (menagerie.shared.rpc.details
turns it into google.rpc.Status details): a `reason` (a stable UPPER_SNAKE id; by
default the one its kind has there), `metadata` (string pairs), and for InvalidArgument
the `fields` it is about. A refused move's reason is its rule's id (`rule_id`), and the game's RULES.md reads the
rule under the anchor made from that id (`rule_anchor`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence

_NOT_ID = re.compile(r"[^A-Z0-9]+")
# google.rpc.ErrorInfo's reasons: at most 63 characters, [A-Z][A-Z0-9_]+[A-Z0-9].
_REASON_LENGTH = 63


def rule_id(rule: str) -> str:
    """The stable UPPER_SNAKE id of a rule's name ("Turn order" -> "TURN_ORDER")."""
    ascii_name = unicodedata.normalize("NFKD", rule).encode("ascii", "ignore").decode().upper()
    words = _NOT_ID.sub("_", ascii_name).strip("_")
    if len(words) < 2 or not words[0].isalpha():
        words = f"RULE_{words}".rstrip("_")
    return words[:_REASON_LENGTH].rstrip("_")


def rule_anchor(rule: str) -> str:
    """The anchor of a rule's reading in its game's RULES.md, from its stable id ("Turn order" -> "rule-turn-order")."""
    return "rule-" + rule_id(rule).lower().replace("_", "-")


class MenagerieError(Exception):
    """Base of every error a client may cause; `status` is a grpc.StatusCode name."""

    status = "UNKNOWN"

    def __init__(self, message: str, *, reason: str = "", metadata: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason
        self.metadata = dict(metadata or {})


class InvalidArgument(MenagerieError):
    """The request is malformed: undecodable, missing a field, out of range.

    `fields` names the request fields at fault ("match_id", "action.move"); when it is
    empty, the bootstrap looks for the request's field names in the message.
    """

    status = "INVALID_ARGUMENT"

    def __init__(
        self,
        message: str,
        *,
        fields: Sequence[str] = (),
        reason: str = "",
        metadata: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message, reason=reason, metadata=metadata)
        self.fields = tuple(fields)


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
    """A move the rules forbid; the message names the rule, the reason is the rule's id."""

    def __init__(self, rule: str, detail: str) -> None:
        super().__init__(f"{rule}: {detail}", reason=rule_id(rule))
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
