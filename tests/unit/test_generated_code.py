"""The committed protobuf code matches the .proto files (run `make protos` when this fails)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_generator() -> object:
    spec = importlib.util.spec_from_file_location("generate", ROOT / "protos" / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def tree(root: Path) -> dict[str, bytes]:
    """Every file under `root` by its relative path, but Python's bytecode caches (`make bytecode` writes them)."""
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.relative_to(root).parts
    }


def test_generated_code_is_up_to_date(tmp_path: Path) -> None:
    generator = load_generator()
    folders = generator.generate(tmp_path)  # type: ignore[attr-defined]
    assert folders, "no .proto files were found"
    stale = []
    for fresh_dir in folders:
        committed = tree(ROOT / fresh_dir.relative_to(tmp_path))
        fresh = tree(fresh_dir)
        stale += [
            f"{fresh_dir.relative_to(tmp_path)}/{n}"
            for n in committed.keys() | fresh.keys()
            if committed.get(n) != fresh.get(n)
        ]
    assert not stale, f"generated code is stale, run `make protos`: {sorted(stale)}"
