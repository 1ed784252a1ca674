"""Generates the Python code of every .proto file (used by `make protos`).

The platform's own protos (common, lobby) live under protos/ and generate into
protos/python; each game keeps its proto in its own folder,
services/<game>/protos/menagerie/<game>/v1/<game>.proto, generated beside its engine
into services/<game>/menagerie/<game>/v1.

Usage: python protos/generate.py [OUTPUT_ROOT]   (default: the repository; a test
generates into a temporary folder and compares)
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path

from grpc_tools import protoc

REPOSITORY = Path(__file__).resolve().parents[1]
PLATFORM_PROTOS = REPOSITORY / "protos"


def proto_roots() -> dict[Path, Path]:
    """Each folder of .proto files -> where its code goes, relative to the repository."""
    roots = {Path("protos"): Path("protos/python")}
    for game in sorted((REPOSITORY / "services").glob("*/protos")):
        roots[game.relative_to(REPOSITORY)] = game.parent.relative_to(REPOSITORY)
    return roots


def generate(output_root: Path = REPOSITORY) -> list[Path]:
    """Writes *_pb2.py, *_pb2_grpc.py, their .pyi stubs and *_connect.py; returns the folders written to."""
    well_known = resources.files("grpc_tools") / "_proto"
    # The mypy plugins are console scripts installed beside this interpreter.
    scripts = Path(sys.executable).parent
    written = []
    for source, target in proto_roots().items():
        output = output_root / target
        output.mkdir(parents=True, exist_ok=True)
        protos = sorted((REPOSITORY / source / "menagerie").rglob("*.proto"))
        args = [
            "grpc_tools.protoc",
            f"--plugin=protoc-gen-mypy={scripts / 'protoc-gen-mypy'}",
            f"--plugin=protoc-gen-mypy_grpc={scripts / 'protoc-gen-mypy_grpc'}",
            # The Connect (HTTP) side of each service, for the gateway (services/gateway).
            f"--plugin=protoc-gen-connect-python={scripts / 'protoc-gen-connect-python'}",
            f"-I{REPOSITORY / source}",
            f"-I{PLATFORM_PROTOS}",
            f"-I{well_known}",
            f"--python_out={output}",
            f"--grpc_python_out={output}",
            f"--mypy_out={output}",
            f"--mypy_grpc_out={output}",
            f"--connect-python_out={output}",
            *(str(p.relative_to(REPOSITORY / source)) for p in protos),
        ]
        if protoc.main(args) != 0:
            raise SystemExit(f"protoc failed on {source}")
        for proto in protos:
            # Regular packages only at the leaf (…/v1): `menagerie` and `menagerie/<game>`
            # stay namespace packages so engines and services can live beside them.
            package_dir = output / proto.relative_to(REPOSITORY / source).parent
            (package_dir / "__init__.py").touch()
            (package_dir / "py.typed").touch()
            written.append(package_dir)
    return sorted(set(written))


if __name__ == "__main__":
    generate(Path(sys.argv[1]) if len(sys.argv) > 1 else REPOSITORY)
