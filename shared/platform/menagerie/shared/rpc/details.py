"""What a failed call carries beside its code and message: a google.rpc.Status with details.

The status goes out in the `grpc-status-details-bin` trailer (grpcio-status), its code
and message the same as the call's, so a client that reads only those loses nothing.
Its details (google.rpc.error_details, AIP-193):

* ErrorInfo, always: `domain` is "menagerie.<service>" (the game, or "lobby"); `reason`
  is a stable UPPER_SNAKE id — a refused move's rule id ("TURN_ORDER"), or the kind of
  error (VERSION_CONFLICT, RATE_LIMITED, ... the code's name when nothing more precise
  is known); `metadata` holds string pairs such as the rule's name and the anchor of its reading
  in the game's RULES.md ("rule-turn-order"), the request's match_id or expected_version.
* BadRequest for INVALID_ARGUMENT: one field violation per request field at fault.
* PreconditionFailure for a refused move (type RULE) and a stale view (type VERSION).
* QuotaFailure for RESOURCE_EXHAUSTED, with RetryInfo when the wait is known.

docs/clients.md describes the model for client developers; `read_details` decodes it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import DecodeError, Message
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status  # type: ignore[import-untyped]  # no stubs in the dev requirements

from menagerie.rules.errors import Aborted, IllegalAction, InvalidArgument, MenagerieError, rule_anchor

DETAILS_KEY = "grpc-status-details-bin"
# Reasons of errors whose kind says more than its code.
VERSION_CONFLICT = "VERSION_CONFLICT"
UNDECODABLE_REQUEST = "UNDECODABLE_REQUEST"
STORE_UNAVAILABLE = "STORE_UNAVAILABLE"
INTERNAL = "INTERNAL"

Metadata = Sequence[tuple[str, str | bytes]]

# A clause's first word, or any word with an underscore or a dot: the spellings of a field
# in the messages raised for a malformed request ("match_id is required", "action.move: ...").
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|\([^)]*\)")
_CLAUSE = re.compile(r"(?:^|[:;]\s+)(?:([a-z_]+) (\d+): )?([A-Za-z_][\w.]*)")
_NAMED = re.compile(r"(?<![\w.])([a-z][a-z0-9]*(?:[_.][a-z0-9]+)+)(?![\w.])")
# A field inside the one named, as msgspec's messages quote it ("missing required field `colour`", "at `$.to`").
_TICKED = re.compile(r"`(?:\$\.)?([a-z][\w.]*)`")
# The word before a quoted value names the field it was sent in ("has no mode 'x'").
_BEFORE_VALUE = re.compile(r"(?<![\w.])([a-z][a-z0-9_]*) '[^']*'")


def error_status(
    code: grpc.StatusCode,
    message: str,
    domain: str,
    reason: str,
    metadata: Mapping[str, str] | None = None,
    details: Iterable[Message] = (),
) -> status_pb2.Status:
    """A google.rpc.Status: the call's code and message, an ErrorInfo, then `details`."""
    info = error_details_pb2.ErrorInfo(reason=reason, domain=domain, metadata=dict(metadata or {}))
    packed = []
    for detail in (info, *details):
        wrapped = any_pb2.Any()
        wrapped.Pack(detail)
        packed.append(wrapped)
    return status_pb2.Status(code=code.value[0], message=message, details=packed)


def status_of(error: MenagerieError, domain: str, request: Message | None = None) -> status_pb2.Status:
    """The status a client gets for a domain error raised while answering `request`."""
    code = grpc.StatusCode[error.status]
    metadata = _request_ids(request)
    metadata.update(error.metadata)
    details: list[Message] = []
    reason = error.reason or error.status
    if isinstance(error, IllegalAction):
        metadata.update(rule=error.rule, detail=error.detail, anchor=rule_anchor(error.rule))
        details.append(_precondition("RULE", error.rule, error.detail))
    elif isinstance(error, Aborted):
        reason = error.reason or VERSION_CONFLICT
        expected = _scalar(request, "expected_version")
        if expected is not None:
            metadata.setdefault("expected_version", expected)
        details.append(_precondition("VERSION", "expected_version", error.message))
    elif isinstance(error, InvalidArgument):
        paths = list(error.fields)
        if not paths and request is not None:
            paths = field_paths(error.message, request.DESCRIPTOR)
        if paths:
            violations = [
                error_details_pb2.BadRequest.FieldViolation(field=path, description=error.message) for path in paths
            ]
            details.append(error_details_pb2.BadRequest(field_violations=violations))
    elif code == grpc.StatusCode.RESOURCE_EXHAUSTED:
        quota = error_details_pb2.QuotaFailure.Violation(subject=metadata.get("caller", ""), description=error.message)
        details.append(error_details_pb2.QuotaFailure(violations=[quota]))
        retry_ms = getattr(error, "retry_after_ms", None)
        if isinstance(retry_ms, int):
            details.append(retry_info(retry_ms))
    return error_status(code, error.message, domain, reason, metadata, details)


def _precondition(kind: str, subject: str, description: str) -> error_details_pb2.PreconditionFailure:
    violation = error_details_pb2.PreconditionFailure.Violation(type=kind, subject=subject, description=description)
    return error_details_pb2.PreconditionFailure(violations=[violation])


def retry_info(milliseconds: int) -> error_details_pb2.RetryInfo:
    """A RetryInfo asking the client to wait `milliseconds` before the same call."""
    delay = duration_pb2.Duration(seconds=milliseconds // 1000, nanos=(milliseconds % 1000) * 1_000_000)
    return error_details_pb2.RetryInfo(retry_delay=delay)


def trailers(status: status_pb2.Status, extra: Metadata = ()) -> tuple[tuple[str, str | bytes], ...]:
    """The trailing metadata that carries `status` (and `extra` pairs, e.g. a retry pushback)."""
    carried: Metadata = rpc_status.to_status(status).trailing_metadata
    return (*extra, *carried)


def field_paths(message: str, descriptor: Any) -> list[str]:
    """The paths of the request's fields that an InvalidArgument message names, in order.

    A field is named by a clause's first word ("match_id is required", "seat 2: kind
    must be ..."), by a word with an underscore or a dot ("table_id and join_code") or
    by the word before a quoted value ("unknown game 'x'"); quoted values and
    parentheses are left out, so a client's own text names nothing. A singular names
    a map or list field of its plural ("option 'x'" -> options).
    """
    text = _QUOTED.sub(" ", message)
    found: list[str] = []
    # A clause's subject may be a field of a field ("turn_timer_seconds" in config); a word
    # elsewhere counts only from the request's top ("one of roll, end_turn" lists values).
    candidates: list[tuple[str, str, str, bool]] = [
        (m.group(1) or "", m.group(2) or "", m.group(3), True) for m in _CLAUSE.finditer(text)
    ]
    candidates += [("", "", m.group(1), False) for m in _NAMED.finditer(text)]
    candidates += [("", "", m.group(1), True) for m in _BEFORE_VALUE.finditer(message)]
    inner = [m.group(1) for m in _TICKED.finditer(text)]
    for owner, index, word, subject in candidates:
        path = _resolve(descriptor, owner, index, word, nested=subject)
        if path is None and subject and "." not in word:
            plural = _resolve(descriptor, owner, index, f"{word}s", nested=True)
            path = plural if plural is not None and _is_collection(descriptor, plural) else None
        if path is None:
            continue
        deeper = [f"{path}.{name}" for name in inner if _walk(descriptor, f"{path}.{name}".split("."))]
        for named in deeper or [path]:
            if named not in found:
                found.append(named)
    return found


def _resolve(descriptor: Any, owner: str, index: str, word: str, nested: bool) -> str | None:
    """`word` as a path from `descriptor` (under "<owner>s[<index>]" when the clause names an element).

    With `nested`, a bare name that is no field of the request may be one of a message field's.
    """
    word = word.rstrip(".")
    if owner and index:
        repeated = descriptor.fields_by_name.get(f"{owner}s")
        if repeated is not None and _is_repeated_message(repeated):
            inner = _walk(repeated.message_type, word.split("."))
            return f"{owner}s[{index}].{word}" if inner else None
    if _walk(descriptor, word.split(".")):
        return word
    if nested and "." not in word:
        owners = _singular_messages(descriptor)
        inside = [f"{name}.{word}" for name in owners if _walk(_message_of(descriptor, name), [word])]
        if len(inside) == 1:  # only when unambiguous
            return inside[0]
    return None


def _is_collection(descriptor: Any, path: str) -> bool:
    """True when `path` (no indexes) ends at a map or repeated field."""
    *owners, last = path.split(".")
    for name in owners:
        descriptor = descriptor.fields_by_name[name].message_type
    return _is_repeated(descriptor.fields_by_name[last])


def _walk(descriptor: Any, names: list[str]) -> bool:
    for position, name in enumerate(names):
        found = descriptor.fields_by_name.get(name)
        if found is None:
            return False
        if position < len(names) - 1:
            if found.message_type is None or _is_repeated(found):
                return False
            descriptor = found.message_type
    return True


def _is_repeated(descriptor: FieldDescriptor) -> bool:
    return bool(descriptor.is_repeated)


def _is_repeated_message(descriptor: FieldDescriptor) -> bool:
    message = descriptor.message_type
    return _is_repeated(descriptor) and message is not None and not message.GetOptions().map_entry


def _singular_messages(descriptor: Any) -> list[str]:
    """The request's own message fields (not repeated, not well-known types) a bare name may be under."""
    return [
        f.name
        for f in descriptor.fields
        if f.message_type is not None
        and not _is_repeated(f)
        and not f.message_type.full_name.startswith("google.protobuf.")
    ]


def _message_of(descriptor: Any, name: str) -> Any:
    return descriptor.fields_by_name[name].message_type


def _scalar(request: Message | None, name: str) -> str | None:
    """A scalar field of the request as text, or None when it has no such field."""
    if request is None or name not in request.DESCRIPTOR.fields_by_name:
        return None
    return str(getattr(request, name))


def _request_ids(request: Message | None) -> dict[str, str]:
    """The ids the request names (match, ticket, table), for the client to tie the error to."""
    ids: dict[str, str] = {}
    for name in ("match_id", "ticket_id", "table_id"):
        value = _scalar(request, name)
        if value:
            ids[name] = value
    return ids


# ------------------------------------------------------------------ reading them


@dataclass
class ErrorDetails:
    """The structured part of a failed call, as a client reads it."""

    reason: str = ""
    domain: str = ""
    metadata: dict[str, str] = field(default_factory=dict)
    field_violations: list[tuple[str, str]] = field(default_factory=list)  # (field, description)
    preconditions: list[tuple[str, str, str]] = field(default_factory=list)  # (type, subject, description)
    retry_after_ms: int | None = None

    @property
    def rule(self) -> str:
        """The rule that refused a move ("" for other errors)."""
        return self.metadata.get("rule", "")


_DETAIL_TYPES: dict[str, type[Message]] = {
    t.DESCRIPTOR.full_name: t
    for t in (
        error_details_pb2.ErrorInfo,
        error_details_pb2.BadRequest,
        error_details_pb2.PreconditionFailure,
        error_details_pb2.RetryInfo,
        error_details_pb2.QuotaFailure,
    )
}


def read_details(error: Any) -> ErrorDetails:
    """The details of a failed call (a grpc.RpcError or grpc.aio.AioRpcError); empty when it has none."""
    read = ErrorDetails()
    try:
        status = rpc_status.from_call(error)
    except (ValueError, DecodeError):
        return read  # a trailer that disagrees with the call's own status is not trusted
    except AttributeError:
        return read  # an RpcError that is no call (a channel that never connected) has no trailer
    if status is None:
        return read
    for packed in status.details:
        kind = _DETAIL_TYPES.get(packed.TypeName())
        if kind is None:
            continue
        detail = kind()
        packed.Unpack(detail)
        if isinstance(detail, error_details_pb2.ErrorInfo):
            read.reason, read.domain, read.metadata = detail.reason, detail.domain, dict(detail.metadata)
        elif isinstance(detail, error_details_pb2.BadRequest):
            read.field_violations += [(v.field, v.description) for v in detail.field_violations]
        elif isinstance(detail, error_details_pb2.PreconditionFailure):
            read.preconditions += [(v.type, v.subject, v.description) for v in detail.violations]
        elif isinstance(detail, error_details_pb2.RetryInfo):
            delay = detail.retry_delay
            read.retry_after_ms = delay.seconds * 1000 + delay.nanos // 1_000_000
    return read
