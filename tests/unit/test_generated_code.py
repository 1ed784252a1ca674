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
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_generated_code_is_up_to_date(tmp_path: Path) -> None:
    generator = load_generator()
    generator.generate(tmp_path)  # type: ignore[attr-defined]
    committed = tree(ROOT / "protos" / "python" / "menagerie")
    fresh = tree(tmp_path / "menagerie")
    stale = sorted(name for name in committed.keys() | fresh.keys() if committed.get(name) != fresh.get(name))
    assert not stale, f"generated code is stale, run `make protos`: {stale}"
