"""The complexity gate of `make lint`: no function of an engine, its words, the rules contract or the search above 25.

Cyclomatic complexity as radon counts it (each branch, loop, boolean operator and `case`
adds one). Engines and their text are where a rule hides in a long chain of cases, so the
gate covers every module under services/<game>/menagerie/<game>/engine and shared/rules (and the
search, shared/search, which every game's `mcts` level runs).
A function may exceed it only when named in ALLOWED with the reason.

Usage: python -m tests.support.complexity   (exit 1 and a list of offenders when any)
"""

from __future__ import annotations

import sys
from pathlib import Path

from radon.complexity import cc_visit  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 25
SCOPE = (
    "services/*/menagerie/*/engine/**/*.py",
    "shared/rules/menagerie/rules/**/*.py",
    "shared/search/menagerie/search/**/*.py",
)
# "path:Class.method" -> why it may stay above the limit. Keep this short.
ALLOWED: dict[str, str] = {}


def offenders(source: str, where: str, limit: int = LIMIT) -> list[str]:
    """Every function or method of `source` above `limit`, as "where:Name (complexity)"."""
    found = []
    for block in cc_visit(source):
        if block.complexity > limit:
            name = f"{block.classname}.{block.name}" if getattr(block, "classname", None) else block.name
            found.append(f"{where}:{name} ({block.complexity})")
    return found


def scan(root: Path = ROOT) -> list[str]:
    """The offenders of every module in scope that ALLOWED does not name."""
    found: list[str] = []
    for pattern in SCOPE:
        for module in sorted(root.glob(pattern)):
            found += offenders(module.read_text(), str(module.relative_to(root)))
    return [entry for entry in found if entry.rsplit(" (", 1)[0] not in ALLOWED]


def main() -> int:
    """Prints the offenders and returns 1 when there are any."""
    found = scan()
    for entry in found:
        print(f"cyclomatic complexity above {LIMIT}: {entry}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
