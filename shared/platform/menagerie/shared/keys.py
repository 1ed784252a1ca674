"""Ed25519 token keys as JWK files: one private key per issuer, one set of trusted public keys.

A process that issues tokens reads its private key (MENAGERIE_SIGNING_KEY_FILE: one JWK with
its `kid`); every process reads the public keys it trusts (MENAGERIE_VERIFY_KEYS_FILE: a JWK
set). Each public key carries `grants`, what its holder may sign, so a verifier refuses a
token its key was never meant to sign:

    player          player tokens (the lobby)
    seat            seat tokens (the lobby at ResumeSeat, the game services at CreateMatch)
    bot-seat        seat tokens marked `bot` only (the bot workers)
    service         service credentials of any subject (operators, tests)
    service:NAME    service credentials of subject NAME only (service:lobby, service:gateway)

Both files are read again when they change (checked at most once a second), so a key rotates
without a restart: add the new public key to the set, switch the issuer's file, drop the old
key once the tokens it signed have expired or should be refused. Holders of long-lived
credentials (the lobby's service credential) sign them again when their key's kid changes.

`python -m menagerie.shared.keys generate DIR` makes a platform's keys (one per issuer of
ROLE_GRANTS, and the verifying set); `rotate DIR ROLE` and `drop DIR KID` rotate one.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from jwt.algorithms import OKPAlgorithm

GRANTS = ("player", "seat", "bot-seat", "service")
# What each issuer of a platform made by `generate` may sign (deploy/local/run.py, the tests).
ROLE_GRANTS: dict[str, tuple[str, ...]] = {
    "lobby": ("player", "seat", "service:lobby"),
    "games": ("seat",),
    "bots": ("bot-seat",),
    "gateway": ("service:gateway",),
}
VERIFY_FILE = "verify-keys.json"
RELOAD_CHECK_SECONDS = 1.0

T = TypeVar("T")


def _valid_grant(grant: str) -> bool:
    return grant in GRANTS or (grant.startswith("service:") and len(grant) > len("service:"))


@dataclass(frozen=True, slots=True)
class SigningKey:
    """An issuer's private key and the id its tokens name."""

    kid: str
    key: Ed25519PrivateKey


@dataclass(frozen=True, slots=True)
class VerifyingKey:
    """A trusted public key and what its holder may sign."""

    kid: str
    key: Ed25519PublicKey
    grants: frozenset[str]

    def may_sign(self, kind: str, subject: str, bot: bool) -> bool:
        """Whether a token of `kind` for `subject` (a bot's seat or not) may carry this key's signature."""
        if kind == "seat":
            return "seat" in self.grants or (bot and "bot-seat" in self.grants)
        if kind == "service":
            return "service" in self.grants or f"service:{subject}" in self.grants
        return kind in self.grants


def new_key(kid: str) -> tuple[dict[str, Any], Ed25519PublicKey]:
    """A fresh private JWK named `kid`, and its public key."""
    private = Ed25519PrivateKey.generate()
    jwk: dict[str, Any] = {**OKPAlgorithm.to_jwk(private, as_dict=True), "kid": kid}
    return jwk, private.public_key()


def public_jwk(kid: str, key: Ed25519PublicKey, grants: Iterable[str]) -> dict[str, Any]:
    """The public JWK of a verifying key set, with what its holder may sign."""
    chosen = sorted(set(grants))
    bad = [grant for grant in chosen if not _valid_grant(grant)]
    if bad or not chosen:
        raise ValueError(f"grants must be among {', '.join(GRANTS)} or service:NAME, not {bad or 'none'}")
    return {**OKPAlgorithm.to_jwk(key, as_dict=True), "kid": kid, "grants": chosen}


def parse_signing_key(text: str) -> SigningKey:
    """The private key of a JWK (with its kid)."""
    jwk = json.loads(text)
    kid = jwk.get("kid") if isinstance(jwk, dict) else None
    if not isinstance(kid, str) or not kid:
        raise ValueError("a signing key is a JWK with a kid")
    key = OKPAlgorithm.from_jwk(jwk)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"key {kid} is not an Ed25519 private key")
    return SigningKey(kid, key)


def parse_verifying_keys(text: str) -> dict[str, VerifyingKey]:
    """kid -> trusted public key, from a JWK set whose keys carry their grants."""
    document = json.loads(text)
    entries = document.get("keys") if isinstance(document, dict) else None
    if not isinstance(entries, list):
        raise ValueError('a verifying key set is a JWK set: {"keys": [...]}')
    keys: dict[str, VerifyingKey] = {}
    for jwk in entries:
        kid, grants = jwk.get("kid"), jwk.get("grants")
        if not isinstance(kid, str) or not kid or kid in keys:
            raise ValueError(f"every key needs a kid of its own (got {kid!r})")
        if not isinstance(grants, list) or not grants or not all(_valid_grant(g) for g in grants):
            raise ValueError(f"key {kid}: grants must list some of {', '.join(GRANTS)} or service:NAME")
        key = OKPAlgorithm.from_jwk({k: v for k, v in jwk.items() if k != "d"})
        if not isinstance(key, Ed25519PublicKey):
            raise ValueError(f"key {kid} is not an Ed25519 public key")
        keys[kid] = VerifyingKey(kid, key, frozenset(grants))
    return keys


class WatchedFile(Generic[T]):
    """A file parsed once, and again when it changes (looked at at most every RELOAD_CHECK_SECONDS).

    A changed file that does not parse (half written) leaves the last good value in place.
    `version` grows with each reload, so callers can drop what they derived from the old value.
    """

    def __init__(self, path: str | Path, parse: Callable[[str], T]) -> None:
        self.path = Path(path)
        self._parse = parse
        self._stamp = self._stat()
        self.value = parse(self.path.read_text())
        self.version = 0
        self._checked = time.monotonic()

    def _stat(self) -> tuple[int, int, int]:
        stat = self.path.stat()
        return stat.st_mtime_ns, stat.st_size, stat.st_ino

    def current(self) -> T:
        """The value, read again first if the file changed since the last look."""
        now = time.monotonic()
        if now - self._checked >= RELOAD_CHECK_SECONDS:
            self._checked = now
            self.reload()
        return self.value

    def reload(self) -> None:
        """Reads the file again now if it changed."""
        try:
            stamp = self._stat()
            if stamp != self._stamp:
                self.value, self._stamp = self._parse(self.path.read_text()), stamp
                self.version += 1
        except (OSError, ValueError):
            pass  # keep the last good keys; the next look tries again


def write_private(path: Path, jwk: dict[str, Any]) -> None:
    """Writes a private JWK readable by its owner only (replacing any file there at once)."""
    partial = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        json.dump(jwk, out)
    partial.replace(path)


def write_public(path: Path, keys: Iterable[dict[str, Any]]) -> None:
    """Writes a verifying key set (replacing any file there at once)."""
    partial = path.with_name(f".{path.name}.{secrets.token_hex(4)}")
    partial.write_text(json.dumps({"keys": list(keys)}, indent=1))
    partial.replace(path)


def generate(directory: Path, extra: dict[str, tuple[str, ...]] | None = None) -> None:
    """Makes a platform's keys in `directory`: ROLE.jwk per issuer (0600) and the verifying set.

    `extra` adds issuers of its own, role -> grants (an operator's key: {"operator": ("service",)}).
    """
    directory.mkdir(parents=True, exist_ok=True)
    public = []
    for role, grants in {**ROLE_GRANTS, **(extra or {})}.items():
        kid = f"{role}-{secrets.token_hex(4)}"
        jwk, key = new_key(kid)
        write_private(directory / f"{role}.jwk", jwk)
        public.append(public_jwk(kid, key, grants))
    write_public(directory / VERIFY_FILE, public)


def rotate(directory: Path, role: str) -> str:
    """Gives `role` a new key, trusted beside its old one(s): returns the new kid.

    The verifiers trust the new key from their next look at the set, before the issuer's
    file is switched, so no token is ever signed by a key a verifier does not know yet.
    """
    verify_path = directory / VERIFY_FILE
    keys = json.loads(verify_path.read_text())["keys"]
    old_kid = parse_signing_key((directory / f"{role}.jwk").read_text()).kid
    grants = next(jwk["grants"] for jwk in keys if jwk["kid"] == old_kid)
    kid = f"{role}-{secrets.token_hex(4)}"
    jwk, key = new_key(kid)
    write_public(verify_path, [*keys, public_jwk(kid, key, grants)])
    time.sleep(RELOAD_CHECK_SECONDS + 0.1)  # every verifier has looked again before the switch
    write_private(directory / f"{role}.jwk", jwk)
    return kid


def drop(directory: Path, kid: str) -> None:
    """Stops trusting key `kid`: tokens it signed are refused from the verifiers' next look."""
    verify_path = directory / VERIFY_FILE
    keys = json.loads(verify_path.read_text())["keys"]
    write_public(verify_path, [jwk for jwk in keys if jwk["kid"] != kid])


def main(argv: list[str] | None = None) -> int:
    """`python -m menagerie.shared.keys generate DIR | rotate DIR ROLE | drop DIR KID`."""
    args = sys.argv[1:] if argv is None else argv
    match args:
        case ["generate", directory]:
            generate(Path(directory))
            print(f"keys of {', '.join(ROLE_GRANTS)} and {VERIFY_FILE} written to {directory}")
        case ["rotate", directory, role]:
            print(rotate(Path(directory), role))
        case ["drop", directory, kid]:
            drop(Path(directory), kid)
        case _:
            print(main.__doc__, file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
