"""The code as it was and as it is: the mcts section's measures, each side in a child process, in one run.

An issue's "from today's" figure is measured, not quoted: the packages of BASELINE_COMMIT
(shared/ and services/) are exported with `git archive` into a temporary folder, and
bench.probe runs in a child process whose import path holds them and the libraries, not
today's packages, so the earlier engines, contract and search answer the same jobs as
today's code, which answers them in a child process of the same kind. Each child answers one
job at a time, so the section alternates the two sides (a machine whose load changes weighs
on both alike). A child reports the files it runs first; one that did not import the code it
was meant to is refused rather than measured.
"""

from __future__ import annotations

import json
import os
import select
import site
import subprocess
import sys
import tempfile
from pathlib import Path
from types import TracebackType
from typing import Any

from menagerie.shared.lifetime import spawn, stop_group

REPOSITORY = Path(__file__).resolve().parents[1]
# main when issue 28 was filed (platform v3's procedure model and Snitch's split not yet begun):
# the code behind the "from 41 and 1,725" iterations a second.
BASELINE_COMMIT = "3ce7957"
TIMEOUT = 120.0  # seconds one job may take (the longest, a 1 s search, takes about a second)


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


class Probe:
    """bench.probe in a child process answering jobs one at a time (a context manager): today's code, or `commit`'s."""

    def __init__(self, commit: str | None = None) -> None:
        self.commit = commit
        self._folder: tempfile.TemporaryDirectory[str] | None = None
        self._child: subprocess.Popen[bytes] | None = None

    @property
    def name(self) -> str:
        """The commit measured, or "today's code"."""
        return self.commit or "today's code"

    def __enter__(self) -> Probe:
        try:
            self._start()
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _start(self) -> None:
        argv, env, root = [sys.executable, "-m", "bench.probe"], dict(os.environ), REPOSITORY
        if self.commit is not None:
            self._folder = tempfile.TemporaryDirectory(prefix="menagerie-baseline-")
            root = Path(self._folder.name)
            packages = export(self.commit, root)
            # Only the earlier packages, the repository (for the bench package itself) and the libraries:
            # with -S no .pth file runs, so today's editable installs are not on the path at all.
            env["PYTHONPATH"] = os.pathsep.join([*map(str, packages), str(REPOSITORY), *site.getsitepackages()])
            argv.insert(1, "-S")
        else:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPOSITORY), env.get("PYTHONPATH", "")]))
        self._child = spawn(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        files: list[str] = self._answer()["files"]
        strays = [f for f in files if not f.startswith(str(root))]
        if strays:
            raise Unavailable(f"the probe on {self.name} imported other code: {strays}")

    def ask(self, job: dict[str, Any]) -> dict[str, Any]:
        """bench.probe's figures for one job, measured by the child."""
        assert self._child is not None and self._child.stdin is not None, "used outside its with block"
        self._child.stdin.write(json.dumps(job).encode() + b"\n")
        self._child.stdin.flush()
        return self._answer()

    def _answer(self) -> dict[str, Any]:
        """The child's next line, waited for at most TIMEOUT."""
        assert self._child is not None and self._child.stdout is not None
        ready, _, _ = select.select([self._child.stdout], [], [], TIMEOUT)
        line = self._child.stdout.readline() if ready else b""
        if not line:
            raise Unavailable(f"the probe on {self.name} stopped or did not answer within {TIMEOUT:g} s")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._child is not None:
            stop_group(self._child, timeout=5.0)
            for pipe in (self._child.stdin, self._child.stdout):
                if pipe is not None:
                    pipe.close()
            self._child = None
        if self._folder is not None:
            self._folder.cleanup()
            self._folder = None
