"""The token keys `make run` gives its processes: a folder kept between runs (or new for one), and each
process's settings naming the verifying set and only its own issuer's private key."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from menagerie.shared.keys import ROLE_GRANTS, VERIFY_FILE, generate


def token_keys(directory: Path | None) -> tuple[Path, str]:
    """(keys folder, what it is): `directory` as it is if it holds keys, else made there now, else a new one.

    A new folder is generated beside `directory` and renamed into place, so two runs starting
    at once never each keep different keys.
    """
    if directory is None:
        fresh = Path(tempfile.mkdtemp(prefix="menagerie-keys-"))
        generate(fresh)
        return fresh, "new for this run (--fresh: tokens end with them)"
    if (directory / VERIFY_FILE).exists():
        missing = [role for role in ROLE_GRANTS if not (directory / f"{role}.jwk").exists()]
        if missing:
            raise RuntimeError(f"{directory} holds no key for {', '.join(missing)}; delete it to make new keys")
        return directory, f"{directory} (player and seat tokens stay valid across restarts)"
    directory.parent.mkdir(parents=True, exist_ok=True)
    made = Path(tempfile.mkdtemp(prefix=f".{directory.name}-", dir=directory.parent))
    generate(made)
    try:
        made.rename(directory)  # fails if another run put its keys there first (or the folder is not empty)
    except OSError:
        shutil.rmtree(made, ignore_errors=True)
        if not (directory / VERIFY_FILE).exists():
            what = f"{directory} holds no {VERIFY_FILE} and is not empty"
            raise RuntimeError(f"{what}; name another --keys-dir") from None
        return token_keys(directory)
    return directory, f"{directory} (made now; player and seat tokens stay valid across restarts)"


def key_env(directory: Path, role: str) -> dict[str, str]:
    """The token settings of a process holding `role`'s key ("": verifying only)."""
    env = {"MENAGERIE_VERIFY_KEYS_FILE": str(directory / VERIFY_FILE), "MENAGERIE_SIGNING_KEY_FILE": ""}
    if role:
        env["MENAGERIE_SIGNING_KEY_FILE"] = str(directory / f"{role}.jwk")
    return env
