"""Signed tokens: players, seats and services, each with an expiry (JWT, EdDSA with Ed25519 keys)."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

import jwt

from menagerie.rules.errors import PermissionDenied, Unauthenticated
from menagerie.shared.keys import (
    SigningKey,
    VerifyingKey,
    WatchedFile,
    parse_signing_key,
    parse_verifying_keys,
)

ISSUER = "menagerie"
_ALGORITHM = "EdDSA"
# The reasons a client reads in the error's details (docs/clients.md): get a new token, or fix it.
TOKEN_EXPIRED = "TOKEN_EXPIRED"
TOKEN_INVALID = "TOKEN_INVALID"


class TokenKind(StrEnum):
    """Who a token speaks for."""

    PLAYER = "player"
    SEAT = "seat"
    SERVICE = "service"


@dataclass(frozen=True, slots=True)
class Principal:
    """The verified holder of a token."""

    kind: TokenKind
    subject: str
    name: str
    expires_at: int
    match_id: str | None = None
    seat: int | None = None
    # A seat token issued to a bot worker: it may also decide for a human seat whose timer ran out.
    bot: bool = False

    def seat_in(self, match_id: str) -> int:
        """The seat this token may act for in `match_id`, or PermissionDenied."""
        if self.kind is not TokenKind.SEAT or self.seat is None:
            raise PermissionDenied("this call needs a seat token of the match")
        if self.match_id != match_id:
            raise PermissionDenied(f"this seat token is for match {self.match_id}, not {match_id}")
        return self.seat

    def viewer_in(self, match_id: str) -> int | None:
        """The seat whose view this token gets in `match_id`: its own seat, or None to spectate."""
        if self.kind is TokenKind.SEAT:
            return self.seat_in(match_id)
        return None

    def require_service(self) -> None:
        """PermissionDenied unless this is a service credential."""
        if self.kind is not TokenKind.SERVICE:
            raise PermissionDenied("this call needs a service credential")


class TokenSigner:
    """Issues tokens with this process's private key (if it holds one) and verifies them with the trusted keys.

    Every token names its key (`kid`); a token whose key is not in the verifying set, or
    whose key may not sign its kind (keys.VerifyingKey.may_sign), is refused. Clients send
    the same token on every call, so verified tokens are remembered (until they expire, or
    the verifying set changes) rather than re-verified each time.
    """

    def __init__(
        self,
        verifying: WatchedFile[dict[str, VerifyingKey]] | None,
        signing: WatchedFile[SigningKey] | None = None,
        cache_size: int = 10_000,
    ) -> None:
        self._verifying = verifying  # None: an issuer only (the gateway), which trusts no token
        self._signing = signing
        self._verified: dict[str, Principal] = {}
        self._version = 0
        self._cache_size = cache_size

    @classmethod
    def from_files(cls, verify_keys_file: str | Path, signing_key_file: str | Path = "") -> TokenSigner:
        """A signer of the verifying set at `verify_keys_file` and the key at `signing_key_file` (each if named)."""
        signing = WatchedFile(signing_key_file, parse_signing_key) if signing_key_file else None
        verifying = WatchedFile(verify_keys_file, parse_verifying_keys) if verify_keys_file else None
        return cls(verifying, signing)

    def _issue(self, claims: dict[str, object], ttl_seconds: int) -> tuple[str, int]:
        now = int(time.time())
        expires_at = now + ttl_seconds
        payload = {"iss": ISSUER, "iat": now, "exp": expires_at, **claims}
        if self._signing is None:
            raise RuntimeError("this process holds no signing key (MENAGERIE_SIGNING_KEY_FILE)")
        key = self._signing.current()
        return jwt.encode(payload, key.key, algorithm=_ALGORITHM, headers={"kid": key.kid}), expires_at

    def signing_kid(self) -> str:
        """The kid new tokens get (read again if the key file changed); empty without a key.

        Holders of a long-lived credential sign it again when this changes, so a rotated key's
        credentials are gone before the old key is dropped.
        """
        return self._signing.current().kid if self._signing is not None else ""

    def issue_player(self, player_id: str, name: str, ttl_seconds: int) -> tuple[str, int]:
        """A player token; returns (token, expires_at)."""
        return self._issue({"typ": TokenKind.PLAYER.value, "sub": player_id, "name": name}, ttl_seconds)

    def issue_seat(
        self, match_id: str, seat: int, player_id: str, name: str, ttl_seconds: int, *, bot: bool = False
    ) -> tuple[str, int]:
        """A token that acts for one seat of one match; returns (token, expires_at)."""
        claims: dict[str, object] = {
            "typ": TokenKind.SEAT.value,
            "sub": player_id,
            "name": name,
            "mid": match_id,
            "seat": seat,
            # Unique per token: a seat token signed again (ResumeSeat) differs from the last one
            # even within the same second.
            "jti": secrets.token_urlsafe(9),
        }
        if bot:
            claims["bot"] = True
        return self._issue(claims, ttl_seconds)

    def issue_service(self, service: str, ttl_seconds: int) -> tuple[str, int]:
        """A service credential (lobby, dispatcher, operators); returns (token, expires_at)."""
        return self._issue({"typ": TokenKind.SERVICE.value, "sub": service, "name": service}, ttl_seconds)

    def verify(self, token: str) -> Principal:
        """The token's principal, or Unauthenticated saying why it is refused."""
        if self._verifying is not None:
            self._verifying.current()
            if self._verifying.version != self._version:  # a key added or dropped: judge every token afresh
                self._verified.clear()
                self._version = self._verifying.version
        known = self._verified.get(token)
        if known is not None and known.expires_at > time.time():
            return known
        principal = self._decode(token)
        if len(self._verified) >= self._cache_size:
            del self._verified[next(iter(self._verified))]
        self._verified[token] = principal
        return principal

    def _key(self, token: str) -> VerifyingKey:
        """The trusted key the token names (the set is read again once if it does not know it)."""
        if self._verifying is None:
            raise Unauthenticated("this process trusts no token key", reason=TOKEN_INVALID)
        try:
            kid = jwt.get_unverified_header(token).get("kid")
        except jwt.InvalidTokenError as exc:
            raise Unauthenticated(f"the token is not valid: {exc}", reason=TOKEN_INVALID) from None
        key = self._verifying.value.get(kid) if isinstance(kid, str) else None
        if key is None and isinstance(kid, str):
            self._verifying.reload()  # a key added since the last look
            key = self._verifying.value.get(kid)
        if key is None:
            raise Unauthenticated("the token is signed by a key this service does not trust", reason=TOKEN_INVALID)
        return key

    def _decode(self, token: str) -> Principal:
        key = self._key(token)
        try:
            claims = jwt.decode(
                token,
                key.key,
                algorithms=[_ALGORITHM],
                issuer=ISSUER,
                options={"require": ["exp", "iat", "iss", "sub", "typ"]},
            )
        except jwt.ExpiredSignatureError:
            raise Unauthenticated("the token has expired", reason=TOKEN_EXPIRED) from None
        except jwt.InvalidSignatureError:
            raise Unauthenticated("the token's signature is not valid", reason=TOKEN_INVALID) from None
        except jwt.InvalidTokenError as exc:
            raise Unauthenticated(f"the token is not valid: {exc}", reason=TOKEN_INVALID) from None
        try:
            kind = TokenKind(claims["typ"])
            seat = claims.get("seat")
            if kind is TokenKind.SEAT and (not isinstance(seat, int) or not isinstance(claims.get("mid"), str)):
                raise ValueError("seat token without match and seat")
        except ValueError as exc:
            raise Unauthenticated(f"the token is not valid: {exc}", reason=TOKEN_INVALID) from None
        bot = claims.get("bot") is True
        if not key.may_sign(kind.value, str(claims["sub"]), bot):
            raise Unauthenticated(f"key {key.kid} may not sign {kind.value} tokens", reason=TOKEN_INVALID)
        return Principal(
            kind=kind,
            subject=str(claims["sub"]),
            name=str(claims.get("name", "")),
            expires_at=int(claims["exp"]),
            match_id=claims.get("mid"),
            seat=seat,
            bot=bot,
        )
