"""Signed player, seat and service tokens: Ed25519 keys named by kid, each trusted for some kinds."""

from __future__ import annotations

import json
import time
from pathlib import Path

import jwt
import pytest

from menagerie.rules.errors import PermissionDenied, Unauthenticated
from menagerie.shared import keys
from menagerie.shared.tokens import TokenKind, TokenSigner
from tests.support.keys import KeyDir


@pytest.fixture(scope="module")
def key_dir(tmp_path_factory: pytest.TempPathFactory) -> KeyDir:
    return KeyDir.generate(tmp_path_factory.mktemp("keys"))


@pytest.fixture(scope="module")
def signer(key_dir: KeyDir) -> TokenSigner:
    return key_dir.signer()


def test_a_seat_token_names_its_match_seat_and_key(signer: TokenSigner, key_dir: KeyDir) -> None:
    token, expires = signer.issue_seat("m1", 2, "p-7", "Ann", 60)
    assert jwt.get_unverified_header(token) == {
        "alg": "EdDSA",
        "typ": "JWT",
        "kid": keys.parse_signing_key(key_dir.signing_file("tests").read_text()).kid,
    }
    principal = signer.verify(token)
    assert (principal.kind, principal.match_id, principal.seat, principal.subject) == (TokenKind.SEAT, "m1", 2, "p-7")
    assert principal.seat_in("m1") == 2
    assert principal.expires_at == expires
    assert principal.bot is False
    with pytest.raises(PermissionDenied, match="for match m1, not m2"):
        principal.seat_in("m2")


def test_player_and_service_tokens_spectate_but_do_not_act(signer: TokenSigner) -> None:
    player = signer.verify(signer.issue_player("p-1", "Bo", 60)[0])
    assert player.viewer_in("m1") is None
    with pytest.raises(PermissionDenied):
        player.seat_in("m1")
    with pytest.raises(PermissionDenied, match="service credential"):
        player.require_service()
    signer.verify(signer.issue_service("lobby", 60)[0]).require_service()


def test_expired_forged_and_malformed_tokens_are_refused(signer: TokenSigner, key_dir: KeyDir) -> None:
    expired, _ = signer.issue_player("p", "P", -10)
    with pytest.raises(Unauthenticated, match="expired"):
        signer.verify(expired)
    with pytest.raises(Unauthenticated, match="not valid"):
        signer.verify("not-a-token")
    private = keys.parse_signing_key(key_dir.signing_file("tests").read_text())
    header = {"kid": private.kid}
    no_seat = {"iss": "menagerie", "iat": 0, "exp": 2**40, "sub": "p", "typ": "seat"}
    with pytest.raises(Unauthenticated, match="seat token without match"):
        signer.verify(jwt.encode(no_seat, private.key, algorithm="EdDSA", headers=header))
    wrong_kind = {**no_seat, "typ": "admin"}
    with pytest.raises(Unauthenticated):
        signer.verify(jwt.encode(wrong_kind, private.key, algorithm="EdDSA", headers=header))


def test_a_key_the_verifier_does_not_trust_is_refused(signer: TokenSigner, tmp_path: Path) -> None:
    # Another platform's keys, with a kid of the same name: its signature does not verify.
    other = KeyDir.generate(tmp_path)
    with pytest.raises(Unauthenticated, match="does not trust"):
        signer.verify(other.signer().issue_player("p", "P", 60)[0])
    private = keys.parse_signing_key(other.signing_file("tests").read_text())
    claims = {"iss": "menagerie", "iat": 0, "exp": 2**40, "sub": "p", "typ": "player", "name": "P"}
    # No kid at all, and the HS256 of the old shared secret: both refused.
    with pytest.raises(Unauthenticated, match="does not trust"):
        signer.verify(jwt.encode(claims, private.key, algorithm="EdDSA"))
    with pytest.raises(Unauthenticated, match="does not trust"):
        signer.verify(jwt.encode(claims, "s" * 40, algorithm="HS256"))


def test_a_key_signs_only_what_it_is_trusted_for(key_dir: KeyDir) -> None:
    game_service = TokenSigner.from_files(key_dir.verify_file)  # verifies only
    with pytest.raises(RuntimeError, match="no signing key"):
        game_service.issue_service("anyone", 60)
    lobby, bots, gateway, games = (key_dir.signer(role) for role in ("lobby", "bots", "gateway", "games"))
    # The lobby signs players, seats and its own service credential, and nothing else.
    assert game_service.verify(lobby.issue_player("p", "P", 60)[0]).kind is TokenKind.PLAYER
    assert game_service.verify(lobby.issue_seat("m", 0, "p", "P", 60)[0]).seat == 0
    game_service.verify(lobby.issue_service("lobby", 60)[0]).require_service()
    with pytest.raises(Unauthenticated, match="may not sign service"):
        game_service.verify(lobby.issue_service("gateway", 60)[0])
    # A bot worker's key signs bots' seat tokens only: no human's seat, no player, no service credential.
    assert game_service.verify(bots.issue_seat("m", 1, "bot:greedy", "Bot", 60, bot=True)[0]).bot
    for forged in (
        bots.issue_seat("m", 1, "p", "P", 60)[0],
        bots.issue_player("p", "P", 60)[0],
        bots.issue_service("lobby", 60)[0],
    ):
        with pytest.raises(Unauthenticated, match="may not sign"):
            game_service.verify(forged)
    # The gateway's key signs the gateway's credential only; a game's key, seats only.
    game_service.verify(gateway.issue_service("gateway", 60)[0]).require_service()
    with pytest.raises(Unauthenticated, match="may not sign"):
        game_service.verify(gateway.issue_player("p", "P", 60)[0])
    assert game_service.verify(games.issue_seat("m", 0, "p", "P", 60)[0]).seat == 0
    with pytest.raises(Unauthenticated, match="may not sign service"):
        game_service.verify(games.issue_service("lobby", 60)[0])


def test_a_rotated_key_verifies_until_it_is_dropped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(keys, "RELOAD_CHECK_SECONDS", 0.0)  # the verifier looks at its file on every call
    key_dir = KeyDir.generate(tmp_path)
    verifier = TokenSigner.from_files(key_dir.verify_file)
    lobby = key_dir.signer("lobby")
    old_kid = keys.parse_signing_key(key_dir.signing_file("lobby").read_text()).kid
    old = lobby.issue_player("p", "P", 600)[0]
    assert verifier.verify(old).subject == "p"
    new_kid = keys.rotate(key_dir.directory, "lobby")
    new = lobby.issue_player("q", "Q", 600)[0]  # the lobby's signer reads its new key file
    assert jwt.get_unverified_header(new)["kid"] == new_kid != old_kid
    assert verifier.verify(new).subject == "q" and verifier.verify(old).subject == "p"
    keys.drop(key_dir.directory, old_kid)
    time.sleep(0.01)
    with pytest.raises(Unauthenticated, match="does not trust"):
        verifier.verify(old)  # remembered as verified before, refused once its key is gone
    assert verifier.verify(new).subject == "q"


def test_key_sets_refuse_unknown_grants_and_duplicate_kids() -> None:
    _, public = keys.new_key("k1")
    with pytest.raises(ValueError, match="grants"):
        keys.public_jwk("k1", public, ["admin"])
    entry = keys.public_jwk("k1", public, ["seat"])
    with pytest.raises(ValueError, match="kid of its own"):
        keys.parse_verifying_keys(json.dumps({"keys": [entry, entry]}))
    with pytest.raises(ValueError, match="grants"):
        keys.parse_verifying_keys(json.dumps({"keys": [{**entry, "grants": ["service:"]}]}))
    assert keys.parse_verifying_keys(json.dumps({"keys": [entry]}))["k1"].grants == {"seat"}


def test_private_keys_are_written_for_their_owner_only(key_dir: KeyDir) -> None:
    for role in (*keys.ROLE_GRANTS, "tests"):
        assert key_dir.signing_file(role).stat().st_mode & 0o777 == 0o600
    assert all("d" not in jwk for jwk in json.loads(key_dir.verify_file.read_text())["keys"])


def test_an_hs256_token_naming_a_trusted_kid_is_refused(signer: TokenSigner) -> None:
    """The verifier takes EdDSA only: an HS256 token keyed on a public key's kid is no confusion of algorithms."""
    claims = {"iss": "menagerie", "iat": 0, "exp": 2**40, "sub": "p", "typ": "service", "name": "lobby"}
    named = jwt.encode(claims, "s" * 40, algorithm="HS256", headers={"kid": signer.signing_kid()})
    with pytest.raises(Unauthenticated, match="not valid"):
        signer.verify(named)
