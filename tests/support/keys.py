"""A platform's token keys for the tests: generated once per test process in a throwaway folder."""

from __future__ import annotations

import atexit
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from menagerie.shared.keys import VERIFY_FILE, generate
from menagerie.shared.tokens import TokenSigner

# The tests' own issuer: it may sign every kind of token, as an operator's tool would need.
TESTS_ROLE = "tests"
TESTS_GRANTS = ("player", "seat", "service")
# Which issuer's key each process of the platform holds (the dispatcher holds none).
MODULE_ROLES = {
    "menagerie.lobby": "lobby",
    "menagerie.shared.games": "games",
    "menagerie.bots.worker": "bots",
    "menagerie.gateway": "gateway",
}


@dataclass(frozen=True)
class KeyDir:
    """A folder of keys made by menagerie.shared.keys.generate, plus the tests' own."""

    directory: Path

    @classmethod
    def generate(cls, directory: Path | None = None) -> KeyDir:
        """New keys in `directory` (None: a temporary folder removed when the process exits)."""
        if directory is None:
            directory = Path(tempfile.mkdtemp(prefix="menagerie-keys-"))
            atexit.register(shutil.rmtree, directory, True)
        generate(directory, {TESTS_ROLE: TESTS_GRANTS})
        return cls(directory)

    @property
    def verify_file(self) -> Path:
        """The verifying key set every process trusts."""
        return self.directory / VERIFY_FILE

    def signing_file(self, role: str) -> Path:
        """The private key of issuer `role`."""
        return self.directory / f"{role}.jwk"

    def signer(self, role: str = TESTS_ROLE) -> TokenSigner:
        """A signer holding `role`'s key and trusting the set."""
        return TokenSigner.from_files(self.verify_file, self.signing_file(role))

    def env(self, module: str = "") -> dict[str, str]:
        """The key settings of the process `python -m module` (its issuer's key, if it has one)."""
        env = {"MENAGERIE_VERIFY_KEYS_FILE": str(self.verify_file)}
        if role := MODULE_ROLES.get(module):
            env["MENAGERIE_SIGNING_KEY_FILE"] = str(self.signing_file(role))
        return env


KEYS = KeyDir.generate()
