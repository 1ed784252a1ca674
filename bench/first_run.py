"""`make bench-first-run`: a newcomer's first `make run`, a warm restart and Ctrl-C, timed (issue 30, item 9).

A fresh clone of this repository's HEAD in a temporary folder runs `make run --fresh` (no
venv, no node_modules, no web build yet) until it prints "The platform is up" (every
service SERVING, the web answering); then Ctrl-C (SIGINT to its process group, as a
terminal sends it) until every process it started is gone; then the same again with
everything installed (the warm restart). Each time is printed beside its target.

By default the package caches are empty too (uv's, pip's and npm's point into the temporary
folder), as on a laptop that never installed the project; `--warm-caches` keeps this
machine's caches (what a second clone on the same machine costs).

Usage: python -m bench.first_run [--warm-caches] [--base-port 51050] [--web-port 18080]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.stats import verdict
from menagerie.shared.lifetime import spawn

REPOSITORY = Path(__file__).resolve().parents[1]
READY = "The platform is up"
FIRST_RUN_TARGET = 180.0  # seconds from nothing to a usable platform
WARM_RESTART_TARGET = 15.0
STOP_TARGET = 5.0
LIMIT = 1_800.0  # seconds a start may take before the run gives up


@dataclass
class Run:
    """One `make run`: seconds to ready and seconds from Ctrl-C to every process gone; the steps it printed."""

    ready: float
    stopped: float
    steps: list[tuple[float, str]]


def cold_cache_env(folder: Path) -> dict[str, str]:
    """Environment variables that point uv's, pip's and npm's caches into `folder` (empty)."""
    return {
        "UV_CACHE_DIR": str(folder / "uv-cache"),
        "PIP_NO_CACHE_DIR": "1",
        "npm_config_cache": str(folder / "npm-cache"),
    }


def make_run(clone: Path, env: dict[str, str], ports: tuple[int, int], log: Path) -> Run:
    """Starts `make run` in `clone`, waits for READY, sends Ctrl-C and waits until its process group is gone."""
    base, web = ports
    args = f"ARGS=--fresh --base-port {base} --web-port {web}"
    with log.open("a") as out:
        process = spawn(
            ["make", "--no-print-directory", "run", args],
            cwd=clone,
            env=env,
            stdout=subprocess.PIPE,
            stderr=out,
            sig=signal.SIGTERM,
        )
        assert process.stdout is not None
        started = time.perf_counter()
        steps: list[tuple[float, str]] = []
        for raw in process.stdout:
            line = raw.decode(errors="replace").rstrip()
            out.write(line + "\n")
            if line.startswith(("[", "redis ", "web ")) or READY in line:
                steps.append((time.perf_counter() - started, line))
            if READY in line:
                break
            if time.perf_counter() - started > LIMIT:
                break
        ready = time.perf_counter() - started
        if not steps or READY not in steps[-1][1]:
            os.killpg(process.pid, signal.SIGKILL)
            raise RuntimeError(f"make run did not get ready (see {log})")
        started_by_it = descendants(process.pid)
        asked = time.perf_counter()
        os.killpg(process.pid, signal.SIGINT)
        for raw in process.stdout:  # drain what it prints while stopping
            out.write(raw.decode(errors="replace"))
        process.wait(timeout=120)
        while any(alive(pid) for pid in started_by_it) and time.perf_counter() - asked < 120:
            time.sleep(0.05)
        return Run(ready, time.perf_counter() - asked, steps)


def descendants(root: int) -> set[int]:
    """Every live process below `root` (the services run in sessions of their own, so not by group)."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found: set[int] = set()
    todo = [root]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie, dead but not yet collected, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def main() -> None:
    """Clone, first run, stop, warm restart, stop; the times beside their targets."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--warm-caches", action="store_true", help="keep this machine's uv, pip and npm caches")
    parser.add_argument("--base-port", type=int, default=51050)
    parser.add_argument("--web-port", type=int, default=18080)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="menagerie-first-run-") as folder:
        root = Path(folder)
        clone = root / "menagerie"
        subprocess.run(["git", "clone", "-q", str(REPOSITORY), str(clone)], check=True, timeout=300)
        env = {**os.environ, **({} if args.warm_caches else cold_cache_env(root))}
        env.pop("REDIS_URL", None)  # a newcomer has none: make run starts its embedded server
        log = root / "make-run.log"
        ports = (args.base_port, args.web_port)
        caches = "this machine's caches" if args.warm_caches else "empty package caches"
        print(f"== first run: a fresh clone of HEAD, {caches}, load average {os.getloadavg()[0]:.1f}")
        first = make_run(clone, env, ports, log)
        for at, line in first.steps:
            print(f"  {at:7.1f} s  {line}")
        warm = make_run(clone, env, ports, log)
        print(
            f"  first make run to usable     {first.ready:7.1f} s   (target ≤ {FIRST_RUN_TARGET:g})  "
            f"{verdict(first.ready <= FIRST_RUN_TARGET)}"
        )
        print(
            f"  Ctrl-C to all stopped        {first.stopped:7.1f} s   (target ≤ {STOP_TARGET:g})  "
            f"{verdict(first.stopped <= STOP_TARGET)}"
        )
        print(
            f"  warm restart to usable       {warm.ready:7.1f} s   (target ≤ {WARM_RESTART_TARGET:g})  "
            f"{verdict(warm.ready <= WARM_RESTART_TARGET)}"
        )
        print(
            f"  Ctrl-C to all stopped        {warm.stopped:7.1f} s   (target ≤ {STOP_TARGET:g})  "
            f"{verdict(warm.stopped <= STOP_TARGET)}"
        )


if __name__ == "__main__":
    main()
