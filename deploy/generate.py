"""Writes the deploy files that name games from deploy/games.toml (used by `make deploy-files`).

Generated: docker-compose.yml, deploy/compose.secure.yml (the same with TLS and Redis
users), deploy/compose.web.yml (the gateway and the web app, over docker-compose.yml),
and in deploy/k8s/base, the kustomize base: config.yaml (where the game services are),
<game>.yaml for each row and kustomization.yaml (every manifest of the base); and the
overlay deploy/k8s/secure (TLS and Redis users over deploy/k8s/web). The templates live in
deploy/compose_files.py (the compose files) and deploy/k8s_files.py (the manifests); this
module renders them, writes them and removes stale ones. The platform's own processes
(Redis, the lobby, the dispatcher, the bot workers) are templates for compose and
hand-written manifests in deploy/k8s/base (they name no game); the pod hardening every
manifest shares is deploy/k8s_parts.py. The files are committed;
tests/unit/test_deploy_files.py fails when they are stale.

Usage: python deploy/generate.py [OUTPUT_ROOT]   (default: the repository; a test
generates into a temporary folder and compares)
"""

from __future__ import annotations

import sys
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
# Run as a script, deploy/ is not importable as a package yet; the table's reader is deploy/games.py.
if str(REPOSITORY) not in sys.path:
    sys.path.insert(0, str(REPOSITORY))

from deploy.compose_files import GENERATED, compose, secure_compose, web_compose  # noqa: E402
from deploy.games import TABLE, GameRow, load  # noqa: E402
from deploy.k8s_files import k8s_config, k8s_game, k8s_kustomization, secure_k8s  # noqa: E402

K8S = Path("deploy/k8s/base")
COMPOSE = Path("docker-compose.yml")
SECURE_COMPOSE = Path("deploy/compose.secure.yml")
WEB_COMPOSE = Path("deploy/compose.web.yml")
SECURE_K8S = Path("deploy/k8s/secure/kustomization.yaml")
K8S_BASE = K8S / "kustomization.yaml"


def render(rows: list[GameRow]) -> dict[Path, str]:
    """Every generated file (relative to the repository) and its text."""
    files = {COMPOSE: compose(rows), SECURE_COMPOSE: secure_compose(rows), K8S / "config.yaml": k8s_config(rows)}
    files[WEB_COMPOSE] = web_compose(rows)
    files.update({K8S / f"{row.id}.yaml": k8s_game(row) for row in rows})
    files[K8S_BASE] = k8s_kustomization(rows)
    files[SECURE_K8S] = secure_k8s(rows)
    return files


def is_generated(path: Path) -> bool:
    """Whether the file at `path` was written by this generator (it starts with the marker)."""
    with path.open() as source:
        return source.readline().rstrip("\n") == GENERATED


def stale_files(output_root: Path, files: dict[Path, str]) -> list[Path]:
    """Generated files under `output_root` that the table no longer produces (a game's row was removed)."""
    folder = output_root / K8S
    candidates = sorted(folder.glob("*.yaml")) if folder.is_dir() else []
    return [p for p in candidates if p.relative_to(output_root) not in files and is_generated(p)]


def generate(output_root: Path = REPOSITORY, table: Path = TABLE) -> list[Path]:
    """Writes the generated files under `output_root`, removes stale ones; returns the paths written."""
    files = render(load(table))
    for stale in stale_files(output_root, files):
        stale.unlink()
    written = []
    for relative, content in files.items():
        path = output_root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)
        written.append(path)
    return written


if __name__ == "__main__":
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else REPOSITORY
    for path in generate(root):
        print(path.relative_to(root))
