"""The committed TypeScript code (clients/web/src/gen) matches the .proto files (`make web-protos` when this fails)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest_plugins = ["tests.e2e.web.fixtures"]

ROOT = Path(__file__).resolve().parents[3]
WEB = ROOT / "clients" / "web"


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.usefixtures("web_app")  # `make web`: npm ci, so protoc-gen-es is there
def test_the_generated_typescript_is_up_to_date(tmp_path: Path) -> None:
    subprocess.run(
        [str(WEB / "scripts" / "generate.sh"), str(tmp_path)],
        check=True,
        capture_output=True,
        env={**os.environ, "PYTHON": sys.executable},
    )
    fresh, committed = tree(tmp_path), tree(WEB / "src" / "gen")
    assert fresh, "no TypeScript was generated"
    stale = sorted(n for n in fresh.keys() | committed.keys() if fresh.get(n) != committed.get(n))
    assert not stale, f"clients/web/src/gen is stale, run `make web-protos`: {stale}"
