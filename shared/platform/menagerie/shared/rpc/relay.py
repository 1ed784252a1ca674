"""A relay (the web gateway) names the client of each call it relays; only a trusted relay is believed.

Browsers reach the platform through the gateway (services/gateway), so every call they
make comes from the gateway's address. To keep budgets per client, the gateway sends,
beside the browser's own `authorization` (or none), its service credential in
RELAY_TOKEN and the client's address in RELAY_CLIENT. The interceptor
(menagerie.shared.rpc.interceptor) counts a call under that address only when
RELAY_TOKEN verifies as the service credential of a relay (subject RELAY_SUBJECT);
without a credential the address is ignored and the call is counted under its peer,
so a client that names itself gains nothing. The credential is never an authorization:
the call may do what the browser's token allows, nothing more.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from menagerie.rules.errors import InvalidArgument, PermissionDenied
from menagerie.shared.tokens import TokenKind, TokenSigner

RELAY_TOKEN = "x-menagerie-relay"
RELAY_CLIENT = "x-menagerie-client"
# The subject of the gateway's service credential (TokenSigner.issue_service).
RELAY_SUBJECT = "gateway"
# The reasons a caller reads in the error's details.
NOT_A_RELAY = "NOT_A_RELAY"
BAD_CLIENT_ADDRESS = "BAD_CLIENT_ADDRESS"

Metadata = Iterable[tuple[str, str | bytes]]


def _text(value: str | bytes) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else value


def relayed_client(metadata: Metadata | None, signer: TokenSigner) -> str | None:
    """The client address a trusted relay names, or None when the call carries no relay credential.

    A relay credential that is forged or expired is Unauthenticated (TokenSigner.verify), another
    service's credential PermissionDenied, an address that is not an IP address InvalidArgument: a
    misconfigured gateway is told at once rather than sharing one budget among its clients unnoticed.
    """
    token = client = None
    for key, value in metadata or ():
        if key == RELAY_TOKEN:
            token = _text(value)
        elif key == RELAY_CLIENT:
            client = _text(value)
    if token is None:
        return None
    principal = signer.verify(token)
    if principal.kind is not TokenKind.SERVICE or principal.subject != RELAY_SUBJECT:
        raise PermissionDenied(f"only the {RELAY_SUBJECT}'s service credential may relay calls", reason=NOT_A_RELAY)
    if client is None:
        return None
    try:
        return str(ipaddress.ip_address(client.strip()))
    except ValueError:
        raise InvalidArgument(
            f"the relayed client address {client[:64]!r} is not an IP address", reason=BAD_CLIENT_ADDRESS
        ) from None
