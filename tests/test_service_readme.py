"""The README's client examples run as written (against a test server instead of 127.0.0.1:50051)."""
import contextlib
import io
import re
from pathlib import Path

from server.main import ServerConfig, ServerThread

README = Path(__file__).resolve().parent.parent / "README.md"


def test_readme_client_examples_run():
    text = README.read_text().split("### Python client", 1)[1]
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) == 3
    with ServerThread(ServerConfig(address="127.0.0.1:0")) as srv:
        for code in blocks:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(code.replace("127.0.0.1:50051", f"127.0.0.1:{srv.port}"), "README.md", "exec"), {})
            assert out.getvalue().strip()
