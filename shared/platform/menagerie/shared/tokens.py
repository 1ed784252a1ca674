"""Signed tokens: players, seats and services, each with an expiry (JWT, HS256)."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from enum import StrEnum

import jwt

from menagerie.rules.errors import PermissionDenied, Unauthenticated

ISSUER = "menagerie"
_ALGORITHM = "HS256"
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
    """Issues and verifies tokens with one shared secret.

    Clients send the same token on every call, so verified tokens are remembered
    (until they expire) rather than re-verified each time.
    """

    def __init__(self, secret: str, cache_size: int = 10_000) -> None:
        self._secret = secret
        self._verified: dict[str, Principal] = {}
        self._cache_size = cache_size

    def _issue(self, claims: dict[str, object], ttl_seconds: int) -> tuple[str, int]:
        now = int(time.time())
        expires_at = now + ttl_seconds
        payload = {"iss": ISSUER, "iat": now, "exp": expires_at, **claims}
        return jwt.encode(payload, self._secret, algorithm=_ALGORITHM), expires_at

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
        known = self._verified.get(token)
        if known is not None and known.expires_at > time.time():
            return known
        principal = self._decode(token)
        if len(self._verified) >= self._cache_size:
            del self._verified[next(iter(self._verified))]
        self._verified[token] = principal
        return principal

    def _decode(self, token: str) -> Principal:
        try:
            claims = jwt.decode(
                token,
                self._secret,
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
        return Principal(
            kind=kind,
            subject=str(claims["sub"]),
            name=str(claims.get("name", "")),
            expires_at=int(claims["exp"]),
            match_id=claims.get("mid"),
            seat=seat,
            bot=claims.get("bot") is True,
        )
