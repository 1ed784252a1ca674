"""The gateway's service credential and the client it names, sent with every call it relays.

The backends' interceptor (menagerie.shared.rpc.relay) keys the budgets of anonymous calls
by the client named here, and believes it only with this credential. The credential is
signed here, with the gateway's own key (MENAGERIE_SIGNING_KEY_FILE, trusted by the backends
for the subject `gateway` only), and signed again a quarter of its lifetime
before it expires, or at once when the key is rotated (its kid changes), so that no
credential of the old key is in use once the old key is dropped; it rides in its own
metadata key, never as the call's authorization.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from menagerie.shared.rpc.relay import RELAY_CLIENT, RELAY_SUBJECT, RELAY_TOKEN
from menagerie.shared.tokens import TokenSigner

CREDENTIAL_SECONDS = 3600


class RelayCredential:
    """What the gateway adds to a relayed call's metadata: its credential and the client's address."""

    def __init__(
        self, signer: TokenSigner, ttl_seconds: int = CREDENTIAL_SECONDS, clock: Callable[[], float] = time.time
    ) -> None:
        self._signer = signer
        self._ttl = ttl_seconds
        self._clock = clock
        self._token = ""
        self._renew_at = 0.0
        self._kid = ""  # the key that signed the credential

    def _current(self) -> str:
        kid = self._signer.signing_kid()
        if self._clock() >= self._renew_at or kid != self._kid:
            self._token, expires_at = self._signer.issue_service(RELAY_SUBJECT, self._ttl)
            self._renew_at, self._kid = expires_at - self._ttl / 4, kid
        return self._token

    def metadata(self, client: str | None) -> tuple[tuple[str, str], ...]:
        """The credential, and the client's address when it is known."""
        credential = ((RELAY_TOKEN, self._current()),)
        return (*credential, (RELAY_CLIENT, client)) if client else credential
