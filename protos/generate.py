"""Generates the Python code for every .proto under protos/ (used by `make protos`).

Usage: python protos/generate.py [OUTPUT_DIR]   (default: protos/python)
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

from grpc_tools import protoc

PROTO_ROOT = Path(__file__).resolve().parent
DEFAULT_OUTPUT = PROTO_ROOT / "python"


def proto_files() -> list[Path]:
    """Every .proto file of the project, in a stable order."""
    return sorted((PROTO_ROOT / "menagerie").rglob("*.proto"))


def generate(output: Path) -> None:
    """Writes *_pb2.py, *_pb2_grpc.py and their .pyi stubs under `output`."""
    output.mkdir(parents=True, exist_ok=True)
    well_known = resources.files("grpc_tools") / "_proto"
    # The mypy plugins are console scripts installed beside this interpreter.
    scripts = Path(sys.executable).parent
    args = [
        "grpc_tools.protoc",
        f"--plugin=protoc-gen-mypy={scripts / 'protoc-gen-mypy'}",
        f"--plugin=protoc-gen-mypy_grpc={scripts / 'protoc-gen-mypy_grpc'}",
        f"-I{PROTO_ROOT}",
        f"-I{well_known}",
        f"--python_out={output}",
        f"--grpc_python_out={output}",
        f"--mypy_out={output}",
        f"--mypy_grpc_out={output}",
        *(str(p.relative_to(PROTO_ROOT)) for p in proto_files()),
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    for package_dir in {p.parent for p in (output / "menagerie").rglob("*_pb2.py")}:
        # Regular packages only at the leaf (…/v1): `menagerie` and `menagerie/<game>`
        # stay namespace packages so engines and services can live beside them.
        (package_dir / "__init__.py").touch()
        (package_dir / "py.typed").touch()


if __name__ == "__main__":
    generate(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUTPUT)
