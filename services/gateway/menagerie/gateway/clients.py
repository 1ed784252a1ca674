"""Who a request comes from: the connection's peer, or the client a trusted proxy names in X-Forwarded-For.

Behind an ingress every connection comes from the ingress, so the address that keeps
budgets per client (menagerie.shared.rpc.relay) is the one the ingress appends to
X-Forwarded-For. Anyone can send that header, so it is read only from the proxies
MENAGERIE_TRUSTED_PROXIES lists (none by default): walking it from its right end, past
the trusted proxies, the first address is the client. From any other peer the header is
ignored and the peer is the client.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Sequence
from contextvars import ContextVar

from starlette.types import ASGIApp, Receive, Scope, Send

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

# Set for each request by ClientAddresses; menagerie.gateway.forward relays it to the backends.
CLIENT: ContextVar[str | None] = ContextVar("client", default=None)
FORWARDED_FOR = b"x-forwarded-for"


def parse_networks(text: str) -> tuple[Network, ...]:
    """'10.0.0.0/8, 192.0.2.7' -> the networks (a bare address is a network of one); ValueError names a bad one."""
    networks = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ValueError(f"{item!r} is not an IP address or network (CIDR)") from None
    return tuple(networks)


def _address(text: str) -> Address | None:
    """An address from a peer or a X-Forwarded-For entry ('192.0.2.7', '192.0.2.7:443', '[2001:db8::1]:443')."""
    text = text.strip()
    if text.startswith("[") and "]" in text:
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:
        text = text.partition(":")[0]
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


def _trusted(address: Address, proxies: Sequence[Network]) -> bool:
    return any(address.version == network.version and address in network for network in proxies)


def client_address(peer: str | None, forwarded: Iterable[str], proxies: Sequence[Network]) -> str | None:
    """The client: the peer, or if it is a trusted proxy the nearest X-Forwarded-For hop that is not one."""
    address = _address(peer) if peer else None
    if address is None or not _trusted(address, proxies):
        return str(address) if address is not None else None
    hops = [hop for entry in forwarded for hop in entry.split(",")]
    for hop in reversed(hops):
        named = _address(hop)
        if named is None:
            break  # not an address: nothing to its left can be believed
        address = named
        if not _trusted(address, proxies):
            break
    return str(address)


class ClientAddresses:
    """Sets CLIENT for each HTTP request (ASGI middleware)."""

    def __init__(self, app: ASGIApp, proxies: Sequence[Network] = ()) -> None:
        self.app = app
        self.proxies = tuple(proxies)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Runs the application with CLIENT set to the request's client."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        peer = scope.get("client")
        forwarded = (
            [value.decode("latin-1") for name, value in scope.get("headers", ()) if name == FORWARDED_FOR]
            if self.proxies
            else []
        )
        token = CLIENT.set(client_address(peer[0] if peer else None, forwarded, self.proxies))
        try:
            await self.app(scope, receive, send)
        finally:
            CLIENT.reset(token)
