"""The client a relay names is believed only from the gateway's service credential."""

from __future__ import annotations

from pathlib import Path

import pytest

from menagerie.rules.errors import InvalidArgument, PermissionDenied, Unauthenticated
from menagerie.shared.rpc.relay import RELAY_CLIENT, RELAY_SUBJECT, RELAY_TOKEN, relayed_client
from tests.support.keys import KEYS, KeyDir

SIGNER = KEYS.signer()  # the tests' key: it may sign any kind, to show the relay's own checks
GATEWAY = KEYS.signer("gateway")


def relayed(token: str, client: str = "198.51.100.7") -> list[tuple[str, str | bytes]]:
    return [("authorization", "Bearer x"), (RELAY_TOKEN, token), (RELAY_CLIENT, client)]


def test_the_gateway_names_the_client() -> None:
    token, _ = GATEWAY.issue_service(RELAY_SUBJECT, 60)
    assert relayed_client(relayed(token), SIGNER) == "198.51.100.7"
    assert relayed_client(relayed(token, "2001:DB8::0:1"), SIGNER) == "2001:db8::1"  # one spelling per address
    assert relayed_client([(RELAY_TOKEN, token)], SIGNER) is None


def test_a_client_named_without_a_credential_is_ignored() -> None:
    assert relayed_client([(RELAY_CLIENT, "198.51.100.7")], SIGNER) is None
    assert relayed_client(None, SIGNER) is None


def test_a_forged_or_foreign_credential_or_a_bad_address_is_refused(tmp_path: Path) -> None:
    forged, _ = KeyDir.generate(tmp_path).signer("gateway").issue_service(RELAY_SUBJECT, 60)
    with pytest.raises(Unauthenticated):
        relayed_client(relayed(forged), SIGNER)
    # A bot worker's key cannot sign the gateway's credential: no pod but the gateway names clients.
    with pytest.raises(Unauthenticated, match="may not sign"):
        relayed_client(relayed(KEYS.signer("bots").issue_service(RELAY_SUBJECT, 60)[0]), SIGNER)
    lobby, _ = SIGNER.issue_service("lobby", 60)
    with pytest.raises(PermissionDenied, match="only the gateway's service credential"):
        relayed_client(relayed(lobby), SIGNER)
    player, _ = SIGNER.issue_player("p1", "Ann", 60)
    with pytest.raises(PermissionDenied):
        relayed_client(relayed(player), SIGNER)
    gateway, _ = SIGNER.issue_service(RELAY_SUBJECT, 60)
    with pytest.raises(InvalidArgument, match="not an IP address"):
        relayed_client(relayed(gateway, "example.org"), SIGNER)
