"""Signed player, seat and service tokens."""

from __future__ import annotations

import jwt
import pytest

from menagerie.rules.errors import PermissionDenied, Unauthenticated
from menagerie.shared.tokens import TokenKind, TokenSigner

SECRET = "s" * 40
signer = TokenSigner(SECRET)


def test_a_seat_token_names_its_match_and_seat() -> None:
    token, expires = signer.issue_seat("m1", 2, "p-7", "Ann", 60)
    principal = signer.verify(token)
    assert (principal.kind, principal.match_id, principal.seat, principal.subject) == (TokenKind.SEAT, "m1", 2, "p-7")
    assert principal.seat_in("m1") == 2
    assert principal.expires_at == expires
    assert principal.bot is False
    with pytest.raises(PermissionDenied, match="for match m1, not m2"):
        principal.seat_in("m2")


def test_player_and_service_tokens_spectate_but_do_not_act() -> None:
    player = signer.verify(signer.issue_player("p-1", "Bo", 60)[0])
    assert player.viewer_in("m1") is None
    with pytest.raises(PermissionDenied):
        player.seat_in("m1")
    with pytest.raises(PermissionDenied, match="service credential"):
        player.require_service()
    signer.verify(signer.issue_service("lobby", 60)[0]).require_service()


def test_expired_forged_and_malformed_tokens_are_refused() -> None:
    expired, _ = signer.issue_player("p", "P", -10)
    with pytest.raises(Unauthenticated, match="expired"):
        signer.verify(expired)
    forged, _ = TokenSigner("f" * 40).issue_player("p", "P", 60)
    with pytest.raises(Unauthenticated, match="signature"):
        signer.verify(forged)
    with pytest.raises(Unauthenticated, match="not valid"):
        signer.verify("not-a-token")
    no_seat = jwt.encode({"iss": "menagerie", "iat": 0, "exp": 2**40, "sub": "p", "typ": "seat"}, SECRET)
    with pytest.raises(Unauthenticated, match="seat token without match"):
        signer.verify(no_seat)
    wrong_kind = jwt.encode({"iss": "menagerie", "iat": 0, "exp": 2**40, "sub": "p", "typ": "admin"}, SECRET)
    with pytest.raises(Unauthenticated):
        signer.verify(wrong_kind)


def test_bot_seat_tokens_are_marked() -> None:
    token, _ = signer.issue_seat("m1", 0, "bot-0", "Bot", 60, bot=True)
    assert signer.verify(token).bot is True
