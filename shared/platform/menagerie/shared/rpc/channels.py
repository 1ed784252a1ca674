"""Opening a channel to another Menagerie service: TLS when a CA is configured, plaintext otherwise.

Transport security is off by default (a laptop, a test), and on in the compose and
Kubernetes examples: each process then serves with MENAGERIE_TLS_CERT_FILE and
MENAGERIE_TLS_KEY_FILE, and verifies the services it calls against MENAGERIE_TLS_CA_FILE.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import grpc

Options = Sequence[tuple[str, str | int]]


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


def open_channel(address: str, ca_file: str = "", options: Options = ()) -> grpc.Channel:
    """A blocking channel to `address`, over TLS when `ca_file` names a CA."""
    credentials = client_credentials(ca_file)
    if credentials is None:
        return grpc.insecure_channel(address, options=options)
    return grpc.secure_channel(address, credentials, options=options)


def open_aio_channel(address: str, ca_file: str = "", options: Options = ()) -> grpc.aio.Channel:
    """An asyncio channel to `address`, over TLS when `ca_file` names a CA."""
    credentials = client_credentials(ca_file)
    if credentials is None:
        return grpc.aio.insecure_channel(address, options=options)
    return grpc.aio.secure_channel(address, credentials, options=options)
