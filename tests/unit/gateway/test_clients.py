"""Who a request comes from: X-Forwarded-For is believed only from a trusted proxy; the relay credential."""

from __future__ import annotations

from pathlib import Path

import jwt
import pytest

from menagerie.gateway.clients import client_address, parse_networks
from menagerie.gateway.relay import RelayCredential
from menagerie.shared import keys
from menagerie.shared.rpc.relay import RELAY_CLIENT, RELAY_TOKEN
from menagerie.shared.tokens import TokenKind, TokenSigner
from tests.support.keys import KEYS, KeyDir

INGRESS = parse_networks("10.0.0.0/8, 2001:db8::/32")


def test_the_header_is_ignored_from_an_untrusted_peer() -> None:
    assert client_address("192.0.2.1", ["198.51.100.7"], INGRESS) == "192.0.2.1"
    assert client_address("192.0.2.1", ["198.51.100.7"], ()) == "192.0.2.1"
    assert client_address(None, ["198.51.100.7"], INGRESS) is None


def test_past_trusted_proxies_the_nearest_other_hop_is_the_client() -> None:
    # The client wrote "203.0.113.9" itself; the ingress appended the address it saw.
    assert client_address("10.0.0.2", ["203.0.113.9, 198.51.100.7"], INGRESS) == "198.51.100.7"
    assert client_address("10.0.0.2", ["198.51.100.7, 10.1.1.1"], INGRESS) == "198.51.100.7"  # two ingresses
    assert client_address("10.0.0.2", ["203.0.113.9", "198.51.100.7:5123"], INGRESS) == "198.51.100.7"
    assert client_address("10.0.0.2", ["[2001:db9::7]:443"], INGRESS) == "2001:db9::7"
    assert client_address("10.0.0.2", [], INGRESS) == "10.0.0.2"  # no header: the proxy itself
    assert client_address("10.0.0.2", ["nonsense, 10.0.0.3"], INGRESS) == "10.0.0.3"  # nothing past garbage


def test_a_bad_network_is_named() -> None:
    with pytest.raises(ValueError, match=r"'10\.0\.0\.0/33' is not an IP address or network"):
        parse_networks("127.0.0.1, 10.0.0.0/33")


def test_the_credential_names_the_gateway_and_the_client() -> None:
    relay = RelayCredential(KEYS.signer("gateway"))
    first = dict(relay.metadata("198.51.100.7"))
    assert first[RELAY_CLIENT] == "198.51.100.7"
    principal = TokenSigner.from_files(KEYS.verify_file).verify(first[RELAY_TOKEN])
    assert (principal.kind, principal.subject) == (TokenKind.SERVICE, "gateway")
    assert dict(relay.metadata(None)) == {RELAY_TOKEN: first[RELAY_TOKEN]}  # no client known: the credential only


def test_the_credential_is_signed_again_when_the_gateways_key_rotates(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(keys, "RELOAD_CHECK_SECONDS", 0.0)  # the key file is looked at on every call
    folder = KeyDir.generate(tmp_path)
    relay = RelayCredential(folder.signer("gateway"))
    first = dict(relay.metadata(None))[RELAY_TOKEN]
    assert dict(relay.metadata(None))[RELAY_TOKEN] == first, "kept while the key is the same"
    new_kid = keys.rotate(tmp_path, "gateway")
    renewed = dict(relay.metadata(None))[RELAY_TOKEN]
    assert renewed != first and jwt.get_unverified_header(renewed)["kid"] == new_kid
    principal = TokenSigner.from_files(folder.verify_file).verify(renewed)
    assert (principal.kind, principal.subject) == (TokenKind.SERVICE, "gateway")
