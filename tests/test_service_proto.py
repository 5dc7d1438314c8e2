"""The checked-in generated code matches proto/ (regenerate with `make proto`)."""
from pathlib import Path

import pytest

from server import protogen

pytest.importorskip("grpc_tools")


def test_generated_code_is_fresh(tmp_path: Path):
    protogen.generate(tmp_path)
    fresh = {p.relative_to(tmp_path): p.read_text() for p in tmp_path.rglob("*.py*")}
    checked_in = {p.relative_to(protogen.OUT_DIR): p.read_text() for p in protogen.OUT_DIR.rglob("*.py*")}
    assert set(fresh) == set(checked_in), "generated files differ: run `make proto` and commit"
    stale = [str(name) for name, text in fresh.items() if checked_in[name] != text]
    assert not stale, f"stale generated code {stale}: run `make proto` and commit"


def test_every_rpc_has_its_own_messages_and_every_field_is_documented():
    from server._gen.spellbook.v1 import service_pb2

    svc = service_pb2.DESCRIPTOR.services_by_name["SpellBookService"]
    inputs = [m.input_type.full_name for m in svc.methods]
    outputs = [m.output_type.full_name for m in svc.methods]
    assert len(set(inputs)) == len(inputs) and len(set(outputs)) == len(outputs)
    for m in svc.methods:
        assert m.input_type.name == m.name + "Request" and m.output_type.name == m.name + "Response"
    # Every field has its own comment: on the line above or at the end of its line.
    for proto in protogen.proto_files():
        lines = proto.read_text().splitlines()
        for i, line in enumerate(lines):
            s = line.strip()
            is_field = s.endswith(";") and "=" in s and not s.startswith(("option", "//", "syntax", "package"))
            if is_field:
                assert "//" in s or lines[i - 1].strip().startswith("//"), f"{proto.name}:{i + 1} undocumented: {s}"
