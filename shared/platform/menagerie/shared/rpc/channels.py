"""Opening a channel to another Menagerie service: TLS when a CA is configured, plaintext otherwise.

Transport security is off by default (a laptop, a test), and on in the compose and
Kubernetes examples: each process then serves with MENAGERIE_TLS_CERT_FILE and
MENAGERIE_TLS_KEY_FILE, and verifies the services it calls against MENAGERIE_TLS_CA_FILE.

Replicas (docs/scaling.md): an address may list several replicas of one service, separated
by `|` (`127.0.0.1:50061|127.0.0.1:50062`), or name them all by DNS (`dns:///beasts:50051`,
a headless Service in Kubernetes). The channel then spreads its calls over every replica
with gRPC's `round_robin` policy (each call to the next ready one; a replica that goes away
is skipped until it is back), instead of `pick_first`'s one connection.

A caller whose calls each name a match may open its channel `per_match` instead: each call
then carries the match id in MATCH_HEADER, and gRPC's `ring_hash` policy sends every call of
one match to the same replica (another, if that one is gone), so the replica's cache of the
match's last snapshot (menagerie.shared.games.snapshots) is current at its next move. Round-robin
makes a replica that did not play a match's last move read it again, and sometimes commit on a
stale guess and retry; `make bench-scale ARGS=--scale-out` measures both (docs/scaling.md).
"""

from __future__ import annotations

import ipaddress
import json
import os
from collections.abc import Sequence
from pathlib import Path

import grpc

Options = Sequence[tuple[str, str | int]]

REPLICA_SEPARATOR = "|"
ROUND_ROBIN: tuple[str, str] = ("grpc.service_config", '{"loadBalancingConfig": [{"round_robin": {}}]}')
# Reconnect soon after a refused connection, for a channel to a service that is often still starting:
# gRPC's default backoff (1 s, growing 1.6 times a try up to 120 s) would find it seconds after it serves.
# Not grpc.min_reconnect_backoff_ms: gRPC core uses it as each attempt's connect deadline (grpc/grpc#12830),
# and a short one fails every handshake on a loaded machine.
QUICK_RECONNECT: Options = (
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 1000),
)
# The header a per-match channel hashes: the match a call is about (a call without it goes to a random replica).
MATCH_HEADER = "x-menagerie-match"
PER_MATCH: tuple[str, str] = (
    "grpc.service_config",
    json.dumps({"loadBalancingConfig": [{"ring_hash_experimental": {"requestHashHeader": MATCH_HEADER}}]}),
)
# gRPC (1.85) hashes a header in ring_hash only with this set (gRFC A76, still experimental); it is
# read when the first channel is made, so it is set here, before any channel of this process exists.
os.environ.setdefault("GRPC_EXPERIMENTAL_RING_HASH_SET_REQUEST_HASH_KEY", "true")


def replicas(address: str) -> list[str]:
    """The host:port of each replica an address lists ('a:1|b:2'); one for a plain address."""
    return [part.strip() for part in address.split(REPLICA_SEPARATOR) if part.strip()]


def grpc_target(address: str) -> str:
    """The gRPC target of an address: itself, or for a `|` list of IP:port replicas, `ipv4:a,b` (or `ipv6:`).

    gRPC lists static addresses only as IP literals; replicas by name are one DNS name
    (`dns:///name:port`) whose records are the replicas.
    """
    parts = replicas(address)
    if len(parts) < 2:
        return address.strip()
    families = set()
    for part in parts:
        host = part.rsplit(":", 1)[0].strip("[]")
        try:
            families.add(ipaddress.ip_address(host).version)
        except ValueError:
            raise ValueError(
                f"{address!r}: replicas listed with '|' must be IP:port; name replicas by DNS (dns:///name:port)"
            ) from None
    if len(families) > 1:
        raise ValueError(f"{address!r}: replicas listed with '|' must all be IPv4 or all IPv6")
    return ("ipv4:" if families == {4} else "ipv6:") + ",".join(parts)


def balanced(address: str) -> bool:
    """True when an address names several replicas (a `|` list, or a DNS name that may have many)."""
    return len(replicas(address)) > 1 or address.strip().startswith("dns:")


def channel_options(address: str, options: Options = (), per_match: bool = False) -> list[tuple[str, str | int]]:
    """`options`, with load balancing when `address` names several replicas: per match, else round-robin."""
    chosen = list(options)
    if balanced(address) and not any(name in ("grpc.service_config", "grpc.lb_policy_name") for name, _ in chosen):
        chosen.append(PER_MATCH if per_match else ROUND_ROBIN)
    return chosen


def match_metadata(match_id: str) -> tuple[str, str]:
    """The metadata that routes a call of a per-match channel to the match's replica."""
    return (MATCH_HEADER, match_id)


def client_credentials(ca_file: str) -> grpc.ChannelCredentials | None:
    """Credentials that trust the CA in `ca_file` (PEM), or None for plaintext when it is empty."""
    if not ca_file:
        return None
    return grpc.ssl_channel_credentials(root_certificates=Path(ca_file).read_bytes())


def server_credentials(cert_file: str, key_file: str) -> grpc.ServerCredentials | None:
    """The server's TLS identity from PEM files, or None for plaintext when both are empty."""
    if not cert_file and not key_file:
        return None
    return grpc.ssl_server_credentials([(Path(key_file).read_bytes(), Path(cert_file).read_bytes())])


def open_channel(address: str, ca_file: str = "", options: Options = (), per_match: bool = False) -> grpc.Channel:
    """A blocking channel to `address` (its replicas round-robin, or `per_match`), TLS when `ca_file` names a CA."""
    credentials = client_credentials(ca_file)
    target, chosen = grpc_target(address), channel_options(address, options, per_match)
    if credentials is None:
        return grpc.insecure_channel(target, options=chosen)
    return grpc.secure_channel(target, credentials, options=chosen)


def open_aio_channel(
    address: str, ca_file: str = "", options: Options = (), per_match: bool = False
) -> grpc.aio.Channel:
    """An asyncio channel to `address` (its replicas round-robin, or `per_match`), TLS when `ca_file` names a CA."""
    credentials = client_credentials(ca_file)
    target, chosen = grpc_target(address), channel_options(address, options, per_match)
    if credentials is None:
        return grpc.aio.insecure_channel(target, options=chosen)
    return grpc.aio.secure_channel(target, credentials, options=chosen)
