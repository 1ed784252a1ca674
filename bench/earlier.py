"""The code as it was: the mcts section's measures run on an earlier commit's engines, in this same run.

An issue's "from today's" figure is measured, not quoted: the packages of BASELINE_COMMIT
(shared/ and services/) are exported with `git archive` into a temporary folder, and
bench.probe runs in a child process whose import path holds them and the libraries, not
today's packages, so the earlier engines, contract and search answer the same jobs as
today's code, on the same machine, a minute apart. The child reports the files it ran; a
run that did not import the earlier code is refused rather than printed as a baseline.
"""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from menagerie.shared.lifetime import spawn

REPOSITORY = Path(__file__).resolve().parents[1]
# main when issue 28 was filed (platform v3's procedure model and Snitch's split not yet begun):
# the code behind the "from 41 and 1,725" iterations a second.
BASELINE_COMMIT = "3ce7957"
TIMEOUT = 600.0  # seconds the child may take: its jobs add up to about a minute


class Unavailable(RuntimeError):
    """The earlier commit cannot be measured here (no git history, a package that no longer imports)."""


def export(commit: str, into: Path) -> list[Path]:
    """The package folders of `commit` (shared/*, services/*) written under `into`."""
    archive = subprocess.run(
        ["git", "-C", str(REPOSITORY), "archive", commit, "shared", "services"],
        capture_output=True,
        timeout=60,
        check=False,
    )
    if archive.returncode != 0:
        raise Unavailable(f"git archive {commit}: {archive.stderr.decode().strip()}")
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, timeout=60, check=True)
    return sorted(p.parent for p in into.glob("*/*/pyproject.toml"))


def measure(jobs: list[dict[str, Any]], commit: str = BASELINE_COMMIT) -> list[dict[str, Any]]:
    """bench.probe's figures for `jobs`, measured on `commit`'s code in a child process."""
    with tempfile.TemporaryDirectory(prefix="menagerie-baseline-") as folder:
        root = Path(folder)
        packages = export(commit, root)
        # Only the earlier packages, the repository (for the bench package itself) and the libraries:
        # with -S no .pth file runs, so today's editable installs are not on the path at all.
        path = ":".join([*map(str, packages), str(REPOSITORY), *site.getsitepackages()])
        child = spawn(
            [sys.executable, "-S", "-m", "bench.probe"],
            env={**os.environ, "PYTHONPATH": path},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        out, err = child.communicate(json.dumps(jobs).encode(), timeout=TIMEOUT)
        if child.returncode != 0:
            raise Unavailable(f"the probe failed on {commit}: {err.decode().strip().splitlines()[-1:]}")
        answer = json.loads(out)
        strays = [f for f in answer["files"] if not f.startswith(folder)]
        if strays:
            raise Unavailable(f"the probe on {commit} imported today's code: {strays}")
        results: list[dict[str, Any]] = answer["results"]
        return results
