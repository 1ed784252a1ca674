"""buf keeps the protos a contract (`make lint`): buf.yaml names every folder of protos, and a break is caught.

buf comes from clients/web's lockfile (npm ci, which `make lint` runs first); without it the
breaking test is skipped.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
BUF = ROOT / "clients" / "web" / "node_modules" / ".bin" / "buf"
RELEASED = ROOT / "protos" / "released.binpb"


def modules() -> list[str]:
    """The module folders buf.yaml lists, relative to the repository."""
    config = yaml.safe_load((ROOT / "buf.yaml").read_text())
    return [module["path"] for module in config["modules"]]


def test_every_proto_folder_is_a_module() -> None:
    """buf takes no globs in buf.yaml: a game's folder of protos must be listed there by hand."""
    found = {"protos"} | {
        p.relative_to(ROOT).as_posix() for p in ROOT.glob("services/*/protos") if any(p.rglob("*.proto"))
    }
    assert sorted(found) == sorted(modules()), "buf.yaml's modules: one per folder of .proto files"
    tracked = subprocess.run(
        ["git", "ls-files", "--", "*.proto"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    outside = [p for p in tracked if not any(p.startswith(f"{m}/") for m in modules())]
    assert tracked and not outside, f"protos in no module of buf.yaml: {outside}"


def breaking(workspace: Path) -> subprocess.CompletedProcess[str]:
    """`buf breaking` of the workspace's protos against the released ones, as `make lint` runs it."""
    image = subprocess.run(
        [str(BUF), "build", "-o", "-#format=binpb"], cwd=workspace, capture_output=True, timeout=60, check=True
    ).stdout
    done = subprocess.run(
        [str(BUF), "breaking", "-#format=binpb", "--against", str(RELEASED)],
        cwd=workspace,
        input=image,
        capture_output=True,
        timeout=60,
        check=False,
    )
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


def edit(path: Path, pattern: str, replacement: str) -> None:
    """Rewrites the one match of pattern in the file (a test that edits nothing would prove nothing)."""
    text, count = re.subn(pattern, replacement, path.read_text())
    assert count == 1, f"{pattern!r} in {path}"
    path.write_text(text)


def all_but_protos(folder: str, names: list[str]) -> list[str]:
    """copytree's ignore: every file but the .proto files (protos/ holds the generated Python too)."""
    return [n for n in names if (Path(folder) / n).is_file() and not n.endswith(".proto")]


def test_a_breaking_change_is_caught(tmp_path: Path) -> None:
    """A renumbered field and a deleted enum value (its number reserved) fail against the released protos."""
    if not BUF.exists():
        pytest.skip(f"no {BUF.relative_to(ROOT)}: npm ci in clients/web (make lint runs it) installs buf")
    shutil.copy(ROOT / "buf.yaml", tmp_path)
    for module in modules():
        shutil.copytree(
            ROOT / module,
            tmp_path / module,
            ignore=all_but_protos,
        )
    unchanged = breaking(tmp_path)
    assert unchanged.returncode == 0, f"the protos as they are break the released ones:\n{unchanged.stdout}"

    edit(tmp_path / "protos/menagerie/common/v1/common.proto", r"string title = 7;", "string title = 8;")
    edit(
        tmp_path / "services/zoo/protos/menagerie/zoo/v1/zoo.proto",
        r"HABITAT_DESERT = 3;",
        'reserved 3; reserved "HABITAT_DESERT";',
    )
    broken = breaking(tmp_path)
    assert broken.returncode != 0
    assert 'field "7" with name "title" on message "Prompt" was deleted' in broken.stdout, broken.stdout
    assert 'enum value "3" on enum "Habitat" was deleted' in broken.stdout, broken.stdout
