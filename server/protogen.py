"""Generates the Python code of proto/*/v1/*.proto (spellbook.v1, abracadawhat.v1) into server/_gen
(`make proto`).

protoc writes absolute imports that follow the .proto paths (`from spellbook.v1 import types_pb2`); they
are rewritten to the package the code lives in (`server._gen.spellbook.v1`), so the generated modules
import cleanly without touching sys.path. tests/test_service_proto.py regenerates into a temporary
directory and fails when the checked-in code differs (needs the pinned grpcio-tools of the dev extra).
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_DIR = ROOT / "proto"
OUT_DIR = ROOT / "server" / "_gen"
PACKAGE = "server._gen"
# proto/<name>/v1: one API package per folder, found by folder (a new game's API is a new folder)
PACKAGES = tuple(sorted(p.parent.name for p in PROTO_DIR.glob("*/v1") if any(p.glob("*.proto"))))
INIT_TEXT = '"""Generated from proto/ by `make proto` (server/protogen.py). Do not edit."""\n'


def proto_files() -> list[Path]:
    return sorted(p for name in PACKAGES for p in PROTO_DIR.glob(f"{name}/v1/*.proto"))


def generate(out_dir: Path = OUT_DIR) -> list[Path]:
    """Run protoc (grpc_tools) into out_dir; returns the files written."""
    from grpc_tools import protoc  # dev dependency (grpcio-tools)
    import grpc_tools

    out_dir.mkdir(parents=True, exist_ok=True)
    include = str(Path(grpc_tools.__file__).parent / "_proto")
    files = [str(p.relative_to(PROTO_DIR)) for p in proto_files()]
    args = ["protoc", f"-I{PROTO_DIR}", f"-I{include}", f"--python_out={out_dir}", f"--pyi_out={out_dir}",
            f"--grpc_python_out={out_dir}", *files]
    if protoc.main(args) != 0:
        raise RuntimeError(f"protoc failed: {' '.join(args)}")
    written = []
    for path in sorted(out_dir.rglob("*_pb2*.py*")):
        text = path.read_text()
        names = "|".join(PACKAGES)
        fixed = re.sub(rf"^from ({names})\.v1 import", rf"from {PACKAGE}.\1.v1 import", text, flags=re.M)
        fixed = re.sub(rf"^import ({names})\.v1\.", rf"import {PACKAGE}.\1.v1.", fixed, flags=re.M)
        if fixed != text:
            path.write_text(fixed)
        written.append(path)
    for d in (out_dir, *(out_dir / name for name in PACKAGES), *(out_dir / name / "v1" for name in PACKAGES)):
        init = d / "__init__.py"
        init.write_text(INIT_TEXT)
        written.append(init)
    return written


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT_DIR
    for p in generate(out):
        print(p.relative_to(out))
